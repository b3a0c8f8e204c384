"""High card: a tiny card game with hidden information, written as a user writes a game of
their own (``docs/how-to/hidden-information.md``), for the tests of views, the referee and the
leak check.

Each seat antes 1 and is dealt one card of a deck of ``deck`` cards (chance nodes, one per
seat); then each seat in turn calls (adds 1 to the pot) or folds. The highest card among the
callers takes the pot; if nobody calls, every ante goes back. A seat sees its own card and
every call and fold, never another seat's card: its view is ``card N | call fold ...``, and
its sampler deals the other seats fresh cards from the rest of the deck.

``LeakyHiCard`` is the same game with a bug: once a seat has called, each view also shows the
next seat's card, which the leak check must catch.
"""

from __future__ import annotations

import random

from arena.errors import IllegalMoveError, MoveSyntaxError, PositionSyntaxError
from arena.games import CHANCE, TERMINAL, Game, GameType, Outcome, Param, State, View

MOVES = ("call", "fold")


class HiCardState(State):
    """A position: the ``cards`` dealt so far (by seat) and the ``moves`` played since."""

    def __init__(self, game: HiCard, cards: tuple[int, ...] = (), moves: tuple[str, ...] = ()) -> None:
        self.game, self.cards, self.moves = game, cards, moves
        n = game.num_players
        self.to_move = CHANCE if len(cards) < n else len(moves) if len(moves) < n else TERMINAL

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if self.to_move != CHANCE:
            return []
        left = [c for c in range(self.game.params["deck"]) if c not in self.cards]
        return [(f"c{c}", 1 / len(left)) for c in left]

    def legal_moves(self) -> list[str]:
        return list(MOVES) if self.to_move >= 0 else []

    def play(self, move):
        if self.to_move == CHANCE and move in dict(self.chance_outcomes()):
            return type(self)(self.game, (*self.cards, int(move[1:])), self.moves)
        if self.to_move >= 0 and move in MOVES:
            return type(self)(self.game, self.cards, (*self.moves, move))
        raise IllegalMoveError(f"{move!r} is not legal here; legal: {self.legal_moves() or self.chance_outcomes()}")

    def is_terminal(self) -> bool:
        return self.to_move == TERMINAL

    def outcome(self) -> Outcome | None:
        if self.to_move != TERMINAL:
            return None
        callers = [s for s, m in enumerate(self.moves) if m == "call"]
        if not callers:
            return Outcome.from_scores([0.0] * len(self.cards), "all_fold")
        pot = len(self.cards) + len(callers)
        best = max(callers, key=lambda s: self.cards[s])
        paid = [1 + (m == "call") for m in self.moves]
        return Outcome.from_scores([(pot if s == best else 0) - paid[s] for s in range(len(paid))], "showdown")

    def to_text(self) -> str:
        return " ".join(f"c{c}" for c in self.cards) + " | " + " ".join(self.moves)

    def seen(self, seat: int) -> str:
        """What ``seat`` may know: its own card and the moves."""
        own = f"card {self.cards[seat]}" if seat < len(self.cards) else "card ?"
        return f"{own} | {' '.join(self.moves)}".rstrip()

    def view(self, seat: int) -> View:
        moves = self.legal_moves() if self.to_move == seat else []
        return View(self.game, seat, self.to_move, self.seen(seat), moves, lambda rng: self.sample(seat, rng))

    def sample(self, seat: int, rng: random.Random) -> HiCardState:
        """A state ``seat`` cannot tell from this one: the other seats' cards dealt afresh from
        the cards it does not hold."""
        if seat >= len(self.cards):
            return self
        rest = [c for c in range(self.game.params["deck"]) if c != self.cards[seat]]
        rng.shuffle(rest)
        cards = [self.cards[seat] if s == seat else rest.pop() for s in range(len(self.cards))]
        return type(self)(self.game, tuple(cards), self.moves)


class HiCard(Game):
    name = "hicard"
    summary = "one card each, call or fold, high card wins"
    type = GameType(2, 4, chance_nodes=True, hidden_information=True)
    PARAMS = {"deck": Param(5, "cards in the deck", minimum=2, maximum=52),
              "players": Param(2, "seats", minimum=2, maximum=4)}
    TERMINATIONS = {"showdown": "every seat has called or folded", "all_fold": "nobody called"}
    state_class = HiCardState

    @property
    def num_players(self) -> int:
        return self.params["players"]

    def initial_state(self, seed=None) -> HiCardState:
        return self.state_class(self)

    def parse_state(self, text: str) -> HiCardState:
        cards, sep, moves = str(text).partition(" | ")
        try:
            dealt = tuple(int(c[1:]) for c in cards.split() if c[0] == "c")
        except (ValueError, IndexError):
            dealt = None
        words = tuple(moves.split())
        if not sep or dealt is None or any(w not in MOVES for w in words) or len(set(dealt)) < len(dealt):
            raise PositionSyntaxError(f"bad hicard position {str(text)[:40]!r}; accepted: 'c1 c3 | call fold'")
        return self.state_class(self, dealt, words)

    def parse_move(self, state, text: str) -> str:
        if text in MOVES or (text[:1] == "c" and text[1:].isdigit()):
            return text
        raise MoveSyntaxError(f"bad hicard move {text[:20]!r}; accepted: call, fold, cN (a card dealt)")


class LeakyState(HiCardState):
    def seen(self, seat: int) -> str:
        """The bug: after the first call, the next seat's card shows too."""
        text = super().seen(seat)
        nxt = (seat + 1) % self.game.num_players
        if "call" in self.moves and nxt < len(self.cards):
            text += f" | seat {nxt} holds {self.cards[nxt]}"
        return text


class LeakyHiCard(HiCard):
    name = "leaky-hicard"
    state_class = LeakyState
