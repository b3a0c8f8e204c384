"""The documentation build of the README's test command fails on a broken link: in a copy of
the docs, the build passes untouched and fails once a link to a missing page and one to a
missing anchor are planted (``mkdocs build --strict -q`` exited 0 on warnings: ``-q`` hid them,
and strict mode then counted none)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.blocks import ROOT, blocks, commands

pytestmark = pytest.mark.slow  # two builds of the site


def readme_docs_build() -> list[str]:
    """The ``mkdocs ...`` step of the README's test command, as arguments."""
    test_command = next(c.text for b in blocks(ROOT / "README.md") if b.language == "console" and "run" not in b.classes
                        for c in commands(b) if "pytest" in c.text)
    steps = [shlex.split(step) for step in test_command.split(" && ")]
    return next(step for step in steps if step[0] == "mkdocs")


def build(folder: Path) -> subprocess.CompletedProcess:
    pytest.importorskip("mkdocs", reason="the docs extra: pip install -e '.[docs]'")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
           "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", *readme_docs_build()], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=600)


def test_the_readme_s_docs_build_fails_on_a_planted_broken_link(tmp_path):
    copy = tmp_path / "checkout"
    copy.mkdir()
    shutil.copytree(ROOT / "docs", copy / "docs")
    shutil.copytree(ROOT / "tools", copy / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    for package in ("arena", "bots"):  # the code mkdocstrings documents
        (copy / package).symlink_to(ROOT / package)
    untouched = build(copy)
    assert untouched.returncode == 0, untouched.stdout + untouched.stderr
    page = copy / "docs" / "tutorials" / "index.md"
    page.write_text(page.read_text() + "\nSee [the missing page](no-such-page.md) and "
                    "[a missing section](../statistics.md#no-such-section).\n")
    planted = build(copy)
    out = planted.stdout + planted.stderr
    assert planted.returncode != 0, out
    assert "no-such-page.md" in out and "#no-such-section" in out, out
