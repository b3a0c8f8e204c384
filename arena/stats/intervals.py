"""Confidence intervals for reports: the Wilson interval of a proportion and the
cluster-robust interval of a ratio mean (clusters = series), clipped to the range the
quantity lives in. Uses scipy and pandas (reports only).

- ``wilson_interval``: the Wilson score interval without continuity correction (Wilson 1927;
  Newcombe 1998, method 3), via ``scipy.stats.binomtest(...).proportion_ci("wilson")``;
  ``wilson_intervals``: the same for arrays of counts at once (one table row per pairing).
- ``cluster_mean``: a ratio mean with the cluster-robust (CR1) interval; ``cluster_means``:
  the same for many groups at once (one per pairing).
- ``clipped``: an interval cut to a range.

Empty samples give NaN rather than an error: a report of a tournament without decisive games
still prints.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import special, stats

#: Confidence level of every interval in the reports.
CONFIDENCE = 0.95


def wilson_interval(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion ``successes / trials``.

    Returns ``(low, high)`` as fractions in [0, 1]; ``(nan, nan)`` when ``trials`` is 0.

    Raises:
        ValueError: ``successes`` outside ``0..trials`` or ``confidence`` outside (0, 1).
    """
    if trials == 0:
        return math.nan, math.nan
    ci = stats.binomtest(int(successes), int(trials)).proportion_ci(
        confidence_level=confidence, method="wilson"
    )
    return float(ci.low), float(ci.high)


