"""Significance tests for reports: exact binomial test, chi-square of shares, Holm's
adjustment of several p-values. Uses scipy (reports only).

- ``binomial_test``: the two-sided exact binomial test (``scipy.stats.binomtest``; two-sided
  p = sum of the probabilities of all outcomes no more likely than the one observed).
- ``equal_shares_test``: Pearson's chi-square test that counts (possibly fractional, e.g. a
  first place shared by two counts 1/2 to each seat) are equal (``scipy.stats.chisquare``).
- ``holm``: Holm's step-down adjusted p-values.

Empty samples give NaN rather than an error.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scipy import stats


def binomial_test(successes: int, trials: int, p: float = 0.5) -> float:
    """Two-sided exact binomial test of ``successes`` in ``trials`` against probability ``p``.

    Returns the p-value; NaN when ``trials`` is 0.

    Raises:
        ValueError: ``successes`` outside ``0..trials`` or ``p`` outside [0, 1].
    """
    if trials == 0:
        return math.nan
    return float(stats.binomtest(int(successes), int(trials), p, alternative="two-sided").pvalue)


@dataclass(frozen=True)
class ChiSquare:
    """Result of a chi-square goodness-of-fit test.

    Attributes:
        statistic: Pearson's chi-square statistic.
        dof: degrees of freedom (categories - 1).
        p_value: probability of a statistic at least as large under equal shares.
    """

    statistic: float
    dof: int
    p_value: float


def equal_shares_test(counts: Sequence[float]) -> ChiSquare:
    """Chi-square test that ``counts`` (one per category, e.g. wins per seat) are equal.

    Expected counts are the mean of ``counts``. Fewer than two categories, or a total of 0,
    give NaN statistic and p-value.
    """
    values = [float(c) for c in counts]
    dof = len(values) - 1
    if dof < 1 or sum(values) <= 0:
        return ChiSquare(math.nan, max(dof, 0), math.nan)
    result = stats.chisquare(values)
    return ChiSquare(float(result.statistic), dof, float(result.pvalue))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (Holm 1979, "A simple sequentially rejective multiple
    test procedure", Scand. J. Statist. 6:65–70): sort ascending, ``p_(i)·(m - i + 1)``, running
    maximum, capped at 1. NaN p-values stay NaN and do not count in ``m``."""
    p = [float(x) for x in p_values]
    finite = sorted((v, i) for i, v in enumerate(p) if v == v)
    m, out, running = len(finite), [math.nan] * len(p), 0.0
    for rank, (v, i) in enumerate(finite):
        running = max(running, min(1.0, (m - rank) * v))
        out[i] = running
    return out
