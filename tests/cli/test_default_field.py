"""A game's default field less the bots that cannot play it says so (issue 41: alphabeta left the
default field of a game with chance nodes without a word)."""

from __future__ import annotations

import pytest

import arena.games
from arena.tournament import build
from arena.tournament.config import DEFAULT_BOTS, left_out_of_default
from tests.cli_run import run_cli
from tests.registered import register_game


@pytest.fixture(autouse=True)
def dice_registered(monkeypatch):
    register_game(monkeypatch, "dice-nim", "tests.toy:DiceNim")


def test_the_bots_left_out_of_a_default_field_are_named_with_why(tmp_path, capsys):
    game = arena.games.make("dice-nim")
    left = left_out_of_default("dice-nim", game)
    assert [spec for spec, _ in left] == ["alphabeta:depth=4"]
    assert build({"game": "dice-nim"}).bots == tuple(s for s in DEFAULT_BOTS if s != "alphabeta:depth=4")
    code, out, err = run_cli(["run", "--game", "dice-nim", "--games", "2", "--workers", "1", "--results",
                              str(tmp_path), "-q"], capsys)
    assert code == 0, err
    (note,) = [line for line in err.splitlines() if "default field" in line]
    assert note == ("note: the default field of dice-nim leaves out alphabeta:depth=4 (plays games without chance "
                    "nodes; dice-nim has chance nodes (dice, deals)); --bot names a field of your own")
    code, out, err = run_cli(["run", "--game", "dice-nim", "--bot", "random", "--bot", "greedy", "--games", "2",
                              "--workers", "1", "--results", str(tmp_path), "-q"], capsys)
    assert code == 0 and "default field" not in err, err  # a field given: nothing left out


def test_a_game_with_hidden_information_defaults_to_bots_that_play_from_a_view():
    """``arena run --game openspiel:kuhn_poker`` with no ``--bot`` played a field of ``random``
    alone (the OpenSpiel family's field is of perfect-information searches) and stopped."""
    pytest.importorskip("pyspiel")
    from arena.tournament.config import HIDDEN_FIELD

    cfg = build({"game": "openspiel:kuhn_poker"})
    assert cfg.bots == HIDDEN_FIELD[0] and cfg.games == HIDDEN_FIELD[1]
