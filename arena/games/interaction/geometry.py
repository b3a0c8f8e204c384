"""Interaction board geometry: cells, directions, bounces, precomputed as flat tables.

``docs/rules/interaction.md`` "Board" and "Bounces". A cell is ``rank * 9 + file`` (0-based, file
``a`` = 0 west to ``i`` = 8 east, rank ``1`` = 0 south to ``9`` = 8 north); the four clipped
corners ``a1 i1 a9 i9`` are not cells. A direction is an index into ``DIRECTIONS``
(``N NE E SE S SW W NW``). A *state* of a rolling ball is ``cell * 8 + direction``.

Tables (tuples indexed by ``cell * 8 + direction``; entries for non-cells are ``-1``/empty):

- ``NEXT[s]``: the state after one paid step from ``s``, the free bounce included
  ("Bounces": corner cushions first, then straight walls).
- ``RAW[s]``: the plain neighbour cell ``cell + direction`` without bounce, or ``-1`` off the
  board (a row of balls is contiguous in a straight line: "A move", item 3).
- ``PATH_CELLS[s]`` / ``PATH_DIRS[s]``: the free path of a ball leaving ``s`` on an empty board,
  the cells entered and the direction of each step, until the path would repeat a (cell,
  direction) state. A cue ball that meets no ball along it never meets one (illegal move).
"""

from __future__ import annotations

SIZE = 9
NUM_CELLS = SIZE * SIZE
FILES = "abcdefghi"
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
VECTORS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
DIRECTION_INDEX = {name: i for i, name in enumerate(DIRECTIONS)}

CORNERS = frozenset({0, SIZE - 1, NUM_CELLS - SIZE, NUM_CELLS - 1})
#: Rank 5 (index 4) is the line of pockets.
POCKET_RANK = 4
#: ``POCKET[cell]`` is 1 for a pocket cell.
POCKET = bytes(1 if c // SIZE == POCKET_RANK else 0 for c in range(NUM_CELLS))
#: Inward normal of each clipped corner, and the two cushion cells beside it.
_CUSHIONS = {
    (0, 0): (1, 1),
    (SIZE - 1, 0): (-1, 1),
    (0, SIZE - 1): (1, -1),
    (SIZE - 1, SIZE - 1): (-1, -1),
}


def is_cell(x: int, y: int) -> bool:
    """True for a cell of the board (inside the 9x9 grid and not a clipped corner)."""
    return 0 <= x < SIZE and 0 <= y < SIZE and (x, y) not in _CUSHIONS


def cell_name(cell: int) -> str:
    """``"e1"`` for cell 4."""
    return f"{FILES[cell % SIZE]}{cell // SIZE + 1}"


def _cushion_normal(x: int, y: int) -> tuple[int, int] | None:
    """The inward normal of the corner cushion acting on cell (x, y), if any."""
    for (cx, cy), normal in _CUSHIONS.items():
        if abs(cx - x) + abs(cy - y) == 1:
            return normal
    return None


def bounce(x: int, y: int, dx: int, dy: int) -> tuple[int, int]:
    """The direction after the free bounce of a ball at (x, y) heading (dx, dy).

    Unchanged when the next cell is on the board ("Bounces": corner cushions, then straight
    walls, then a straight reversal for a diagonal aimed at a clipped corner).
    """
    if is_cell(x + dx, y + dy):
        return dx, dy
    normal = _cushion_normal(x, y)
    if normal is not None:
        dot = dx * normal[0] + dy * normal[1]
        if dot < 0:
            return dx - dot * normal[0], dy - dot * normal[1]
    if not 0 <= x + dx < SIZE:
        dx = -dx
    if not 0 <= y + dy < SIZE:
        dy = -dy
    if not is_cell(x + dx, y + dy):
        dx, dy = -dx, -dy
    return dx, dy


def _build() -> tuple[tuple[int, ...], tuple[int, ...]]:
    nxt = [-1] * (NUM_CELLS * 8)
    raw = [-1] * (NUM_CELLS * 8)
    for cell in range(NUM_CELLS):
        x, y = cell % SIZE, cell // SIZE
        if not is_cell(x, y):
            continue
        for d, (dx, dy) in enumerate(VECTORS):
            if is_cell(x + dx, y + dy):
                raw[cell * 8 + d] = (y + dy) * SIZE + x + dx
            bx, by = bounce(x, y, dx, dy)
            if not is_cell(x + bx, y + by):
                raise AssertionError(f"bounce from {cell_name(cell)} leaves the board")
            nxt[cell * 8 + d] = ((y + by) * SIZE + x + bx) * 8 + VECTORS.index((bx, by))
    return tuple(nxt), tuple(raw)


NEXT, RAW = _build()


def _paths() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    cells_out: list[tuple[int, ...]] = []
    dirs_out: list[tuple[int, ...]] = []
    for s in range(NUM_CELLS * 8):
        if NEXT[s] < 0:
            cells_out.append(())
            dirs_out.append(())
            continue
        seen = {s}
        cells: list[int] = []
        dirs: list[int] = []
        t = NEXT[s]
        while t not in seen:
            seen.add(t)
            cells.append(t >> 3)
            dirs.append(t & 7)
            t = NEXT[t]
        cells_out.append(tuple(cells))
        dirs_out.append(tuple(dirs))
    return tuple(cells_out), tuple(dirs_out)


PATH_CELLS, PATH_DIRS = _paths()

#: ``BIT[cell] == 1 << cell``: occupancy masks are ints with one bit per cell.
BIT = tuple(1 << c for c in range(NUM_CELLS))


def _runs(cells: tuple[int, ...], dirs: tuple[int, ...]) -> tuple[tuple[int, bool, dict[int, int]], ...]:
    """A path as straight runs between bounces: (mask of the run's cells, True when cell
    indices grow along it, {cell: index in the path}). The first ball met in a run is its
    lowest (growing) or highest occupied bit."""
    out = []
    i = 0
    while i < len(cells):
        j = i
        while j < len(cells) and dirs[j] == dirs[i]:
            j += 1
        run = cells[i:j]
        out.append((sum(1 << c for c in run), run[-1] > run[0] or (len(run) == 1),
                    {c: i + k for k, c in enumerate(run)}))
        i = j
    return tuple(out)


def _strikes(cell: int) -> tuple:
    out = []
    for s in range(cell * 8, cell * 8 + 8):
        runs = _runs(PATH_CELLS[s], PATH_DIRS[s])
        if runs:
            out.append((s, sum(1 << c for c in set(PATH_CELLS[s])), *runs[0], runs[1:]))
    return tuple(out)


#: ``STRIKES[cell]``: for the 8 directions, (state, mask of the whole free path, the first
#: run's mask, grows and index, the other runs), for finding the first ball on a cue path.
STRIKES = tuple(_strikes(cell) for cell in range(NUM_CELLS))

#: Every cell of the board, in index order (77 cells).
CELLS = tuple(c for c in range(NUM_CELLS) if is_cell(c % SIZE, c // SIZE))


def free_path(cell: int, direction: int) -> list[tuple[str, str]]:
    """The free path from ``cell`` heading ``direction`` as (cell name, direction name) pairs,
    up to the first repeated state (for tests and explanations)."""
    s = cell * 8 + direction
    return [(cell_name(c), DIRECTIONS[d]) for c, d in zip(PATH_CELLS[s], PATH_DIRS[s])]
