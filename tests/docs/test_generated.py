"""The generated parts of the docs (``tools/docgen.py``) match the code they come from: the
committed copies of the terminations table and the protocol lines are current, every game's
rule endings are declared, every protocol command is documented, and the command-line
reference lists every command and option of the typer app."""

from __future__ import annotations

import pytest
import typer

import arena.games
from arena.cli.app import app
from arena.engine.protocol import TO_ENGINE
from arena.engine.server import COMMANDS
from arena.games.conformance import random_game
from arena.referee import Termination
from tools import docgen


def test_committed_blocks_are_current():
    stale = [f"{path.name}: {name}" for path, name in docgen.stale()]
    assert stale == [], f"generated blocks differ from the code: {stale}; run `python -m tools.docgen`"


def test_every_marker_has_a_generator():
    for path in sorted(docgen.DOCS.rglob("*.md")):
        text = path.read_text()
        assert {m["name"] for m in docgen._GENERATE.finditer(text)} <= set(docgen.PAGES), path.name
        assert {m["name"] for m in docgen._BLOCK.finditer(text)} <= set(docgen.BLOCKS), path.name
    with pytest.raises(KeyError, match="no generated text named 'nope'"):
        docgen.expand("<!-- generate: nope -->\n")


@pytest.mark.parametrize("name", arena.games.names())
def test_rule_endings_are_declared(name):
    """Random games of every registered game end with a termination the game declares in
    ``Game.TERMINATIONS`` (the terminations table lists those), never with the arena's own."""
    game = arena.games.make(name)
    declared = type(game).TERMINATIONS
    assert declared, f"{name}: Game.TERMINATIONS is empty"
    assert not set(declared) & {t.value for t in Termination}, "a rule ending named like an arena termination"
    for seed in range(8):
        outcome = random_game(game, seed)[-1].outcome()
        assert outcome is not None and outcome.termination in declared, (name, seed, outcome)


def test_the_terminations_table_lists_every_termination():
    table = docgen.terminations_table()
    for member in Termination:
        assert f"| `{member.value}` | the arena |" in table
    for name in arena.games.names():
        for reason in arena.games.game_class(name).TERMINATIONS:
            assert f"| `{reason}` | the rules of `{name}` |" in table


def test_every_protocol_command_is_documented():
    assert [m.line.split()[0] for m in TO_ENGINE] == list(COMMANDS)


def _commands(command, path):
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _commands(sub, f"{path} {name}")


def test_the_cli_reference_has_every_command_and_option():
    page = docgen.cli_reference()
    for path, command in _commands(typer.main.get_command(app), "arena"):
        assert f"`{path}`" in page, path
        for param in command.params:
            for opt in getattr(param, "opts", []):
                if opt.startswith("-"):
                    assert f"`{opt}`" in page, (path, opt)
