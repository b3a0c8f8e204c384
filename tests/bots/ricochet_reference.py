"""A plain breadth-first search over the full robot state of Ricochet Robots, with a slide rule
of its own (walls, central block, robots, coloured diagonal barriers): the reference the
optimal solver is checked against (``docs/rules/ricochet.md`` "Robots and moves", "Puzzle
mode", "Second edition: coloured diagonal barriers").

It shares nothing with the solver or with the game's slide code (no slide or path tables, no
lower bounds, no pruning of moves); only ``Board.walls`` and ``Board.diagonals`` are read.
A state is the robots' cells packed 8 bits each into one integer (robot ``i``, ``R G B Y K`` =
0-4, in bits ``8i..8i+7``); the search keeps every level and a hash set of every state seen.
A move slides its robot one cell at a time: it stops before a wall or a robot; a barrier not
of its colour (every barrier, for the black robot) turns it as it enters the barrier's cell;
entering a cell a second time in the same direction is an endless loop, an illegal move.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from arena.games.ricochet.board import Board
from arena.games.ricochet.puzzle import Puzzle, RobotMove, Solution

STEP = np.array([16, 1, -16, -1], dtype=np.int64)  # N E S W
WALL_BIT = np.array([1, 2, 4, 8], dtype=np.int64)
# row 1, '/': N->E, E->N, S->W, W->S; row 2, '\': N->W, E->S, S->E, W->N
TURN = np.array([[0, 1, 2, 3], [1, 0, 3, 2], [3, 2, 1, 0]], dtype=np.int64)
EMPTY = -1
#: the search's first room, states (it doubles when full)
FIRST_ROOM = 1 << 14


def board_arrays(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(walls, orientation, colour), each ``int64[256]`` by cell: the wall mask (``N=1 E=2
    S=4 W=8``), the barrier's orientation (0 none, 1 ``/``, 2 ``\\``) and colour (``R G B
    Y`` = 0-3, -1 none)."""
    walls = np.array(board.walls, dtype=np.int64)
    orient = np.zeros(256, dtype=np.int64)
    colour = np.full(256, -1, dtype=np.int64)
    for cell, (o, c) in board.diagonals.items():
        orient[cell] = 1 if o == "/" else 2
        colour[cell] = "RGBY".index(c)
    return walls, orient, colour


@njit(cache=True)
def _slide(walls, orient, colour, occupied, seen, token, robot, start, d):
    """Where ``robot`` leaving ``start`` towards ``d`` stops: ``start`` when it cannot move or
    its path is an endless loop. ``occupied[cell]`` is 1 under the other robots; ``seen``
    (``cell * 4 + direction`` of each cell entered) is marked with ``token``, new per slide."""
    cell = start
    while True:
        if walls[cell] & WALL_BIT[d]:
            return cell
        nxt = cell + STEP[d]
        if occupied[nxt]:
            return cell
        if seen[nxt * 4 + d] == token:
            return start
        seen[nxt * 4 + d] = token
        cell = nxt
        if orient[cell] != 0 and colour[cell] != robot:
            d = TURN[orient[cell], d]


@njit(cache=True)
def _expand(walls, orient, colour, state, n, movers, occupied, seen, token, out):
    """``out[r * 4 + d]``: the cell robot ``r`` reaches moving towards ``d`` from ``state``
    (its own cell when it cannot move), for robots with ``movers[r]`` (others: their cell).
    Returns the last token used."""
    for r in range(n):
        occupied[(state >> (8 * r)) & 255] = 1
    for r in range(n):
        cell = (state >> (8 * r)) & 255
        occupied[cell] = 0
        for d in range(4):
            if movers[r]:
                token += 1
                out[r * 4 + d] = _slide(walls, orient, colour, occupied, seen, token, r, cell, d)
            else:
                out[r * 4 + d] = cell
        occupied[cell] = 1
    for r in range(n):
        occupied[(state >> (8 * r)) & 255] = 0
    return token


@njit(cache=True)
def _insert(table, key):
    """Add ``key`` (>= 0) to the open-addressing hash set ``table`` (``EMPTY`` = free slot,
    a power of two long); False when it was there."""
    mask = table.shape[0] - 1
    i = ((key * np.int64(-7046029254386353131)) >> 24) & mask
    while True:
        k = table[i]
        if k == key:
            return False
        if k == EMPTY:
            table[i] = key
            return True
        i = (i + 1) & mask


@njit(cache=True)
def _grown(table, states, parents, moves, count):
    """Twice the room: a rehashed set of the ``count`` states and longer arrays."""
    bigger = np.full(table.shape[0] * 2, EMPTY, dtype=np.int64)
    for i in range(count):
        _insert(bigger, states[i])
    room = states.shape[0] * 2
    s2, p2, m2 = np.empty(room, np.int64), np.empty(room, np.int32), np.empty(room, np.int8)
    s2[:count] = states[:count]
    p2[:count] = parents[:count]
    m2[:count] = moves[:count]
    return bigger, s2, p2, m2


