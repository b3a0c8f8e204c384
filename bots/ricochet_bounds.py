"""Ricochet Robots per-board tables for the IDA* kernel, compiled: the goal robot's lower
bounds and the barrier path table (``docs/rules/ricochet.md`` "Puzzle mode", "Second edition:
coloured diagonal barriers").

Cells and directions as in ``arena.games.ricochet.board`` (cell = (rank-1)*16 + file,
N E S W = 0 1 2 3, wall bits N=1 E=2 S=4 W=8). These run once per puzzle (``arena solve
--file`` builds them for each puzzle), so they are numba kernels (``kernel``) like the search:
plain Python on numpy arrays costs more than a median search. Like the search, the same source
also runs as plain Python on lists (``bots.kernels``) for the cold start.

Lower bound: a backward breadth-first search from the target where a slide may stop at any
cell of its path (other robots can always be blockers, so the bound is admissible). With
barriers a path is the robot's deflected path (``Board.path``): the robot runs straight from
barrier to barrier, turned by every barrier not of its colour, until a wall; a looping path
is periodic from its start, so following it for (barriers x 4 directions) + 1 barrier entries
visits every cell it ever reaches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bots.kernels import backend
from bots.ricochet_layout import INF, NBAR, ORIENT

kernel, np, objmode = backend(__name__)

if TYPE_CHECKING:
    from numpy import ndarray


@kernel
def _stops(walls):
    """Per ``d * 256 + cell``: where a lone robot sliding from ``cell`` towards ``d`` stops
    (walls only: ``Board.stops``)."""
    out = np.empty(1024, np.int64)
    for d in range(4):
        bit = 1 << d
        step = 16 if d == 0 else 1 if d == 1 else -16 if d == 2 else -1
        base = d * 256
        for i in range(256):
            x = 255 - i if step > 0 else i  # the neighbour towards d comes first
            out[base + x] = x if walls[x] & bit else out[base + x + step]
    return out


def board_arrays(board) -> tuple[ndarray, ndarray]:
    """(walls: uint8[256] wall masks, stops: int64[1024] the ``_stops`` table) of a board."""
    walls = np.frombuffer(bytes(board.walls), np.uint8)
    return walls, _stops(walls)


@kernel
def _levels(goal, walls, seg, start, back):
    """The breadth-first search of ``lower_bounds``, backwards from ``goal``: int64[256], the
    fewest moves from each cell, ``INF`` where the goal is unreachable. The cells one move
    before a cell y: with barriers (``start`` not empty) ``back[start[y]:start[y + 1]]``
    (``_barrier_bounds``' reversed edges); on a plain board every cell of y's row and column
    segments (``_straight_bounds``: each segment, ``seg``, spread once, bounded by ``walls``).
    The arguments of the other case are empty arrays."""
    spread = np.zeros(512, np.int64)  # 1 once a segment's cells have their bound
    h = np.full(256, INF, np.int64)
    h[goal] = 0
    frontier = np.empty(256, np.int64)
    nxt = np.empty(256, np.int64)
    frontier[0] = goal
    nf = 1
    k = 0
    while nf > 0:
        k += 1
        nn = 0
        for i in range(nf):
            y = frontier[i]
            if len(start):
                for j in range(start[y], start[y + 1]):
                    x = back[j]
                    if h[x] == INF:
                        h[x] = k
                        nxt[nn] = x
                        nn += 1
            else:
                for e in range(2):  # the row segment (step 1, east wall ends it), the column's (16, north)
                    s = seg[256 * e + y]
                    if spread[256 * e + s]:
                        continue
                    spread[256 * e + s] = 1
                    step = 1 + 15 * e
                    bit = 2 - e
                    x = s
                    while True:
                        if h[x] == INF:
                            h[x] = k
                            nxt[nn] = x
                            nn += 1
                        if walls[x] & bit:
                            break
                        x += step
        frontier, nxt = nxt, frontier
        nf = nn
    return h


@kernel
def _straight_bounds(walls, goal):
    """``lower_bounds`` without barriers: int64[256], ``INF`` where the goal is unreachable.

    A slide may stop on any cell of its wall-free run, so a cell is one move from every other
    cell of its row segment and of its column segment (the maximal wall-free runs through it):
    the breadth-first search goes by segments, each spread once (about 512 cell visits; the
    walk from every cell in four directions, as the barrier version does, made about 5,000
    and took 12 µs, as long as a median puzzle's search)."""
    seg = np.empty(512, np.int64)  # cell -> its row segment's first cell; 256 + cell -> its column's
    for c in range(256):
        seg[c] = c if (c & 15) == 0 or walls[c - 1] & 2 else seg[c - 1]
        seg[256 + c] = c if c < 16 or walls[c - 16] & 1 else seg[256 + c - 16]
    return _levels(goal, walls, seg, np.empty(0, np.int64), np.empty(0, np.int64))


@kernel
def _barrier_bounds(stops, paths, r, goal):
    """``lower_bounds`` of robot ``r`` (colour index) on a board with barriers: the same
    breadth-first search on the reversed edges x -> y, y any cell on a deflected path from x."""
    limit = 4 * paths[NBAR]
    src = np.empty(65536, np.int64)
    dst = np.empty(65536, np.int64)
    stamp = np.full(256, -1, np.int64)
    m = 0
    for x in range(256):
        for d0 in range(4):
            cell = x
            d = d0
            entries = 0
            while True:
                hit = paths[r * 1024 + d * 256 + cell]
                end = hit if hit >= 0 else stops[d * 256 + cell]
                step = 16 if d == 0 else 1 if d == 1 else -16 if d == 2 else -1
                c = cell
                while c != end:
                    c += step
                    if stamp[c] != x:
                        stamp[c] = x
                        src[m] = x
                        dst[m] = c
                        m += 1
                if hit < 0:
                    break
                entries += 1
                if entries > limit:
                    break
                cell = hit
                if paths[ORIENT + hit] == 1:
                    d = d ^ 1
                else:
                    d = 3 - d
    start = np.zeros(257, np.int64)  # the reversed edges, grouped by their cell y
    for i in range(m):
        start[dst[i] + 1] += 1
    for y in range(256):
        start[y + 1] += start[y]
    fill = start[:256].copy()
    back = np.empty(max(m, 1), np.int64)
    for i in range(m):
        back[fill[dst[i]]] = src[i]
        fill[dst[i]] += 1
    return _levels(goal, np.empty(0, np.uint8), np.empty(0, np.int64), start, back)


@kernel
def _turning_ahead(walls, colour, orient, out):
    """``Board.turning_ahead`` of every robot into ``out`` (the ``path_table`` layout): per
    robot ``r``, direction ``d`` and cell, the nearest barrier turning ``r`` on the wall-free
    run from the cell towards ``d`` (the cell excluded), or -1."""
    for r in range(5):
        for d in range(4):
            bit = 1 << d
            step = 16 if d == 0 else 1 if d == 1 else -16 if d == 2 else -1
            base = r * 1024 + d * 256
            for i in range(256):
                x = 255 - i if step > 0 else i  # the neighbour towards d comes first
                if not walls[x] & bit:
                    y = x + step
                    out[base + x] = y if orient[y] > 0 and colour[y] != r else out[base + y]
    return out


def lower_bounds(walls, goal: int, paths: ndarray | None = None, robot: int = 0,
                 stops: ndarray | None = None) -> ndarray:
    """Per cell, a lower bound on the moves robot ``robot`` needs to reach ``goal``: int64[256],
    ``INF`` where it never can (the module docstring: slides may stop anywhere on their path).

    ``walls``: 256 wall masks (a sequence, or ``board_arrays``' uint8 array); ``paths``: the
    board's ``path_table`` when it has barriers, else ``None``; with barriers, ``robot`` is the
    colour index (R G B Y K = 0-4) that decides which barriers turn it and ``stops`` the
    kernel's slide table (int64[1024], ``d * 256 + cell``: where a lone robot sliding towards
    ``d`` stops, barriers ignored).
    """
    if paths is None:
        return _straight_bounds(np.array(walls, np.int64) if isinstance(walls, (list, tuple)) else walls, goal)
    return _barrier_bounds(stops, paths, robot, goal)


def path_table(board, walls: ndarray | None = None) -> ndarray:
    """A board's barriers for the IDA* kernel (``bots.ricochet_search``: ``r * 1024 + d * 256 +
    cell`` the nearest barrier turning robot ``r``, ``ORIENT + cell`` 1 for ``/``, 2 for ``\\``,
    ``NBAR`` the number of barriers): int64[NBAR + 1]. ``walls``: ``board_arrays(board)[0]``
    when at hand."""
    out = np.full(NBAR + 1, -1, np.int64)
    orient = np.zeros(256, np.int64)
    colour = np.full(256, -1, np.int64)
    for cell, (o, c) in board.diagonals.items():
        orient[cell] = 1 if o == "/" else 2
        colour[cell] = "RGBY".index(c)
    _turning_ahead(board_arrays(board)[0] if walls is None else walls, colour, orient, out)
    out[ORIENT:NBAR] = orient
    out[NBAR] = len(board.diagonals)
    return out
