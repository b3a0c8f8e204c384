"""Every command and code block of the tutorials, the how-to guides, the reference pages and the
README runs, and prints what the page says (``tests/docs/blocks.py`` says how blocks are marked): the pages
cannot drift from the program."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from tests.docs.blocks import ROOT, blocks, is_slow, runnable, Page

#: the pages whose marked blocks run
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs" / "tutorials").glob("*.md"),
                *(ROOT / "docs" / "how-to").glob("*.md"), *(ROOT / "docs" / "reference").glob("*.md")])


def _param(path):
    marks = [pytest.mark.slow] if is_slow(path) else []
    return pytest.param(path, id=str(path.relative_to(ROOT)), marks=marks)


@pytest.fixture
def folder():
    """An empty folder that other users may enter (pytest's own are the owner's alone): an
    isolated bot runs as a user of its own when the arena runs as root, and must reach its file."""
    path = Path(tempfile.mkdtemp(prefix="arena-docs-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.parametrize("path", [_param(p) for p in PAGES if runnable(p)])
def test_page_runs(path, folder):
    Page(path, folder).run()


@pytest.mark.parametrize("path", sorted((ROOT / "docs" / "tutorials").glob("*.md")),
                         ids=lambda p: p.name)
def test_every_tutorial_block_runs(path):
    """A tutorial's blocks are all run (``run``) or checked as output (``output``, and the
    output lines of a console block)."""
    loose = [f"{path.name}:{b.line} ({b.language or 'no language'})" for b in blocks(path)
             if not {"run", "output"} & b.classes]
    assert loose == [], f"blocks of a tutorial that no test runs: {loose}; mark them {{.run}}"
