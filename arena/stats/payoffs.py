"""Payoff statistics: mean payoffs per game with the series as the unit (``docs/statistics.md``
"Payoffs").

A series plays one start (and, in a game with chance, one sequence of chance draws: a
duplicate series) once per seat order, so its games are not independent: a good deal helps
whoever holds it in both games. Every interval here therefore treats a series as one
observation (a cluster), never a game.

- ``series_means``: ratio means ``Σy / Σw`` of many groups at once (a bot, a seat, a pairing's
  payoff difference) with the cluster-robust (CR1) standard error over series and a Student t
  interval with ``C - 1`` degrees of freedom (``C`` series), and the two-sided t-test of mean 0;
  where the t-test is undefined (one series, or every series at the same mean) the exact sign
  test over series instead. With series of equal size this is the one-sample t-test of the
  series' means (``scipy.stats.ttest_1samp``), which the tests check.
- ``bootstrap_draws``: the stratified bootstrap over series: per replicate, the times each
  series is drawn when the series of each stratum (pairing) are resampled with replacement, in
  chunks of bounded memory; ``bootstrap_means``: the ratio means of such replicates. The field
  table's CFS and likelihood of superiority run the bankroll instant runoff on the same draws
  (``arena.stats.runoff``).

Uses numpy and scipy (reports only). Empty samples give NaN rather than an error.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from arena.stats.intervals import CONFIDENCE, cluster_sums
from arena.stats.significance import binomial_tests_half

#: bootstrap replicates of the field table's likelihood of superiority (as the Elo field table)
REPLICATES = 500
#: entries of one chunk of bootstrap weights (replicates × series), to bound memory
CHUNK_CELLS = 2_000_000


@dataclass(frozen=True)
class SeriesMeans:
    """``series_means`` of ``G`` groups: arrays of length ``G``.

    Attributes:
        mean: ``Σy / Σw`` (NaN without observations).
        low, high: the t interval (NaN with fewer than two series or no spread).
        se: the cluster-robust standard error of ``mean`` (NaN where the interval is).
        p_value: two-sided p-value of "mean 0": the t-test, or the sign test over series.
        method: ``"t"`` or ``"sign"`` per group (object array).
        series: the series (clusters) of each group.
        plus, minus: series whose mean is above 0, below 0.
    """

    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    se: np.ndarray
    p_value: np.ndarray
    method: np.ndarray
    series: np.ndarray
    plus: np.ndarray
    minus: np.ndarray


def series_means(values: Sequence[float] | np.ndarray, groups: Sequence[int] | np.ndarray,
                 clusters: Sequence[int] | np.ndarray, weights: Sequence[float] | np.ndarray | None = None,
                 groups_count: int | None = None, confidence: float = CONFIDENCE) -> SeriesMeans:
    """The mean of ``values`` per group, series as the unit.

    Args:
        values: one observation each (a payoff, a payoff difference), in the game's unit.
        groups: each observation's group (int codes ``0..G-1``).
        clusters: each observation's series (int codes; a cluster is ``(group, cluster)``).
        weights: each observation's weight (1 when omitted; e.g. games).
        groups_count: ``G`` (default ``max(groups) + 1``).
        confidence: the interval's level.

    Variance (Cameron & Miller 2015, "A Practitioner's Guide to Cluster-Robust Inference",
    eq. 11 with the CR1 factor): ``C/(C-1) · Σ_c (Y_c - m·W_c)² / (Σ W)²`` over a group's
    ``C`` series' sums ``Y_c``, ``W_c``; interval ``m ± t_{C-1} · se``; p of the t-test
    ``2·T_{C-1}(-|m/se|)``. Where that is undefined, the sign test: ``plus`` series above 0
    against ``minus`` below (two-sided exact binomial against ½; 1 when none differs from 0).
    """
    y = np.asarray(values, dtype=float)
    w = np.ones_like(y) if weights is None else np.asarray(weights, dtype=float)
    g = np.asarray(groups, dtype=np.int64)
    size = int(groups_count if groups_count is not None else (g.max() + 1 if len(g) else 0))
    if not len(y):
        nan = np.full(size, np.nan)
        zero = np.zeros(size, np.int64)
        return SeriesMeans(nan, nan, nan, nan, nan, np.full(size, "t", object), zero, zero, zero)
    m, var, count, ratio, cg = cluster_sums(y, w, g, clusters, size)
    lowest, highest = np.full(size, np.inf), np.full(size, -np.inf)
    np.fmin.at(lowest, cg, ratio)
    np.fmax.at(highest, cg, ratio)
    ok = (count >= 2) & (highest > lowest) & (var > 0)
    se = np.where(ok, np.sqrt(np.where(ok, var, 1.0)), np.nan)
    dof = np.maximum(count - 1, 1)
    half = stats.t.ppf(0.5 + confidence / 2, dof) * se
    with np.errstate(invalid="ignore", divide="ignore"):
        p_t = 2 * stats.t.sf(np.abs(m / se), dof)
    plus = np.bincount(cg, ratio > 0, minlength=size).astype(np.int64)
    minus = np.bincount(cg, ratio < 0, minlength=size).astype(np.int64)
    p_sign = np.where(plus + minus == 0, 1.0, binomial_tests_half(plus, plus + minus))
    empty = count == 0
    p = np.where(empty, np.nan, np.where(ok, p_t, p_sign))
    method = np.where(ok | empty, "t", "sign").astype(object)
    return SeriesMeans(m, m - half, m + half, se, p, method, count.astype(np.int64), plus, minus)


def bootstrap_draws(strata: np.ndarray, replicates: int = REPLICATES, seed: int = 1,
                    width: int | None = None) -> Iterator[np.ndarray]:
    """The stratified bootstrap over series, in chunks: each ``(b, C)`` array counts, per
    replicate, the times each of the ``C`` series was drawn.

    Args:
        strata: ``(C,)`` each series' stratum (its pairing): a replicate draws, in every
            stratum, as many series as it has, with replacement.
        replicates: ``B``, the rows of all chunks together.
        seed: the generator's seed (the same inputs and seed, the same draws).
        width: the cells per replicate of the caller's largest array (default ``C``): a chunk
            holds at most ``CHUNK_CELLS // width`` replicates (at least one), to bound memory.

    Yields:
        ``(b, C)`` float arrays of draw counts, ``b`` replicates each, ``B`` in all.
    """
    strata = np.asarray(strata)
    rng = np.random.default_rng(seed)
    members = [np.flatnonzero(strata == s) for s in pd.unique(strata)]
    cells = max(width if width is not None else len(strata), 1)
    chunk = max(1, min(replicates, CHUNK_CELLS // cells))
    for start in range(0, replicates, chunk):
        b = min(chunk, replicates - start)
        drawn = np.zeros((b, len(strata)))
        for idx in members:
            drawn[:, idx] = rng.multinomial(len(idx), np.full(len(idx), 1.0 / len(idx)), size=b)
        yield drawn


def bootstrap_means(sums: np.ndarray, counts: np.ndarray, strata: np.ndarray, replicates: int = REPLICATES,
                    seed: int = 1) -> np.ndarray:
    """``(B, K)`` ratio means of ``B`` bootstrap replicates over series (``bootstrap_draws``).

    Args:
        sums: ``(C, K)`` per series, each of ``K`` quantities' sum (a bot's payoffs in it).
        counts: ``(C, K)`` per series, the weights of those sums (the bot's games in it).
        strata: ``(C,)`` each series' stratum (its pairing).
        replicates: ``B``.
        seed: the generator's seed (the same inputs and seed, the same replicates).

    Returns:
        ``Σ_c n_c·sums[c] / Σ_c n_c·counts[c]`` per replicate, ``n_c`` the times series ``c``
        was drawn; NaN where a replicate holds no weight of a quantity.
    """
    y, n = np.asarray(sums, float), np.asarray(counts, float)
    out = []
    for drawn in bootstrap_draws(np.asarray(strata), replicates, seed, width=len(y)):
        total, weight = drawn @ y, drawn @ n
        with np.errstate(invalid="ignore", divide="ignore"):
            out.append(np.where(weight > 0, total / np.where(weight > 0, weight, 1), np.nan))
    return np.concatenate(out) if out else np.zeros((0, y.shape[1] if y.ndim == 2 else 0))
