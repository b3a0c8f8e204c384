"""The Elo estimate after a sequential test: the median-unbiased estimate of an SPRT and its
95% interval, as fishtest reports them beside the plain estimate (``docs/statistics.md``
"After an SPRT stop"). Uses scipy (reports only).

Why: an SPRT stops when its LLR leaves the bounds, so it stops early after a lucky run; the
plain Elo of the pairs counted is then biased away from the hypotheses' middle (fishtest #1924).

Method (Michel Van den Bergh, "A Brownian motion approximation of the GSPRT",
https://www.cantate.be/Fishtest/GSPRT_approximation.pdf, as fishtest's ``stats/sprt.py``
computes it): the LLR path is taken for a Brownian motion with drift ``μ(s) = (s − (s0 + s1)/2)
· (s1 − s0)/v`` and variance ``σ² = (s1 − s0)²/v`` per unit (a pair, or a game for the
trinomial), ``v`` the variance of the observed unit score, between the absorbing bounds
``a = ln(β/(1 − α))`` and ``b = ln((1 − β)/α)``. The test's outcome is the point ``(T, y)``
where it stopped: ``T`` units, ``y = T·μ(ŝ)`` (clamped to a bound, with ``T`` shortened in
proportion, when the path overshot it). Outcomes are ordered worst to best: a fail (earlier is
worse), still running at ``T`` (lower is worse), a pass (later is worse). ``G(s)``, the
probability of an outcome worse than the observed one, falls as the true score ``s`` rises;
the **median-unbiased** estimate is the ``s`` with ``G(s) = ½`` (Whitehead 1997, "The Design
and Analysis of Sequential Clinical Trials", §5.4, the median-unbiased estimate by the ordering
of the sample space), and ``G(s) = 0.975`` and ``0.025`` give the 95% interval. Scores are
read as logistic Elo.

``G`` is computed exactly (``worse_probability``): with ``u = x − a`` on ``(0, A)``, ``A = b −
a``, ``γ = μ/σ²`` and ``q(u)`` the probability of leaving at ``a`` first,
``G = q(−a) + ∫ p_T(u)·(1{u < y − a} − q(u)) du`` with the killed process's density
``p_T(u) = (2/A) Σₙ sin(kₙ(−a)) sin(kₙu) e^{γ(u + a) − (μ²/(2σ²) + σ²kₙ²/2)T}``,
``kₙ = nπ/A`` (Cox & Miller 1965, "The Theory of Stochastic Processes", §5.7); the integrals
are in closed form, ``∫₀ᴸ e^{cu} sin(ku) du = (k + e^{cL}(c·sin kL − k·cos kL))/(c² + k²)``
and ``∫₀ᴬ e^{γu} q(u) sin(kₙu) du = kₙ/(γ² + kₙ²)``. When the series converges slowly
(``σ²T/A² < 0.01``) or its terms would cancel (``|γ|A > 15``), Siegmund's approximation
(Siegmund 1985, "Sequential Analysis", §3.3: one reflection at each bound) replaces it, in
logarithms so that no exponential overflows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.special import log_ndtr, ndtr

from arena.stats.elo import NELO_SCALE, elo_from_score, score_from_elo
from arena.stats.sprt import REGULARIZE, SprtModel, SprtSpec, bayeselo_score, bounds, drawelo

#: Below this ``σ²T/A²`` (and above ``|γ|A`` of ``MAX_GAMMA_A``) Siegmund's approximation
#: replaces the exact series.
MIN_SPREAD = 0.01
MAX_GAMMA_A = 15.0
#: The root search runs over scores in ``[SCORE_LOW, 1 − SCORE_LOW]`` (about ±2,400 Elo).
SCORE_LOW = 1e-6


@dataclass(frozen=True)
class SequentialEstimate:
    """The Elo of a sequential test's outcome, in logistic Elo points.

    Attributes:
        elo: the median-unbiased estimate.
        low, high: its 95% interval.
        clamped: the LLR overshot a bound by more than 3% (the estimate is then rough).
    """

    elo: float
    low: float
    high: float
    clamped: bool


def worse_probability(mu: float, sigma2: float, a: float, b: float, t: float, y: float) -> float:
    """The probability that a Brownian motion from 0 with drift ``mu`` and variance ``sigma2``
    per unit time, absorbed at ``a < 0 < b``, has an outcome worse than being at ``y`` at time
    ``t`` (``y = b``: passing at ``t``; ``y = a``: failing at ``t``): failing by ``t``, or still
    running at ``t`` below ``y`` (module docstring). In [0, 1]."""
    width = b - a
    gamma = mu / sigma2
    if sigma2 * t / width**2 < MIN_SPREAD or abs(gamma) * width > MAX_GAMMA_A:
        return _siegmund(mu, sigma2, a, b, t, y)
    return min(max(_series(mu, sigma2, a, width, t, y), 0.0), 1.0)


def _series(mu: float, sigma2: float, a: float, width: float, t: float, y: float) -> float:
    """The exact eigenfunction series of ``worse_probability``."""
    gamma, u0, yu = mu / sigma2, -a, y - a
    if abs(gamma) * width < 1e-12:
        q0 = (width - u0) / width
    else:
        q0 = math.expm1(-2 * gamma * (width - u0)) / math.expm1(-2 * gamma * width) * math.exp(-2 * gamma * u0)
    terms = int(math.ceil(width / math.pi * math.sqrt(80 / (sigma2 * t)))) + 2  # e^{-σ²k²T/2} < e^{-40}
    k = np.arange(1, terms + 1) * math.pi / width
    grow = np.exp(gamma * yu) * (gamma * np.sin(k * yu) - k * np.cos(k * yu))
    first = (k + grow) / (gamma**2 + k**2)  # ∫₀^{y-a} e^{γu} sin(ku) du
    decay = np.exp(-gamma * u0 - (mu**2 / (2 * sigma2) + sigma2 * k**2 / 2) * t)
    total = np.sum(np.sin(k * u0) * decay * (first - k / (gamma**2 + k**2)))
    return float(q0 + 2 / width * total)


def _siegmund(mu: float, sigma2: float, a: float, b: float, t: float, y: float) -> float:
    """Siegmund's approximation of ``worse_probability``: below ``y`` at ``t`` as if free,
    plus the paths reflected at ``a`` (fails ending above ``y``), minus those reflected at
    ``b`` (passes ending below ``y``)."""
    sd = math.sqrt(sigma2 * t)
    drift = mu * t
    gamma = mu / sigma2
    free = float(ndtr((y - drift) / sd))
    low = math.exp(2 * gamma * a + float(log_ndtr((2 * a - y + drift) / sd)))
    high = math.exp(min(2 * gamma * b + float(log_ndtr((y - 2 * b - drift) / sd)), 0.0))
    return min(max(free + low - high, 0.0), 1.0)


def _units(spec: SprtSpec, penta: Sequence[int], wdl: Sequence[int] | None) -> np.ndarray:
    """The counts the test ran on: the pentanomial pairs, or the games for ``bayesian``."""
    counts = np.asarray(wdl if spec.model is SprtModel.BAYESIAN else penta, dtype=float)
    if spec.model is SprtModel.BAYESIAN:
        counts = counts[::-1]  # W, D, L -> L, D, W: low to high scores
    return counts


def _hypothesis_scores(spec: SprtSpec, scores: np.ndarray, phat: np.ndarray,
                       wdl: Sequence[int] | None) -> tuple[float, float]:
    if spec.model is SprtModel.NORMALIZED:  # normalized Elo -> score with the observed spread
        mean = float(phat @ scores)
        var = float(phat @ (scores - mean) ** 2)
        spread = math.sqrt((2 if len(scores) == 5 else 1) * var)
        return tuple(e / NELO_SCALE * spread + 0.5 for e in (spec.elo0, spec.elo1))  # type: ignore[return-value]
    if spec.model is SprtModel.BAYESIAN:
        de = drawelo(wdl or (0, 0, 0))
        return bayeselo_score(spec.elo0, de), bayeselo_score(spec.elo1, de)
    return score_from_elo(spec.elo0), score_from_elo(spec.elo1)


def median_unbiased(spec: SprtSpec, penta: Sequence[int], wdl: Sequence[int] | None = None,
                    confidence: float = 0.95) -> SequentialEstimate:
    """The median-unbiased Elo of an SPRT's outcome and its interval (module docstring), from
    the pairs counted (``penta``, ``[LL, LD, DD+WL, WD, WW]``) or, for the ``bayesian`` model,
    the games' ``wdl`` (W, D, L). Zero counts are regularised as in the LLR. NaN without a
    unit (or without ``wdl`` for ``bayesian``, or when the hypotheses' scores coincide);
    ±inf when the root lies beyond ±2,400 Elo.
    """
    nan = SequentialEstimate(math.nan, math.nan, math.nan, False)
    if spec.model is SprtModel.BAYESIAN and (wdl is None or min(wdl[0], wdl[2]) == 0):
        return nan
    counts = _units(spec, penta, wdl)
    if counts.sum() == 0:
        return nan
    counts = np.where(counts == 0, REGULARIZE, counts)
    n = float(counts.sum())
    phat = counts / n
    scores = np.linspace(0.0, 1.0, len(counts))
    mean = float(phat @ scores)
    var = float(phat @ (scores - mean) ** 2)
    s0, s1 = _hypothesis_scores(spec, scores, phat, wdl)
    if not s1 > s0:
        return nan
    a, b = bounds(spec.alpha, spec.beta)
    sigma2 = (s1 - s0) ** 2 / var

    def drift(s: float) -> float:
        return (s - (s0 + s1) / 2) * (s1 - s0) / var

    slope = drift(mean)
    y, t = n * slope, n
    clamped = not 1.03 * a <= y <= 1.03 * b
    if y < a or y > b:  # the path overshot a bound: put it there, at the time it crossed
        y = a if y < a else b
        t = y / slope

    def root(level: float) -> float:
        def f(s: float) -> float:
            return worse_probability(drift(s), sigma2, a, b, t, y) - level
        lo, hi = SCORE_LOW, 1 - SCORE_LOW
        if f(lo) <= 0:
            return -math.inf
        if f(hi) >= 0:
            return math.inf
        return elo_from_score(brentq(f, lo, hi, xtol=1e-14, rtol=1e-12))

    tail = (1 - confidence) / 2
    return SequentialEstimate(root(0.5), root(1 - tail), root(tail), clamped)
