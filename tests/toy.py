"""A tiny game for testing the protocol, the match loop and search: n-player Nim.

``pile`` stones; players in turn take 1..``take`` stones; whoever takes the last stone wins
(rank 1); everyone else shares rank 2.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.errors import IllegalMoveError, MoveSyntaxError, PositionSyntaxError
from arena.games import CHANCE, TERMINAL, Game, GameType, Outcome, Param, State


@dataclass(frozen=True)
class NimState(State):
    pile: int
    to_move: int
    players: int
    take: int
    last: int = -1

    def legal_moves(self) -> list[int]:
        if self.is_terminal():
            return []
        return list(range(1, min(self.take, self.pile) + 1))

    def play(self, move) -> "NimState":
        if move not in self.legal_moves():
            raise IllegalMoveError(f"cannot take {move!r} from a pile of {self.pile}")
        pile = self.pile - move
        nxt = TERMINAL if pile == 0 else (self.to_move + 1) % self.players
        return NimState(pile, nxt, self.players, self.take, self.to_move)

    def is_terminal(self) -> bool:
        return self.pile == 0

    def outcome(self):
        if not self.is_terminal():
            return None
        scores = [1.0 if s == self.last else 0.0 for s in range(self.players)]
        return Outcome.from_scores(scores, "last_stone")

    def to_text(self) -> str:
        return f"{self.pile} {self.to_move} {self.last}"


class Nim(Game):
    name = "nim"
    summary = "take 1..take stones; last stone wins"
    type = GameType(2, None)
    PARAMS = {"pile": Param(10, "stones at the start", minimum=1), "take": Param(3, minimum=1),
              "players": Param(2, minimum=2)}

    @property
    def num_players(self) -> int:
        return self.params["players"]

    def initial_state(self, seed=None) -> NimState:
        return NimState(self.params["pile"], 0, self.params["players"], self.params["take"])

    def parse_state(self, text: str) -> NimState:
        try:
            pile, to_move, last = (int(x) for x in text.split())
        except ValueError:
            raise PositionSyntaxError(f"bad nim position {text!r}; expected 'PILE TO_MOVE LAST'") from None
        return NimState(pile, TERMINAL if pile == 0 else to_move, self.params["players"], self.params["take"], last)

    def parse_move(self, state, text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise MoveSyntaxError(f"bad nim move {text!r}; expected a number of stones") from None


#: Dice Nim's die: face -> probability (faces of unequal chance, to test the draw)
DIE = (("d1", 0.5), ("d2", 0.25), ("d3", 0.25))


@dataclass(frozen=True)
class DiceNimState(State):
    """Dice Nim: each turn begins at a chance node that rolls ``DIE``; the seat on turn then
    takes 1..roll stones (no more than the pile). Whoever takes the last stone wins."""

    pile: int
    seat: int
    roll: int
    players: int
    last: int = -1

    @property
    def to_move(self) -> int:  # type: ignore[override]
        return TERMINAL if self.pile == 0 else CHANCE if self.roll == 0 else self.seat

    def legal_moves(self) -> list[int]:
        return list(range(1, min(self.roll, self.pile) + 1)) if self.to_move >= 0 else []

    def chance_outcomes(self) -> list[tuple[str, float]]:
        return list(DIE) if self.to_move == CHANCE else []

    def play(self, move) -> "DiceNimState":
        if self.to_move == CHANCE:
            if move not in dict(DIE):
                raise IllegalMoveError(f"{move!r} is not a face of the die")
            return DiceNimState(self.pile, self.seat, int(move[1]), self.players, self.last)
        if move not in self.legal_moves():
            raise IllegalMoveError(f"cannot take {move!r} after a roll of {self.roll} from a pile of {self.pile}")
        return DiceNimState(self.pile - move, (self.seat + 1) % self.players, 0, self.players, self.seat)

    def is_terminal(self) -> bool:
        return self.pile == 0

    def outcome(self):
        if not self.is_terminal():
            return None
        return Outcome.from_scores([1.0 if s == self.last else 0.0 for s in range(self.players)], "last_stone")

    def to_text(self) -> str:
        return f"{self.pile} {self.seat} {self.roll} {self.last}"


class DiceNim(Game):
    name = "dice-nim"
    summary = "roll a die, take 1..roll stones; last stone wins"
    type = GameType(2, None, chance_nodes=True)
    PARAMS = {"pile": Param(12, "stones at the start", minimum=1), "players": Param(2, minimum=2)}

    @property
    def num_players(self) -> int:
        return self.params["players"]

    def initial_state(self, seed=None) -> DiceNimState:
        return DiceNimState(self.params["pile"], 0, 0, self.params["players"])

    def parse_state(self, text: str) -> DiceNimState:
        try:
            pile, seat, roll, last = (int(x) for x in text.split())
        except ValueError:
            raise PositionSyntaxError(f"bad dice-nim position {text!r}; expected 'PILE SEAT ROLL LAST'") from None
        return DiceNimState(pile, seat, roll, self.params["players"], last)

    def parse_move(self, state, text: str):
        if text in dict(DIE):
            return text
        try:
            return int(text)
        except ValueError:
            raise MoveSyntaxError(f"bad dice-nim move {text!r}; expected a number of stones or d1/d2/d3") from None
