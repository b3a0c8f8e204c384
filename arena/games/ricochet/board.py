"""The Ricochet Robots board: quadrant assembly, walls, targets, slide tables
(``docs/rules/ricochet.md`` "Board").

Cells are numbered ``(rank - 1) * 16 + file`` with files ``a``-``p`` = 0-15 and ranks 1-16
(south to north), so north is ``+16`` and east is ``+1``. Directions are indexed
``N=0, E=1, S=2, W=3``; a cell's walls are a 4-bit mask ``N=1, E=2, S=4, W=8``.

Board names: ``1A,2B,4A,3B`` (quadrant sides clockwise from the north-west), or a custom
map. **Custom map format** (``Board.to_map`` / ``Board.from_map``): 16 lines, rank 16 first,
each of 16 space-separated cell tokens, file ``a`` first. A token is one hexadecimal digit,
the cell's wall mask (``N=1, E=2, S=4, W=8``), optionally followed by a target code
(``RC``, ``GT``, ``BQ``, ``YH``... or ``V``), e.g. ``9`` (walls north and west) or ``3RC``.
Walls are made two-sided, the outer edge and the central block ``h8 i8 h9 i9`` are always
walled. A coloured diagonal barrier (``docs/rules/ricochet.md`` "Second edition: coloured
diagonal barriers") is written after the wall digit as its orientation and colour, ``0/R``
(south-west to north-east, red) or ``4\\G``; a cell holds a barrier or a target, not both.
In puzzle and state text a custom board is the single token ``map:`` followed by the same
map without barriers, ``,`` between cells and ``/`` between ranks; barriers are then the
puzzle text's ``diag=`` field (``diag=e5/R,k11\\G``, ``format_diagonals``).

Barriers: ``Board.diagonals`` maps a cell to ``(orientation, colour)`` (``"/"`` or ``"\\"``,
``"R" "G" "B" "Y"``). ``Board.path(robot, cell, d)`` is the free path of a robot (index =
colour, ``R G B Y K`` = 0-4) leaving ``cell`` in direction ``d``, barriers included.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from importlib.resources import files

from arena.errors import PositionSyntaxError
from arena.numbers import natural

SIZE = 16
CELLS = SIZE * SIZE
DIRS = "NESW"
STEP = (16, 1, -16, -1)
WALL_BIT = (1, 2, 4, 8)
OPPOSITE = (2, 3, 0, 1)
COLOURS = "RGBYK"
SHAPES = "CTQH"
TARGETS = tuple(c + s for c in "RGBY" for s in SHAPES) + ("V",)
CENTRE = (7 * 16 + 7, 7 * 16 + 8, 8 * 16 + 7, 8 * 16 + 8)  # h8 i8 h9 i9
QUADRANTS = tuple(f"{n}{s}" for n in "1234" for s in "AB")
BARRIER_COLOURS = "RGBY"


def deflect(orientation: str, d: int) -> int:
    """The direction after a barrier: ``/`` turns N<->E and S<->W, ``\\`` turns N<->W and
    S<->E (``docs/rules/ricochet.md`` "Second edition")."""
    return d ^ 1 if orientation == "/" else 3 - d


def square_name(cell: int) -> str:
    """``c5`` for a cell index."""
    return "abcdefghijklmnop"[cell % 16] + str(cell // 16 + 1)


def parse_square(text: str) -> int:
    """The cell index of ``c5``, ``P16`` (case-insensitive).

    Raises:
        PositionSyntaxError: not a square of the 16x16 board.
    """
    t = text.strip().lower()
    rank = natural(t[1:])
    if len(t) >= 2 and "a" <= t[0] <= "p" and rank is not None and 1 <= rank <= 16:
        return (rank - 1) * 16 + ord(t[0]) - ord("a")
    raise PositionSyntaxError(f"bad square {text!r}; accepted: a1..p16")


@lru_cache(maxsize=1)
def _quadrant_data() -> dict:
    return json.loads(files("arena.games.ricochet").joinpath("quadrants.json").read_text())["quadrants"]


def _place(position: int, r: int, c: int) -> int:
    """Cell of quadrant-local (row, col) (north-west orientation) placed at ``position``
    (0 NW, 1 NE, 2 SE, 3 SW), turned ``position`` quarter turns clockwise."""
    for _ in range(position):
        r, c = c, 7 - r
    row = r + (8 if position in (2, 3) else 0)
    col = c + (8 if position in (1, 2) else 0)
    return (15 - row) * 16 + col


class Board:
    """An immutable 16x16 board: walls, targets and slide stops ignoring robots.

    Attributes:
        name: the board's name (``1A,2B,4A,3B`` or a ``map:...`` token).
        walls: per cell, the wall mask (``N=1, E=2, S=4, W=8``).
        targets: target code -> cell.
        stops: ``stops[d][cell]``: where a lone robot sliding in direction ``d`` stops.
    """

    def __init__(self, walls: list[int], targets: dict[str, int], name: str | None = None,
                 diagonals: dict[int, tuple[str, str]] | None = None):
        walls = list(walls)
        for cell in range(CELLS):
            f, rk = cell % 16, cell // 16
            if rk == 15:
                walls[cell] |= 1
            if f == 15:
                walls[cell] |= 2
            if rk == 0:
                walls[cell] |= 4
            if f == 0:
                walls[cell] |= 8
        for cell in CENTRE:
            walls[cell] = 15
        for cell in range(CELLS):  # make every wall two-sided
            for d in range(4):
                if walls[cell] & WALL_BIT[d]:
                    n = _neighbour(cell, d)
                    if n is not None:
                        walls[n] |= WALL_BIT[OPPOSITE[d]]
        self.walls = tuple(walls)
        self.targets = dict(targets)
        self.target_at = {cell: t for t, cell in self.targets.items()}
        self.stops = tuple(tuple(self._slide(cell, d) for cell in range(CELLS)) for d in range(4))
        self.diagonals: dict[int, tuple[str, str]] = dict(diagonals or {})
        self._paths: dict[int, tuple] = {}
        self._hash = _board_hash(self.walls, self.diagonals)
        self.name = name or "map:" + self.to_map(barriers=False).replace(" ", ",").replace("\n", "/")

    def with_diagonals(self, diagonals: dict[int, tuple[str, str]]) -> Board:
        """The same board (and name) with these barriers instead of its own.

        Raises:
            PositionSyntaxError: a barrier on a target or in the central block, or a bad
                orientation or colour.
        """
        for cell, (orient, colour) in diagonals.items():
            if orient not in "/\\" or len(orient) != 1 or colour not in BARRIER_COLOURS or len(colour) != 1:
                raise PositionSyntaxError(f"bad barrier on {square_name(cell)}: orientation / or \\, colour R G B Y")
            if cell in self.target_at or cell in CENTRE:
                raise PositionSyntaxError(f"bad barrier on {square_name(cell)}: not on a target or the central block")
        return _with_diagonals(self, tuple(sorted(diagonals.items())))

    def path(self, robot: int, cell: int, d: int) -> tuple[tuple[int, ...], bool]:
        """(cells entered, loops) of robot ``robot`` (colour index) leaving ``cell`` towards
        ``d`` on a board without other robots: it passes barriers of its colour, others turn
        it (``deflect``); the path ends before a wall, or when it would enter a cell in a
        direction it entered it before (``loops`` True: an endless loop unless a robot stops
        it). Robots end a move on the last cell before the first robot on this path."""
        key = (robot * 256 + cell) * 4 + d
        got = self._paths.get(key)
        if got is None:
            ahead = self._paths.get(-1 - robot)
            if ahead is None:
                ahead = self._paths[-1 - robot] = self.turning_ahead(robot)
            got = self._paths[key] = self._path(robot, cell, d, ahead)
        return got

    def _path(self, robot: int, cell: int, d: int, ahead: tuple) -> tuple[tuple[int, ...], bool]:
        """Straight runs between the barriers that turn this robot (``ahead``: see
        ``turning_ahead``); the path loops when it enters a turning barrier a second time in
        the same direction (motion is reversible, so a looping path is periodic from its
        start: cells after the repeat are repeats)."""
        cells: list[int] = []
        seen = set()
        while True:
            hit = ahead[d][cell]
            step = STEP[d]
            if hit < 0:
                cells.extend(range(cell + step, self.stops[d][cell] + step, step))
                return tuple(cells), False
            cells.extend(range(cell + step, hit + step, step))
            if (hit, d) in seen:
                return tuple(cells), True
            seen.add((hit, d))
            cell, d = hit, deflect(self.diagonals[hit][0], d)

    def turning_ahead(self, robot: int) -> tuple:
        """``ahead[d][cell]``: the nearest barrier that turns robot ``robot`` on the wall-free
        run from ``cell`` towards ``d`` (``cell`` excluded), or -1."""
        colour = COLOURS[robot]
        turns = [c in self.diagonals and self.diagonals[c][1] != colour for c in range(CELLS)]
        out = []
        for d in range(4):
            ahead = [-1] * CELLS
            step = STEP[d]
            # visit cells so that the neighbour towards d comes first
            order = range(CELLS - 1, -1, -1) if step > 0 else range(CELLS)
            for x in order:
                if not self.walls[x] & WALL_BIT[d]:
                    y = x + step
                    ahead[x] = y if turns[y] else ahead[y]
            out.append(tuple(ahead))
        return tuple(out)

    def _slide(self, cell: int, d: int) -> int:
        while not self.walls[cell] & WALL_BIT[d]:
            cell += STEP[d]
        return cell

    # construction -------------------------------------------------------------------------
    @classmethod
    def assemble(cls, names: list[str] | tuple[str, ...]) -> Board:
        """The board of four quadrant sides ``[NW, NE, SE, SW]`` (``docs/rules/ricochet.md`` "Board").

        Raises:
            PositionSyntaxError: not four sides, one of each board 1-4.
        """
        names = [n.strip().upper() for n in names]
        if len(names) != 4 or any(n not in QUADRANTS for n in names) or \
                sorted(n[0] for n in names) != ["1", "2", "3", "4"]:
            raise PositionSyntaxError(
                f"bad board {','.join(names)!r}; accepted: four quadrant sides NW,NE,SE,SW "
                "like 1A,2B,4A,3B (one side of each board 1-4), map:..., or random")
        walls = [0] * CELLS
        targets: dict[str, int] = {}
        data = _quadrant_data()
        for position, qname in enumerate(names):
            q = data[qname]
            for r, c, sides in q["walls"]:
                cell = _place(position, r, c)
                for s in sides:
                    walls[cell] |= WALL_BIT[(DIRS.index(s) + position) % 4]
            for r, c, t in q["targets"]:
                targets[t] = _place(position, r, c)
        return cls(walls, targets, ",".join(names))

    @classmethod
    def random(cls, rng: random.Random) -> Board:
        """One of the 384 assemblies, chosen with ``rng``."""
        order = ["1", "2", "3", "4"]
        rng.shuffle(order)
        return cls.assemble([n + rng.choice("AB") for n in order])

    @classmethod
    def from_map(cls, text: str) -> Board:
        """A custom board from the map format in this module's docstring.

        Raises:
            PositionSyntaxError: not 16 ranks of 16 cell tokens, or a bad token.
        """
        rows = [line.split() for line in text.strip().splitlines() if line.strip()]
        if len(rows) != 16 or any(len(r) != 16 for r in rows):
            raise PositionSyntaxError("bad board map: need 16 lines (rank 16 first) of 16 cells")
        walls, targets, diagonals = [0] * CELLS, {}, {}
        for i, row in enumerate(rows):
            for f, token in enumerate(row):
                cell = (15 - i) * 16 + f
                try:
                    walls[cell] = int(token[0], 16)
                except ValueError:
                    raise PositionSyntaxError(f"bad board map cell {token!r}; accepted: a hex wall mask "
                                              "(N=1,E=2,S=4,W=8) + optional barrier (/R, \\G) or target") from None
                t = token[1:].upper()
                if t[:1] in ("/", "\\"):
                    if len(t) != 2 or t[1] not in BARRIER_COLOURS:
                        raise PositionSyntaxError(f"bad barrier in map cell {token!r}; accepted: / or \\ + R G B Y")
                    diagonals[cell] = (t[0], t[1])
                    continue
                if t:
                    if t not in TARGETS or t in targets or cell in CENTRE:
                        raise PositionSyntaxError(f"bad or repeated target in map cell {token!r}")
                    targets[t] = cell
        if not targets:
            raise PositionSyntaxError("bad board map: no target")
        board = cls(walls, targets)
        return board.with_diagonals(diagonals) if diagonals else board

    @classmethod
    def parse(cls, text: str) -> Board:
        """A board from its name: ``1A,2B,4A,3B`` or ``map:...`` (one token).

        Raises:
            PositionSyntaxError: a malformed name.
        """
        text = text.strip()
        if text.lower().startswith("map:"):
            return cls.from_map(text[4:].replace(",", " ").replace("/", "\n"))
        return _assembled(tuple(text.upper().split(",")))

    def to_map(self, barriers: bool = True) -> str:
        """The board in the custom map format (round-trips through ``from_map``); without its
        barriers when ``barriers`` is False (the one-token ``map:`` name)."""
        lines = []
        for rk in range(15, -1, -1):
            cells = []
            for f in range(16):
                cell = rk * 16 + f
                bar = self.diagonals.get(cell) if barriers else None
                cells.append(f"{self.walls[cell]:x}" + ("".join(bar) if bar else self.target_at.get(cell, "")))
            lines.append(" ".join(cells))
        return "\n".join(lines)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and (self.walls, self.targets, self.diagonals) == \
            (other.walls, other.targets, other.diagonals)

    def __hash__(self) -> int:
        return self._hash  # computed once: solvers key their per-board tables on boards

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        del state["_hash"]  # strings hash differently in another process: computed again there
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._hash = _board_hash(self.walls, self.diagonals)

    def __repr__(self) -> str:
        return f"Board.parse({self.name!r})"


@lru_cache(maxsize=512)
def _assembled(names: tuple[str, ...]) -> Board:
    return Board.assemble(names)


@lru_cache(maxsize=512)
def _with_diagonals(board: Board, items: tuple) -> Board:
    out = Board.__new__(Board)
    out.__dict__.update(board.__dict__)
    out.diagonals = dict(items)
    out._paths = {}
    out._hash = _board_hash(out.walls, out.diagonals)
    return out


def _board_hash(walls: tuple[int, ...], diagonals: dict[int, tuple[str, str]]) -> int:
    return hash((walls, tuple(sorted(diagonals.items()))))


def format_diagonals(diagonals: dict[int, tuple[str, str]]) -> str:
    """``e5/R,k11\\G`` (cells in index order), ``""`` for none."""
    return ",".join(f"{square_name(c)}{o}{col}" for c, (o, col) in sorted(diagonals.items()))


def parse_diagonals(text: str) -> dict[int, tuple[str, str]]:
    """``e5/R,k11\\G`` (case-insensitive) -> {cell: (orientation, colour)}; ``""`` or ``-`` -> {}.

    Raises:
        PositionSyntaxError: a bad entry or a cell given twice.
    """
    out: dict[int, tuple[str, str]] = {}
    text = text.strip()
    if text in ("", "-"):
        return out
    for entry in text.split(","):
        e = entry.strip()
        if len(e) < 4 or e[-2] not in "/\\" or e[-1].upper() not in BARRIER_COLOURS:
            raise PositionSyntaxError(f"bad barrier {entry!r}; accepted: square + / or \\ + colour R G B Y, "
                                      "e.g. e5/R,k11\\G")
        cell = parse_square(e[:-2])
        if cell in out:
            raise PositionSyntaxError(f"bad barriers: {square_name(cell)} given twice")
        out[cell] = (e[-2], e[-1].upper())
    return out


def place_diagonals(board: Board, per_quadrant: int, rng: random.Random) -> dict[int, tuple[str, str]]:
    """``per_quadrant`` random barriers in each quadrant (``docs/rules/ricochet.md`` "Second
    edition"): on cells that hold no target, are not in or next to the central block and not
    next to a target ("next to": the 8 surrounding cells), random orientation and colour.

    Raises:
        PositionSyntaxError: a quadrant has too few such cells.
    """
    banned: set[int] = set()
    for cell in list(CENTRE) + list(board.target_at):
        f, rk = cell % 16, cell // 16
        banned.update(r * 16 + g for r in range(rk - 1, rk + 2) for g in range(f - 1, f + 2)
                      if 0 <= r < 16 and 0 <= g < 16)
    out: dict[int, tuple[str, str]] = {}
    for qf, qr in ((0, 8), (8, 8), (8, 0), (0, 0)):  # NW, NE, SE, SW
        free = [r * 16 + f for r in range(qr, qr + 8) for f in range(qf, qf + 8) if r * 16 + f not in banned]
        if len(free) < per_quadrant:
            raise PositionSyntaxError(f"cannot place {per_quadrant} barriers in a quadrant ({len(free)} free cells)")
        for cell in rng.sample(free, per_quadrant):
            out[cell] = (rng.choice("/\\"), rng.choice(BARRIER_COLOURS))
    return out


def _neighbour(cell: int, d: int) -> int | None:
    f, rk = cell % 16, cell // 16
    if (d == 0 and rk == 15) or (d == 1 and f == 15) or (d == 2 and rk == 0) or (d == 3 and f == 0):
        return None
    return cell + STEP[d]


def all_assemblies() -> list[str]:
    """The names of all 384 assemblies."""
    from itertools import permutations, product
    return [",".join(n + s for n, s in zip(order, sides))
            for order in permutations("1234") for sides in product("AB", repeat=4)]
