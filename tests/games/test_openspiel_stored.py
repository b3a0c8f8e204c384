"""Stored games of OpenSpiel's imperfect-information and simultaneous games replay in pyspiel
itself (issue 42): a tournament of random bots is stored, and each game's moves, chance plies
and rounds included, are read back into OpenSpiel's actions without the arena's code and
played in pyspiel to the stored returns; ``arena replay`` shows the rounds."""

from __future__ import annotations

import re
from importlib.util import find_spec

import pytest

from arena.cli.app import main
from arena.games import CHANCE
from arena.results.reading import load_game, load_moves
from arena.tournament import build, run_tournament

pytestmark = [pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs OpenSpiel (the openspiel extra)")]


def _action(state, player: int, text: str) -> int:
    """The one action of ``player`` in pyspiel's ``state`` whose string is ``text`` once each
    whitespace run is ``_`` (``docs/openspiel.md`` "Notation")."""
    if state.is_chance_node():
        actions = [a for a, _ in state.chance_outcomes()]
    else:
        actions = state.legal_actions(player)
    found = [a for a in actions if "_".join(state.action_to_string(player, a).split()) == text]
    assert len(found) == 1, (text, state.history())
    return found[0]


def replay_in_pyspiel(name: str, moves: list[str]):
    """The pyspiel state after the stored ``moves`` of a game of ``name``: a sequential ply or
    a chance outcome is one action, a simultaneous round one move per seat, space-separated."""
    import pyspiel

    state = pyspiel.load_game(name).new_initial_state()
    for text in moves:
        if state.is_simultaneous_node():
            words = text.split(" ")
            assert len(words) == state.num_players(), text
            state.apply_actions([_action(state, seat, word) for seat, word in enumerate(words)])
        else:
            state.apply_action(_action(state, state.current_player(), text))
    return state


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "goofspiel", "liars_dice", "oshi_zumo", "matrix_pd"])
def test_stored_games_replay_in_pyspiel_to_the_stored_returns(name, tmp_path):
    cfg = build({"game": f"openspiel:{name}", "bots": ["random", "r2=random"], "games": 6, "workers": 1,
                 "opening_plies": 0, "results": str(tmp_path)})  # every deal a chance ply of the referee's
    summary = run_tournament(cfg)
    assert summary.stored == summary.total == 6 and not summary.mismatches and not summary.faults
    moves = load_moves(summary.path)
    for game_id in sorted(set(moves["game_id"])):
        row = load_game(summary.path, game_id)
        state = replay_in_pyspiel(name, list(row["moves"]))
        assert state.is_terminal() and list(state.returns()) == row["scores"], (name, game_id)
        seats = set(moves[moves["game_id"] == game_id]["seat"])
        assert (CHANCE in seats) == (name not in ("oshi_zumo", "matrix_pd"))


def test_arena_replay_shows_the_rounds_of_a_simultaneous_game(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["run", "--game", "openspiel:goofspiel", "--bot", "random", "--bot", "r2=random", "--games", "2",
              "--workers", "1", "-q", "--name", "gs", "--results", str(tmp_path)])
    assert exc.value.code == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(["replay", "gs", "1", "--results", str(tmp_path)])
    out = capsys.readouterr().out
    assert exc.value.code == 0 and "cannot replay" not in out
    assert re.search(r"ply \d+ round: \[P0\]Bid:_\d+ \[P1\]Bid:_\d+", out) and "end: terminal" in out
