"""Interaction notation: moves (``e1N``, ``h6NW``, ``pass``), position text, diagrams.

``docs/rules/interaction.md`` "Notation". The board is ``bytes`` of 81 cells (``rank * 9 + file``)
holding ``EMPTY``, ``RED``, ``BLUE`` or ``NEUTRAL``; clipped corners hold ``EMPTY``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from arena.errors import MoveSyntaxError, PositionSyntaxError
from arena.games.interaction.geometry import (
    CORNERS,
    DIRECTION_INDEX,
    DIRECTIONS,
    FILES,
    NUM_CELLS,
    POCKET,
    POCKET_RANK,
    SIZE,
    cell_name,
)
from arena.numbers import MAX_DIGITS, natural

EMPTY, RED, BLUE, NEUTRAL = 0, 1, 2, 3
#: Piece letters of the position text, by piece code.
PIECE_CHARS = ".RBY"
#: Piece code of seat 0 (Red) and seat 1 (Blue): ``seat + 1``.
SEAT_NAMES = ("Red", "Blue")

DEFAULT_SETUP = (
    "#.......#/........./.Y.YYY.Y./R.......B/........./B.......R/.Y.YYY.Y./........./#.......# r 0 0 0"
)


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """A move: the cue ball's cell and a direction index (``geometry.DIRECTIONS``), or ``PASS``.

    ``str(move)`` is the notation: lower-case file, rank, upper-case direction (``e1N``), or
    ``pass``. Moves are interned: ``Move(cell, direction)`` is the shared object
    ``MOVES[cell * 8 + direction]`` (``PASS`` for ``(-1, -1)``), so equality and hashing are
    identity, at C speed (search keys killer and history tables by move).
    """

    cell: int
    direction: int

    def __new__(cls, cell: int, direction: int) -> Move:
        if _INTERNED and 0 <= cell < NUM_CELLS and 0 <= direction < 8:
            return MOVES[cell * 8 + direction]
        if _INTERNED and cell == -1 and direction == -1:
            return PASS
        return object.__new__(cls)

    def __reduce__(self) -> tuple:
        return Move, (self.cell, self.direction)

    def __str__(self) -> str:
        cell, direction = self.cell, self.direction
        if cell < 0:
            return "pass"
        if cell < NUM_CELLS and 0 <= direction < 8:
            return _NAMES[cell * 8 + direction]
        return cell_name(cell) + DIRECTIONS[direction]

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @property
    def is_pass(self) -> bool:
        return self.cell < 0

    @staticmethod
    def parse(text: str) -> Move:
        """Read ``e1N`` / ``h6nw`` / ``PASS`` (any case).

        Raises:
            MoveSyntaxError: not a move of Interaction (or the square is a clipped corner).
        """
        return parse_move_text(text)


_INTERNED = False
PASS = Move(-1, -1)
#: ``MOVES[cell * 8 + direction]``: the shared Move object of each (cell, direction).
MOVES = tuple(Move(s >> 3, s & 7) for s in range(NUM_CELLS * 8))
_INTERNED = True
#: ``_NAMES[cell * 8 + direction]``: the notation of each move (``str``)
_NAMES = tuple(cell_name(s >> 3) + DIRECTIONS[s & 7] for s in range(NUM_CELLS * 8))
#: the notation as ``str`` writes it -> the move (``parse_move_text``'s dictionary lookup)
_BY_NAME = {_NAMES[s]: MOVES[s] for s in range(NUM_CELLS * 8) if s >> 3 not in CORNERS} | {"pass": PASS}

#: re.ASCII: with Unicode case folding "İ" would match the file letter i
_MOVE_RE = re.compile(r"^\s*([a-i])([1-9])(nw|ne|sw|se|n|e|s|w)\s*$", re.IGNORECASE | re.ASCII)


def parse_move_text(text: str) -> Move:
    """A ``Move`` from notation (case-insensitive).

    Raises:
        MoveSyntaxError: not ``<file a-i><rank 1-9><direction N NE E SE S SW W NW>`` or ``pass``,
            or the square is a clipped corner.
    """
    move = _BY_NAME.get(text) if text.__class__ is str else None
    if move is not None:  # as ``str`` writes it (what engines answer): no regular expression
        return move
    raw = str(text)
    if raw.strip().lower() == "pass":
        return PASS
    m = _MOVE_RE.match(raw)
    if not m:
        shown = raw if len(raw) <= 40 else raw[:40] + "..."
        raise MoveSyntaxError(
            f"bad Interaction move {shown!r}; expected a square a1-i9 and a direction "
            f"({' '.join(DIRECTIONS)}), e.g. e1N or h6NW, or 'pass'"
        )
    cell = (int(m.group(2)) - 1) * SIZE + FILES.index(m.group(1).lower())
    if cell in CORNERS:
        raise MoveSyntaxError(f"bad Interaction move {raw.strip()!r}: {cell_name(cell)} is a clipped corner, "
                              "not a cell")
    return MOVES[cell * 8 + DIRECTION_INDEX[m.group(3).upper()]]


#: the letters of a position text's board
_LETTERS = b".RBYrby#"
#: position text's board letters -> piece codes (``bytes.translate``; ``#`` reads as empty)
_READ = bytes.maketrans(_LETTERS, bytes((EMPTY, RED, BLUE, NEUTRAL, RED, BLUE, NEUTRAL, EMPTY)))
#: piece codes -> letters (``format_position``)
_WRITE = bytes.maketrans(bytes((EMPTY, RED, BLUE, NEUTRAL)), PIECE_CHARS.encode())
_POCKETS = slice(POCKET_RANK * SIZE, POCKET_RANK * SIZE + SIZE)
_SIDES = {"r": 0, "b": 1, "R": 0, "B": 1}
_SEPARATORS = "/" * (SIZE - 1)
_TEXT_LENGTH = NUM_CELLS + SIZE - 1


def parse_position(text: str) -> tuple[bytes, int, tuple[int, int], int]:
    """(board, side to move 0/1, (Red score, Blue score), ply count) from position text.

    A well-formed ASCII text is read whole by ``bytes.translate`` (an engine server reads one
    per ply); anything else goes through ``_parse_position_checked``, which names the first
    problem (both accept exactly the same texts: ``tests/games/test_interaction_props.py``).

    Raises:
        PositionSyntaxError: malformed text, a corner that is not ``#``, a ``#`` elsewhere, or
            a neutral on a pocket. (A player without a ball is accepted: it can only pass.)
    """
    text = str(text)
    fields = text.split()
    if len(fields) == 5 and text.isascii():
        board_text, side_text, red, blue, ply = fields
        side = _SIDES.get(side_text)
        counts = natural(red), natural(blue), natural(ply)
        if (side is not None and None not in counts and len(board_text) == _TEXT_LENGTH
                and board_text[SIZE::SIZE + 1] == _SEPARATORS and board_text.count("/") == SIZE - 1):
            raw = "".join(reversed(board_text.split("/"))).encode()  # rank 1 first: index = cell
            if (raw.count(b"#") == 4 and raw[0] == raw[SIZE - 1] == raw[NUM_CELLS - SIZE] == raw[NUM_CELLS - 1] == 35
                    and not raw.translate(None, _LETTERS)):
                board = raw.translate(_READ)
                if NEUTRAL not in board[_POCKETS]:
                    return board, side, (int(red), int(blue)), int(ply)  # all three are natural()
    return _parse_position_checked(fields, text)


def _parse_position_checked(fields: list[str], text: str) -> tuple[bytes, int, tuple[int, int], int]:
    """``parse_position`` cell by cell: the first problem raises ``PositionSyntaxError``."""
    form = "9 ranks 9..1 separated by '/' (# . R B Y), side r|b, Red score, Blue score, ply"
    if len(fields) != 5:
        raise PositionSyntaxError(f"bad Interaction position {_short(text)!r}: expected 5 fields: {form}")
    ranks = fields[0].split("/")
    if len(ranks) != SIZE or any(len(r) != SIZE for r in ranks):
        raise PositionSyntaxError(f"bad Interaction board {_short(fields[0])!r}: expected {form}")
    board = bytearray(NUM_CELLS)
    for row, rank_text in enumerate(ranks):
        y = SIZE - 1 - row
        for x, ch in enumerate(rank_text):
            cell = y * SIZE + x
            name = cell_name(cell)
            if cell in CORNERS:
                if ch != "#":
                    raise PositionSyntaxError(f"bad Interaction board: corner {name} must be '#', got {ch!r}")
                continue
            piece = PIECE_CHARS.find(ch.upper()) if ch != "#" else -1
            if piece < 0:
                raise PositionSyntaxError(
                    f"bad Interaction board: {ch!r} on {name}; accepted: . R B Y ('#' only on the corners)"
                )
            if piece == NEUTRAL and POCKET[cell]:
                raise PositionSyntaxError(f"bad Interaction board: a neutral on pocket {name} "
                                          "(rank 5 is the line of pockets)")
            board[cell] = piece
    side = {"r": 0, "b": 1}.get(fields[1].lower())
    if side is None:
        raise PositionSyntaxError(f"bad side to move {fields[1]!r}; accepted: r, b")
    numbers = []
    for label, value in zip(("Red score", "Blue score", "ply count"), fields[2:]):
        number = natural(value)
        if number is None:
            raise PositionSyntaxError(f"bad {label} {_short(value)!r}: expected a non-negative integer "
                                      f"of at most {MAX_DIGITS} digits")
        numbers.append(number)
    return bytes(board), side, (numbers[0], numbers[1]), numbers[2]


def format_position(board: bytes, side: int, scores: tuple[int, int], ply: int) -> str:
    """Position text (the inverse of ``parse_position``): ranks 9..1 of the 9x9 board, the
    clipped corners written ``#``, in one f-string."""
    c = board.translate(_WRITE).decode()  # rank 1 first
    return (f"#{c[73:80]}#/{c[63:72]}/{c[54:63]}/{c[45:54]}/{c[36:45]}/{c[27:36]}/{c[18:27]}/{c[9:18]}/#{c[1:8]}# "
            f"{'rb'[side]} {scores[0]} {scores[1]} {ply}")


def diagram(board: bytes, side: int, scores: tuple[int, int], ply: int, status: str) -> str:
    """A labelled picture: ranks 9..1, files a..i, empty pockets as ``o``, then a status line."""
    lines = []
    for y in range(SIZE - 1, -1, -1):
        cells = []
        for x in range(SIZE):
            cell = y * SIZE + x
            piece = board[cell]
            cells.append("#" if cell in CORNERS else PIECE_CHARS[piece] if piece else "o" if POCKET[cell] else ".")
        tail = "   <- pockets" if y == POCKET_RANK else ""
        lines.append(f"{y + 1}  {' '.join(cells)}{tail}")
    lines.append("   " + " ".join(FILES))
    lines.append(f"Red {scores[0]}  Blue {scores[1]}  ply {ply}  {status}")
    return "\n".join(lines)


def _short(text: str) -> str:
    text = str(text)
    return text if len(text) <= 60 else text[:60] + "..."
