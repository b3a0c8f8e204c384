"""``known``: a test game of known strengths, for checking the statistics the reports print
(``docs/statistics.md`` "Coverage of the intervals", ``arena bench --only coverage``).

Every seat first **declares its strength**, an Elo number (the ``known`` bot plays its
``elo`` option; ``bots.known``), seat 0 first; then **one chance ply** decides the game from the
declared strengths, so the result is drawn from the game's seeded chance and is reproducible.

- **Two players**: seat 0 scores ``s = 1/(1 + 10^(-(r_0 - r_1 + first)/400))`` in expectation,
  the logistic Elo model with a first-move term of ``first`` Elo. A share of the games is drawn:
  ``D = 2·draws·min(s, 1 - s)`` (``draws`` is the draw rate between equal bots), the rest won
  ``s - D/2`` and lost ``1 - s - D/2``, so the expected score is exactly ``s`` with or without
  draws (the field table's model counts a draw as half a point).
- **n players** (``players`` 3 or 4): the finishing order is drawn by the Plackett–Luce model
  with ``u_i = ln 10/400 · (r_i + first·[i is seat 0])``: the next place goes to seat ``i``
  among those not yet placed with probability ``e^{u_i}/Σ e^{u_j}`` (no ties).

The chance ply's outcomes are listed in a fixed order (two players: ``1-0``, ``draw``, ``0-1``;
n players: every finishing order, seats best first, in lexicographic order), and
``outcome_probabilities`` computes them for many games at once, so the coverage bench can
simulate exactly the games the referee plays.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import permutations

import numpy as np

from arena.errors import IllegalMoveError, MoveSyntaxError, PositionSyntaxError
from arena.games.protocol import CHANCE, TERMINAL, Game, GameType, Outcome, Param, State

#: the declared strengths a seat may play, Elo points
LOWEST, HIGHEST = -2000, 2000
_STRENGTHS = tuple(range(LOWEST, HIGHEST + 1))
#: Elo points -> natural logit
K = math.log(10) / 400
TWO_PLAYER = ("1-0", "draw", "0-1")


def orders(players: int) -> tuple[tuple[int, ...], ...]:
    """The finishing orders of ``players`` seats (seats best first), in the chance ply's order."""
    return tuple(permutations(range(players)))


def outcome_probabilities(strengths: np.ndarray, first: float = 0.0, draws: float = 0.0) -> np.ndarray:
    """The chance ply's outcome probabilities for declared ``strengths`` ``(..., n)`` (Elo, by
    seat): ``(..., 3)`` for two players (``1-0``, ``draw``, ``0-1``), ``(..., n!)`` for ``n``
    players (the ``orders(n)``). ``first``: seat 0's advantage, Elo points; ``draws``: the draw
    rate between equal bots (two players only), in [0, 1]."""
    r = np.asarray(strengths, float)
    n = r.shape[-1]
    if n == 2:
        s = 1 / (1 + 10 ** (-(r[..., 0] - r[..., 1] + first) / 400))
        d = 2 * draws * np.minimum(s, 1 - s)
        return np.stack([s - d / 2, d, 1 - s - d / 2], axis=-1)
    u = K * (r + first * (np.arange(n) == 0))
    u = u - u.max(axis=-1, keepdims=True)
    out = []
    for order in orders(n):
        e = np.exp(u[..., list(order)])
        rest = np.cumsum(e[..., ::-1], axis=-1)[..., ::-1]  # Σ over the places not yet taken
        out.append(np.prod(e / rest, axis=-1))
    return np.stack(out, axis=-1)


@dataclass(frozen=True)
class KnownState(State):
    """The strengths declared so far, then the outcome drawn (its index, or -1)."""

    players: int
    first: float
    draws: float
    declared: tuple[int, ...] = ()
    drawn: int = -1

    @property
    def to_move(self) -> int:  # type: ignore[override]
        if len(self.declared) < self.players:
            return len(self.declared)
        return CHANCE if self.drawn < 0 else TERMINAL

    def _names(self) -> tuple[str, ...]:
        return TWO_PLAYER if self.players == 2 else tuple(">".join(map(str, o)) for o in orders(self.players))

    def legal_moves(self) -> list:
        return list(_STRENGTHS) if self.to_move >= 0 else []

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if self.to_move != CHANCE:
            return []
        p = outcome_probabilities(np.array(self.declared), self.first, self.draws)
        return [(name, float(q)) for name, q in zip(self._names(), p) if q > 0]

    def play(self, move) -> KnownState:
        seat = self.to_move
        if seat == CHANCE and move in self._names():
            return KnownState(self.players, self.first, self.draws, self.declared, self._names().index(move))
        if seat < 0 or isinstance(move, bool) or not isinstance(move, int) or not LOWEST <= move <= HIGHEST:
            raise IllegalMoveError(f"{move!r} is not legal here; legal: a strength from {LOWEST} to {HIGHEST} Elo"
                                   if seat >= 0 else f"{move!r} is not legal here")
        return KnownState(self.players, self.first, self.draws, (*self.declared, move))

    def is_terminal(self) -> bool:
        return self.drawn >= 0

    def outcome(self) -> Outcome | None:
        if self.drawn < 0:
            return None
        if self.players == 2:
            return Outcome.from_scores([(1.0, 0.5, 0.0)[self.drawn], (0.0, 0.5, 1.0)[self.drawn]], "chance")
        place = {seat: i for i, seat in enumerate(orders(self.players)[self.drawn])}
        return Outcome.from_scores([float(self.players - 1 - place[s]) for s in range(self.players)], "chance")

    def to_text(self) -> str:
        drawn = self._names()[self.drawn] if self.drawn >= 0 else ""
        return f"{','.join(map(str, self.declared))};{drawn}"


class KnownGame(Game):
    """The test game of known strengths (module docstring)."""

    name = "known"
    summary = "test game: declared Elo strengths, one chance ply decides (for checking the statistics)"
    type = GameType(2, 4, chance_nodes=True)
    #: the first plies are the seats' declared strengths: random opening plies would replace them
    OPENING_PLIES = 0
    PARAMS = {
        "players": Param(2, "seats", minimum=2, maximum=4),
        "first": Param(0.0, "seat 0's advantage, Elo points", minimum=-1000, maximum=1000),
        "draws": Param(0.0, "draw rate between equal bots (two players)", minimum=0, maximum=1),
    }
    TERMINATIONS = {"chance": "the chance ply drew the result from the declared strengths"}

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.num_players = int(self.params["players"])

    def initial_state(self, seed: int | None = None) -> KnownState:
        return KnownState(self.num_players, float(self.params["first"]), float(self.params["draws"]))

    def parse_state(self, text: str) -> KnownState:
        declared, sep, drawn = str(text).partition(";")
        moves: list = [*filter(None, declared.split(",")), *([drawn] if drawn else [])]
        state = self.initial_state()
        for i, move in enumerate(moves if sep else [None]):
            try:
                state = state.play(move if i == len(moves) - 1 and drawn else int(move))
            except (TypeError, ValueError, IllegalMoveError):
                raise PositionSyntaxError(f"bad known position {text!r}; expected 'ELO,ELO;RESULT'") from None
        return state

    def parse_move(self, state, text: str):
        text = str(text).strip()
        if state.to_move == CHANCE:
            return text
        try:
            return int(text)
        except ValueError:
            raise MoveSyntaxError(f"bad known move {text!r}; expected a strength in Elo, "
                                  f"{LOWEST} to {HIGHEST}") from None
