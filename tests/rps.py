"""A rock-paper-scissors game and three bots that form a cycle, for testing what the reports
say about non-transitive fields (``arena.reports.cycles``).

Seat 0 shows a hand (``R``, ``P`` or ``S``), then seat 1 (the bots never look at the other's
hand); rock beats scissors, scissors beat paper, paper beats rock, equal hands draw. Position
text: the hands shown so far (``""``, ``"R"``, ``"RP"``). ``Rock`` shows rock 80% of the time
and a uniformly random hand otherwise (seeded per game); ``Paper`` and ``Scissors`` likewise:
each bot scores about 70% against the one its hand beats.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.errors import IllegalMoveError, MoveSyntaxError, PositionSyntaxError
from arena.games import TERMINAL, Game, GameType, Outcome, State
from bots.base import ANY_GAME, Bot, Limits, SearchStats

HANDS = ("R", "P", "S")
BEATS = {"R": "S", "S": "P", "P": "R"}


@dataclass(frozen=True)
class HandsState(State):
    shown: str

    @property
    def to_move(self) -> int:
        return TERMINAL if len(self.shown) == 2 else len(self.shown)

    def legal_moves(self) -> list[str]:
        return [] if self.is_terminal() else list(HANDS)

    def play(self, move) -> HandsState:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"cannot show {move!r} now")
        return HandsState(self.shown + move)

    def is_terminal(self) -> bool:
        return len(self.shown) == 2

    def outcome(self):
        if not self.is_terminal():
            return None
        a, b = self.shown
        scores = [0.5, 0.5] if a == b else [1.0, 0.0] if BEATS[a] == b else [0.0, 1.0]
        return Outcome.from_scores(scores, "showdown")

    def to_text(self) -> str:
        return self.shown


class Hands(Game):
    name = "hands"
    summary = "rock-paper-scissors, one hand each"
    type = GameType(2, 2)
    PARAMS: dict = {}

    @property
    def num_players(self) -> int:
        return 2

    def initial_state(self, seed=None) -> HandsState:
        return HandsState("")

    def parse_state(self, text: str) -> HandsState:
        if len(text) > 2 or any(c not in HANDS for c in text):
            raise PositionSyntaxError(f"bad hands position {text!r}; expected up to two of R, P, S")
        return HandsState(text)

    def parse_move(self, state, text: str) -> str:
        if text not in HANDS:
            raise MoveSyntaxError(f"bad hand {text!r}; expected R, P or S")
        return text


class _Favourite(Bot):
    """Shows ``HAND`` 80% of the time, else a uniformly random hand."""

    HAND = "R"
    PLAYS = ANY_GAME

    def choose(self, state, limits: Limits):
        self.last_stats = SearchStats(nodes=0, depth=0, seconds=0.0)
        return self.HAND if self.rng.random() < 0.8 else self.rng.choice(HANDS)


class Rock(_Favourite):
    name = "rock"
    HAND = "R"


class Paper(_Favourite):
    name = "paper"
    HAND = "P"


class Scissors(_Favourite):
    name = "scissors"
    HAND = "S"
