"""Every command's ``--help``: no ``<bool>``/``<str>`` placeholders (typer prints them), value
names instead, and runnable examples (issue: the first hour)."""

from __future__ import annotations

import shlex

import pytest
import typer.main
from typer.testing import CliRunner

from arena.cli.app import app
from arena.cli.helptext import EXAMPLES


def _commands():
    root = typer.main.get_command(app)
    out = [((), root)]
    for name, cmd in root.commands.items():
        out.append(((name,), cmd))
        for sub, inner in getattr(cmd, "commands", {}).items():
            out.append(((name, sub), inner))
    return out


@pytest.mark.parametrize("path", [p for p, _ in _commands()], ids=lambda p: " ".join(p) or "arena")
def test_help_has_no_type_placeholders_and_shows_examples(path):
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for placeholder in ("<bool>", "<str>", "<int>", "<float>", "<list"):
        assert placeholder not in result.output, (path, placeholder)
    assert "Examples:" in result.output
    examples = EXAMPLES[path[-1] if path else "arena"]
    assert examples and all(line.startswith(" ".join(["arena", *path])) for line in examples)
    for line in examples:
        assert line in result.output


def test_an_option_shows_the_name_of_its_value():
    result = CliRunner().invoke(app, ["run", "--help"], env={"COLUMNS": "200"})
    seed = next(line for line in result.output.splitlines() if "--seed " in line)
    assert seed.split()[2] == "N", seed  # its metavar
    quiet = next(line for line in result.output.splitlines() if "--quiet " in line)
    assert quiet.split()[3] == "no", quiet  # the help text follows the flag at once


def test_every_example_parses():
    """Each example's options exist (click parses it; a missing NAME is not looked up here)."""
    root = typer.main.get_command(app)
    for path, command in _commands():
        if hasattr(command, "commands") or not path:
            continue
        for line in EXAMPLES[path[-1]]:
            words = shlex.split(line)[1 + len(path):]
            ctx = command.make_context(" ".join(path), list(words), resilient_parsing=False)
            assert ctx.params is not None, line
    assert root.name
