"""Ratings of an n-player field: a Plackett–Luce fit with seat terms, and its bootstrap over
series (``docs/statistics.md`` "The field table: n-player games"). numpy only.

**Model.** A game's finishing order is drawn place by place: among the players not yet
placed, player ``i`` takes the next place with probability ``e^{u_i} / Σ e^{u_j}`` with
``u_i = K·(r_bot + g_seat)`` (Plackett 1975, Luce 1959; Hunter 2004, "MM algorithms for
generalized Bradley–Terry models", §5), ``K = ln 10 / 400`` so that ratings are Elo points:
two players alone score as the logistic Elo model says. ``g_seat`` is the seat's term (Elo
points over the average seat). **Ties** are placed in every order with equal weight (the
expected log-likelihood over random tie-breaks, a group of ``m ≤ 4`` tied players giving
``m!`` weighted orders), so a two-player draw is half a point each way, as the 2-player fit's
draws; a tied group of more than four takes Breslow's approximation instead (each member
takes the group's first place against all the unplaced with weight ``1/m``, then the group
leaves; Breslow 1974). **Prior**: every two bots that met also play ``prior`` virtual
two-player draws without seats, and every two seats ``prior`` virtual draws between equal bots
(as ``arena.stats.field``). The ratings have mean 0.

The bootstrap resamples series exactly as ``arena.stats.field`` does (a multinomial over the
series classes), refitting each replicate by Newton's method from the estimate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import permutations, product

import numpy as np

from arena.stats.field import CHUNK, MAX_LOGIT_STEP, MAX_STEPS, PRIOR_DRAWS, REPLICATES, TOL, NotConnected, \
    cholesky_solve, connected
from arena.stats.resampling import SeriesClasses, series_classes

K = math.log(10) / 400
#: tied groups up to this size are placed in all their orders; larger ones by Breslow's rule
MAX_ORDERED_TIE = 4


@dataclass(frozen=True)
class Rankings(SeriesClasses):
    """The games of an n-player field for fitting and resampling.

    Attributes:
        labels: the ``k`` bots; ``seats``: seats per game ``n``.
        rows_bots, rows_ranks: ``(R, n)`` the distinct games (bot index by seat, rank by seat).
        count: ``(Q,)`` series of each class; ``cq``, ``row``: ``(E,)`` one entry per game of a
            class's series (its class, its distinct game).
    """

    labels: tuple[str, ...]
    seats: int
    rows_bots: np.ndarray
    rows_ranks: np.ndarray
    count: np.ndarray
    cq: np.ndarray
    row: np.ndarray

    @classmethod
    def from_games(cls, labels, bots, ranks, series) -> Rankings:
        """Games given as ``bots`` ``(G, n)`` (bot index by seat), ``ranks`` ``(G, n)`` (1 =
        first, ties share) and ``series`` ``(G,)`` (an integer key per series of a pairing).

        Raises:
            ValueError: shapes that differ, or a bot twice in one game.
        """
        b, r, key = np.asarray(bots, np.int64), np.asarray(ranks, np.int64), np.asarray(series, np.int64)
        if b.shape != r.shape or b.ndim != 2 or len(key) != len(b):
            raise ValueError("bots and ranks need shape (games, seats) and series one key per game")
        if len(b) and np.any(np.sort(b, axis=1)[:, 1:] == np.sort(b, axis=1)[:, :-1]):
            raise ValueError("a bot sits twice in one game")
        rows, code = np.unique(np.concatenate([b, r], axis=1), axis=0, return_inverse=True) if len(b) else \
            (np.zeros((0, 2 * b.shape[1]), np.int64), np.zeros(0, np.int64))
        count, cq, row = series_classes(code.ravel(), key)
        n = b.shape[1]
        return cls(tuple(labels), n, rows[:, :n], rows[:, n:], count, cq, row)

    def row_weights(self, weights: np.ndarray | None = None) -> np.ndarray:
        """``(R,)`` games per distinct game, or ``(B, R)`` for class ``weights`` ``(B, Q)``."""
        w = self.count[None, :].astype(float) if weights is None else np.atleast_2d(weights).astype(float)
        out = np.zeros((w.shape[0], len(self.rows_bots)))
        np.add.at(out.T, self.row, w[:, self.cq].T)
        return out[0] if weights is None else out

    def pairs_met(self) -> tuple[np.ndarray, np.ndarray]:
        """The pairs of bots that met in some game, ``(pa, pb)`` with ``pa < pb``."""
        n, k = self.seats, self.k
        keys = {int(min(a, b)) * k + int(max(a, b)) for row in self.rows_bots for i, a in enumerate(row)
                for b in row[i + 1:n]}
        arr = np.array(sorted(keys), np.int64)
        return arr // k, arr % k


@dataclass(frozen=True)
class Stages:
    """Every place-taking step of the distinct games: ``items`` ``(S, m)`` bot index, ``seat``
    ``(S, m)`` (-1: none; both -1: padding; a bot without seat or a seat without bot is a
    prior's draw), the winner is item 0, ``row`` ``(S,)`` the distinct game (-1: a prior
    stage), ``weight`` ``(S,)`` its weight per game."""

    items: np.ndarray
    seat: np.ndarray
    row: np.ndarray
    weight: np.ndarray


def stages(r: Rankings, prior: float = PRIOR_DRAWS) -> Stages:
    """The stages of ``r``'s distinct games (ties as the module docstring says), then the
    prior's two-player draws (two stages per pair of bots that met and per pair of seats,
    weight ``prior/2`` each)."""
    n = r.seats
    out: list[tuple[list[int], list[int], int, float]] = []
    for idx, (bots, ranks) in enumerate(zip(r.rows_bots.tolist(), r.rows_ranks.tolist())):
        groups = [[s for s in range(n) if ranks[s] == value] for value in sorted(set(ranks))]
        choices = [list(permutations(g)) if len(g) <= MAX_ORDERED_TIE else [None] for g in groups]
        combos = list(product(*choices))
        for combo in combos:
            weight = 1.0 / len(combos)
            left = list(range(n))
            for group, order in zip(groups, combo):
                if order is None:  # Breslow: each member wins against all the unplaced, weight 1/m
                    for s in group:
                        rest = [s] + [t for t in left if t != s]
                        out.append(([bots[t] for t in rest], rest, idx, weight / len(group)))
                    left = [t for t in left if t not in group]
                    continue
                for s in order:
                    if len(left) > 1:
                        rest = [s] + [t for t in left if t != s]
                        out.append(([bots[t] for t in rest], rest, idx, weight))
                    left.remove(s)
    pa, pb = r.pairs_met()
    for a, b in zip(pa.tolist(), pb.tolist()):
        out.append(([a, b], [-1, -1], -1, prior / 2))
        out.append(([b, a], [-1, -1], -1, prior / 2))
    for s in range(n):  # the seats' virtual draws, between equal (absent) bots
        for t in range(s + 1, n):
            out.append(([-1, -1], [s, t], -1, prior / 2))
            out.append(([-1, -1], [t, s], -1, prior / 2))
    m = max((len(o[0]) for o in out), default=2)
    items = np.full((len(out), m), -1, np.int64)
    seat = np.full((len(out), m), -1, np.int64)
    for i, (its, sts, _, _) in enumerate(out):
        items[i, :len(its)], seat[i, :len(sts)] = its, sts
    return Stages(items, seat, np.array([o[2] for o in out], np.int64), np.array([o[3] for o in out], float))


def fit(r: Rankings, weights: np.ndarray | None = None, prior: float = PRIOR_DRAWS,
        start: np.ndarray | None = None, st: Stages | None = None) -> np.ndarray:
    """Ratings and seat terms of ``r`` (``weights``: ``(B, R)`` games per distinct game of
    each bootstrap replicate, ``None``: the games played), by Newton's method from ``start``.

    Returns:
        ``(k + n,)`` or ``(B, k + n)``: the ratings (Elo, mean 0) then the seat terms (Elo
        over the average seat, summing to 0).

    Raises:
        NotConnected: the games do not connect the field.
    """
    st = st or stages(r, prior)
    k, n = r.k, r.seats
    pa, pb = r.pairs_met()
    if k < 2 or not connected(k, pa, pb):
        raise NotConnected("the games do not connect every bot of the field")
    single = weights is None
    w = r.row_weights()[None] if single else np.atleast_2d(np.asarray(weights, float))
    sw = np.where(st.row[None, :] >= 0, w[:, np.maximum(st.row, 0)], 1.0) * st.weight[None, :]  # (B, S)
    dim = k + n
    # parameters: bots 0..k-1, seats k..k+n-1; gauge: the last bot and seat 0 held at their start
    keep = np.r_[np.arange(k - 1), np.arange(k + 1, dim)]
    valid = (st.items >= 0) | (st.seat >= 0)
    hasbot = st.items >= 0
    bot = np.where(hasbot, st.items, 0)
    seatp = np.where(st.seat >= 0, k + st.seat, -1)
    x = np.zeros((len(sw), dim)) if start is None else np.tile(_to_params(np.asarray(start, float), k), (len(sw), 1))
    rows = np.arange(len(sw))
    xa, swa = x.copy(), sw
    for _ in range(MAX_STEPS):
        u = np.where(hasbot, xa[:, bot], 0.0) + np.where(seatp >= 0, xa[:, np.maximum(seatp, 0)], 0.0)  # (b, S, m)
        u = np.where(valid[None], u, -np.inf)
        u -= u.max(axis=2, keepdims=True)
        p = np.exp(u)
        p /= p.sum(axis=2, keepdims=True)
        grad = np.zeros((len(xa), dim))
        mean = np.zeros((len(xa), len(st.items), dim))  # Σ p_i e_i per stage
        for j in range(st.items.shape[1]):
            on, hb = valid[:, j], hasbot[:, j]
            coef = (on[None] * ((j == 0) - p[:, :, j])) * swa
            np.add.at(grad.T, bot[hb, j], coef[:, hb].T)
            has = (seatp[:, j] >= 0) & on
            np.add.at(grad.T, seatp[has, j], coef[:, has].T)
            idx = np.arange(len(st.items))
            mean[:, idx[hb], bot[hb, j]] += p[:, hb, j]  # one entry a stage: no repeats
            mean[:, idx[has], seatp[has, j]] += p[:, has, j]
        # information: Σ_s w_s (Σ_i p_i e_i e_iᵀ - mean meanᵀ); Σ_i p_i e_i e_iᵀ = diag-like terms
        info = np.einsum("bs,bsd,bse->bde", -swa, mean, mean)
        for j in range(st.items.shape[1]):
            on, hb = valid[:, j], hasbot[:, j]
            has = (seatp[:, j] >= 0) & on
            coef = swa * p[:, :, j] * on[None]
            _add_outer(info, bot[:, j], bot[:, j], coef, hb)
            _add_outer(info, bot[:, j], seatp[:, j], coef, has & hb)
            _add_outer(info, seatp[:, j], bot[:, j], coef, has & hb)
            _add_outer(info, seatp[:, j], seatp[:, j], coef, has)
        sub = info[:, keep[:, None], keep[None, :]]
        try:
            step = cholesky_solve(np.linalg.cholesky(sub), grad[:, keep])
        except np.linalg.LinAlgError:
            raise NotConnected("the ratings and seat terms are not identified") from None
        big = np.abs(step).max(axis=1, keepdims=True)
        xa[:, keep] += step * np.minimum(1.0, MAX_LOGIT_STEP / np.maximum(big, 1e-300))
        going = big[:, 0] >= TOL
        if not going.all():
            x[rows[~going]] = xa[~going]
            rows, xa, swa = rows[going], xa[going], swa[going]
        if not len(rows):
            break
    x[rows] = xa
    out = x / K
    out[:, :k] -= out[:, :k].mean(axis=1, keepdims=True)
    out[:, k:] -= out[:, k:].mean(axis=1, keepdims=True)
    return out[0] if single else out


def _add_outer(info: np.ndarray, a: np.ndarray, b: np.ndarray, coef: np.ndarray, on: np.ndarray) -> None:
    """``info[:, a_s, b_s] += coef[:, s]`` over the stages ``s`` where ``on``."""
    if on.any():
        np.add.at(info.transpose(1, 2, 0), (a[on], b[on]), coef[:, on].T)


def _to_params(elo: np.ndarray, k: int) -> np.ndarray:
    return elo * K


@dataclass(frozen=True)
class Bootstrap:
    """``estimate`` ``(k + n,)`` and ``replicates`` ``(B, k + n)``: ratings then seat terms."""

    estimate: np.ndarray
    replicates: np.ndarray
    seed: int


def bootstrap(r: Rankings, replicates: int = REPLICATES, seed: int = 1, prior: float = PRIOR_DRAWS) -> Bootstrap:
    """The fit and ``replicates`` fits resampled over series (seeded).

    Raises:
        NotConnected: as ``fit``.
    """
    st = stages(r, prior)
    estimate = fit(r, None, prior, st=st)
    rng = np.random.default_rng(seed)
    reps = [fit(r, r.row_weights(r.resample(rng, min(CHUNK, replicates - lo))), prior, estimate, st)
            for lo in range(0, replicates, CHUNK)]
    return Bootstrap(estimate, np.concatenate(reps) if reps else np.zeros((0, len(estimate))), seed)
