"""The README stays short and its test command is the one CI runs."""

from __future__ import annotations

from tests.docs.blocks import ROOT, blocks, commands


def test_the_readme_fits_on_two_screens():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 150


def test_the_readme_test_command_is_what_ci_runs():
    """`.ci/run` ends with the README's test command, exactly (the quick start's second one)."""
    quick_start = [c.text for b in blocks(ROOT / "README.md") if b.language == "console" and "run" not in b.classes
                   for c in commands(b)]
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci in quick_start, (ci, quick_start)
