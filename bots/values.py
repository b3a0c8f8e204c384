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

from arena.games import Outcome, State
from bots.eval import WIN, evaluator, evaluator_all


def place_rewards(ranks: Sequence[int]) -> tuple[float, ...]:
    """Per seat, the reward in [0, 1] for competition ``ranks`` (1 = best, ties share a rank).

    A seat of rank ``r`` tied with ``t`` seats occupies places ``r .. r+t-1``; place ``p`` of
    ``n`` is worth ``(n - p) / (n - 1)``; the reward is the mean over the occupied places.

    >>> place_rewards((1, 2))
    (1.0, 0.0)
    >>> place_rewards((1, 1))
    (0.5, 0.5)
    >>> place_rewards((1, 2, 2))
    (1.0, 0.25, 0.25)
    """
    n = len(ranks)
    if n < 2:
        return (1.0,) * n
    out = []
    for r in ranks:
        t = sum(1 for o in ranks if o == r)
        # mean of (n - p) / (n - 1) for p in r .. r + t - 1
        out.append((n - r - (t - 1) / 2) / (n - 1))
    return tuple(out)


def rewards(outcome: Outcome) -> tuple[float, ...]:
    """Per seat, the reward in [0, 1] of a finished game (see ``place_rewards``)."""
    return place_rewards(outcome.ranks)


def value_ranks(values: Sequence[float]) -> tuple[int, ...]:
    """Competition ranks of per-seat values (higher is better), for cut-off playouts."""
    if len(values) == 2:
        a, b = values
        return (1 + (b > a), 1 + (a > b))
    return tuple(1 + sum(1 for o in values if o > v) for v in values)


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
