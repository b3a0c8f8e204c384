"""A tiny game ranked by payoff, for the payoff statistics and the duplicate series: Dice Duel.

Each seat antes 1 chip; a chance node rolls ``DIE`` for seat 0, another for seat 1 (both seen by
both: perfect information). Seat 0 ``check``s (showdown for the ante: the higher roll wins 1
chip, equal rolls nothing) or ``bet``s; after a bet seat 1 ``call``s (showdown for 2 chips) or
``fold``s (seat 0 wins 1). The scores are the chips won: the game declares a ``Payoff``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import ClassVar

import pytest

from arena.errors import IllegalMoveError, MoveSyntaxError, PositionSyntaxError
from arena.games import CHANCE, TERMINAL, Game, GameType, Outcome, Payoff, State
from tests.registered import register_game

#: the die: face -> probability (unequal, to test the draws)
DIE = (("r1", 0.5), ("r2", 0.3), ("r3", 0.2))


@dataclass(frozen=True)
class ChipsState(State):
    """A two-seat state: ``DRAWS`` chance outcomes drawn from ``CHANCES`` (outcome, probability),
    then the seats' ``actions``; its scores are the chips seat 0 won from seat 1 (``won``), its
    text the draws and the actions, ``DRAW,...;ACTION,...``."""

    CHANCES: ClassVar[tuple[tuple[str, float], ...]] = ()
    DRAWS: ClassVar[int] = 1
    #: the actions of each seat (0-based)
    ACTIONS: ClassVar[tuple[tuple[str, ...], ...]] = ((), ())
    draws: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()

    def acting(self) -> int | None:
        """The seat to act once the draws are made; ``None``: the game is over."""
        raise NotImplementedError

    def won(self) -> tuple[float, str]:
        """The chips seat 0 won at this terminal state, and the termination."""
        raise NotImplementedError

    @property
    def to_move(self) -> int:  # type: ignore[override]
        if len(self.draws) < self.DRAWS:
            return CHANCE
        seat = self.acting()
        return TERMINAL if seat is None else seat

    def legal_moves(self) -> list[str]:
        return list(self.ACTIONS[self.to_move]) if self.to_move >= 0 else []

    def chance_outcomes(self) -> list[tuple[str, float]]:
        return list(self.CHANCES) if self.to_move == CHANCE else []

    def play(self, move) -> ChipsState:
        if self.to_move == CHANCE and move in dict(self.CHANCES):
            return replace(self, draws=(*self.draws, move))
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move!r} is not legal here; legal: {self.legal_moves() or dict(self.CHANCES)}")
        return replace(self, actions=(*self.actions, move))

    def is_terminal(self) -> bool:
        return self.to_move == TERMINAL

    def outcome(self):
        if not self.is_terminal():
            return None
        won, termination = self.won()
        return Outcome.from_scores([won, -won], termination)

    def to_text(self) -> str:
        return f"{','.join(self.draws)};{','.join(self.actions)}"


class ChipsGame(Game):
    """A game of ``ChipsState``s (``state_class``) from its default state, positions read by
    replaying their text's draws and actions."""

    type = GameType(2, 2, chance_nodes=True)
    state_class: ClassVar[type[ChipsState]] = ChipsState

    def initial_state(self, seed=None) -> ChipsState:
        return self.state_class()

    def parse_state(self, text: str) -> ChipsState:
        draws, _, actions = str(text).partition(";")
        state: ChipsState | None = self.state_class()
        try:
            for move in filter(None, [*draws.split(","), *actions.split(",")]):
                state = state.play(move)
        except IllegalMoveError:
            state = None
        if state is None or state.to_text() != str(text).strip():
            raise PositionSyntaxError(f"bad {self.name} position {text!r}; expected 'DRAW,...;ACTION,...', the "
                                      "draws and the actions played")
        return state

    def parse_move(self, state, text: str) -> str:
        known = [*dict(self.state_class.CHANCES), *dict.fromkeys(a for seat in self.state_class.ACTIONS for a in seat)]
        if text in known:
            return text
        raise MoveSyntaxError(f"bad {self.name} move {text!r}; expected one of {', '.join(known)}")


@dataclass(frozen=True)
class DuelState(ChipsState):
    CHANCES = DIE
    DRAWS = 2
    ACTIONS = (("check", "bet"), ("call", "fold"))

    def acting(self) -> int | None:
        return len(self.actions) if self.actions in ((), ("bet",)) else None

    def won(self) -> tuple[float, str]:
        if self.actions[-1] == "fold":
            return 1.0, "fold"
        stake = 2.0 if self.actions[-1] == "call" else 1.0
        a, b = self.draws  # the rolls: r1 < r2 < r3
        return (stake if a > b else -stake if a < b else 0.0), "showdown"


class DiceDuel(ChipsGame):
    """Dice Duel (the module's docstring): roll, bet or check, call or fold; the chips won are the scores."""

    name = "dice-duel"
    TERMINATIONS = {"fold": "seat 1 folded to a bet", "showdown": "the higher roll won the stake"}
    payoff = Payoff("chips", forfeit=2.0, big_blind=1.0, blind="the ante, 1 chip")
    state_class = DuelState


@contextmanager
def registered() -> Iterator[None]:
    """Dice Duel registered as ``dice-duel`` within the block only (a run and a report find it by
    name; other tests list every registered game, so it does not outlive the block)."""
    with pytest.MonkeyPatch.context() as patch:
        register_game(patch, DiceDuel.name, "tests.payoff_toy:DiceDuel")
        yield
