"""What the coverage bench checks in one simulated tournament (``arena.bench.coverage``): every
interval the reports print, computed by the functions the reports call, against the truth of
the test game of known strengths.

- the field table (``arena.stats.field.bootstrap``, ``arena.stats.bootci.field_intervals``):
  each rating, anchored at the weakest bot; those the report marks (``bootci.pulled``: the
  prior moves them by more than 0.4 standard errors) and the others apart; the strongest bot's
  alone; the first-move term; and
  the likelihood of superiority between equal bots (a one-sided 95% claim: ``LOS ≥ 95%`` is a
  miss, which should happen 5% of the time);
- the pair table (``arena.stats.elo.match_stats``): Elo and nElo of every pairing, and its
  LOS between equal bots;
- the first-move table (``arena.stats.intervals``): seat 0's score (series-clustered), its
  share of the decisive games with the Wilson interval and with the series-clustered one;
- the payoff tables (``arena.stats.payoffs.series_means``): each bot's mean payoff per game,
  a game's points taken as a payoff of +1, 0 or −1;
- the n-player field table (``arena.stats.luce.bootstrap``, percentile intervals): ratings and
  seat terms.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from arena.bench.coverage_sim import POINTS, Games, Tally, pair_truth, seat_truth
from arena.games.known import outcome_probabilities
from arena.stats import bootci, elo, luce
from arena.stats import field as fs
from arena.stats.intervals import cluster_mean, wilson_interval
from arena.stats.payoffs import series_means

#: a one-sided claim of superiority at 95%
CLAIM = 0.95

Tallies = defaultdict[str, Tally]


def expected_scores(ratings: np.ndarray, first: float, draws: float) -> np.ndarray:
    """``(k, k)``: bot ``i``'s expected score against ``j`` over a colour-swapped series."""
    k = len(ratings)
    i, j = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
    own = outcome_probabilities(np.stack([ratings[i], ratings[j]], axis=-1), first, draws) @ POINTS
    other = outcome_probabilities(np.stack([ratings[j], ratings[i]], axis=-1), first, draws) @ POINTS
    return (own + 1 - other) / 2


def field_table(t: Tallies, g: Games, ratings: np.ndarray, first: float, replicates: int, seed: int,
                prefix: str = "") -> None:
    """The 2-player field table's intervals (module docstring)."""
    k = len(ratings)
    duels = fs.Duels.from_games([str(i) for i in range(k)], g.seat0, g.seat1, g.points, g.series)
    boot = fs.bootstrap(duels, replicates, seed)
    weakest, strongest = int(np.argmin(ratings)), int(np.argmax(ratings))
    low, high = bootci.field_intervals(duels, boot, weakest)
    est = fs.anchored(boot.estimate[:k], weakest)
    truth = ratings - ratings[weakest]
    others = np.arange(k) != weakest
    t[prefix + "field Elo"].add(low[:k][others], high[:k][others], truth[others], est[others])
    p_low, p_high = fs.intervals(fs.anchored(boot.replicates[:, :k], weakest))  # the method before BCa
    t[prefix + "field Elo, percentile interval (before)"].add(p_low[others], p_high[others], truth[others])
    marked = bootci.pulled(duels, boot, weakest)[others]
    t[prefix + "field Elo, intervals the report marks"].add(low[:k][others][marked], high[:k][others][marked],
                                                            truth[others][marked], est[others][marked])
    t[prefix + "field Elo, intervals it does not mark"].add(low[:k][others][~marked], high[:k][others][~marked],
                                                            truth[others][~marked], est[others][~marked])
    if strongest != weakest:
        t[prefix + "field Elo, strongest bot"].add(low[strongest], high[strongest], truth[strongest], est[strongest])
    t[prefix + "field first-move term"].add(low[k], high[k], first, boot.estimate[k])
    los = fs.los_matrix(boot.replicates[:, :k])
    equal = (ratings[:, None] == ratings[None, :]) & ~np.eye(k, dtype=bool)
    if equal.any():  # between equal bots a claim LOS >= 95% is wrong, and should be so 5% of the time
        tally = t[prefix + "field LOS/CFS, equal bots (one-sided 95%)"]
        tally.hits += int((equal & (los < CLAIM)).sum())
        tally.n += int(equal.sum())