@njit(cache=True)
def _bfs(walls, orient, colour, start, n, goal_robots, goal, max_depth, max_states):
    """Breadth-first search from ``start``. Returns (length, or -1: none within
    ``max_depth``, -2: more than ``max_states`` states; index of the solved state; states,
    parents, moves (``robot * 4 + direction``) of every state stored)."""
    room = FIRST_ROOM
    states, parents, moves = np.empty(room, np.int64), np.empty(room, np.int32), np.empty(room, np.int8)
    table = np.full(room * 2, EMPTY, dtype=np.int64)
    everyone = np.ones(n, dtype=np.bool_)
    occupied = np.zeros(256, dtype=np.int8)
    seen = np.zeros(1024, dtype=np.int64)
    out = np.empty(20, dtype=np.int64)
    token = 0
    states[0], parents[0], moves[0] = start, -1, -1
    _insert(table, start)
    for r in range(n):
        if goal_robots[r] and (start >> (8 * r)) & 255 == goal:
            return 0, 0, states[:1], parents[:1], moves[:1]
    lo, hi, count = 0, 1, 1
    for depth in range(max_depth):
        # a goal robot on the target after one more move ends the search at depth + 1
        for i in range(lo, hi):
            token = _expand(walls, orient, colour, states[i], n, goal_robots, occupied, seen, token, out)
            for r in range(n):
                for d in range(4):
                    if goal_robots[r] and out[r * 4 + d] == goal:
                        if count == states.shape[0]:
                            table, states, parents, moves = _grown(table, states, parents, moves, count)
                        states[count] = (states[i] & ~(np.int64(255) << (8 * r))) | (np.int64(goal) << (8 * r))
                        parents[count], moves[count] = i, r * 4 + d
                        return depth + 1, count, states[:count + 1], parents[:count + 1], moves[:count + 1]
        if depth + 1 == max_depth:
            break
        for i in range(lo, hi):
            if count + 4 * n > states.shape[0]:
                table, states, parents, moves = _grown(table, states, parents, moves, count)
            s = states[i]
            token = _expand(walls, orient, colour, s, n, everyone, occupied, seen, token, out)
            for r in range(n):
                here = (s >> (8 * r)) & 255
                for d in range(4):
                    to = out[r * 4 + d]
                    if to == here:
                        continue
                    t = (s & ~(np.int64(255) << (8 * r))) | (to << (8 * r))
                    if _insert(table, t):
                        if count >= max_states:
                            return -2, -1, states[:count], parents[:count], moves[:count]
                        states[count], parents[count], moves[count] = t, i, r * 4 + d
                        count += 1
        lo, hi = hi, count
    return -1, -1, states[:count], parents[:count], moves[:count]


def pack(robots: tuple[int, ...]) -> int:
    """The state integer of robot cells in ``R G B Y [K]`` order."""
    return sum(cell << (8 * r) for r, cell in enumerate(robots))


def successors(puzzle: Puzzle, robots: tuple[int, ...]) -> list[tuple[RobotMove, tuple[int, ...]]]:
    """Every move that moves a robot from ``robots`` on ``puzzle``'s board, with the robot
    cells after it, in ``Puzzle.moves_from``'s order (robot, then direction ``N E S W``)."""
    n = len(robots)
    out = np.empty(20, dtype=np.int64)
    _expand(*board_arrays(puzzle.board), np.int64(pack(robots)), n, np.ones(n, dtype=np.bool_),
            np.zeros(256, np.int8), np.zeros(1024, np.int64), 0, out)
    return [(RobotMove(r, d), robots[:r] + (int(out[r * 4 + d]),) + robots[r + 1:])
            for r in range(n) for d in range(4) if out[r * 4 + d] != robots[r]]


@dataclass(frozen=True)
class BfsResult:
    """The reference search's answer.

    Attributes:
        length: the fewest moves, moves; ``None`` when there is no solution within the depth
            searched, or when the state budget ran out (``complete`` False).
        solution: one solution of ``length`` moves, ``None`` with ``length``.
        states: distinct robot states stored, count.
        complete: False when the search stopped at its state budget.
    """

    length: int | None
    solution: Solution | None
    states: int
    complete: bool


def bfs(puzzle: Puzzle, max_depth: int, max_states: int = 40_000_000) -> BfsResult:
    """Plain breadth-first search of ``puzzle`` to ``max_depth`` moves, storing at most
    ``max_states`` states (about 30 bytes each: a budget of memory and time)."""
    n = len(puzzle.robots)
    goal_robots = np.zeros(n, dtype=np.bool_)
    goal_robots[list(puzzle.goal_robots())] = True
    length, found, _, parents, moves = _bfs(*board_arrays(puzzle.board), np.int64(pack(puzzle.robots)), n,
                                            goal_robots, puzzle.goal, max_depth, max_states)
    if length < 0:
        return BfsResult(None, None, len(parents), length == -1)
    path = []
    while found > 0:
        path.append(RobotMove(int(moves[found]) // 4, int(moves[found]) % 4))
        found = int(parents[found])
    return BfsResult(length, Solution(reversed(path)), len(parents), True)
