"""Bias-corrected and accelerated (BCa) bootstrap intervals of the field table's ratings and
first-move term (``docs/statistics.md`` "The field table", "Coverage of the intervals").

The percentile interval (2.5% and 97.5% of the replicates) is right only when the estimate's
distribution is symmetric around the truth on some scale. The BCa interval (Efron 1987,
"Better bootstrap confidence intervals", JASA 82; Efron & Tibshirani, "An Introduction to the
Bootstrap", §14.3; Davison & Hinkley, "Bootstrap Methods and their Application", §5.3.2) moves
the percentiles by two corrections: the **bias** ``z0 = Φ⁻¹(share of replicates below the
estimate)`` (the prior's shrinkage and the logit's small-sample bias push the replicates to one
side of the estimate) and the **acceleration** ``a = Σ lᵢ³ / (6·(Σ lᵢ²)^{3/2})`` (the skewness
of the estimate) from the empirical influence ``lᵢ`` of each series. The interval is the
``Φ(z0 + (z0 + z)/(1 − a(z0 + z)))`` quantiles of the replicates for ``z = Φ⁻¹(0.025)`` and
``Φ⁻¹(0.975)``.

The influence of a series is the infinitesimal jackknife of the fit (Efron 1982, "The Jackknife,
the Bootstrap and Other Resampling Plans", §6; Davison & Hinkley eq. 2.36): the Newton step its
score vector makes, ``I⁻¹·Uᵢ``, with ``I`` the information of the fit (the prior included) and
``Uᵢ`` the gradient of the series' quasi-log-likelihood at the estimate. One Cholesky factor and
one solve per class of series: no refit, so it costs nothing beside the replicates.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from arena.stats.field import K, PRIOR_DRAWS, Bootstrap, Duels, _expit, _Model, anchored, fit

#: confidence level of the field table's intervals
LEVEL = 0.95
#: a rating the prior moves by more than this many standard errors is marked: an interval off
#: its centre by ``b`` standard errors covers ``Φ(1.96 − b) − Φ(−1.96 − b)``, 93.1% at ``b = 0.4``
PULL_LIMIT = 0.4


def field_intervals(duels: Duels, boot: Bootstrap, anchor: int | None = None, value: float = 0.0,
                    level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """The field table's BCa intervals: ``(low, high)``, each ``(k + 1,)``: the ``k`` ratings
    anchored as ``arena.stats.field.anchored(..., anchor, value)`` moves them (``None``: mean
    ``value``), then the first-move term; Elo points.

    Raises:
        NotConnected: as ``influence``.
    """
    k = duels.k
    infl = influence(duels, boot.estimate)
    est = np.r_[anchored(boot.estimate[:k], anchor, value), boot.estimate[k:]]
    reps = np.c_[anchored(boot.replicates[:, :k], anchor, value), boot.replicates[:, k:]]
    cols = np.c_[anchored(infl[:, :k], anchor, 0.0), infl[:, k:]]
    return bca_intervals(est, reps, cols, duels.count, level)


def bca_intervals(estimate: np.ndarray, replicates: np.ndarray, influence: np.ndarray, weights: np.ndarray,
                  level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """BCa interval of each of ``m`` quantities (module docstring).

    Args:
        estimate: ``(m,)`` the fit of the games played.
        replicates: ``(B, m)`` the bootstrap fits.
        influence: ``(Q, m)`` the influence of one series of each class.
        weights: ``(Q,)`` series of each class.
        level: the confidence level.

    Returns:
        ``(low, high)``, each ``(m,)``; NaN without replicates. A column whose replicates are all
        equal (an anchored bot) gets that value at both ends; a column whose estimate lies
        outside the replicates' central ``level`` gets the percentile interval.
    """
    r = np.asarray(replicates, float)
    m = r.shape[1]
    if len(r) == 0:
        return np.full(m, np.nan), np.full(m, np.nan)
    est = np.asarray(estimate, float)
    below = (r < est).mean(axis=0) + 0.5 * (r == est).mean(axis=0)
    half = 0.5 / len(r)
    z0 = special.ndtri(np.clip(below, half, 1 - half))
    a = acceleration(influence, weights)
    tails = ((1 - level) / 2, (1 + level) / 2)
    # the estimate outside the replicates' central ``level`` (a bot that won or lost nearly
    # every resample): |z0| > 1.96 puts BCa's lower end above the median and the interval
    # collapses onto one end; BCa's correction is not to be trusted there (Efron & Tibshirani
    # §14.3), so such a column keeps the percentile interval
    edge = (below <= tails[0]) | (below >= tails[1])
    ends = []
    for tail in tails:
        z = z0 + special.ndtri(tail)
        p = np.where(edge, tail, special.ndtr(z0 + z / np.maximum(1 - a * z, 1e-9)))
        ends.append(np.array([np.quantile(r[:, c], p[c]) for c in range(m)]))
    return ends[0], ends[1]


def acceleration(influence: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``(m,)``: ``Σ lᵢ³ / (6·(Σ lᵢ²)^{3/2})`` over the series (``weights`` of each class's
    ``influence`` row), the influence centred; 0 where every series has the same influence."""
    w = np.asarray(weights, float)[:, None]
    infl = np.asarray(influence, float)
    if not len(infl):
        return np.zeros(infl.shape[1])
    centred = infl - (w * infl).sum(axis=0) / max(float(w.sum()), 1.0)
    square = (w * centred**2).sum(axis=0)
    cube = (w * centred**3).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        a = cube / (6 * square**1.5)
    return np.where(square > 1e-24, a, 0.0)


