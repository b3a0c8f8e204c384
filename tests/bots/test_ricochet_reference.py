"""The plain breadth-first reference (``tests/bots/ricochet_reference.py``) against the game:
its own slide rule gives the game's moves on random positions with barriers, the game's
``play`` accepts its solutions and leaves the robots where its rule says, and it agrees with
the Python BFS of ``bots.ricochet`` on small puzzles."""

from __future__ import annotations

import random

import pytest

import arena.games
from arena.bench.ricochet import random_puzzles
from arena.games import Answer
from arena.games.ricochet.board import Board, parse_diagonals, parse_square
from arena.games.ricochet.puzzle import Puzzle
from bots.ricochet import solve_bfs
from tests.bots.ricochet_reference import bfs, successors

PUZ = "1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC"


def walk_and_compare(puzzle: Puzzle, rng: random.Random, steps: int) -> tuple[int, int]:
    """A random walk of ``steps`` moves; at every position the reference's moves equal the
    game's (``Puzzle.moves_from``). Returns (positions with a robot on a barrier's cell,
    positions where some robot's move is blocked only by an endless loop)."""
    robots, on_barrier, loops = puzzle.robots, 0, 0
    for _ in range(steps):
        game_moves = puzzle.moves_from(robots)
        assert successors(puzzle, robots) == game_moves, (str(puzzle), robots)
        on_barrier += any(c in puzzle.board.diagonals for c in robots)
        loops += any(puzzle.board.path(r, robots[r], d)[1] and all(m.robot != r or m.direction != d
                                                                   for m, _ in game_moves)
                     for r in range(len(robots)) for d in range(4))
        robots = rng.choice(game_moves)[1]
    return on_barrier, loops


def test_reference_moves_are_the_games_on_random_positions_with_barriers():
    rng = random.Random(7)
    on_barrier = loops = 0
    for per_quadrant, robots in ((0, 4), (2, 4), (4, 5), (8, 5)):
        for p in random_puzzles(6, seed=40 + per_quadrant, robots=robots, diagonals=per_quadrant):
            a, b = walk_and_compare(p, rng, 60)
            on_barrier, loops = on_barrier + a, loops + b
    # a closed circuit of yellow barriers c3 -> c6 -> f6 -> f3: red moves along it loop
    rows = [["0"] * 16 for _ in range(16)]
    rows[0][15] = "0V"
    circuit = Board.from_map("\n".join(" ".join(r) for r in rows)).with_diagonals(
        parse_diagonals("c3\\Y,c6/Y,f6\\Y,f3/Y"))
    for start in ("d3", "c4", "f5", "e6"):
        cells = (parse_square(start),) + tuple(parse_square(s) for s in ("m13", "n14", "o15"))
        a, b = walk_and_compare(Puzzle(circuit, cells, "V"), rng, 40)
        on_barrier, loops = on_barrier + a, loops + b
    assert on_barrier >= 10 and loops >= 10  # the walks met the rare rules


@pytest.mark.slow
def test_the_games_play_accepts_the_reference_solutions():
    """Rounds of a one-player game with five robots and barriers: the reference's solution
    wins the chip and the robots stand where the reference's own moves put them."""
    game = arena.games.make("ricochet", players=1, robots=5, diagonals=3, max_rounds=6)
    state, won = game.initial_state(5), 0
    while not state.is_terminal():
        ref = bfs(state.puzzle, 7)
        robots = state.robots
        for move in ref.solution or ():
            robots = dict(successors(state.puzzle, robots))[move]
        state = state.play([Answer(ref.solution)])
        if ref.solution is not None:
            assert state.last_status[0] == "won" and state.robots == robots
            won += 1
    assert won >= 3


def test_reference_finds_the_known_optimum_and_honours_its_limits():
    p = Puzzle.parse(PUZ)
    r = bfs(p, 8)
    assert r.length == 5 and len(r.solution) == 5 and p.check(r.solution) is not None and r.complete
    none = bfs(p, 4)
    assert none.length is None and none.solution is None and none.complete
    cut = bfs(p, 8, max_states=500)
    assert cut.length is None and not cut.complete
    on = Puzzle(p.board, (p.goal,) + p.robots[1:], "RC")
    assert bfs(on, 3).length == 0 and str(bfs(on, 3).solution) == ""


def test_reference_agrees_with_the_python_bfs_on_small_puzzles():
    for p in random_puzzles(8, seed=3, diagonals=2) + random_puzzles(4, seed=4, robots=5):
        ref, py = bfs(p, 3), solve_bfs(p, 3)
        assert (ref.length, ref.complete) == ((None, True) if py is None else (len(py), True)), str(p)
