"""Non-transitivity of a 2-player field (``docs/statistics.md`` "Rock, paper, scissors"):
significant 3-cycles, the Nash-averaged ranking and α-Rank. Uses scipy (reports only).

**Cycles.** ``L[i, j]`` is the log-odds of ``i``'s score against ``j`` in their games
(``arena.stats.field.pair_log_odds``: both seat orders, the prior's virtual draw), ``se`` its
standard error (the standard deviation of the bootstrap replicates). A 3-cycle ``i → j → l →
i`` is three pairs each won by the first (``L > 0``). It holds only if all three edges do, so
its p-value is the largest of the three one-sided p-values ``Φ(-L/se)`` (the
intersection-union test, Berger 1982); the p-values of all the field's candidate cycles are
then adjusted by Holm's method (Holm 1979), and a cycle is **significant** below 0.05.

**Nash averaging** (Balduzzi, Tuyls, Pérolat and Graepel 2018, "Re-evaluating evaluation").
The antisymmetric matrix ``A = L`` (pairs that never met: the Bradley–Terry difference
``K·(r_i - r_j)``) is a symmetric zero-sum game; its Nash equilibria are the mixtures ``p``
with ``A p ≤ 0``. The maximum-entropy one is found in two steps: a linear programme
(``scipy.optimize.linprog``, HiGHS) finds the bots that some equilibrium plays (maximise
``Σ s_i`` with ``y ≥ s``, ``A y ≤ 0``, ``0 ≤ s ≤ 1``: the equilibria form a cone); on that
support every equilibrium earns 0 against each of its bots, so when ``A`` restricted to it has a
one-dimensional null space (the generic case: an odd support) the equilibrium is that null
vector, else ``scipy.optimize.minimize`` (SLSQP) maximises the entropy over the equilibria. A bot's
**Nash average** is ``(A p)_i`` in Elo (``≤ 0``; 0 on the support): how it fares against the
equilibrium mixture. A transitive field puts all mass on its best bot; a rock-paper-scissors
cycle spreads it over the cycle. A bot ahead of every other (``L > 0`` against each) is the one
equilibrium, found without the programme (most bootstrap replicates of a small field).

**α-Rank** (Omidshafiei et al. 2019, "α-Rank: Multi-Agent Evaluation by Evolution"; the
single-population, local-selection model of OpenSpiel's ``egt/alpharank.py``): a population of
``m`` players of one bot is invaded by a mutant of another, which takes over with probability
``ρ = (1 - e^{-u})/(1 - e^{-m·u})``, ``u = α·(P_rs - P_sr)`` (``P`` the pairs' scores); the
chain moving between bots with probabilities ``ρ/(k - 1)`` has a stationary distribution
``π``, the α-Rank masses, ranking the bots. ``m = 50``, ``α = 100`` (OpenSpiel's defaults);
``ρ`` is floored at ``1e-250`` to keep the chain irreducible in floating point. The
stationary distribution is computed by the GTH algorithm (Grassmann, Taksar and Heyman 1985),
which subtracts nothing and so keeps the tiny masses exact.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog, minimize
from scipy.stats import norm

from arena.stats.significance import holm

#: α-Rank's population size and selection intensity (OpenSpiel's defaults)
POPULATION, ALPHA = 50, 100.0
#: the smallest fixation probability (keeps the chain irreducible)
RHO_FLOOR = 1e-250
#: Holm-adjusted p below this: a significant cycle
LEVEL = 0.05


@dataclass(frozen=True)
class Cycle:
    """A candidate 3-cycle ``bots[0] → bots[1] → bots[2] → bots[0]`` (indexes), each edge's
    log-odds and standard error, its p-value (intersection-union) and Holm-adjusted p."""

    bots: tuple[int, int, int]
    log_odds: tuple[float, float, float]
    se: tuple[float, float, float]
    p_value: float
    p_holm: float


def three_cycles(log_odds: np.ndarray, se: np.ndarray) -> list[Cycle]:
    """Every 3-cycle of ``log_odds`` (``(k, k)`` antisymmetric, NaN where two bots never met)
    with its test (module docstring), weakest edge first within the cycle's rotation that
    starts at its lowest index; sorted by p-value."""
    k = len(log_odds)
    won = np.nan_to_num(log_odds, nan=0.0) > 0
    found = []
    for i in range(k):
        for j in np.flatnonzero(won[i]):
            for l_ in np.flatnonzero(won[j] & won[:, i]):
                if i < j and i < l_:  # each cycle once, from its lowest index
                    found.append((i, int(j), int(l_)))
    if not found:
        return []
    cycles = np.array(found)
    edges = np.stack([cycles, np.roll(cycles, -1, axis=1)], axis=2)  # (c, 3, 2)
    lo = log_odds[edges[..., 0], edges[..., 1]]
    s = se[edges[..., 0], edges[..., 1]]
    with np.errstate(divide="ignore", invalid="ignore"):
        p_edge = np.where(s > 0, norm.sf(lo / s), 0.5)
    p = p_edge.max(axis=1)
    adjusted = holm(p.tolist())
    out = [Cycle((int(a), int(b), int(c)), tuple(map(float, lo[n])), tuple(map(float, s[n])),  # type: ignore[arg-type]
                 float(p[n]), float(adjusted[n])) for n, (a, b, c) in enumerate(found)]
    return sorted(out, key=lambda c: (c.p_value, c.bots))


def nash(a: np.ndarray) -> np.ndarray:
    """The maximum-entropy Nash equilibrium ``(k,)`` of the symmetric zero-sum game with
    antisymmetric payoff ``a`` ``(k, k)``, natural log-odds of the row bot against the column bot
    (module docstring)."""
    k = len(a)
    beats_all = np.flatnonzero(((a > 0) | np.eye(k, dtype=bool)).all(axis=1))
    if len(beats_all) == 1:  # a bot ahead of every other: the one equilibrium plays it alone
        p = np.zeros(k)  # (its row of A p <= 0 leaves no mass elsewhere); the usual field, no LP
        p[beats_all[0]] = 1.0
        return p
    return _nash_programme(a)


def _nash_programme(a: np.ndarray) -> np.ndarray:
    """``nash`` of any field: the linear programme for the support, then the equilibrium on it."""
    k = len(a)
    if k == 1:
        return np.ones(1)
    # variables [y (k), s (k)]: maximise Σ s subject to A y <= 0, s - y <= 0, 0 <= s <= 1, y >= 0
    c = np.r_[np.zeros(k), -np.ones(k)]
    a_ub = np.block([[a, np.zeros((k, k))], [-np.eye(k), np.eye(k)]])
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(2 * k), bounds=[(0, None)] * k + [(0, 1)] * k, method="highs")
    if res.status != 0:
        return np.full(k, 1.0 / k)
    support = np.flatnonzero(res.x[k:] > 0.5)
    y = res.x[:k]
    start = y[support] / y[support].sum()
    if len(support) == 1:
        p = np.zeros(k)
        p[support[0]] = 1.0
        return p
    sub = a[:, support]
    unique = _unique_on(a[np.ix_(support, support)])
    if unique is not None and np.all(unique > 0) and np.all(sub @ unique <= 1e-9):
        p = np.zeros(k)
        p[support] = unique
        return p

    def neg_entropy(q):
        q = np.maximum(q, 1e-300)
        return float(np.sum(q * np.log(q)))

    def grad(q):
        return np.log(np.maximum(q, 1e-300)) + 1

    cons = [{"type": "eq", "fun": lambda q: np.sum(q) - 1, "jac": lambda q: np.ones_like(q)},
            {"type": "ineq", "fun": lambda q: -(sub @ q), "jac": lambda q: -sub}]
    with warnings.catch_warnings():  # scipy < 1.11's SLSQP warns that it clipped a step to the bounds: benign
        warnings.filterwarnings("ignore", "Values in x were outside bounds", RuntimeWarning)
        out = minimize(neg_entropy, start, jac=grad, constraints=cons, bounds=[(1e-12, 1)] * len(support),
                       method="SLSQP", options={"ftol": 1e-12, "maxiter": 200})
    q = out.x if out.success and np.all(sub @ out.x <= 1e-6) else start
    p = np.zeros(k)
    p[support] = np.maximum(q, 0) / np.maximum(q, 0).sum()
    return p


def _unique_on(a: np.ndarray, tol: float = 1e-9) -> np.ndarray | None:
    """The one mixture ``q`` with ``a q = 0`` and ``Σ q = 1`` when the system has exactly one
    solution (then the equilibrium on the support is unique, so it is the maximum-entropy one),
    else ``None``. Gaussian elimination with partial pivoting on ``[a; 1ᵀ]`` (numpy row
    operations: LAPACK's SVD makes threaded calls that a busy machine slows a hundredfold)."""
    m = len(a)
    aug = np.column_stack([np.vstack([a, np.ones(m)]), np.r_[np.zeros(m), 1.0]])
    scale = max(float(np.abs(a).max(initial=0.0)), 1.0)
    for col in range(m):
        piv = col + int(np.argmax(np.abs(aug[col:, col])))
        if abs(aug[piv, col]) <= tol * scale:
            return None  # a free direction: more than one solution
        aug[[col, piv]] = aug[[piv, col]]
        below = aug[col + 1:, col] / aug[col, col]
        aug[col + 1:] -= below[:, None] * aug[col]
    if abs(aug[m, m]) > 1e-7 * scale:
        return None  # inconsistent: no mixture on the support earns 0 against it
    q = np.zeros(m)
    for i in range(m - 1, -1, -1):
        q[i] = (aug[i, m] - aug[i, i + 1:m] @ q[i + 1:]) / aug[i, i]
    return q if np.allclose(a @ q, 0.0, atol=1e-7 * scale) else None


def alpha_rank(scores: np.ndarray, alpha: float = ALPHA, m: int = POPULATION) -> np.ndarray:
    """α-Rank masses ``(..., k)`` of pairwise scores ``(..., k, k)`` (``P[i, j]`` the score of
    ``i`` against ``j``, ``P + Pᵀ = 1``; module docstring)."""
    p = np.asarray(scores, float)
    single = p.ndim == 2
    p = p[None] if single else p
    k = p.shape[-1]
    u = alpha * (np.swapaxes(p, 1, 2) - p)  # u[s, r]: mutant r's payoff against s minus s's against r
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        rho = np.where(np.abs(u) < 1e-12, 1.0 / m, np.expm1(-u) / np.expm1(-m * u))
    rho = np.maximum(np.nan_to_num(rho, nan=0.0, posinf=1.0), RHO_FLOOR)
    c = rho / (k - 1)
    idx = np.arange(k)
    c[:, idx, idx] = 0.0
    c[:, idx, idx] = 1 - c.sum(axis=2)
    out = stationary(c)
    return out[0] if single else out


def stationary(c: np.ndarray) -> np.ndarray:
    """Stationary distributions ``(B, k)`` of irreducible transition matrices ``c`` ``(B, k,
    k)`` (rows sum to 1) by the GTH algorithm (state reduction without subtraction)."""
    p = np.array(c, float)
    k = p.shape[-1]
    for n in range(k - 1, 0, -1):
        s = p[:, n, :n].sum(axis=1)
        p[:, :n, n] /= s[:, None]
        p[:, :n, :n] += p[:, :n, n:n + 1] * p[:, n:n + 1, :n]
    pi = np.zeros(p.shape[:2])
    pi[:, 0] = 1.0
    for n in range(1, k):
        pi[:, n] = np.einsum("bj,bj->b", pi[:, :n], p[:, :n, n])
    return pi / pi.sum(axis=1, keepdims=True)


def log_odds_matrix(k: int, pa: np.ndarray, pb: np.ndarray, pair_values: np.ndarray,
                    fill: np.ndarray | None = None) -> np.ndarray:
    """``(..., k, k)`` antisymmetric matrix of pairwise log-odds ``pair_values`` ``(..., P)``
    of the pairings ``(pa, pb)``; pairs that never met take ``fill[..., i] - fill[..., j]``
    (logits) when ``fill`` ``(..., k)`` is given, else NaN; 0 on the diagonal."""
    v = np.asarray(pair_values, float)
    shape = v.shape[:-1]
    if fill is None:
        out = np.full(shape + (k, k), np.nan)
    else:
        f = np.asarray(fill, float)
        out = f[..., :, None] - f[..., None, :]
    out[..., pa, pb] = v
    out[..., pb, pa] = -v
    idx = np.arange(k)
    out[..., idx, idx] = 0.0
    return out


def scores_of(log_odds: np.ndarray) -> np.ndarray:
    """Scores ``1/(1 + e^{-L})`` of log-odds (natural)."""
    return 0.5 * (1.0 + np.tanh(0.5 * np.asarray(log_odds, float)))


def to_elo(logits: np.ndarray | float) -> np.ndarray:
    """Natural logits as Elo points (``· 400/ln 10``)."""
    return np.asarray(logits, float) * 400 / math.log(10)
