"""The Ricochet Robots board: quadrant assembly, walls, targets, slide tables
(``spec/ricochet.md`` "Board").

Cells are numbered ``(rank - 1) * 16 + file`` with files ``a``-``p`` = 0-15 and ranks 1-16
(south to north), so north is ``+16`` and east is ``+1``. Directions are indexed
``N=0, E=1, S=2, W=3``; a cell's walls are a 4-bit mask ``N=1, E=2, S=4, W=8``.

Board names: ``1A,2B,4A,3B`` (quadrant sides clockwise from the north-west), or a custom
map. **Custom map format** (``Board.to_map`` / ``Board.from_map``): 16 lines, rank 16 first,
each of 16 space-separated cell tokens, file ``a`` first. A token is one hexadecimal digit,
the cell's wall mask (``N=1, E=2, S=4, W=8``), optionally followed by a target code
(``RC``, ``GT``, ``BQ``, ``YH``... or ``V``), e.g. ``9`` (walls north and west) or ``3RC``.
Walls are made two-sided, the outer edge and the central block ``h8 i8 h9 i9`` are always
walled. In puzzle and state text a custom board is the single token ``map:`` followed by the
same map with ``,`` between cells and ``/`` between ranks.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from importlib.resources import files

from arena.errors import PositionSyntaxError

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


def square_name(cell: int) -> str:
    """``c5`` for a cell index."""
    return "abcdefghijklmnop"[cell % 16] + str(cell // 16 + 1)


def parse_square(text: str) -> int:
    """The cell index of ``c5``, ``P16`` (case-insensitive).

    Raises:
        PositionSyntaxError: not a square of the 16x16 board.
    """
    t = text.strip().lower()
    if len(t) >= 2 and "a" <= t[0] <= "p" and t[1:].isdigit() and 1 <= int(t[1:]) <= 16:
        return (int(t[1:]) - 1) * 16 + ord(t[0]) - ord("a")
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

    def __init__(self, walls: list[int], targets: dict[str, int], name: str | None = None):
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
        self.name = name or "map:" + self.to_map().replace(" ", ",").replace("\n", "/")

    def _slide(self, cell: int, d: int) -> int:
        while not self.walls[cell] & WALL_BIT[d]:
            cell += STEP[d]
        return cell

    # construction -------------------------------------------------------------------------
    @classmethod
    def assemble(cls, names: list[str] | tuple[str, ...]) -> Board:
        """The board of four quadrant sides ``[NW, NE, SE, SW]`` (``spec`` "Board").

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
        walls, targets = [0] * CELLS, {}
        for i, row in enumerate(rows):
            for f, token in enumerate(row):
                cell = (15 - i) * 16 + f
                try:
                    walls[cell] = int(token[0], 16)
                except ValueError:
                    raise PositionSyntaxError(f"bad board map cell {token!r}; accepted: a hex "
                                              "wall mask (N=1,E=2,S=4,W=8) + optional target") from None
                t = token[1:].upper()
                if t:
                    if t not in TARGETS or t in targets or cell in CENTRE:
                        raise PositionSyntaxError(f"bad or repeated target in map cell {token!r}")
                    targets[t] = cell
        if not targets:
            raise PositionSyntaxError("bad board map: no target")
        return cls(walls, targets)

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

    def to_map(self) -> str:
        """The board in the custom map format (round-trips through ``from_map``)."""
        lines = []
        for rk in range(15, -1, -1):
            cells = []
            for f in range(16):
                cell = rk * 16 + f
                cells.append(f"{self.walls[cell]:x}" + self.target_at.get(cell, ""))
            lines.append(" ".join(cells))
        return "\n".join(lines)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and (self.walls, self.targets) == (other.walls, other.targets)

    def __hash__(self) -> int:
        return hash(self.walls)

    def __repr__(self) -> str:
        return f"Board.parse({self.name!r})"


@lru_cache(maxsize=512)
def _assembled(names: tuple[str, ...]) -> Board:
    return Board.assemble(names)


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
