"""Bradley–Terry Elo of a 2-player field with a first-move term, fitted on all games at once
(``docs/statistics.md`` "Ratings of a field"). Uses scipy and pandas (reports only); the
store's games become cells in ``arena.reports.pairs.bt_cells``.

Model: the seat-0 bot ``i`` against the seat-1 bot ``j`` scores
``P = 1/(1 + 10^(-(r_i - r_j + f)/400))`` per game (the logistic Elo model of Bradley & Terry
1952 / Elo 1978 with a home-advantage term as in Agresti, "Categorical Data Analysis",
§11.6), draws counting half a point ("draws as half points"). The ratings ``r`` (mean 0) and the
first-move term ``f`` maximise the (quasi-)likelihood
``Σ_cells S·ln P + (n - S)·ln(1 - P)`` over the cells (seat-0 bot, seat-1 bot) with ``n``
games and ``S`` seat-0 points; the fit works on those aggregated counts only, so a million
games cost no more than a hundred. ``scipy.optimize.minimize`` (trust-region Newton with the
exact gradient and Hessian) does the fitting.

Intervals: 95% normal intervals from the observed information ``XᵀWX`` (W = n·P(1 - P)),
with the ratings constrained to mean 0 (``Cov(r) = C(CᵀIC)⁻¹Cᵀ`` for a contrast basis ``C``).
Existence: the maximum-likelihood estimate is finite and unique exactly when no direction of
the parameters separates the games (Albert & Anderson 1984 for logistic models; for plain
Bradley–Terry this is Ford 1957's condition, restated by Hunter 2004, "MM algorithms for
generalized Bradley–Terry models", Assumption 1: the comparison graph is strongly connected).
With a first-move term strong connectivity is not enough (e.g. a bot that scored only as seat
0), so ``separation`` checks the general condition by linear programming (Konis 2007, "Linear
programming algorithms for detecting separated data in binary logistic regression models"):
a direction ``d`` with ``(Xd)_c >= 0`` where seat 0 scored every point, ``<= 0`` where it scored
none and ``= 0`` elsewhere, not zero on every cell. Then, or when the design is rank deficient
(a field in unconnected parts), every value is NaN, ``converged`` is False and ``reason`` says
why (also when a rating still passes ``DIVERGED``). No prior or ridge is added.

One pairing at a time (``pairing_first_moves``): the same model fitted to the games of each
pairing alone has two parameters (the rating difference ``d`` and the first-move term ``f``)
and two cells (each bot in seat 0), so it is saturated: the fitted seat-0 scores are the
observed ones, ``d + f = logit p₁`` and ``f - d = logit p₂``, hence ``f = (logit p₁ + logit
p₂)/2`` with ``Var f = (1/(n₁p₁q₁) + 1/(n₂p₂q₂))/4`` (natural units; the observed information
of two independent logits). Fitting every pairing this way is one joint fit whose
maximum-likelihood estimate is closed form: a field of 100 bots costs arrays of 4,950 entries,
not 4,950 numerical fits. It exists exactly when both cells were played and neither is all
won or all lost (otherwise the two cells are separated, and every figure is NaN, as
``fit_cells`` gives it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.optimize import linprog, minimize

from arena.stats.elo import Z95

K = math.log(10) / 400  # Elo points -> natural logit
#: Beyond this many Elo points a rating is treated as infinite (perfect separation).
DIVERGED = 3000.0


@dataclass(frozen=True)
class BTFit:
    """A Bradley–Terry fit: ``table`` (``label``, ``games``, ``elo``, ``elo_low``,
    ``elo_high``; best first, equal ratings to 10⁻⁶ Elo by label), the ``first_move`` term in Elo with ``first_low`` and
    ``first_high``, ``games`` fitted, ``converged``, and the ``reason`` there is no finite fit
    (empty when converged)."""

    table: pd.DataFrame
    first_move: float
    first_low: float
    first_high: float
    games: int
    converged: bool
    reason: str = ""


def fit_cells(c: pd.DataFrame, order: Sequence[str] | None = None) -> BTFit:
    """The Bradley–Terry fit of aggregated 2-player games: ``c`` has one row per (``seat0``,
    ``seat1``) labels with ``n`` games and ``points`` of seat 0 (win 1, draw ½;
    ``arena.reports.pairs.bt_cells`` builds it from the store's games). ``order``: labels in
    field order (ties in the table keep it).

    Returns NaN figures (``converged`` False, ``reason`` says why) with fewer than two bots,
    separated games, a rank-deficient design or a diverging rating.
    """
    seen = set(c["seat0"]) | set(c["seat1"])
    labels = [lab for lab in dict.fromkeys([*(order or ()), *sorted(seen)]) if lab in seen]
    k = len(labels)
    index = pd.Index(labels, dtype=object)
    i0 = index.get_indexer(c["seat0"]).astype(np.int64)
    i1 = index.get_indexer(c["seat1"]).astype(np.int64)
    n, s = c["n"].to_numpy(float), c["points"].to_numpy(float)
    games = np.bincount(i0, n, minlength=k) + np.bincount(i1, n, minlength=k)
    counts = {lab: int(g) for lab, g in zip(labels, games)}
    if k < 2:
        return _empty(labels, counts, "fewer than two bots played 2-player games")
    rows = np.arange(len(c))
    x = sparse.csr_matrix((np.concatenate([np.ones(len(c)), -np.ones(len(c)), np.ones(len(c))]),
                           (np.concatenate([rows, rows, rows]), np.concatenate([i0, i1, np.full(len(c), k)]))),
                          shape=(len(c), k + 1))  # duplicates add up: a bot against itself is 0
    # contrast basis: ratings r = C·θ sum to 0 (θ has k-1 entries); f is free
    basis = np.zeros((k + 1, k))
    basis[:k - 1, :k - 1] = np.eye(k - 1)
    basis[k - 1, :k - 1] = -1
    basis[k, k - 1] = 1
    design = sparse.csr_matrix(x @ sparse.csr_matrix(basis)) * K  # cells x parameters, few entries a row

    def nll(theta):
        eta = design @ theta
        return float(np.sum(n * np.logaddexp(0, eta) - s * eta))

    def grad(theta):
        p = 1 / (1 + np.exp(-(design @ theta)))
        return design.T @ (n * p - s)

    def hess(theta):
        p = 1 / (1 + np.exp(-(design @ theta)))
        return (design.T @ design.multiply((n * p * (1 - p))[:, None])).toarray()

    scored = np.bincount(i0, s, minlength=k) + np.bincount(i1, n - s, minlength=k)
    extreme = [lab for lab, pts, g in zip(labels, scored, games) if pts == 0 or pts == g]
    if extreme:  # all won or all lost: no finite MLE
        return _empty(labels, counts, f"{extreme[0]} won or lost every game")
    if np.linalg.matrix_rank((design.T @ design).toarray(), hermitian=True) < k:  # rank of X = of XᵀX
        return _empty(labels, counts, ("the games do not identify every rating and the first-move term "
                      "(bots that never meet, or a pairing played from one seat only)"))
    if separation(design, n, s):
        return _empty(labels, counts, "the games are separated (e.g. a bot scored only in one seat); "
                      "the ratings and first-move term are not identified")
    res = minimize(nll, np.zeros(k), jac=grad, hess=hess, method="trust-exact", options={"gtol": 1e-12})
    params = basis @ res.x
    try:
        cov = basis @ np.linalg.inv(hess(res.x)) @ basis.T
    except np.linalg.LinAlgError:
        return _empty(labels, counts, "singular information matrix")
    if not np.all(np.isfinite(params)) or np.max(np.abs(params)) > DIVERGED or np.any(np.diag(cov) < 0):
        return _empty(labels, counts, f"a rating diverged (beyond {DIVERGED:g} Elo)")
    se = np.sqrt(np.diag(cov))
    table = pd.DataFrame({"label": labels, "games": [counts[lab] for lab in labels], "elo": params[:k],
                          "elo_low": params[:k] - Z95 * se[:k], "elo_high": params[:k] + Z95 * se[:k]})
    # best first; ratings equal to a millionth of an Elo point (equal records, told apart only
    # by the optimiser's last digits) by label
    table = (table.assign(rank=np.round(params[:k], 6)).sort_values(["rank", "label"], ascending=[False, True])
             .drop(columns="rank").reset_index(drop=True))
    return BTFit(table, float(params[k]), float(params[k] - Z95 * se[k]), float(params[k] + Z95 * se[k]),
                 int(n.sum()), True)


def pairing_first_moves(n1: np.ndarray, s1: np.ndarray, n2: np.ndarray,
                        s2: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The first-move term of each pairing's own Bradley–Terry fit (see the module doc), in
    Elo points with its 95% interval: ``(first_move, low, high)``, float arrays of the inputs'
    shape; NaN where the fit has no finite estimate (a cell not played, all won or all lost)
    or a rating passes ``DIVERGED``; the same numbers ``fit_cells`` gives the pairing's two
    cells.

    Args:
        n1, s1: games and seat-0 points (win 1, draw ½) with the pairing's first bot in seat 0.
        n2, s2: the same with the second bot in seat 0.
    """
    n1, s1, n2, s2 = (np.asarray(x, dtype=float) for x in (n1, s1, n2, s2))
    ok = (s1 > 0) & (s1 < n1) & (s2 > 0) & (s2 < n2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p1, p2 = s1 / n1, s2 / n2
        eta1, eta2 = np.log(p1 / (1 - p1)), np.log(p2 / (1 - p2))
        f = (eta1 + eta2) / 2 / K
        d = (eta1 - eta2) / 2 / K
        se = np.sqrt((1 / (n1 * p1 * (1 - p1)) + 1 / (n2 * p2 * (1 - p2))) / 4) / K
        ok &= (np.abs(f) <= DIVERGED) & (np.abs(d / 2) <= DIVERGED)
        nan = np.full(f.shape, np.nan)
        return np.where(ok, f, nan), np.where(ok, f - Z95 * se, nan), np.where(ok, f + Z95 * se, nan)


def separation(design: np.ndarray | sparse.spmatrix, n: np.ndarray, s: np.ndarray, tol: float = 1e-7) -> bool:
    """Whether the binomial cells (``design`` rows of shape (cells, params), dense or a scipy
    sparse matrix; ``n`` games, ``s``
    seat-0 points) are (quasi-)separated, i.e. the maximum-likelihood estimate does not exist.

    Solves Konis's (2007) linear programme: maximise ``Σ_{s=n}(Xd) - Σ_{s=0}(Xd)`` over
    ``-1 <= d <= 1`` with ``Xd >= 0`` on all-won cells, ``<= 0`` on all-lost cells and ``= 0`` on
    the others; a positive optimum is a separating direction (Albert & Anderson 1984).
    """
    won, lost = s >= n, s <= 0
    mixed = ~(won | lost)
    if not (won.any() or lost.any()):
        return False
    x = sparse.csr_matrix(design)
    x = x / abs(x).max()
    objective = -(np.asarray(x[won].sum(axis=0)).ravel() - np.asarray(x[lost].sum(axis=0)).ravel())
    a_ub = sparse.vstack([-x[won], x[lost]], format="csr")
    a_eq = x[mixed] if mixed.any() else None
    b_eq = np.zeros(int(mixed.sum())) if mixed.any() else None
    res = linprog(objective, A_ub=a_ub, b_ub=np.zeros(a_ub.shape[0]), A_eq=a_eq, b_eq=b_eq, bounds=(-1, 1),
                  method="highs")
    return bool(res.status == 0 and -res.fun > tol)


def _empty(labels: list[str], counts: dict[str, int], reason: str = "no games") -> BTFit:
    nan = math.nan
    table = pd.DataFrame({"label": labels, "games": [counts[lab] for lab in labels], "elo": nan,
                          "elo_low": nan, "elo_high": nan})
    return BTFit(table, nan, nan, nan, int(sum(counts.values()) // 2), False, reason)
