"""The compiled per-board tables of the Ricochet solver (``bots.ricochet_bounds``) against
plain-Python references built from the board's own rules (``Board.stops``, ``Board.path``,
``Board.turning_ahead``): the same slide table, barrier table and lower bounds."""

from __future__ import annotations

import random

import numpy as np
import pytest

from arena.games.ricochet.board import Board, place_diagonals
from bots.ricochet_bounds import board_arrays, lower_bounds, path_table
from bots.ricochet_layout import INF, NBAR, ORIENT


def reference_bounds(board: Board, goal: int, robot: int | None) -> list[int]:
    """Backward breadth-first search from ``goal`` over edges x -> y, y any cell of a path
    from x (``Board.path`` of ``robot`` with barriers; straight wall-free slides without)."""
    reach = []
    for x in range(256):
        cells = set()
        for d in range(4):
            if robot is None:
                step = (16, 1, -16, -1)[d]
                cells.update(range(x + step, board.stops[d][x] + step, step))
            else:
                cells.update(board.path(robot, x, d)[0])
        reach.append(cells)
    h = [INF] * 256
    h[goal] = 0
    frontier, k = [goal], 0
    while frontier:
        k += 1
        nxt = []
        for x in range(256):
            if h[x] == INF and any(h[y] == k - 1 for y in reach[x]):
                h[x] = k
                nxt.append(x)
        frontier = nxt
    return h


def boards(count: int, seed: int):
    rng = random.Random(seed)
    for i in range(count):
        board = Board.random(rng)
        yield board, board.with_diagonals(place_diagonals(board, 1 + i % 3, rng))


@pytest.mark.parametrize("seed", [1, 2])
def test_tables_and_bounds_match_the_rules(seed):
    for plain, barred in boards(6, seed):
        walls, stops = board_arrays(barred)
        assert stops.tolist() == [s for d in range(4) for s in plain.stops[d]]
        paths = path_table(barred)
        for r in range(5):
            ahead = barred.turning_ahead(r)
            assert paths[r * 1024:(r + 1) * 1024].tolist() == [c for d in range(4) for c in ahead[d]]
        assert paths[ORIENT:NBAR].tolist() == [0 if c not in barred.diagonals else
                                               1 if barred.diagonals[c][0] == "/" else 2 for c in range(256)]
        assert paths[NBAR] == len(barred.diagonals)
        for goal in sorted(plain.targets.values())[:3]:
            assert lower_bounds(walls, goal).tolist() == reference_bounds(plain, goal, None)
            assert lower_bounds(plain.walls, goal).tolist() == reference_bounds(plain, goal, None)
            for r in (0, 3, 4):
                assert lower_bounds(walls, goal, paths, r, stops).tolist() == reference_bounds(barred, goal, r)


def test_bounds_are_an_int64_table_with_unreachable_cells_infinite():
    board = Board.parse("1A,2B,4A,3B")
    h = lower_bounds(board_arrays(board)[0], board.targets["RC"])
    assert h.dtype == np.int64 and h.shape == (256,)
    assert h[board.targets["RC"]] == 0 and (h[[119, 120, 135, 136]] == INF).all()  # the central block