def influence(duels: Duels, estimate: np.ndarray, prior: float = PRIOR_DRAWS) -> np.ndarray:
    """``(Q, k + 1)``: the influence of one series of each class of ``duels`` on the ratings
    (Elo, mean 0) and the first-move term of the fit ``estimate`` (``arena.stats.field.fit``):
    ``I⁻¹·Uᵢ`` in Elo points (module docstring).

    Raises:
        NotConnected: the information matrix is singular (as ``fit``).
    """
    k, est = duels.k, np.asarray(estimate, float)
    x = est[None, :] * K
    model = _Model(duels, duels.cells()[None], prior)
    _grad, *weights = model.terms(x, model.data)
    low = model.factor(*weights)[0]
    seat0 = np.where(duels.side == 0, duels.pa[duels.cp], duels.pb[duels.cp])
    seat1 = np.where(duels.side == 0, duels.pb[duels.cp], duels.pa[duels.cp])
    resid = duels.pts - _expit(x[0, seat0] - x[0, seat1] + x[0, k])
    q = len(duels.count)
    score = np.zeros((q, k + 1))
    np.add.at(score, (duels.cq, seat0), resid)
    np.add.at(score, (duels.cq, seat1), -resid)
    np.add.at(score, (duels.cq, np.full(len(resid), k)), resid)
    step = np.zeros((q, k + 1))
    step[:, model.keep] = np.linalg.solve(low @ low.T, score[:, model.keep].T).T
    step[:, :k] -= step[:, :k].mean(axis=1, keepdims=True)
    return step / K


def prior_pull(duels: Duels, boot: Bootstrap, anchor: int | None = None, prior: float = PRIOR_DRAWS) -> np.ndarray:
    """``(k,)`` Elo: how far the prior's virtual draws move each rating (anchored as
    ``field_intervals``), toward the field when negative for a bot above it: ``2·(θ(prior) −
    θ(prior/2))``, the difference to the fit with half the prior doubled (a weak prior's pull is
    about linear in its weight). The bootstrap cannot see this bias (every replicate has the
    prior too), so no interval corrects it: ``docs/statistics.md`` "Coverage of the intervals".

    Raises:
        NotConnected: as ``fit``.
    """
    k = duels.k
    half = fit(duels, duels.cells(), prior / 2, start=boot.estimate)
    return anchored(2 * (boot.estimate[:k] - half[:k]), anchor, 0.0)


def pulled(duels: Duels, boot: Bootstrap, anchor: int | None = None, limit: float = PULL_LIMIT) -> np.ndarray:
    """``(k,)`` bool: the ratings the prior moves by more than ``limit`` standard errors (the
    replicates' standard deviation), whose interval may cover less than 95%."""
    k = duels.k
    sd = anchored(boot.replicates[:, :k], anchor, 0.0).std(axis=0) if len(boot.replicates) else np.full(k, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.abs(prior_pull(duels, boot, anchor)) > limit * sd
