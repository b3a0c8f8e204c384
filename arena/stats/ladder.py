"""A strength ladder: Elo per step of a bot's budget, and whether the first-move advantage
changes with strength, fitted on all games of the ladder at once (``docs/statistics.md``
"Strength ladder"). Uses numpy and scipy (reports only).

Model: the logistic Elo model of ``arena.stats.bt`` (Bradley–Terry with a first-move term),
with every rating on one line of the strength coordinate ``x`` (``axis``: doublings of the
budget, or the parameter itself) and a first-move term that may change along it. The seat-0 bot
at ``x0`` against the seat-1 bot at ``x1`` scores

    P = 1 / (1 + 10^(-(b·(x0 − x1) + f + g·(m − m̄)) / 400)),   m = (x0 + x1) / 2,

with ``b`` the Elo per unit of ``x`` ("Elo per doubling"), ``f`` the first-move advantage in
Elo at ``m̄`` (the games' mean level), and ``g`` its change per unit of ``x`` (the trend).
Draws count half a point (the quasi-likelihood ``Σ w·(y·η − ln(1 + e^η))``, as
``arena.stats.bt``), maximised by ``scipy.optimize.minimize`` (trust-region Newton, exact
gradient and Hessian).

Intervals: 95% Wald intervals from the cluster-robust (sandwich) covariance with the series
as clusters and the CR1 factor, ``C/(C − 1) · H⁻¹ (Σ_c u_c u_cᵀ) H⁻¹`` (Liang and Zeger 1986,
"Longitudinal data analysis using generalized linear models", Biometrika 73:13–22; Cameron
and Miller 2015, "A Practitioner's Guide to Cluster-Robust Inference", §2.4 and eq. 11): the
two games of a pair share their start, and a quasi-likelihood with draws has no exact
variance. The **trend test** is the Wald test of ``g = 0``: ``z = g / se(g)``, two-sided
normal p-value. ``g`` is only identified when the games span at least two levels ``m``
(three rungs); with one step it is NaN.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats
from scipy.optimize import minimize

from arena.stats.bt import DIVERGED, K, separation
from arena.stats.elo import Z95

#: ``axis`` scales: doublings of the budget (log2), or the parameter's own units
LOG2, LINEAR = "log2", "linear"


def axis(values: Sequence[float]) -> tuple[list[float], str]:
    """The strength coordinate of each rung's parameter value and its scale, by the first
    rule that holds for the values in the order given:

    1. steps of exactly 1 (``{1..5}``, ``{1,2}``: search depth): ``linear``;
    2. a geometric sequence of positive values (``{50,100,200,...}``): ``log2``;
    3. an arithmetic sequence (``{2..10..2}``): ``linear``;
    4. positive values (``{100,300,1000}``): ``log2``; else ``linear``.

    ``log2``: ``x = log2(v / v_first)``, one unit a doubling; ``linear``: ``x = v − v_first``,
    one unit of the parameter.

    Raises:
        ValueError: fewer than two values, or values not strictly increasing.
    """
    v = [float(x) for x in values]
    if len(v) < 2 or any(b <= a for a, b in zip(v, v[1:])):
        raise ValueError(f"a ladder needs at least two strictly increasing values, not {v}")
    steps = [b - a for a, b in zip(v, v[1:])]
    arithmetic = all(math.isclose(s, steps[0], rel_tol=1e-9) for s in steps)
    positive = v[0] > 0
    geometric = positive and all(math.isclose(b / a, v[1] / v[0], rel_tol=1e-9) for a, b in zip(v, v[1:]))
    unit_steps = arithmetic and math.isclose(steps[0], 1.0)
    if not unit_steps and (geometric or (positive and not arithmetic)):
        return [math.log2(x / v[0]) for x in v], LOG2
    return [x - v[0] for x in v], LINEAR


@dataclass(frozen=True)
class LadderFit:
    """The ladder model fitted (module doc). Elo points; ``*_low``/``*_high`` 95% intervals;
    ``*_p`` two-sided Wald p-values.

    Attributes:
        per_unit: ``b``, Elo per unit of the strength coordinate (per doubling on ``log2``).
        first_move: ``f``, the first-move advantage at the mean level ``mean_level``.
        trend: ``g``, the change of the first-move advantage per unit of the coordinate (NaN
            when the games span one level only).
        games: games fitted (weights summed); clusters: series.
        converged: a finite fit exists; ``reason`` says why not (empty when converged).
    """

    per_unit: float
    per_unit_low: float
    per_unit_high: float
    per_unit_p: float
    first_move: float
    first_low: float
    first_high: float
    first_p: float
    trend: float
    trend_low: float
    trend_high: float
    trend_p: float
    mean_level: float
    games: float
    clusters: int
    converged: bool
    reason: str = ""


def _nan_fit(games: float, clusters: int, mean_level: float, reason: str) -> LadderFit:
    nan = math.nan
    return LadderFit(nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, mean_level, games, clusters,
                     False, reason)


def fit_ladder(x0: Sequence[float], x1: Sequence[float], points: Sequence[float], clusters: Sequence[object],
               weights: Sequence[float] | None = None) -> LadderFit:
    """Fit the ladder model to games: per game the strength coordinates ``x0``, ``x1`` of the
    seat-0 and seat-1 bots, seat 0's ``points`` (1, ½, 0; any value in [0, 1] is accepted),
    the game's series ``clusters`` (any hashable labels) and optional ``weights`` (games a row
    stands for; 1 each by default).

    Returns NaN figures (``converged`` False, ``reason`` says why) when the games do not
    identify ``b`` and ``f`` (one seat order only, one rung only), are separated (the stronger
    rung won every game) or a parameter passes ``DIVERGED`` Elo.

    Raises:
        ValueError: arrays of different lengths.
    """
    a, b = np.asarray(x0, float), np.asarray(x1, float)
    y = np.asarray(points, float)
    w = np.ones_like(y) if weights is None else np.asarray(weights, float)
    if not len(a) == len(b) == len(y) == len(w) == len(clusters):
        raise ValueError("x0, x1, points, clusters and weights must have one entry per game")
    cluster_ids = np.unique(np.asarray([str(c) for c in clusters], dtype=object), return_inverse=True)[1].ravel() \
        if len(y) else np.zeros(0, np.int64)
    c = int(cluster_ids.max()) + 1 if len(y) else 0
    level = (a + b) / 2
    mean_level = float((w * level).sum() / w.sum()) if w.sum() > 0 else math.nan
    if not len(y):
        return _nan_fit(0.0, 0, mean_level, "no games")
    full = np.column_stack([a - b, np.ones_like(a), level - mean_level]) * K
    trend = np.linalg.matrix_rank(full) == 3
    design = full if trend else full[:, :2]
    if np.linalg.matrix_rank(design) < 2:
        return _nan_fit(float(w.sum()), c, mean_level, "the games do not identify the Elo per step and the "
                        "first-move term (one rung, or each pairing played from one seat only)")
    cells, cell = np.unique(design, axis=0, return_inverse=True)
    if separation(cells, np.bincount(cell.ravel(), w), np.bincount(cell.ravel(), y * w)):
        return _nan_fit(float(w.sum()), c, mean_level, "the games are separated (e.g. the stronger rung won "
                        "every game); no finite fit")
    theta, cov = _fit(design, y, w, cluster_ids, c)
    if not np.all(np.isfinite(theta)) or np.max(np.abs(theta)) > DIVERGED:
        return _nan_fit(float(w.sum()), c, mean_level, f"a parameter diverged (beyond {DIVERGED:g} Elo)")
    se = np.sqrt(np.clip(np.diag(cov), 0, None)) if cov is not None else np.full(len(theta), math.nan)
    est = [_wald(float(t), float(s)) for t, s in zip(theta, se)]
    slope, first = est[0], est[1]
    tr = est[2] if trend else (math.nan,) * 4
    return LadderFit(*slope, *first, *tr, mean_level, float(w.sum()), c, True)


def _wald(estimate: float, se: float) -> tuple[float, float, float, float]:
    """(estimate, low, high, two-sided p) of a Wald interval and test; NaN without an se."""
    if not (se > 0 and math.isfinite(se)):
        return estimate, math.nan, math.nan, math.nan
    return estimate, estimate - Z95 * se, estimate + Z95 * se, float(2 * stats.norm.sf(abs(estimate) / se))


def _fit(design: np.ndarray, y: np.ndarray, w: np.ndarray, cluster: np.ndarray,
         c: int) -> tuple[np.ndarray, np.ndarray | None]:
    """The quasi-likelihood estimate and its CR1 sandwich covariance (``None`` with fewer
    than two clusters or a singular information matrix)."""

    def nll(theta):
        eta = design @ theta
        return float(np.sum(w * (np.logaddexp(0, eta) - y * eta)))

    def grad(theta):
        p = 1 / (1 + np.exp(-(design @ theta)))
        return design.T @ (w * (p - y))

    def hess(theta):
        p = 1 / (1 + np.exp(-(design @ theta)))
        return design.T @ (design * (w * p * (1 - p))[:, None])

    res = minimize(nll, np.zeros(design.shape[1]), jac=grad, hess=hess, method="trust-exact",
                   options={"gtol": 1e-10})
    theta = res.x
    if c < 2:
        return theta, None
    try:
        bread = np.linalg.inv(hess(theta))
    except np.linalg.LinAlgError:
        return theta, None
    p = 1 / (1 + np.exp(-(design @ theta)))
    scores = design * (w * (y - p))[:, None]
    per_cluster = np.zeros((c, design.shape[1]))
    np.add.at(per_cluster, cluster, scores)
    meat = per_cluster.T @ per_cluster
    return theta, c / (c - 1) * bread @ meat @ bread
