"""Small statistics for reports: Wilson interval, exact binomial test, chi-square of shares.

All three delegate to scipy (``docs/arena.md`` "Contracts / Statistics"):

- ``wilson_interval``: the Wilson score interval without continuity correction (Wilson 1927;
  Newcombe 1998, method 3), via ``scipy.stats.binomtest(...).proportion_ci("wilson")``.
- ``binomial_test``: the two-sided exact binomial test (``scipy.stats.binomtest``; two-sided
  p = sum of the probabilities of all outcomes no more likely than the one observed).
- ``equal_shares_test``: Pearson's chi-square test that counts (possibly fractional, e.g. a
  first place shared by two counts 1/2 to each seat) are equal (``scipy.stats.chisquare``).

Empty samples give NaN rather than an error: a report of a tournament without decisive games
still prints.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

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
