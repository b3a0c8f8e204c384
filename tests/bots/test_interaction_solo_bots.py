"""Solo Interaction solvers (docs/rules/interaction.md "Solo Interaction"): the IDA* count
against a plain breadth-first search, the bots in the game and in the race."""

from __future__ import annotations

import json
import random

import pytest

import arena.games
from arena.cli.app import main
from arena.games import Answer
from arena.games.interaction.geometry import CELLS, POCKET
from arena.games.interaction.layouts import LAYOUTS
from arena.games.interaction.notation import format_position
from arena.referee import play_game, GameSettings
from bots.base import Limits
from bots.registry import make
from bots.solo_search import breadth_first_count, count_solutions


def random_layout(rng: random.Random, neutrals: int) -> str:
    cells = rng.sample([c for c in CELLS if not POCKET[c]], neutrals + 1)
    board = bytearray(81)
    board[cells[0]] = 1
    for c in cells[1:]:
        board[c] = 3
    return format_position(bytes(board), 0, (0, 0), 0)


def test_count_matches_bfs_on_a_few_small_layouts():
    game = arena.games.make("interaction-solo", layout=0, setup=LAYOUTS[0].text)
    rng = random.Random(5)
    for _ in range(6):
        st = game.parse_state(random_layout(rng, 2))
        r = count_solutions(st, max_depth=5)
        assert breadth_first_count(st, 5) == ((r.length, r.solutions) if r.moves is not None else (None, 0))


@pytest.mark.slow
def test_count_matches_plain_bfs_on_random_small_layouts():
    """2-5 neutrals: the same minimum and the same number of minimal solutions."""
    game = arena.games.make("interaction-solo", layout=0, setup=LAYOUTS[0].text)
    rng = random.Random(2026)
    checked = 0
    for i in range(60):
        neutrals = 2 + i % 4
        st = game.parse_state(random_layout(rng, neutrals))
        depth = neutrals + 2
        r = count_solutions(st, max_depth=depth)
        expect = (r.length, r.solutions) if r.moves is not None else (None, 0)
        assert breadth_first_count(st, depth) == expect, st.to_text()
        if r.moves is not None:
            assert st.run(r.moves).termination == "cleared"
            checked += 1
    assert checked >= 30


def test_budget_runs_out_gracefully():
    st = arena.games.make("interaction-solo", layout=6).initial_state()
    r = count_solutions(st, max_nodes=10)
    assert r.moves is None and not r.optimal
    bot = make("interaction-solo-optimal")
    bot.reset(None, 0, 0)
    got = bot.solve_position(st, Limits(nodes=10))
    assert not got.optimal and (got.moves is None or st.run(got.moves).termination == "cleared")


@pytest.mark.parametrize("kind", ["interaction-solo-optimal", "interaction-solo-greedy"])
def test_bots_play_the_sequential_game(kind):
    game = arena.games.make("interaction-solo", layout=3)
    record = play_game(GameSettings(game, 1), [make(kind)])
    assert record.outcome.termination == "cleared"
    if kind == "interaction-solo-optimal":
        assert record.outcome.scores == (-LAYOUTS[2].moves,)


def test_race_round_goes_to_the_shortest_solution():
    game = arena.games.make("interaction-solo-race", players=2, layouts="1,2")
    st = game.initial_state(0)
    best = count_solutions(st.position).moves
    longer = arena.games.make("interaction-solo").initial_state()
    from bots.solo_search import greedy_solution
    other, _ = greedy_solution(longer)
    after = st.play([Answer(" ".join(map(str, other))), Answer(best)])
    winner = 1 if len(other) > len(best) else 0  # equal lengths: fewer chips, then the lower seat
    assert after.last_status[winner] == "won" and after.last_status[1 - winner] == "valid"
    assert after.chips[winner] == (1,) and after.last_round.startswith(f"L1 {winner} ")
    assert after.layout == 2 and game.parse_state(after.to_text()).to_text() == after.to_text()
    bad = st.play([Answer("e1N"), Answer(None)])
    assert bad.last_status == ("invalid", "none") and bad.last_round == "L1 - -"


def test_solve_cli_json(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["solve", "--game", "interaction-solo", "--json", LAYOUTS[1].text])
    assert not exc.value.code
    rec = json.loads(capsys.readouterr().out)
    assert set(rec) >= {"moves", "length", "solutions", "optimal", "nodes", "seconds"}
    assert (rec["length"], rec["solutions"], rec["optimal"]) == (LAYOUTS[1].moves, LAYOUTS[1].solutions, True)
    with pytest.raises(SystemExit) as exc:
        main(["solve", "--game", "interaction-solo", "#.......# r 0 0 0"])
    assert exc.value.code == 2
    assert "error" in capsys.readouterr().err


def test_solve_file_keeps_positions_starting_with_a_corner(capsys, tmp_path):
    """Solo positions start with '#' (the clipped corner a9): only '#' + space is a comment."""
    f = tmp_path / "solo.txt"
    f.write_text(f"# a comment\nlayout=1\n{LAYOUTS[1].text}\n#\n")
    with pytest.raises(SystemExit) as exc:
        main(["solve", "--game", "interaction-solo", "--json", "--file", str(f)])
    assert not exc.value.code
    recs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["length"] for r in recs] == [LAYOUTS[0].moves, LAYOUTS[1].moves]
