"""``greedy``: the best move by a one-ply look-ahead, ties broken at random (seeded).

Works for any sequential game with any number of players: each move is played, and the
position after it is valued for the bot's own seat: a finished game by its outcome
(``bots.values.terminal_value``: a win beats every heuristic value), otherwise by the game's
evaluator from ``bots.eval`` (none registered: every non-final position is worth 0, so greedy
takes a win when it sees one and otherwise plays at random among the moves that do not lose).
"""

from __future__ import annotations

import time
from typing import Any

from arena.games import Game, State
from bots.base import Bot, Limits, SearchStats
from bots.values import heuristic, successors, terminal_value


class GreedyBot(Bot):
    """One-ply search on the game's heuristic; ``last_stats.nodes`` = positions valued."""

    name = "greedy"
    summary = "one-ply look-ahead on the game's heuristic (ties at random, seeded)"

    def reset(self, game: Game, seat: int, seed: int) -> None:
        super().reset(game, seat, seed)
        self._evaluate = heuristic(game.name)

    def choose(self, state: State, limits: Limits) -> Any:
        start = time.perf_counter()
        if self.no_answer(state, start):
            return None
        seat = state.to_move
        evaluate = self._evaluate
        best: list[Any] = []
        best_value = float("-inf")
        pairs = successors(state)
        for move, child in pairs:
            if child.is_terminal():
                value = terminal_value(child.outcome(), seat)  # type: ignore[arg-type]  # a terminal state: outcome() is set
            else:
                value = evaluate(child, seat)
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        move = best[self.rng.randrange(len(best))]
        self.last_stats = SearchStats(len(pairs), 1, time.perf_counter() - start, best_value)
        return move
