"""The constrained maximum-likelihood distributions of the GSPRT (split from
``arena.stats.sprt``, whose docstring gives the models): the distribution nearest the observed
frequencies with a given expected score (``mle_score``, Van den Bergh's proposition 1.1) or a
given normalized Elo (``mle_normalized``, section 4.1), the hypotheses' scores
(``hypothesis_score``, ``bayeselo_score``) and the bayeselo draw parameter (``drawelo``).
Brent's root finder is written out (``_root``): numpy only, the runner's SPRT needs no scipy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from arena.stats.elo import score_from_elo

#: What a zero pentanomial count becomes before the LLR (fastchess's ``regularize``).
REGULARIZE = 1e-3
#: A hypothesis' expected pair score is clipped into ``[SCORE_EPS, 1 − SCORE_EPS]`` (about
#: ±3,600 Elo): beyond about ±6,383 Elo ``1/(1 + 10^(−elo/400))`` rounds to 0 or 1 and the
#: maximum-likelihood equation has no root (fastchess #879).
SCORE_EPS = 1e-9
#: Bounds beyond ±10,000 Elo (either model) are read as ±10,000: already there every pair
#: result but the extreme one is out of reach, and the arithmetic stays finite and fast.
ELO_CLIP = 10_000.0
#: The least probability a constrained maximum-likelihood distribution keeps in a cell, so
#: that ``ln p`` and the LLR stay finite for any bounds.
P_FLOOR = 1e-300


def _root(f: Callable[[float], float], lo: float, hi: float) -> float:
    """The root of a decreasing ``f`` on the open interval (lo, hi) (f → +∞ at lo, −∞ at hi),
    by Brent's method (Brent 1973, "Algorithms for Minimization without Derivatives", ch. 4,
    ``zeroin``) to ``xtol`` 1e-15 and ``rtol`` 4·ε, as scipy's ``brentq`` was called: pure
    Python, so the runner's SPRT tally needs no scipy."""
    eps = (hi - lo) * 1e-12
    a, b = lo + eps, hi - eps
    fa, fb = f(a), f(b)
    c, fc, d, e = a, fa, b - a, b - a
    for _ in range(500):
        if (fb > 0) == (fc > 0):  # the root is between a and b: c takes a's place
            c, fc, d, e = a, fa, b - a, b - a
        if abs(fc) < abs(fb):  # b is the best guess
            a, b, c, fa, fb, fc = b, c, b, fb, fc, fb
        tol = 0.5 * (1e-15 + _RTOL * abs(b))
        half = 0.5 * (c - b)
        if abs(half) <= tol or fb == 0:
            return b
        if abs(e) >= tol and abs(fa) > abs(fb):  # interpolate (secant or inverse quadratic)
            s = fb / fa
            if a == c:
                p, q = 2 * half * s, 1 - s
            else:
                q, r = fa / fc, fb / fc
                p = s * (2 * half * q * (q - r) - (b - a) * (r - 1))
                q = (q - 1) * (r - 1) * (s - 1)
            p, q = (p, -q) if p > 0 else (-p, q)
            if 2 * p < min(3 * half * q - abs(tol * q), abs(e * q)):
                e, d = d, p / q
            else:
                d = e = half
        else:  # bisect
            d = e = half
        a, fa = b, fb
        b += d if abs(d) > tol else math.copysign(tol, half)
        fb = f(b)
    return b


#: Brent's relative tolerance (scipy's ``brentq`` default, 4·machine epsilon).
_RTOL = 4 * float(np.finfo(float).eps)


def _weighted(phat: np.ndarray, d: np.ndarray, x: float) -> float:
    """``Σ p̂ᵢ·dᵢ/(1 + x·dᵢ)``: the score equation whose root θ gives the constrained MLE."""
    return float(np.sum(phat * d / (1 + x * d)))


def hypothesis_score(elo: float) -> float:
    """The expected pair score of an Elo difference (``score_from_elo`` of the Elo clipped to
    ±``ELO_CLIP``) clipped into ``[SCORE_EPS, 1 − SCORE_EPS]``: finite for any finite ``elo``
    (no overflow of 10^x), never exactly 0 or 1."""
    return min(max(score_from_elo(clip_elo(elo)), SCORE_EPS), 1 - SCORE_EPS)


def clip_elo(elo: float) -> float:
    """``elo`` clipped to ±``ELO_CLIP``."""
    return min(max(elo, -ELO_CLIP), ELO_CLIP)


