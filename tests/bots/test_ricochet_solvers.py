"""Ricochet solvers: optimality against plain BFS, budgets, bots in a game."""

from __future__ import annotations

import pytest

import arena.games
from arena.bench.ricochet import random_puzzles
from arena.games import Answer
from arena.games.ricochet import Puzzle
from arena.referee import play_game, GameSettings
from bots.base import Limits
from bots.registry import make
from bots.ricochet import solve_bfs, solve_greedy, solve_optimal
from tests.bots.ricochet_reference import bfs as reference_bfs
from tests.timing import retry_under_load

PUZ = "1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC"


def bfs_first(puzzles, depth, wanted):
    """Puzzles the solver proves solvable in at most ``depth`` moves: plain BFS finds the same
    length. One in six of the others: plain BFS finds nothing within ``depth``."""
    checked = 0
    for i, p in enumerate(puzzles):
        r = solve_optimal(p, Limits(nodes=20_000), fallback=False)
        if r.optimal and len(r.solution) <= depth:
            assert p.check(r.solution) is not None
            ref = solve_bfs(p, len(r.solution))
            assert ref is not None and len(ref) == len(r.solution), str(p)
            checked += 1
            if checked == wanted:
                break
        elif i % 6 == 0:
            assert solve_bfs(p, depth) is None, str(p)
    return checked


def test_optimal_matches_bfs_on_small_puzzles():
    four = random_puzzles(600, seed=1)
    five = random_puzzles(300, seed=2, robots=5)
    assert bfs_first(four, 4, 70) + bfs_first(five, 4, 30) == 100


def test_zero_move_puzzle_and_known_optimum():
    p = Puzzle.parse(PUZ)
    r = solve_optimal(p)
    assert str(r.solution) == "RN BE BN RE RS" or len(r.solution) == 5
    assert r.optimal and r.nodes > 0 and r.depth == 5
    on = Puzzle(p.board, (p.goal,) + p.robots[1:], "RC")
    z = solve_optimal(on)
    assert z.solution == () and str(z.solution) == "" and z.optimal


def test_budget_gives_best_found_not_proven():
    p = Puzzle.parse("2B,4B,3B,1B R:c2,G:a13,B:l14,Y:c15 BT")  # a 25-mover
    r = solve_optimal(p, Limits(nodes=200_000))
    assert not r.optimal
    assert r.solution is None or p.check(r.solution) is not None

    def check(slack):  # a loaded machine gets more room (tests/timing.py)
        t = solve_optimal(p, Limits(time=0.3))
        assert not t.optimal and t.seconds < 1.5 * slack
    retry_under_load(check)


def test_greedy_is_valid_and_never_shorter_than_optimal():
    found = 0
    for p in random_puzzles(20, seed=5):
        g = solve_greedy(p, max_nodes=3000)
        if g.solution is not None:
            found += 1
            assert p.check(g.solution) is not None
            assert len(g.solution) >= len(solve_optimal(p).solution)
    assert found >= 12


def test_bots_answer_rounds_and_report_stats():
    bot = make("ricochet-optimal")
    game = arena.games.make("ricochet")
    state = game.initial_state(3)
    bot.reset(game, 0, 1)
    sol = bot.choose(state, Limits(time=5))
    assert state.puzzle.check(sol) is not None and bot.proven
    assert bot.last_stats.nodes > 0 and bot.last_stats.depth == len(sol)
    greedy = make("ricochet-greedy:max_nodes=500")
    greedy.reset(game, 1, 2)
    nxt = state.play([Answer(sol), Answer(greedy.choose(state, Limits()))])
    assert nxt.last_status[0] == "won"


def test_optimal_beats_greedy_in_a_match():
    game = arena.games.make("ricochet", max_rounds=12)
    record = play_game(GameSettings(game, 4, limits=Limits(time=5)),
                       [make("ricochet-optimal"), make("ricochet-greedy:max_nodes=300")])
    out = record.outcome
    assert out.scores[0] >= out.scores[1]


def test_optimal_matches_bfs_with_barriers_on_small_puzzles():
    """Coloured diagonal barriers (docs/rules/ricochet.md "Second edition"): the proven optimum
    is the plain BFS's (BFS over the full robot state, the game's own slide rule)."""
    four = random_puzzles(200, seed=21, diagonals=2)
    five = random_puzzles(100, seed=22, robots=5, diagonals=3)
    assert bfs_first(four, 4, 10) + bfs_first(five, 4, 5) == 15


def check_all_against_reference(puzzles) -> list[int]:
    """Every puzzle: the solver's proven optimum is legal, reaches the target, and is the
    fewest moves by the plain breadth-first reference (``tests/bots/ricochet_reference.py``:
    its own slide rule, no bounds, no pruning; searched to the solver's length, so it proves
    there is nothing shorter and finds a solution of that length, itself checked by the game).
    Returns the optima, moves, one per puzzle checked exactly."""
    exact = []
    for p in puzzles:
        r = solve_optimal(p)
        assert r.optimal and r.solution is not None, str(p)
        assert p.check(r.solution) is not None, str(p)
        ref = reference_bfs(p, len(r.solution))
        assert ref.complete and ref.length == len(r.solution), (str(p), str(r.solution), ref.length)
        assert p.check(ref.solution) is not None, str(p)
        exact.append(ref.length)
    return exact


@pytest.mark.slow
def test_optimal_matches_bfs_with_barriers_on_120_random_puzzles():
    """120 random puzzles with barriers (diagonals=2, one in six with five robots and 3 per
    quadrant), optima of 1 to 14 moves (a 13- and a 14-mover among them): every proven optimum
    equals the plain BFS's; greedy answers are valid and never shorter."""
    puzzles = random_puzzles(100, seed=31, diagonals=2) + random_puzzles(20, seed=32, robots=5, diagonals=3)
    optima = check_all_against_reference(puzzles)
    assert len(optima) == 120 and max(optima) >= 14 and 13 in optima
    for p, best in zip(puzzles, optima):
        g = solve_greedy(p)
        assert g.solution is None or (p.check(g.solution) is not None and len(g.solution) >= best)


@pytest.mark.slow
def test_optimal_matches_bfs_on_250_puzzles():
    """The same reference on boards without barriers: 200 random puzzles with four robots,
    50 with five (the black robot only blocks); optima of 1 to 13 moves."""
    optima = check_all_against_reference(random_puzzles(200, seed=11) + random_puzzles(50, seed=12, robots=5))
    assert len(optima) == 250 and max(optima) >= 13 and set(range(1, 12)) <= set(optima)


def test_solvers_play_a_game_with_barriers():
    game = arena.games.make("ricochet", max_rounds=3, diagonals=2, robots=5)
    record = play_game(GameSettings(game, 9, limits=Limits(time=5)),
                       [make("ricochet-optimal"), make("ricochet-greedy")])
    assert record.outcome.termination in ("max_rounds", "chips", "stack_exhausted")
    state = game.initial_state(9)
    assert state.board.diagonals and "diag=" in state.to_text()
    for text in record.moves:  # every won round's solution is valid on the barrier board
        chip, seat, sol = text.split(" ", 2)
        if seat != "-":
            assert state.puzzle.check(sol) is not None
        state = state.play([Answer(sol if str(s) == seat else None) for s in range(2)])
    assert state.is_terminal() and state.outcome().scores == record.outcome.scores
