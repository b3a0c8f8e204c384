"""Ranks and place rewards of a finished game: one definition for bots and reports.

Competition ranking ("1224") is the ranks' convention (``docs/arena.md`` "Contracts /
Statistics"); a seat's place reward is the share of the field it finished above, ties
averaged — the convention of the reports' points (``arena/reports/tables.py``), of MCTS
rewards and of the n-player searches' terminal values.
"""

from __future__ import annotations

from collections.abc import Sequence


def competition_ranks(scores: Sequence[float], higher_is_better: bool = True) -> tuple[int, ...]:
    """Competition ranking ("1224"): 1 = best; ties share the better rank, the next is skipped.

    >>> competition_ranks([3, 5, 5, 1])
    (3, 1, 1, 4)
    """
    sign = 1 if higher_is_better else -1
    if len(scores) == 2:  # the common case, called once per MCTS playout
        a, b = sign * scores[0], sign * scores[1]
        return (1 + (b > a), 1 + (a > b))
    return tuple(1 + sum(1 for o in scores if sign * o > sign * s) for s in scores)


def place_points(ranks: Sequence[int]) -> tuple[float, ...]:
    """Per seat, the seats it finished above, ties counting 1/2 each: ``n - p`` where ``p`` is
    its place with ties averaged (a seat of rank ``r`` tied with ``t`` seats: ``p = r + (t-1)/2``).
    Exact in floating point (multiples of 1/2); the points of one game sum to ``n(n-1)/2``.

    >>> place_points((1, 2, 2))
    (2.0, 0.5, 0.5)
    """
    n = len(ranks)
    return tuple(n - r - (sum(1 for o in ranks if o == r) - 1) / 2 for r in ranks)


def place_rewards(ranks: Sequence[int]) -> tuple[float, ...]:
    """Per seat, the reward in [0, 1] for competition ``ranks`` (1 = best, ties share a rank):
    ``place_points / (n - 1)``; a two-player win 1, draw 1/2, loss 0; one player: 1.

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
    return tuple(p / (n - 1) for p in place_points(ranks))