def wilson_intervals(successes: np.ndarray, trials: np.ndarray,
                     confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """``wilson_interval`` of each ``successes[i]`` out of ``trials[i]`` (integer arrays of one
    shape), as two float arrays ``(low, high)``; NaN where ``trials`` is 0. Newcombe's (1998)
    method 3 as scipy computes it (``proportion_ci(method="wilson")``, the same numbers)."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    z = float(special.ndtri(0.5 + 0.5 * confidence))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 2 * (n + z**2)
        center = (2 * n * p + z**2) / denom
        delta = z / denom * np.sqrt(4 * n * p * (1 - p) + z**2)
        low = np.where(k == 0, 0.0, center - delta)
        high = np.where(k == n, 1.0, center + delta)
    empty = n == 0
    return np.where(empty, np.nan, low), np.where(empty, np.nan, high)


def cluster_mean(values: Sequence[float], clusters: Sequence[object], weights: Sequence[float] | None = None,
                 confidence: float = 0.95,
                 bounds: tuple[float, float] | None = None) -> tuple[float, float, float, int]:
    """Ratio mean ``Σy/Σw`` with a cluster-robust 95% interval (clusters = series).

    ``y`` are ``values`` (e.g. a seat's points per game) and ``w`` the ``weights`` (1 per game
    when omitted). Variance: the cluster-robust (sandwich) estimator of a ratio mean with the
    small-sample factor ``C/(C-1)`` (Cameron & Miller 2015, "A Practitioner's Guide to
    Cluster-Robust Inference", eq. 11 with the CR1 factor):
    ``Var = C/(C-1) · Σ_c (Y_c - m·W_c)² / (Σ W)²`` over the ``C`` clusters' sums.

    ``bounds``: the range the mean lives in (a share or a score: ``(0, 1)``); the interval is
    clipped to it, since a normal interval from few clusters can reach past it (three pairs
    gave 1.3-132%).

    Returns:
        ``(mean, low, high, clusters)``; NaN when empty, NaN interval with one cluster or
        when every cluster sits at the mean (no spread seen: every cluster's ratio
        ``Y_c/W_c`` is the same).
    """
    y = np.asarray(values, dtype=float)
    if y.size == 0 or (weights is not None and float(np.sum(weights)) == 0):
        return math.nan, math.nan, math.nan, 0
    idx, _ = pd.factorize(np.asarray(clusters))
    m, low, high, c = cluster_means(y, np.zeros(len(y), np.int64), idx, weights, confidence, bounds, groups_count=1)
    return float(m[0]), float(low[0]), float(high[0]), int(c[0])


def cluster_means(values: Sequence[float] | np.ndarray, groups: np.ndarray, clusters: np.ndarray,
                  weights: Sequence[float] | np.ndarray | None = None, confidence: float = 0.95,
                  bounds: tuple[float, float] | None = None,
                  groups_count: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``cluster_mean`` of every group at once: observation ``i`` (``values[i]``, weight
    ``weights[i]``, 1 when omitted) belongs to group ``groups[i]`` (int codes ``0..G-1``,
    ``G = groups_count`` or ``max + 1``) and to cluster ``(groups[i], clusters[i])``
    (``clusters``: integer codes, e.g. the series).

    Returns:
        ``(mean, low, high, clusters)`` arrays of length ``G`` (a group without observations:
        NaN and 0 clusters), each entry as ``cluster_mean`` gives it for that group alone.
    """
    y = np.asarray(values, dtype=float)
    w = np.ones_like(y) if weights is None else np.asarray(weights, dtype=float)
    g = np.asarray(groups, dtype=np.int64)
    size = int(groups_count if groups_count is not None else (g.max() + 1 if len(g) else 0))
    nan = np.full(size, np.nan)
    if not len(y):
        return nan, nan.copy(), nan.copy(), np.zeros(size, np.int64)
    m, var, count, ratio, cg = cluster_sums(y, w, g, clusters, size)
    low_r, high_r = np.full(size, np.inf), np.full(size, -np.inf)
    np.fmin.at(low_r, cg, ratio)
    np.fmax.at(high_r, cg, ratio)
    spread = high_r > low_r  # every cluster at the mean: no spread seen, no (zero-width) interval
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    ok = (count >= 2) & spread & (var > 0)
    half = z * np.sqrt(np.where(ok, var, 0.0))
    low, high = np.where(ok, m - half, np.nan), np.where(ok, m + half, np.nan)
    if bounds is not None:
        low, high = np.where(np.isnan(low), low, np.maximum(low, bounds[0])), \
            np.where(np.isnan(high), high, np.minimum(high, bounds[1]))
    return m, low, high, count


def cluster_sums(y: np.ndarray, w: np.ndarray, g: np.ndarray, clusters: Sequence[int] | np.ndarray,
                 size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The sums behind a cluster-robust ratio mean, for ``size`` groups at once: observations
    ``y`` with weights ``w`` in groups ``g`` (int codes) and clusters ``(g, clusters)``.

    Returns:
        per group (``(size,)``): the ratio mean ``m = ΣY_c/ΣW_c`` (NaN where ``ΣW`` is 0), the
        CR1 variance ``C/(C−1)·Σ(Y_c − m·W_c)²/(ΣW)²`` (Cameron & Miller 2015, eq. 11) and the
        clusters ``C``; per cluster: its ratio ``Y_c/W_c`` and its group.
    """
    c = np.asarray(clusters, dtype=np.int64)
    lo_c = int(c.min())
    span = int(c.max()) - lo_c + 1
    if span * max(size, 1) < 2**62:
        cidx, keys = pd.factorize(g * span + (c - lo_c))  # clusters in order of first appearance
        cg = keys // span  # the group of each cluster
    else:  # cluster codes too far apart to combine with the group in one integer
        cidx, multi = pd.factorize(pd.MultiIndex.from_arrays([g, c]))
        cg = np.asarray(multi.get_level_values(0), dtype=np.int64)
    yc, wc = np.bincount(cidx, y), np.bincount(cidx, w)
    count = np.bincount(cg, minlength=size)
    ysum, wsum = np.bincount(cg, yc, minlength=size), np.bincount(cg, wc, minlength=size)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = np.where(wsum != 0, ysum / np.where(wsum != 0, wsum, 1), np.nan)
        ss = np.bincount(cg, (yc - m[cg] * wc) ** 2, minlength=size)
        var = count / np.maximum(count - 1, 1) * ss / wsum**2
        ratio = yc / wc
    return m, var, count, ratio, cg


def clipped(low: float, high: float, bounds: tuple[float, float]) -> tuple[float, float]:
    """The interval ``low``..``high`` cut to ``bounds`` (NaN ends stay NaN)."""
    return (low if math.isnan(low) else max(low, bounds[0]), high if math.isnan(high) else min(high, bounds[1]))
