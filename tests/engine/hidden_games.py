"""Two small games with hidden information for the engine protocol's view tests, registered on
import (``test-highcard``, ``test-duel``; a test imports this module inside its fixture, so the
registration is undone after it), and a bot that keeps what it is handed.

High card: chance deals each of two seats a private card (1 to 3), seat 0 says ``bet`` or
``check``, seat 1 ``call`` or ``fold``; a fold loses, else the higher card wins (equal: a draw).
Duel: the same deal, then one simultaneous round where each seat says ``hi`` or ``lo``; a seat
whose word matches its card (``hi``: 3, ``lo``: 1, either: 2) scores one point.

A seat's view spans lines and ends in a space (as OpenSpiel's information states do):
``card: C\\nheard: W ... \\n``, the other seat's card never in it.
"""

from __future__ import annotations

import random
from typing import Any

import arena.games
from arena.errors import ConfigError, IllegalMoveError, MoveSyntaxError, PositionSyntaxError
from arena.games import CHANCE, SIMULTANEOUS, TERMINAL, Answer, Dynamics, Game, GameType, Outcome, State, View
from bots.base import ANY_GAME, Bot, SearchStats

CARDS = ("1", "2", "3")


class CardState(State):
    """``cards``: the dealt cards (texts); ``said``: the seats' words so far, in order."""

    def __init__(self, game: Game, cards: tuple[str, ...] = (), said: tuple[str, ...] = ()) -> None:
        self.game, self.cards, self.said = game, cards, said
        simultaneous = game.type.dynamics == Dynamics.SIMULTANEOUS
        if len(cards) < 2:
            self.to_move = CHANCE
        elif self._over():
            self.to_move = TERMINAL
        else:
            self.to_move = SIMULTANEOUS if simultaneous else len(said)

    def _over(self) -> bool:
        return len(self.said) == 2

    def _moves(self, seat: int) -> list[str]:
        if self.to_move == SIMULTANEOUS:
            return ["hi", "lo"]
        if self.to_move != seat:
            return []
        return ["bet", "check"] if seat == 0 else ["call", "fold"]

    def legal_moves(self) -> list:
        return self._moves(self.to_move) if self.to_move >= 0 else []

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        return [(c, 1 / 3) for c in CARDS] if self.to_move == CHANCE else []

    def play(self, move: Any) -> State:
        if self.to_move == CHANCE:
            if move not in CARDS:
                raise IllegalMoveError(f"{move!r} is no card")
            return CardState(self.game, self.cards + (move,), self.said)
        if self.to_move == SIMULTANEOUS:
            words = tuple(a.move if isinstance(a, Answer) else a for a in move)
            if any(w not in ("hi", "lo") for w in words):
                raise IllegalMoveError(f"answers {words!r}; accepted: hi, lo")
            after = CardState(self.game, self.cards, words)
            after.last_round = " ".join(words)
            return after
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move!r} is not legal; accepted: {', '.join(self.legal_moves())}")
        return CardState(self.game, self.cards, self.said + (move,))

    def is_terminal(self) -> bool:
        return self.to_move == TERMINAL

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        if self.game.type.dynamics == Dynamics.SIMULTANEOUS:
            scores = [float(w == {"3": "hi", "1": "lo"}.get(c, w)) for c, w in zip(self.cards, self.said)]
            return Outcome.from_scores(scores, "round")
        if self.said[1] == "fold":
            return Outcome.from_scores([1.0, 0.0], "fold")
        return Outcome.from_scores([float(self.cards[0]), float(self.cards[1])], "showdown")

    def to_text(self) -> str:
        return f"cards={','.join(self.cards) or '-'} said={','.join(self.said) or '-'}"

    def view(self, seat: int) -> State | View:
        text = f"card: {self.cards[seat] if seat < len(self.cards) else '?'}\nheard: {' '.join(self.said)} \n"
        if self.to_move == SIMULTANEOUS:  # the other seat's word of this round is not heard yet
            text = f"card: {self.cards[seat]}\nheard: \n"
        return View(self.game, seat, self.to_move, text, self._moves(seat))


class HighCard(Game):
    name = "test-highcard"
    type = GameType(2, 2, chance=True, deterministic=True, chance_nodes=True, hidden_information=True)
    TERMINATIONS = {"fold": "seat 1 folds", "showdown": "the higher card wins"}

    def initial_state(self, seed: int | None = None) -> State:
        return CardState(self)

    def parse_state(self, text: str) -> State:
        try:
            cards, said = (part.split("=", 1)[1] for part in text.split())
        except ValueError:
            raise PositionSyntaxError(f"bad position {text!r}") from None
        return CardState(self, tuple(cards.split(",")) if cards != "-" else (),
                         tuple(said.split(",")) if said != "-" else ())

    def parse_move(self, state: State, text: str) -> Any:
        if text not in CARDS + ("bet", "check", "call", "fold", "hi", "lo"):
            raise MoveSyntaxError(f"{text!r} is no move")
        return text


class Duel(HighCard):
    name = "test-duel"
    type = GameType(2, 2, Dynamics.SIMULTANEOUS, chance=True, chance_nodes=True, hidden_information=True)
    TERMINATIONS = {"round": "one round"}


class Recorder(Bot):
    """Plays the last of its moves and keeps every view it was handed (``SEEN``, in this process)."""

    name = "recorder"
    PLAYS = ANY_GAME
    SEEN: list[Any] = []

    def choose(self, state: Any, limits: Any) -> Any:
        self.SEEN.append(state)
        self.last_stats = SearchStats(nodes=1, depth=1)
        moves = state.legal_moves()
        return moves[-1] if moves else None


class Sampler(Bot):
    """Draws a full state from its view (``view.sample``), as an information-set search does, then
    plays the first of its moves."""

    name = "sampler"
    PLAYS = ANY_GAME

    def choose(self, view: Any, limits: Any) -> Any:
        view.sample(random.Random(0))
        self.last_stats = SearchStats(nodes=1)
        return view.legal_moves()[0]


def register() -> None:
    """Register both games in this process (``arena engine`` serving ``Recorder`` does so when it
    imports this module; a test registers them for itself, undone after it: ``test_views``)."""
    for game in (HighCard, Duel):
        try:
            arena.games.register(game.name, f"{__name__}:{game.__name__}")
        except ConfigError:  # this file loaded again under another module name (a bot file): the first stays
            pass


register()
