"""The Ricochet solver's cold start (issue 18, ``bots/ricochet.py`` "Cold start"): the
plain-Python build of the kernels (``bots.kernels.plain``) is the same search as the compiled
one, and a search handed over from one to the other gives the same optimal answer."""

from __future__ import annotations

import pytest

from arena.bench.ricochet import random_puzzles
from arena.games.ricochet import Puzzle
from bots import kernels, ricochet
from bots.base import Limits
from bots.registry import make
from bots.ricochet import _bounds, _ida, _paths, _tables, solve_optimal

#: a fixed puzzle set, plain boards and boards with coloured barriers
PUZZLES = random_puzzles(30, seed=5) + random_puzzles(15, seed=6, diagonals=2)


def test_the_plain_build_loads_without_numba_and_makes_lists():
    search = kernels.plain(ricochet.SEARCH)
    assert search.__name__ == "bots.ricochet_search_plain" and kernels.plain(ricochet.SEARCH) is search
    assert search.np is kernels.PlainNumpy and search.ida_iteration.__module__ == search.__name__
    assert type(_tables(PUZZLES[0].board, False)) is list


def test_the_plain_build_has_the_same_tables_and_bounds():
    for p in PUZZLES:
        assert list(_tables(p.board, False)) == list(_tables(p.board, True))
        colours = p.goal_robots() if p.board.diagonals else (0,)
        assert list(_bounds(p.board, p.goal, colours, False)) == list(_bounds(p.board, p.goal, colours, True))
        if p.board.diagonals:
            assert list(_paths(p.board, False)) == list(_paths(p.board, True))


def test_the_plain_build_is_the_same_search():
    """Same moves, node counts, depths and proofs, budget stops included (both builds
    checking the budget every 1024 nodes)."""
    stopped = 0
    for p in PUZZLES:
        plain = _ida(p, False, max_nodes=4096, every=1023)
        assert plain == _ida(p, True, max_nodes=4096, every=1023), str(p)
        stopped += not plain[3]
    assert 0 < stopped < len(PUZZLES) // 2  # both kinds of answer compared


@pytest.fixture
def cold(monkeypatch):
    """The compiled kernels count as not loaded: ``solve_optimal(cold=...)`` starts in plain Python."""
    monkeypatch.setattr(ricochet, "compiled_loaded", lambda: False)


def test_a_handed_over_search_gives_the_same_optimal_answer(cold):
    handed = 0
    for p in PUZZLES + [Puzzle.parse("1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC")]:
        warm = solve_optimal(p, Limits(nodes=300_000), fallback=False)
        if not warm.optimal:
            continue
        r = solve_optimal(p, Limits(nodes=300_000), fallback=False, cold=1)  # stops at 1024 nodes
        assert r.optimal and r.depth == warm.depth, str(p)
        assert (r.solution is None) == (warm.solution is None)
        if r.solution is not None:
            assert len(r.solution) == len(warm.solution) and p.check(r.solution) is not None
        if warm.nodes > 1024:
            assert r.nodes > 1024  # the plain search's nodes, then the compiled search's
            handed += 1
        else:
            assert r.nodes == warm.nodes  # solved in plain Python: the same search
    assert handed >= 3


def test_the_callers_node_budget_is_not_handed_over(cold, monkeypatch):
    def refuse(module):
        raise AssertionError("compiled kernels loaded")

    monkeypatch.setattr(kernels, "compiled", refuse)
    p = Puzzle.parse("2B,4B,3B,1B R:c2,G:a13,B:l14,Y:c15 BT")  # a 25-mover
    r = solve_optimal(p, Limits(nodes=2000), cold=8192)
    assert not r.optimal and (r.solution is None or p.check(r.solution) is not None)


def test_greedy_needs_no_compiled_kernels_for_a_lone_puzzle(cold, monkeypatch):
    def refuse(module):
        raise AssertionError("compiled kernels loaded")

    monkeypatch.setattr(kernels, "compiled", refuse)
    for p in PUZZLES[:3] + PUZZLES[-3:]:
        r = ricochet.solve_greedy(p)
        assert r.solution is None or p.check(r.solution) is not None


def test_the_bot_starts_cold_only_for_a_lone_puzzle(cold, monkeypatch):
    loaded = []
    monkeypatch.setattr(ricochet, "warm_up", lambda: loaded.append(1))
    bot = make("ricochet-optimal")
    bot.reset(None, 0, 0)
    assert bot.cold == ricochet.COLD_NODES and not loaded
    assert bot.solve_puzzle(PUZZLES[0]).optimal
    bot.solve_puzzle(PUZZLES[0], Limits(time=5.0))  # a time limit: loaded before the clock starts
    assert loaded == [1] and bot.cold == 0
    bot.reset(None, 0, 0)
    bot.warm_up()
    assert bot.cold == 0 and loaded == [1, 1]