def mle_score(phat: np.ndarray, scores: np.ndarray, s: float) -> np.ndarray:
    """The distribution nearest ``phat`` (maximum likelihood) with mean ``s`` (Van den Bergh,
    proposition 1.1); ``s`` strictly between ``scores.min()`` and ``scores.max()``."""
    d = scores - s
    theta = _root(partial(_weighted, phat, d), -1 / d.max(), -1 / d.min())
    return phat / (1 + theta * d)


def _fixed_point(phat: np.ndarray, scores: np.ndarray, t: float, p: np.ndarray, mu_ref: float,
                 iterations: int, tol: float) -> tuple[np.ndarray, bool]:
    """Van den Bergh's fixed-point iteration (section 4.1) for ``(μ − mu_ref)/σ = t`` from
    ``p``: (the last distribution reached, whether every step had a solution). A step has
    none when the spread collapses or ``Σ p̂ᵢφᵢ/(1 + θφᵢ)`` keeps one sign (no root θ)."""
    for _ in range(iterations):
        mu = float(np.sum(p * scores))
        var = float(np.sum(p * (scores - mu) ** 2))
        if not (var > 0 and math.isfinite(var)):
            return p, False
        sigma = math.sqrt(var)
        phi = scores - mu_ref - 0.5 * t * sigma * (1 + ((scores - mu) / sigma) ** 2)
        if not (np.all(np.isfinite(phi)) and phi.min() < 0 < phi.max()):
            return p, False
        theta = _root(partial(_weighted, phat, phi), -1 / phi.max(), -1 / phi.min())
        new = np.maximum(phat / (1 + theta * phi), P_FLOOR)
        done = float(np.max(np.abs(new - p))) < tol
        p = new
        if done:
            break
    return p, True


def mle_normalized(phat: np.ndarray, scores: np.ndarray, t: float, mu_ref: float = 0.5,
                   iterations: int = 100, tol: float = 1e-12) -> np.ndarray:
    """The maximum-likelihood distribution with ``(μ − mu_ref)/σ = t`` (Van den Bergh, section
    4.1), by the paper's fixed-point iteration from the uniform distribution. From the
    uniform start the iteration reaches only ``|t| < 1/(3σ) ≈ 0.94`` (about ±232 normalized
    Elo on pairs: fastchess #877's math domain error); beyond it ``t`` is approached in steps
    (×1.25), each started from the previous solution, and a step without a solution stops
    there: ``t`` is clipped to the last one reached. Every cell stays at least ``P_FLOOR``."""
    uniform = np.full(len(phat), 1 / len(phat))
    p, ok = _fixed_point(phat, scores, t, uniform, mu_ref, iterations, tol)
    if ok:
        return p
    p, reached = uniform, 0.0
    step = math.copysign(0.5, t)
    while abs(reached) < abs(t):
        target = step if reached == 0 else reached * 1.25
        target = target if abs(target) < abs(t) else t
        trial, ok = _fixed_point(phat, scores, target, p, mu_ref, iterations, tol)
        if not ok:
            break
        p, reached = trial, target
    return p


def bayeselo_score(elo: float, drawelo: float) -> float:
    """The expected score ``P(win) + ½·P(draw)`` of a BayesElo difference ``elo`` with draw
    parameter ``drawelo`` (both in BayesElo points; Coulom's bayeselo model, fastchess's
    ``bayeseloToScore``), clipped into ``[SCORE_EPS, 1 − SCORE_EPS]`` like ``hypothesis_score``."""
    elo = clip_elo(elo)
    win = 1.0 / (1.0 + 10.0 ** ((drawelo - elo) / 400.0))
    loss = 1.0 / (1.0 + 10.0 ** ((drawelo + elo) / 400.0))
    return min(max(win + 0.5 * (1.0 - win - loss), SCORE_EPS), 1 - SCORE_EPS)


def drawelo(wdl: Sequence[int]) -> float:
    """The draw parameter of the bayeselo model estimated from W-D-L counts:
    ``200·log10((1 − l)/l · (1 − w)/w)`` with the win and loss frequencies ``w``, ``l`` of the
    counts regularised as ``llr`` does (a zero count read as ``REGULARIZE``). NaN without a win
    or without a loss."""
    w, d, l_ = (float(x) for x in wdl)
    if w == 0 or l_ == 0:
        return math.nan
    total = w + (d if d else REGULARIZE) + l_
    pw, pl = w / total, l_ / total
    return 200.0 * math.log10((1 - pl) / pl * (1 - pw) / pw)
