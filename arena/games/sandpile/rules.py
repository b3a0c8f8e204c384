"""Sandpile tables and notation: constants, moves, per-parameter neighbour and wrap tables
(``docs/rules/sandpile.md`` "Board", "Toppling phase", "Notation")."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from arena.errors import IllegalMoveError, MoveSyntaxError

LETTERS = "ABCD"
SIDES = ("south", "west", "north", "east")


class Phase(StrEnum):
    """The phase of a Sandpile position, the third field of the position text
    (``docs/rules/sandpile.md`` "Notation"). A ``str``: it compares equal to its text and
    formats as it."""

    PLACE = "place"
    """A placement turn of the placing phase (``step``: the turn's index)."""
    BONUS = "bonus"
    """The bonus offer after the player's own placement (``step``: that placement's turn)."""
    ENDBONUS = "endbonus"
    """An end-of-round bonus offer to a holder after the last lap (``step``: the offer index
    0-3 from the round's starter)."""
    TOPPLE = "topple"
    """The toppling phase: the player topples one unstable stack."""
    OVER = "over"
    """The game is over (player ``A``, step 0)."""


#: The phases in text order (the accepted texts of the position's phase field).
PHASES = tuple(Phase)
#: A stack holding more than this many pieces is unstable ("Toppling phase").
STABLE_MAX = 3
#: (file, rank) steps N, E, S, W; player p topples in the order starting at index p.
_DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))
_PREFIX = {"place": "", "bonus": "+", "topple": "x"}


@dataclass(frozen=True)
class SandpileMove:
    """A move: ``c3`` place, ``+c3`` place the bonus piece, ``pass``, ``xc3`` topple.

    Attributes:
        kind: ``"place"``, ``"bonus"``, ``"pass"`` or ``"topple"``.
        cell: the cell name (``"c3"``), empty for ``pass``.
    """

    kind: str
    cell: str = ""

    def __str__(self) -> str:
        return "pass" if self.kind == "pass" else _PREFIX[self.kind] + self.cell


PASS = SandpileMove("pass")


class SandpileRules:
    """Per-parameter tables shared by every state of a game: cell names, board neighbours
    (no wrapping, for placement) and toppling destinations per player (with wrapping)."""

    def __init__(self, size: int, wrap: str, rounds: int, pieces_per_round: int, bonus: bool):
        self.size, self.wrap, self.rounds = size, wrap, rounds
        self.pieces_per_round, self.bonus = pieces_per_round, bonus
        self.cells = size * size
        self.turns = 4 * pieces_per_round  # placement turns per round
        self.names = tuple(f"{chr(97 + i % size)}{i // size + 1}" for i in range(self.cells))
        self.index = {name: i for i, name in enumerate(self.names)}
        self.adjacent = tuple(
            tuple(j for j in (self._step(i, d) for d in _DIRS) if j is not None)
            for i in range(self.cells)
        )
        #: dest[p][i]: the four cells receiving the 1st..4th piece when player p topples i.
        self.dest = tuple(
            tuple(tuple(self._wrapped(i, _DIRS[(p + k) % 4], wrap) for k in range(4)) for i in range(self.cells))
            for p in range(4)
        )
        #: around[i]: the distinct cells a toppling of i sends pieces to (any player).
        self.around = tuple(tuple(sorted(set(d))) for d in self.dest[0])
        self.around_mask = tuple(sum(1 << j for j in cells) for cells in self.around)
        self.full = (1 << self.cells) - 1
        first_file = sum(1 << (r * size) for r in range(size))
        self.not_first_file = self.full & ~first_file
        self.not_last_file = self.full & ~(first_file << (size - 1))
        self.place_moves = tuple(SandpileMove("place", n) for n in self.names)
        self.bonus_moves = tuple(SandpileMove("bonus", n) for n in self.names)
        self.topple_moves = tuple(SandpileMove("topple", n) for n in self.names)
        #: (move table, cell mask) -> the table's moves on the mask's cells (``moves_on``)
        self._lists: dict[tuple[int, int], tuple[SandpileMove, ...]] = {}

    def moves_on(self, table: tuple[SandpileMove, ...], mask: int) -> tuple[SandpileMove, ...]:
        """The moves of ``table`` (``place_moves``, ``bonus_moves`` or ``topple_moves``) on the
        set bits of ``mask``, ascending cells; memoised (move generation repeats masks)."""
        key = (id(table), mask)
        found = self._lists.get(key)
        if found is None:
            if len(self._lists) >= _MEMO_MAX:
                self._lists.clear()
            found = self._lists[key] = tuple(table[i] for i in cells_of(mask))
        return found

    def _step(self, i: int, d: tuple[int, int]) -> int | None:
        """The cell one step ``d`` (file, rank) from cell ``i``, ``None`` off the board."""
        n = self.size
        f, r = i % n + d[0], i // n + d[1]
        if 0 <= f < n and 0 <= r < n:
            return r * n + f
        return None

    def _wrapped(self, i: int, d: tuple[int, int], wrap: str) -> int:
        """The cell one step ``d`` from cell ``i``, re-entering the board by ``wrap``
        (``torus``, ``mirror``) off the edge."""
        j = self._step(i, d)
        if j is not None:
            return j
        n = self.size
        f, r = i % n + d[0], i // n + d[1]
        if wrap == "mirror":  # re-enter on the opposite side at the mirrored cell
            if not 0 <= r < n:
                f = n - 1 - f
            else:
                r = n - 1 - r
        return (r % n) * n + f % n

    def cell(self, move: SandpileMove) -> int:
        """Index of the move's cell. Raises: IllegalMoveError: no such cell on this board."""
        i = self.index.get(move.cell)
        if i is None:
            raise IllegalMoveError(f"no cell {move.cell!r} on a {self.size}x{self.size} board; "
                                   f"files a-{chr(96 + self.size)}, ranks 1-{self.size}")
        return i


@lru_cache(maxsize=64)
def rules_for(size: int, wrap: str, rounds: int, pieces_per_round: int, bonus: bool) -> SandpileRules:
    """The shared tables for one parameter set (cached)."""
    return SandpileRules(size, wrap, rounds, pieces_per_round, bonus)


#: entries kept by each memo of this module before it is cleared
_MEMO_MAX = 1 << 16
#: the set bits of each byte value, ascending
_BYTE_BITS = tuple(tuple(k for k in range(8) if b >> k & 1) for b in range(256))


def cells_of(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, ascending."""
    out: list[int] = []
    base = 0
    while mask:
        byte = mask & 255
        if byte:
            out.extend([base + k for k in _BYTE_BITS[byte]])
        mask >>= 8
        base += 8
    return out


def parse_move(text: str) -> SandpileMove:
    """Read ``c3``, ``+c3``, ``pass`` or ``xc3`` (cell existence is checked by ``play``).

    Raises:
        MoveSyntaxError: anything else.
    """
    t = str(text).strip().lower()
    if t == "pass":
        return PASS
    kind = {"+": "bonus", "x": "topple"}.get(t[:1], "place")
    cell = t[1:] if kind != "place" else t
    if len(cell) < 2 or not ("a" <= cell[0] <= "z") or not cell[1:].isdigit() or cell[1] == "0":
        raise MoveSyntaxError(f"bad Sandpile move {text!r}; expected c3 (place), +c3 (bonus), pass or xc3 (topple)")
    return SandpileMove(kind, cell)

