"""Values shared by the search bots: outcome rewards, terminal values, successor lists.

Two scales:

- **reward** in [0, 1] (MCTS): the seat's normalised finishing place, ties sharing the mean of
  the places they occupy. Two players: win 1, draw 0.5, loss 0. Three-player Nim: the winner
  1, the two others 0.25 each. Rewards of all seats always sum to ``n / 2``.
- **value** in [-WIN, WIN] (alpha-beta, greedy): ``WIN * (2 * reward - 1)``; a two-player
  win is ``WIN``, a draw 0, a loss ``-WIN``. Heuristic values stay inside ``(-WIN/10, WIN/10)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from arena.games import Outcome, State, place_rewards
from bots.eval import WIN, evaluator, evaluator_all


def rewards(outcome: Outcome) -> tuple[float, ...]:
    """Per seat, the reward in [0, 1] of a finished game (``arena.games.place_rewards``)."""
    return place_rewards(outcome.ranks)


def terminal_value(outcome: Outcome, seat: int) -> float:
    """The value in [-WIN, WIN] of a finished game for 0-based ``seat``."""
    return WIN * (2.0 * rewards(outcome)[seat] - 1.0)


def successors(state: State) -> list[tuple[Any, State]]:
    """``(move, state after move)`` for every legal move, in ``legal_moves()`` order.

    Uses the state's own ``successors()`` when it has one (a game may compute all children
    faster than move by move).
    """
    fast = getattr(state, "successors", None)
    if fast is not None:
        return list(fast())
    return [(m, state.play(m)) for m in state.legal_moves()]


def heuristic(game_name: str) -> Callable[[State, int], float]:
    """``evaluate(state, seat)`` of the game's registered evaluator, or a constant 0."""
    found = evaluator(game_name)
    return found if found is not None else (lambda state, seat: 0.0)


def heuristic_all(game_name: str, num_players: int) -> Callable[[State], Sequence[float]] | None:
    """``evaluate_all(state)`` for the game (one value per seat), or ``None`` without one."""
    return evaluator_all(game_name, num_players)
