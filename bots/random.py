"""``random``: a uniformly random legal move, seeded per game (``reset``)."""

from __future__ import annotations

from typing import Any

from arena.games import State, View
from bots.base import ANY_GAME, Bot, Limits, SearchStats

#: the figures of every choice (no search; ``SearchStats`` is frozen, so one object serves)
NO_SEARCH = SearchStats(nodes=0, depth=0, seconds=0.0)


class RandomBot(Bot):
    """Plays a uniformly random legal move; reproducible from the seed given to ``reset``.

    At a simultaneous node it gives no answer unless the state offers ``random_answer(rng)``
    (Ricochet: a random walk that may happen to solve).
    """

    name = "random"
    summary = "uniformly random legal move (seeded)"
    PLAYS = ANY_GAME

    def choose(self, state: State, limits: Limits) -> Any:
        moves = state.legal_moves()
        self.last_stats = NO_SEARCH
        if moves:
            return moves[self.rng.randrange(len(moves))]
        answer = getattr(state, "random_answer", None)
        return answer(self.rng) if answer else None

    def policy(self, view: State | View) -> dict[Any, float]:
        """Every legal move of the view with the same probability (``{}`` where the seat has
        none; at a race's round the random answer is no move, so ``{}`` too)."""
        moves = view.legal_moves()
        return {m: 1.0 / len(moves) for m in moves}
