"""Small games with hidden information for the bots' tests, written to the ``View`` contract
(``arena.games.views``): Kuhn poker with a sampler of the opponent's card (and a copy without a
sampler), and a one-round simultaneous dilemma.

Kuhn poker: three cards (``J``, ``Q``, ``K``), one dealt to each seat by chance, an ante of 1;
seat 0 passes or bets 1, seat 1 answers, seat 0 answers a bet after its pass; a bet answered by
a pass folds, else the higher card wins the pot. Moves ``Pass`` and ``Bet``; a seat's view is
its card and the moves so far (``Kb``: the king, facing a bet).
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.errors import IllegalMoveError, MoveSyntaxError, PositionSyntaxError
from arena.games import CHANCE, SIMULTANEOUS, TERMINAL, Dynamics, Game, GameType, Outcome, State, View

CARDS = "JQK"
MOVES = ("Pass", "Bet")
#: the move sequences that end a hand
ENDS = {"pp", "bp", "bb", "pbp", "pbb"}


@dataclass(frozen=True)
class KuhnState(State):
    game: Game
    cards: str  # the cards dealt so far, seat 0's first
    history: str  # p = pass, b = bet

    @property
    def to_move(self) -> int:  # type: ignore[override]
        if len(self.cards) < 2:
            return CHANCE
        return TERMINAL if self.history in ENDS else len(self.history) % 2

    def legal_moves(self) -> list[str]:
        return list(MOVES) if self.to_move >= 0 else []

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if self.to_move != CHANCE:
            return []
        left = [c for c in CARDS if c not in self.cards]
        return [(c, 1 / len(left)) for c in left]

    def play(self, move) -> KuhnState:
        if self.to_move == CHANCE and move in dict(self.chance_outcomes()):
            return KuhnState(self.game, self.cards + move, self.history)
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move!r} is not legal here")
        return KuhnState(self.game, self.cards, self.history + move[0].lower())

    def is_terminal(self) -> bool:
        return self.to_move == TERMINAL

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        h = self.history
        if h in ("bp", "pbp"):  # a fold: the bettor takes the ante
            winner, stake = (0 if h == "bp" else 1), 1
        else:
            higher = CARDS.index(self.cards[0]) > CARDS.index(self.cards[1])
            winner, stake = (0 if higher else 1), (1 if h == "pp" else 2)
        return Outcome.from_scores([stake if s == winner else -stake for s in range(2)], "showdown")

    def view(self, seat: int) -> View:
        text = (self.cards[seat] if len(self.cards) > seat else "") + self.history
        moves = self.legal_moves() if self.to_move == seat else []
        return View(self.game, seat, self.to_move, text, moves, self._sampler(seat) if self.game.SAMPLED else None)

    def _sampler(self, seat: int):
        mine = self.cards[seat] if len(self.cards) > seat else None

        def sample(rng) -> KuhnState:
            if len(self.cards) < 2 or mine is None:
                return self
            other = rng.choice([c for c in CARDS if c != mine])
            return KuhnState(self.game, mine + other if seat == 0 else other + mine, self.history)
        return sample

    def to_text(self) -> str:
        return f"{self.cards}/{self.history}"


class Kuhn(Game):
    name = "kuhn"
    summary = "Kuhn poker (three cards, one each), with a sampler of the views"
    type = GameType(2, 2, chance_nodes=True, hidden_information=True)
    PARAMS: dict = {}
    SAMPLED = True

    def initial_state(self, seed=None) -> KuhnState:
        return KuhnState(self, "", "")

    def parse_state(self, text: str) -> KuhnState:
        cards, sep, history = text.partition("/")
        if not sep or len(cards) > 2 or any(c not in CARDS for c in cards) or any(c not in "pb" for c in history):
            raise PositionSyntaxError(f"bad kuhn position {text!r}; expected CARDS/HISTORY, e.g. KJ/pb")
        return KuhnState(self, cards, history)

    def parse_move(self, state, text: str) -> str:
        if text not in MOVES and text not in CARDS:
            raise MoveSyntaxError(f"bad kuhn move {text!r}; expected Pass, Bet or a card")
        return text


class KuhnUnsampled(Kuhn):
    """Kuhn poker whose views cannot be sampled."""

    name = "kuhn-unsampled"
    SAMPLED = False


#: the dilemma's payoffs by (seat 0's move, seat 1's move): D dominates C for both seats
PAYOFFS = {("C", "C"): (3, 3), ("C", "D"): (0, 5), ("D", "C"): (5, 0), ("D", "D"): (1, 1)}


@dataclass(frozen=True)
class DilemmaState(State):
    game: Game
    played: tuple[str, ...] = ()

    @property
    def to_move(self) -> int:  # type: ignore[override]
        return TERMINAL if self.played else SIMULTANEOUS

    def legal_moves(self) -> list:
        return []

    def play(self, move) -> DilemmaState:
        answers = tuple(a.move for a in move)
        if self.played or len(answers) != 2 or any(a not in ("C", "D") for a in answers):
            raise IllegalMoveError(f"bad answers {answers!r}")
        return DilemmaState(self.game, answers)

    def is_terminal(self) -> bool:
        return bool(self.played)

    def outcome(self) -> Outcome | None:
        return Outcome.from_scores(PAYOFFS[self.played], "payoff") if self.played else None  # type: ignore[index]

    def view(self, seat: int) -> View:
        return View(self.game, seat, self.to_move, " ".join(self.played), () if self.played else ("C", "D"),
                    lambda rng: self)

    def to_text(self) -> str:
        return " ".join(self.played)


class Dilemma(Game):
    name = "dilemma"
    summary = "a one-round prisoner's dilemma, both seats at once"
    type = GameType(2, 2, dynamics=Dynamics.SIMULTANEOUS, hidden_information=True)
    PARAMS: dict = {}

    def initial_state(self, seed=None) -> DilemmaState:
        return DilemmaState(self)

    def parse_state(self, text: str) -> DilemmaState:
        raise PositionSyntaxError("the dilemma has no position text")

    def parse_move(self, state, text: str) -> str:
        return text
