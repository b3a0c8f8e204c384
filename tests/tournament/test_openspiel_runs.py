"""OpenSpiel's games through the whole arena (issue 33): stored games replay in pyspiel itself,
action by action, to the stored returns; ``arena run`` on ``openspiel:connect_four`` (the
default field), ``openspiel:backgammon`` with MCTS (chance plies in the moves table and the
replays) and an SPRT match on ``openspiel:breakthrough``, each with its HTML report."""

from __future__ import annotations

import base64
import gzip
import json
import re
from importlib.util import find_spec

import pytest

from arena.cli.app import main
from arena.games import CHANCE
from arena.results.reading import load_game, load_moves
from arena.tournament import build, run_tournament

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs OpenSpiel (the openspiel extra)")]

#: game, OpenSpiel parameters, field: two-player games with and without chance, and an n-player one
STORED = [
    ("tic_tac_toe", {}, ["alphabeta:depth=4", "mcts:playouts=40"]),
    ("connect_four", {}, ["mcts:playouts=30", "greedy"]),
    ("breakthrough", {}, ["random", "mcts:playouts=20"]),
    ("backgammon", {}, ["random", "mcts:playouts=4"]),
    ("chinese_checkers", {"players": 3, "max_moves": 150}, ["random", "brs:depth=1", "maxn:depth=1"]),
]


def _action(state, text: str) -> int:
    """The one action of pyspiel's ``state`` whose string is ``text``, written without the
    arena's code: whitespace runs as ``_`` (``docs/openspiel.md`` "Notation")."""
    player = state.current_player()
    actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    found = [a for a in actions if "_".join(state.action_to_string(player, a).split()) == text]
    assert len(found) == 1, (text, state.history())
    return found[0]


@pytest.mark.parametrize("name, params, field", STORED, ids=[s[0] for s in STORED])
def test_stored_games_replay_in_pyspiel_to_the_stored_returns(name, params, field, tmp_path):
    import pyspiel

    cfg = build({"game": f"openspiel:{name}", "params": params, "bots": field, "games": 2, "workers": 1,
                 "results": str(tmp_path)})
    summary = run_tournament(cfg)
    assert summary.stored == summary.total > 0 and not summary.mismatches and not summary.faults
    moves = load_moves(summary.path)
    for game_id in sorted(set(moves["game_id"])):
        row = load_game(summary.path, game_id)
        state = pyspiel.load_game(name, params).new_initial_state()
        for text in row["moves"]:
            state.apply_action(_action(state, text))
        assert state.is_terminal() and list(state.returns()) == row["scores"], (name, game_id)
        seats = moves[moves["game_id"] == game_id]["seat"]
        assert (CHANCE in set(seats)) == (name == "backgammon")  # the dice: plies of seat CHANCE


def _arena(*args: str) -> None:
    """``arena ARGS`` in this process; it must end with exit code 0."""
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    assert exc.value.code == 0


def _games_data(page: str) -> list[dict]:
    return json.loads(re.search(r'<script id="games-data" type="application/json">(.*?)</script>', page, re.S).group(1))


def test_arena_run_connect_four_with_the_default_field(tmp_path, capsys):
    _arena("run", "--game", "openspiel:connect_four", "--games", "2", "--workers", "2", "--quiet",
          "--name", "c4", "--results", str(tmp_path))
    assert "c4: 12 games played" in capsys.readouterr().out  # 4 bots, 6 pairings of 2 games
    _arena("report", "c4", "--results", str(tmp_path), "-s", "leaderboard", "-s", "faults", "--no-write")
    out = " ".join(capsys.readouterr().out.split())
    assert "No faults" in out
    for label in ("random", "greedy", "alphabeta:depth=3", "mcts:playouts=100"):
        assert label in out
    data = _games_data((tmp_path / "c4.html").read_text())
    frames = json.loads(gzip.decompress(base64.b64decode(data[0]["frames_gz"])))
    assert frames[0]["text"] == "connect_four() history=" and all('class="board openspiel"' in f["svg"] for f in frames)


def test_arena_run_backgammon_with_mcts_records_the_dice(tmp_path, capsys):
    _arena("run", "--game", "openspiel:backgammon", "--bot", "mcts:playouts=4", "--bot", "random", "--games", "2",
          "--workers", "1", "--quiet", "--name", "bg", "--results", str(tmp_path))
    assert "bg: 2 games played" in capsys.readouterr().out
    moves = load_moves(tmp_path / "bg.sqlite")
    chance = moves[moves["seat"] == CHANCE]
    assert len(chance) > 10 and chance["move"].str.contains("roll").all() and chance["label"].isna().all()
    data = _games_data((tmp_path / "bg.html").read_text())
    frames = json.loads(gzip.decompress(base64.b64decode(data[0]["frames_gz"])))
    who = {re.sub(r" \(.*\)$", "", f["who"]) for f in frames}  # a bot's ply says its time: "seat 0 ... (0.03s)"
    assert {"chance", "seat 0 mcts:playouts=4", "seat 1 random"} <= who
    _arena("replay", "bg", "1", "--results", str(tmp_path))
    assert re.search(r"ply \d+ chance: chance_outcome_\d+_\(roll:_\d\d\)", capsys.readouterr().out)


def test_an_sprt_match_on_breakthrough(tmp_path, capsys):
    _arena("run", "--game", "openspiel:breakthrough", "--bot", "mcts:playouts=30", "--bot", "random",
          "--sprt", "elo0=0,elo1=300", "--games", "60", "--workers", "2", "--quiet", "--name", "bt",
          "--results", str(tmp_path))
    capsys.readouterr()
    _arena("report", "bt", "--results", str(tmp_path), "-s", "sprt", "--no-write")
    out = " ".join(capsys.readouterr().out.split())
    assert re.search(r"SPRT \[0, 300\] LLR [-\d.]+ \([-\d.]+, [\d.]+\): H1 accepted", out), out
    assert (tmp_path / "bt.html").is_file() and _games_data((tmp_path / "bt.html").read_text())
