"""The games of the coverage bench (``arena.bench.coverage``), simulated as the test game of
known strengths plays them (``arena.games.known``): the same outcome probabilities
(``outcome_probabilities``), drawn by inverse transform from one uniform number per series
(``duplicate``: every game of a series gets the same chance number, as the referee deals it;
otherwise a number per game, as a game without shared luck), numpy over all series at once.

Also the truths the statistics estimate (``pair_truth``, ``seat_truth``) and ``Tally``, the
share of intervals that contain the truth with its Clopper–Pearson interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from arena.games.known import orders, outcome_probabilities
from arena.stats.elo import NELO_SCALE, elo_from_score

#: seat 0's points of a two-player outcome (``1-0``, ``draw``, ``0-1``)
POINTS = np.array([1.0, 0.5, 0.0])


def _draw(p: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The outcome index that ``u`` picks from probabilities ``p`` ``(n, m)`` (inverse transform)."""
    return np.minimum((u[:, None] >= np.cumsum(p, axis=1)).sum(axis=1), p.shape[1] - 1)


@dataclass
class Games:
    """Two-player games: ``seat0``, ``seat1`` (bot indexes), ``points`` (seat 0's), ``series``
    (a key per series, unique across pairings)."""

    seat0: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    seat1: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    points: np.ndarray = field(default_factory=lambda: np.zeros(0))
    series: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))

    def add(self, other: Games) -> Games:
        """These games and ``other``'s, whose series keys are moved past these."""
        shift = self.series.max() + 1 if len(self.series) else 0
        return Games(np.r_[self.seat0, other.seat0], np.r_[self.seat1, other.seat1],
                     np.r_[self.points, other.points], np.r_[self.series, other.series + shift])


def play_pairs(rng: np.random.Generator, ratings: np.ndarray, a: np.ndarray, b: np.ndarray, first: float = 0.0,
               draws: float = 0.0, duplicate: bool = True) -> Games:
    """One colour-swapped series (two games) of each pairing ``(a[i], b[i])`` (repeat a pairing
    for more): ``a`` in seat 0 first."""
    a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
    u = rng.random(size=len(a))
    parts = []
    for s0, s1 in ((a, b), (b, a)):
        p = outcome_probabilities(np.stack([ratings[s0], ratings[s1]], axis=1), first, draws)
        parts.append(POINTS[_draw(p, u if duplicate else rng.random(size=len(a)))])
    key = np.arange(len(a))
    return Games(np.r_[a, b], np.r_[b, a], np.r_[parts[0], parts[1]], np.r_[key, key])


def play_rankings(rng: np.random.Generator, ratings: np.ndarray, tables: np.ndarray, first: float = 0.0,
                  duplicate: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One series of each n-player table (``tables`` ``(T, n)`` bot indexes): the ``n`` cyclic
    seat rotations. Returns ``bots`` ``(G, n)`` by seat, ``ranks`` ``(G, n)`` (1 = first) and
    ``series`` ``(G,)``."""
    t, n = int(tables.shape[0]), int(tables.shape[1])
    finish = np.array(orders(n))  # (n!, n): seats best first
    u = rng.random(size=t)
    bots, ranks, series = [], [], []
    for shift in range(n):
        seated = np.roll(tables, -shift, axis=1)
        pick = _draw(outcome_probabilities(ratings[seated], first), u if duplicate else rng.random(size=t))
        rank = np.empty((t, n), np.int64)
        np.put_along_axis(rank, finish[pick], np.arange(1, n + 1)[None, :].repeat(t, 0), axis=1)
        bots.append(seated)
        ranks.append(rank)
        series.append(np.arange(t))
    return np.concatenate(bots), np.concatenate(ranks), np.concatenate(series)


def pair_truth(ra: float, rb: float, first: float, draws: float, duplicate: bool) -> tuple[float, float]:
    """The true score of bot ``a`` over ``b`` in their colour-swapped series, as the pair table's
    Elo (``elo(score)``), and its true nElo (the score's distance from ½ in standard deviations
    of a pair's points, as ``arena.stats.elo``)."""
    qa = outcome_probabilities(np.array([ra, rb]), first, draws)  # a in seat 0
    qb = outcome_probabilities(np.array([rb, ra]), first, draws)  # b in seat 0
    if duplicate:  # one uniform number for both games: split [0, 1) where either outcome changes
        cuts = np.unique(np.r_[0.0, np.cumsum(qa), np.cumsum(qb), 1.0].clip(0, 1))
        mid, pair = (cuts[1:] + cuts[:-1]) / 2, np.diff(cuts)
        points = POINTS[_draw(np.tile(qa, (len(mid), 1)), mid)] + 1 - POINTS[_draw(np.tile(qb, (len(mid), 1)), mid)]
    else:
        points, pair = (POINTS[:, None] + 1 - POINTS[None, :]).ravel(), np.outer(qa, qb).ravel()
    values = points / 2  # a's pair points per game
    s = float((pair * values).sum())
    var = float((pair * (values - s) ** 2).sum())
    return elo_from_score(s), (s - 0.5) / math.sqrt(2 * var) * NELO_SCALE if var > 0 else math.nan


def seat_truth(ratings: np.ndarray, s0: np.ndarray, s1: np.ndarray, first: float, draws: float) -> tuple[float, float]:
    """Seat 0's expected score and its expected share of the decisive games' wins over the
    games ``(s0, s1)``: ``ΣP(win)/ΣP(decisive)``."""
    p = outcome_probabilities(np.stack([ratings[s0], ratings[s1]], axis=1), first, draws)
    return float((p @ POINTS).mean()), float(p[:, 0].sum() / (p[:, 0] + p[:, 2]).sum())


@dataclass
class Tally:
    """Intervals checked against their truths: ``hits`` of ``n``, and the errors of the point
    estimates (for the mean error)."""

    hits: int = 0
    n: int = 0
    errors: list[float] = field(default_factory=list)
    runs: int = 0

    def add(self, low, high, truth, estimate=None) -> None:
        low, high, truth = np.atleast_1d(low), np.atleast_1d(high), np.atleast_1d(truth)
        ok = np.isfinite(low) & np.isfinite(high)
        self.hits += int(((low <= truth + 1e-9) & (truth - 1e-9 <= high) & ok).sum())
        self.n += int(ok.sum())
        if estimate is not None:
            self.errors.extend((np.atleast_1d(estimate) - truth).tolist())

    @property
    def share(self) -> float:
        return self.hits / self.n if self.n else math.nan

    def interval(self, level: float = 0.95) -> tuple[float, float]:
        """Clopper–Pearson interval of the covered share (``scipy.stats.binomtest``)."""
        if not self.n:
            return math.nan, math.nan
        ci = stats.binomtest(self.hits, self.n).proportion_ci(level, method="exact")
        return float(ci.low), float(ci.high)

    @property
    def mean_error(self) -> float:
        """The mean error of the finite estimates (a bot that won every game of a pairing has
        an infinite pair Elo)."""
        finite = [e for e in self.errors if math.isfinite(e)]
        return float(np.mean(finite)) if finite else math.nan
