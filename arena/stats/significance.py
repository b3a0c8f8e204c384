"""Significance tests for reports: exact binomial test, the sign test of a two-bot match at
the edges, chi-square of shares, Holm's adjustment of several p-values. Uses scipy (reports
only).

- ``binomial_test``: the two-sided exact binomial test (``scipy.stats.binomtest``; two-sided
  p = sum of the probabilities of all outcomes no more likely than the one observed);
  ``binomial_tests_half``: the test against 1/2 for arrays of counts at once.
- ``match_significance``: LOS and the p-value of "equal strength" of a two-bot match: the
  normal approximation with the pentanomial variance (``arena.stats.elo``), or, where it fails
  (few units won or lost either way, no spread seen), the exact sign test on pairs
  (``docs/statistics.md`` "Small samples: the sign test"). Both p-values are tail sums that keep
  their digits down to about 1e-308 (``2·Φ(−|z|)``, not ``1 − Φ(|z|)``); below that they are 0,
  which the reports print as ``< 1e-300`` (``arena.reports.display.format_p``).
- ``equal_shares_test``: Pearson's chi-square test that counts (possibly fractional, e.g. a
  first place shared by two counts 1/2 to each seat) are equal (``scipy.stats.chisquare``).
- ``holm``: Holm's step-down adjusted p-values.

Empty samples give NaN rather than an error.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

#: The exact sign test replaces the normal approximation when fewer units than this (pairs,
#: or games outside pairs) went either way: the rule of thumb ``n·p >= 10`` for the normal
#: approximation of a binomial count (e.g. Agresti & Coull 1998), applied to the rarer side.
EXACT_BELOW = 10


def binomial_test(successes: int, trials: int, p: float = 0.5) -> float:
    """Two-sided exact binomial test of ``successes`` in ``trials`` against probability ``p``.

    Returns the p-value; NaN when ``trials`` is 0.

    Raises:
        ValueError: ``successes`` outside ``0..trials`` or ``p`` outside [0, 1].
    """
    if trials == 0:
        return math.nan
    return float(stats.binomtest(int(successes), int(trials), p, alternative="two-sided").pvalue)


def binomial_tests_half(successes: np.ndarray, trials: np.ndarray) -> np.ndarray:
    """``binomial_test(successes[i], trials[i], 0.5)`` of integer arrays of one shape, as a
    float array (NaN where ``trials`` is 0). Against 1/2 the distribution is symmetric, so
    the outcomes no more likely than ``k`` are those at most ``min(k, n - k)`` or at least
    ``max(k, n - k)``: ``p = F(min) + S(max - 1)`` (1 when ``k = n/2``), the sums
    ``scipy.stats.binomtest`` adds (the same numbers)."""
    k = np.asarray(successes, dtype=np.int64)
    n = np.asarray(trials, dtype=np.int64)
    low, high = np.minimum(k, n - k), np.maximum(k, n - k)
    p = np.minimum(1.0, stats.binom.cdf(low, n, 0.5) + stats.binom.sf(high - 1, n, 0.5))
    return np.where(n == 0, np.nan, np.where(2 * k == n, 1.0, p))


@dataclass(frozen=True)
class Significance:
    """How sure a two-bot match is that the first bot is the stronger.

    Attributes:
        los: likelihood of superiority in [0, 1] (NaN: no game).
        p_value: two-sided p-value of "equal strength" (NaN: no game).
        method: ``"normal"`` (``Φ`` of the pentanomial z, p = 2·min(LOS, 1 − LOS)) or
            ``"sign"`` (the exact sign test on units; LOS = P(q > ½) under a uniform prior).
        plus, minus: units (complete pairs, and games outside pairs) the first bot won and lost.
    """

    los: float
    p_value: float
    method: str
    plus: int
    minus: int


def match_significance(penta: Sequence[int], single: Sequence[int], z_normal: float) -> Significance:
    """LOS and p-value of "equal strength" for a match from the first bot's side.

    Args:
        penta: complete pairs ``[LL, LD, DD+WL, WD, WW]``.
        single: games outside complete pairs ``[L, D, W]``.
        z_normal: the normal approximation's statistic, ``LOS = Φ(z)``
            (``arena.stats.elo.MatchStats.z``); NaN when the sample showed no spread.

    The units are the complete pairs and the leftover games; a unit is won (``plus``) when it
    scored more than half its points, lost (``minus``) when less, tied otherwise (DD, WL, a
    draw). When both ``plus`` and ``minus`` are at least ``EXACT_BELOW`` and the sample has a
    spread, the normal approximation stands: LOS ``= Φ(z)``, ``p = 2·min(LOS, 1 − LOS) =
    2·Φ(−|z|)`` (computed as the latter: ``1 − LOS`` rounds to 0 past z ≈ 8). Otherwise the exact
    two-sided sign test (``scipy.stats.binomtest(plus, plus + minus, ½)``; Conover 1999,
    "Practical Nonparametric Statistics", §3.4) gives p, and the LOS is the posterior
    probability that a unit is more often won than lost, ``P(q > ½)`` with ``q ~ Beta(plus + 1,
    minus + 1)`` (a uniform prior; ``scipy.stats.beta.sf``). With no unit won or lost: p = 1,
    LOS = ½.
    """
    pc, sc = [int(x) for x in penta], [int(x) for x in single]
    plus, minus = pc[3] + pc[4] + sc[2], pc[0] + pc[1] + sc[0]
    if sum(pc) + sum(sc) == 0:
        return Significance(math.nan, math.nan, "normal", 0, 0)
    if min(plus, minus) >= EXACT_BELOW and z_normal == z_normal:
        z = float(z_normal)
        return Significance(float(special.ndtr(z)), float(2 * special.ndtr(-abs(z))), "normal", plus, minus)
    if plus + minus == 0:
        return Significance(0.5, 1.0, "sign", 0, 0)
    p = float(stats.binomtest(plus, plus + minus, 0.5, alternative="two-sided").pvalue)
    return Significance(float(stats.beta.sf(0.5, plus + 1, minus + 1)), p, "sign", plus, minus)


def match_significances(penta: np.ndarray, single: np.ndarray,
                         z_normal: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``match_significance`` of many matches at once (the pairs table of a large field):
    ``penta`` (n, 5), ``single`` (n, 3) integer counts, ``z_normal`` (n,).

    Returns:
        ``(los, p_value, method)`` arrays of shape (n,), the same numbers as
        ``match_significance`` row by row (the exact tests by ``binomial_tests_half`` and
        ``scipy.stats.beta.sf`` on arrays).
    """
    pc, sc = np.asarray(penta, np.int64), np.asarray(single, np.int64)
    z = np.asarray(z_normal, float)
    plus, minus = pc[:, 3] + pc[:, 4] + sc[:, 2], pc[:, 0] + pc[:, 1] + sc[:, 0]
    empty = pc.sum(axis=1) + sc.sum(axis=1) == 0
    normal = (np.minimum(plus, minus) >= EXACT_BELOW) & ~np.isnan(z)
    with np.errstate(invalid="ignore"):
        p_sign = binomial_tests_half(plus, plus + minus)
        los_sign = stats.beta.sf(0.5, plus + 1, minus + 1)
    none = plus + minus == 0
    los = np.where(normal, special.ndtr(z), np.where(none, 0.5, los_sign))
    p = np.where(normal, 2 * special.ndtr(-np.abs(z)), np.where(none, 1.0, p_sign))
    method = np.where(normal | empty, "normal", "sign").astype(object)
    return np.where(empty, np.nan, los), np.where(empty, np.nan, p), method


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
