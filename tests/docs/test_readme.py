"""The README stays short and its test command is the one CI runs."""

from __future__ import annotations

from tests.docs.blocks import ROOT, blocks, commands


def test_the_readme_fits_on_two_screens():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 150


def readme_test_command() -> str:
    """The README's test command (the quick start's console block that is not run by the docs tests)."""
    found = [c.text for b in blocks(ROOT / "README.md") if b.language == "console" and "run" not in b.classes
             for c in commands(b) if "pytest" in c.text]
    assert len(found) == 1, found
    return found[0]


def test_the_readme_test_command_is_what_ci_runs_in_a_fresh_environment():
    """`.ci/run` runs the README's test command, exactly, as a line of its own, in a virtual
    environment it has just made and activated (as a new user does), and a failure of any of
    its steps fails the script (``set -e`` alone skips a failure inside an ``&&`` list)."""
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    command = readme_test_command()
    assert command in lines, (command, lines)
    before = lines[:lines.index(command)]
    assert any(line.startswith("python3 -m venv ") for line in before)
    assert any(line.startswith(". ") and line.endswith('/bin/activate"') for line in before)
    at = lines.index(command)
    assert (lines[at - 1], lines[at + 1].split(" || ")[0]) == ("{", "}")
    assert "exit 1" in lines[at + 1]


def test_the_docs_build_counts_warnings():
    """``mkdocs build --strict -q`` exits 0 on warnings (``-q`` hides them and strict mode
    counts none): the test command builds without ``-q``."""
    steps = readme_test_command().split(" && ")
    build = next(s.split() for s in steps if s.startswith("mkdocs "))
    assert "--strict" in build and not {"-q", "--quiet"} & set(build), build