def pair_table(t: Tallies, g: Games, ratings: np.ndarray, first: float, draws: float, duplicate: bool,
               prefix: str = "") -> None:
    """The pair table's Elo, nElo and LOS of every pairing (games from ``play_pairs``: each
    series' first game has the lower bot index in seat 0)."""
    half = len(g.points) // 2
    a, b = g.seat0[:half], g.seat1[:half]
    key = g.series[:half]
    order = np.lexsort((key, b, a))
    pair_points = (g.points[:half] + 1 - g.points[half:])[order]
    a, b = a[order], b[order]
    start = np.flatnonzero(np.r_[True, (a[1:] != a[:-1]) | (b[1:] != b[:-1])])
    for lo, hi in zip(start, np.r_[start[1:], len(a)]):
        i, j = int(a[lo]), int(b[lo])
        penta = np.bincount(np.rint(2 * pair_points[lo:hi]).astype(np.int64), minlength=5)
        m = elo.match_stats(penta.tolist())
        true_elo, true_nelo = pair_truth(ratings[i], ratings[j], first, draws, duplicate)
        t[prefix + "pair Elo"].add(m.elo_low, m.elo_high, true_elo, m.elo)
        if np.isfinite(true_nelo):
            t[prefix + "pair nElo"].add(m.nelo - m.nelo_error, m.nelo + m.nelo_error, true_nelo, m.nelo)
        if ratings[i] == ratings[j]:  # a claim of superiority either way is wrong
            tally = t[prefix + "pair LOS, equal bots (one-sided 95%)"]
            tally.n += 2
            tally.hits += int(m.los < CLAIM) + int(1 - m.los < CLAIM)


def seat_table(t: Tallies, g: Games, ratings: np.ndarray, first: float, draws: float, prefix: str = "") -> None:
    """Seat 0's score and decisive-game share over the whole tournament (the first-move
    table's first row)."""
    true_score, true_share = seat_truth(ratings, g.seat0, g.seat1, first, draws)
    key = g.series * 100_000 + np.minimum(g.seat0, g.seat1) * 1000 + np.maximum(g.seat0, g.seat1)
    score, low, high, _ = cluster_mean(g.points.tolist(), key.tolist(), bounds=(0.0, 1.0))
    t[prefix + "seat 0 score (series-clustered)"].add(low, high, true_score, score)
    wins, losses = int((g.points == 1).sum()), int((g.points == 0).sum())
    w_low, w_high = wilson_interval(wins, wins + losses)
    share = wins / max(wins + losses, 1)
    t[prefix + "seat 0 decisive share (Wilson, per game)"].add(w_low, w_high, true_share, share)
    decisive = (g.points != 0.5).astype(float)
    _, c_low, c_high, _ = cluster_mean((g.points == 1).astype(float).tolist(), key.tolist(), decisive.tolist(),
                                       bounds=(0.0, 1.0))
    t[prefix + "seat 0 decisive share (series-clustered)"].add(c_low, c_high, true_share, share)


def payoff_table(t: Tallies, g: Games, ratings: np.ndarray, first: float, draws: float, prefix: str = "") -> None:
    """Each bot's mean payoff per game with the series-clustered t interval."""
    k = len(ratings)
    s = expected_scores(ratings, first, draws)
    key = g.series * 100_000 + np.minimum(g.seat0, g.seat1) * 1000 + np.maximum(g.seat0, g.seat1)
    bots = np.r_[g.seat0, g.seat1]
    payoff = np.r_[2 * g.points - 1, 1 - 2 * g.points]
    opp = np.r_[g.seat1, g.seat0]
    means = series_means(payoff, bots, np.r_[key, key], groups_count=k)
    truth = np.bincount(bots, weights=2 * s[bots, opp] - 1, minlength=k) / np.bincount(bots, minlength=k)
    t[prefix + "payoff mean per bot (t, series)"].add(means.low, means.high, truth, means.mean)


def luce_table(t: Tallies, bots: np.ndarray, ranks: np.ndarray, series: np.ndarray, ratings: np.ndarray,
               first: float, replicates: int, seed: int, prefix: str = "") -> None:
    """The n-player field table: Plackett–Luce ratings (anchored at the weakest) and seat terms,
    percentile intervals."""
    k, n = len(ratings), bots.shape[1]
    table_key = np.sort(bots, axis=1) @ (k ** np.arange(n))
    r = luce.Rankings.from_games([str(i) for i in range(k)], bots, ranks, table_key * 100_000 + series)
    boot = luce.bootstrap(r, replicates, seed)
    weakest = int(np.argmin(ratings))
    reps = np.c_[fs.anchored(boot.replicates[:, :k], weakest), boot.replicates[:, k:]]
    low, high = fs.intervals(reps)
    est = fs.anchored(boot.estimate[:k], weakest)
    truth = ratings - ratings[weakest]
    others = np.arange(k) != weakest
    t[prefix + "Plackett-Luce Elo"].add(low[:k][others], high[:k][others], truth[others], est[others])
    seat_truth_ = first * ((np.arange(n) == 0) - 1 / n)
    t[prefix + "Plackett-Luce seat terms"].add(low[k:], high[k:], seat_truth_, boot.estimate[k:])
