"""Tic-tac-toe for testing search: a two-player game with draws and real transpositions.

Cells 0..8 row by row; X (seat 0) moves first. Position text: 9 characters ``.XO`` then the
side to move ``x`` / ``o``.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.errors import IllegalMoveError, MoveSyntaxError, PositionSyntaxError
from arena.games import TERMINAL, Game, GameType, Outcome, State

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def _winner(cells: str) -> int | None:
    for a, b, c in LINES:
        if cells[a] != "." and cells[a] == cells[b] == cells[c]:
            return "XO".index(cells[a])
    return None


@dataclass(frozen=True)
class TicTacToeState(State):
    cells: str
    side: int

    @property
    def to_move(self) -> int:
        return TERMINAL if self.is_terminal() else self.side

    def legal_moves(self) -> list[int]:
        if self.is_terminal():
            return []
        return [i for i, ch in enumerate(self.cells) if ch == "."]

    def play(self, move) -> TicTacToeState:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"cell {move!r} is not free (or the game is over)")
        cells = self.cells[:move] + "XO"[self.side] + self.cells[move + 1:]
        return TicTacToeState(cells, 1 - self.side)

    def is_terminal(self) -> bool:
        return _winner(self.cells) is not None or "." not in self.cells

    def outcome(self):
        if not self.is_terminal():
            return None
        w = _winner(self.cells)
        scores = [0.5, 0.5] if w is None else [1.0 if s == w else 0.0 for s in (0, 1)]
        return Outcome.from_scores(scores, "line" if w is not None else "full")

    def to_text(self) -> str:
        return f"{self.cells} {'xo'[self.side]}"


class TicTacToe(Game):
    name = "tictactoe"
    summary = "three in a row"
    type = GameType(2, 2)

    def initial_state(self, seed=None) -> TicTacToeState:
        return TicTacToeState("." * 9, 0)

    def parse_state(self, text: str) -> TicTacToeState:
        try:
            cells, side = text.split()
        except ValueError:
            raise PositionSyntaxError(f"bad tic-tac-toe position {text!r}; expected 9 of .XO and x|o") from None
        if len(cells) != 9 or set(cells) - set(".XO") or side not in ("x", "o"):
            raise PositionSyntaxError(f"bad tic-tac-toe position {text!r}; expected 9 of .XO and x|o")
        return TicTacToeState(cells, "xo".index(side))

    def parse_move(self, state, text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise MoveSyntaxError(f"bad tic-tac-toe move {text!r}; expected a cell 0..8") from None
