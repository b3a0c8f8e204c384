"""A tiny game ranked by payoff, for the payoff statistics and the duplicate series: Dice Duel.

Each seat antes 1 chip; a chance node rolls ``DIE`` for seat 0, another for seat 1 (both seen by
both: perfect information). Seat 0 ``check``s (showdown for the ante: the higher roll wins 1
chip, equal rolls nothing) or ``bet``s; after a bet seat 1 ``call``s (showdown for 2 chips) or
``fold``s (seat 0 wins 1). The scores are the chips won: the game declares a ``Payoff``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar

import pytest

from arena.errors import IllegalMoveError, MoveSyntaxError, PositionSyntaxError
from arena.games import CHANCE, TERMINAL, Game, GameType, Outcome, Payoff, State
from tests.registered import register_game

#: the die: face -> probability (unequal, to test the draws)
DIE = (("r1", 0.5), ("r2", 0.3), ("r3", 0.2))
MOVES = ("check", "bet", "call", "fold")


class ChipsState(State):
    """A two-seat state whose scores are the chips seat 0 won from seat 1 (``won``), drawn at its
    chance nodes from ``CHANCES`` (outcome, probability)."""

    CHANCES: ClassVar[tuple[tuple[str, float], ...]] = ()

    def won(self) -> tuple[float, str]:
        """The chips seat 0 won at this terminal state, and the termination."""
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[str, float]]:
        return list(self.CHANCES) if self.to_move == CHANCE else []

    def is_terminal(self) -> bool:
        return self.to_move == TERMINAL

    def outcome(self):
        if not self.is_terminal():
            return None
        won, termination = self.won()
        return Outcome.from_scores([won, -won], termination)


@dataclass(frozen=True)
class DuelState(ChipsState):
    CHANCES = DIE
    rolls: tuple[int, ...] = ()
    actions: tuple[str, ...] = ()

    @property
    def to_move(self) -> int:  # type: ignore[override]
        if len(self.rolls) < 2:
            return CHANCE
        if self.actions in ((), ("bet",)):
            return len(self.actions)
        return TERMINAL

    def legal_moves(self) -> list[str]:
        return {0: ["check", "bet"], 1: ["call", "fold"]}.get(self.to_move, [])

    def play(self, move) -> DuelState:
        if self.to_move == CHANCE and move in dict(DIE):
            return DuelState((*self.rolls, int(move[1])), ())
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move!r} is not legal here; legal: {self.legal_moves() or dict(DIE)}")
        return DuelState(self.rolls, (*self.actions, move))

    def won(self) -> tuple[float, str]:
        if self.actions[-1] == "fold":
            return 1.0, "fold"
        stake = 2.0 if self.actions[-1] == "call" else 1.0
        a, b = self.rolls
        return (stake if a > b else -stake if a < b else 0.0), "showdown"

    def to_text(self) -> str:
        return f"{','.join(map(str, self.rolls))};{','.join(self.actions)}"


class DiceDuel(Game):
    name = "dice-duel"
    summary = "roll, bet or check, call or fold: chips won"
    type = GameType(2, 2, chance_nodes=True)
    TERMINATIONS = {"fold": "seat 1 folded to a bet", "showdown": "the higher roll won the stake"}
    payoff = Payoff("chips", forfeit=2.0, big_blind=1.0, blind="the ante, 1 chip")

    def initial_state(self, seed=None) -> DuelState:
        return DuelState()

    def parse_state(self, text: str) -> DuelState:
        rolls, sep, actions = str(text).partition(";")
        try:
            state = DuelState(tuple(int(r) for r in rolls.split(",") if r), ())
            for move in filter(None, actions.split(",")):
                state = state.play(move)
        except (ValueError, IllegalMoveError):
            raise PositionSyntaxError(f"bad dice-duel position {text!r}; expected 'R0,R1;ACTIONS'") from None
        if not sep:
            raise PositionSyntaxError(f"bad dice-duel position {text!r}; expected 'R0,R1;ACTIONS'")
        return state

    def parse_move(self, state, text: str) -> str:
        if text in MOVES or text in dict(DIE):
            return text
        raise MoveSyntaxError(f"bad dice-duel move {text!r}; expected one of {', '.join(MOVES)} or r1/r2/r3")


@contextmanager
def registered() -> Iterator[None]:
    """Dice Duel registered as ``dice-duel`` within the block only (a run and a report find it by
    name; other tests list every registered game, so it does not outlive the block)."""
    with pytest.MonkeyPatch.context() as patch:
        register_game(patch, DiceDuel.name, "tests.payoff_toy:DiceDuel")
        yield
