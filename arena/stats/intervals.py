"""Confidence intervals for reports: the Wilson interval of a proportion and the
cluster-robust interval of a ratio mean (clusters = series), clipped to the range the
quantity lives in. Uses scipy and pandas (reports only).

- ``wilson_interval``: the Wilson score interval without continuity correction (Wilson 1927;
  Newcombe 1998, method 3), via ``scipy.stats.binomtest(...).proportion_ci("wilson")``.
- ``cluster_mean``: a ratio mean with the cluster-robust (CR1) interval.
- ``clipped``: an interval cut to a range.

Empty samples give NaN rather than an error: a report of a tournament without decisive games
still prints.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

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
        when every cluster sits at the mean (no spread seen).
    """
    y = np.asarray(values, dtype=float)
    w = np.ones_like(y) if weights is None else np.asarray(weights, dtype=float)
    if y.size == 0 or w.sum() == 0:
        return math.nan, math.nan, math.nan, 0
    idx, _ = pd.factorize(np.asarray(clusters))
    yc, wc = np.bincount(idx, y), np.bincount(idx, w)
    c = len(yc)
    m = float(yc.sum() / wc.sum())
    if c < 2:
        return m, math.nan, math.nan, c
    var = c / (c - 1) * float(((yc - m * wc) ** 2).sum()) / float(wc.sum()) ** 2
    if var == 0:  # every cluster at the mean: no spread seen, no interval (not a zero-width one)
        return m, math.nan, math.nan, c
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    low, high = m - z * math.sqrt(var), m + z * math.sqrt(var)
    if bounds is not None:
        low, high = clipped(low, high, bounds)
    return m, low, high, c


def clipped(low: float, high: float, bounds: tuple[float, float]) -> tuple[float, float]:
    """The interval ``low``..``high`` cut to ``bounds`` (NaN ends stay NaN)."""
    return (low if math.isnan(low) else max(low, bounds[0]), high if math.isnan(high) else min(high, bounds[1]))
