"""The ratings of a 2-player field as rating lists print them (Ordo, BayesElo, CCRL/CEGT): a
Bradley–Terry fit with a first-move term, a bootstrap over series, and the likelihood of
superiority of every pair (``docs/statistics.md`` "The field table"). numpy only: the adaptive
schedule (``arena.tournament.adaptive``) decides its next games with it during a run.

**Model.** The seat-0 bot ``i`` against the seat-1 bot ``j`` scores
``P = 1/(1 + 10^(-(r_i - r_j + f)/400))`` per game (Bradley & Terry 1952, the logistic Elo
model; the first-move term ``f`` as a home advantage, Agresti, "Categorical Data Analysis",
§11.6). **Draws count half a point**: the ratings maximise the quasi-likelihood
``Σ S·ln P + (n - S)·ln(1 - P)`` over the (seat-0 bot, seat-1 bot) cells of ``n`` games and
``S`` seat-0 points (Wedderburn 1974), so each bot's expected score equals its score, as
Ordo's ratings do (M. Ballicora, Ordo). **Prior**: every pairing that met also plays
``prior`` virtual draws without seats (``prior/2·ln P + prior/2·ln(1 - P)`` with ``P`` the
score of ``r_i - r_j`` alone: BayesElo's virtual draws, R. Coulom), so a bot that won or lost
every game still gets a finite rating; and seat 0 and seat 1 play ``prior`` virtual draws
between equal bots (``prior/2·ln F + prior/2·ln(1 - F)``, ``F`` the score of ``f`` alone),
so a first move that won every game gets a finite term too. Ratings are anchored at a mean
of 0, or one bot at a given Elo.

**Bootstrap over series.** The unit resampled is the series: the two games of a
colour-swapped pair stay together (their shared start makes them dependent). A replicate
draws as many series as were played, with replacement, from all of them (the cluster
bootstrap; Davison & Hinkley, "Bootstrap Methods and their Application", §3.8), and is fitted
again, the prior included; the series of a pairing with the same results are one class, so a
replicate costs the number of classes, not of games. ``intervals`` gives the percentile
interval (2.5% and 97.5% of the replicates); the field table prints the BCa interval of the
same replicates (``arena.stats.bootci``); the **LOS** of bot ``i``
over ``j`` is the share of replicates rating ``i`` above ``j`` (ties half), and the **CFS**
of an entry is its LOS over the next one (Ordo's "confidence for superiority"). The
Monte-Carlo error of a share ``p`` from ``B`` replicates is ``√(p(1 - p)/B)``: 0.010 at
``p = 0.95`` and ``B = 500``.

Fitting is Newton's method on all replicates at once (one ``(B, k, k)`` solve per step).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from arena.numbers import parse_anchor  # noqa: F401 (re-exported: its home before arena run checked it early)
from arena.stats.resampling import SeriesClasses, series_classes

#: Elo points -> natural logit
K = math.log(10) / 400
#: virtual draws per pairing that met (the prior)
PRIOR_DRAWS = 1.0
#: bootstrap replicates of a report
REPLICATES = 500
#: replicates fitted at once at least; more while they hold at most CELLS pairings in all
#: (memory: about 8·(k² + 12·pairings) bytes a replicate)
CHUNK, CELLS = 32, 160_000
#: Newton steps at most; a step below TOL (logits) has converged
MAX_STEPS, TOL = 60, 1e-6
#: the largest Newton step (logits, about 520 Elo); longer ones are shortened
MAX_LOGIT_STEP = 3.0


class NotConnected(ValueError):
    """The games do not connect the field: some ratings have no common scale."""


@dataclass(frozen=True)
class Duels(SeriesClasses):
    """The 2-player games of a field, for fitting and resampling.

    Attributes:
        labels: the ``k`` bots.
        pa, pb: the pairings that met, ``(P,)`` indexes into ``labels`` with ``pa < pb``.
        count: ``(Q,)`` series of each class (series of one pairing with the same results).
        cq, cp, side, pts: one entry per game of each class's series (``(E,)``): the class,
            the pairing, ``side`` 0 when ``pa`` sat in seat 0 (else 1), and seat 0's points.
    """

    labels: tuple[str, ...]
    pa: np.ndarray
    pb: np.ndarray
    count: np.ndarray
    cq: np.ndarray
    cp: np.ndarray
    side: np.ndarray
    pts: np.ndarray

    @classmethod
    def from_games(cls, labels, seat0, seat1, points, series) -> Duels:
        """The games given per game: ``seat0``, ``seat1`` (indexes into ``labels``),
        ``points`` of seat 0 (1, ½ or 0) and ``series`` (an integer key, equal for the games of
        one series of one pairing).

        Raises:
            ValueError: arrays of different lengths, a bot against itself, or points not 0, ½, 1.
        """
        s0, s1 = np.asarray(seat0, np.int64), np.asarray(seat1, np.int64)
        pts, key = np.asarray(points, float), np.asarray(series, np.int64)
        if not (len(s0) == len(s1) == len(pts) == len(key)):
            raise ValueError("seat0, seat1, points and series need one entry per game")
        if np.any(s0 == s1):
            raise ValueError("a game of a bot against itself cannot rate it")
        half = np.rint(2 * pts).astype(np.int64)
        if len(half) and (np.any(np.abs(2 * pts - half) > 1e-9) or half.min() < 0 or half.max() > 2):
            raise ValueError("seat 0's points must be 0, 0.5 or 1")
        k = len(labels)
        lo, hi = np.minimum(s0, s1), np.maximum(s0, s1)
        pair_key, pair = np.unique(lo * k + hi, return_inverse=True)
        pair = pair.ravel()
        side = (s0 != lo).astype(np.int64)
        # a game's outcome code; a series' class: its pairing and sorted outcome codes
        count, cq, c = series_classes((pair * 2 + side) * 3 + half, key)
        return cls(tuple(labels), pair_key // k, pair_key % k, count, cq,
                   (c // 6).astype(np.int64), (c // 3 % 2).astype(np.int64), (c % 3) / 2.0)


    def cells(self, weights: np.ndarray | None = None) -> np.ndarray:
        """Per pairing ``[n0, s0, n1, s1]``: games and seat-0 points with ``pa`` in seat 0, then
        with ``pb`` in seat 0; ``(P, 4)`` for the games played, ``(B, P, 4)`` for class
        ``weights`` of shape ``(B, Q)`` (a bootstrap replicate's series per class)."""
        P = len(self.pa)
        w = self.count[None, :].astype(float) if weights is None else np.atleast_2d(weights).astype(float)
        out = np.zeros((w.shape[0], P, 4))
        idx = self.cp * 2 + self.side  # flat (pair, side)
        order = np.argsort(idx, kind="stable")
        idx_s = idx[order]
        starts = np.flatnonzero(np.r_[True, idx_s[1:] != idx_s[:-1]]) if len(idx_s) else np.zeros(0, np.int64)
        if len(starts):
            wq = w[:, self.cq[order]]
            n = np.add.reduceat(wq, starts, axis=1)
            s = np.add.reduceat(wq * self.pts[order], starts, axis=1)
            target = idx_s[starts]
            flat = out.reshape(w.shape[0], P * 2, 2)
            flat[:, target, 0], flat[:, target, 1] = n, s
        return out[0] if weights is None else out


def connected(k: int, pa: np.ndarray, pb: np.ndarray) -> bool:
    """Whether the pairings ``(pa, pb)`` connect all ``k`` bots (union-find)."""
    parent = list(range(k))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for a, b in zip(pa.tolist(), pb.tolist()):
        parent[find(a)] = find(b)
    return len({find(x) for x in range(k)}) == 1


def fit(duels: Duels, cells: np.ndarray, prior: float = PRIOR_DRAWS,
        start: np.ndarray | None = None, check: bool = True) -> np.ndarray:
    """Maximum (quasi-)likelihood ratings and first-move term of ``cells`` (``Duels.cells``,
    ``(P, 4)`` or ``(B, P, 4)``) with ``prior`` virtual draws per pairing, from ``start``
    (Elo, ``(k + 1,)``; the fit of the games played, for bootstrap replicates) or from 0;
    ``check`` False skips the connectivity check (a replicate of a field already checked).

    Newton's method on all rows at once, until every step is below ``TOL`` logits (0.0002 Elo).

    Returns:
        ``(k + 1,)`` or ``(B, k + 1)``: the ``k`` ratings (Elo points, mean 0) then the
        first-move term ``f`` (Elo points, seat 0 over seat 1).

    Raises:
        NotConnected: the pairings that met do not connect the field (or ``prior`` is 0 and a
            bot won or lost every game: the estimate is infinite).
    """
    single = cells.ndim == 2
    c = np.asarray(cells, float)[None] if single else np.asarray(cells, float)
    k = duels.k
    if k < 2 or (check and not connected(k, duels.pa, duels.pb)):
        raise NotConnected("the games do not connect every bot of the field")
    x = np.zeros((len(c), k + 1)) if start is None else np.tile(np.asarray(start, float) * K, (len(c), 1))
    x = _Model(duels, c, prior).solve(x)
    elo = x / K
    elo[:, :k] -= elo[:, :k].mean(axis=1, keepdims=True)
    return elo[0] if single else elo


class _Model:
    """The quasi-likelihood of ``Duels`` cells ``(B, P, 4)`` and of the prior's draws, in
    logits: the parameters ``x`` are ``(B, k + 1)``, the last rating held where it starts (the
    gauge)."""

    def __init__(self, duels: Duels, c: np.ndarray, prior: float) -> None:
        self.d, self.k, self.prior = duels, duels.k, prior
        self.data = np.stack([c[..., 0], c[..., 1], c[..., 2], c[..., 3]])  # (4, B, P): n0, s0, n1, s1
        self.keep = np.r_[np.arange(self.k - 1), self.k]
        k1 = self.k + 1
        self.upper = duels.pa * k1 + duels.pb  # flat indexes into a (k+1, k+1) matrix
        self.lower = duels.pb * k1 + duels.pa

    def terms(self, x: np.ndarray, data: np.ndarray) -> tuple[np.ndarray, ...]:
        """The reduced gradient ``(b, k)``, the weights ``w0``, ``w1`` (the two seat orders) and
        ``w2`` (the prior's seatless draws), each ``(b, P)``, and ``w3`` ``(b, 1)`` (the seats'
        virtual draw)."""
        d = x[:, self.d.pa] - x[:, self.d.pb]
        f = x[:, self.k:]
        p0, p1, p2, p3 = _expit(d + f), _expit(f - d), _expit(d), _expit(f)
        n0, s0, n1, s1 = data
        r0, r1, r2 = s0 - n0 * p0, s1 - n1 * p1, self.prior * (0.5 - p2)
        r3 = self.prior * (0.5 - p3)  # the seats' virtual draw
        grad = np.concatenate([_by_bot(r0 - r1 + r2, self.d, self.k)[:, :-1],
                               (r0 + r1).sum(axis=1, keepdims=True) + r3], axis=1)
        return grad, n0 * p0 * (1 - p0), n1 * p1 * (1 - p1), self.prior * p2 * (1 - p2), self.prior * p3 * (1 - p3)

    def factor(self, w0: np.ndarray, w1: np.ndarray, w2: np.ndarray, w3: np.ndarray) -> np.ndarray:
        """Cholesky factors ``(b, k, k)`` of the reduced information matrices."""
        u, v = w0 + w1 + w2, w0 - w1
        k, k1, b = self.k, self.k + 1, len(u)
        info = np.zeros((b, k1 * k1))
        info[:, self.upper] = -u
        info[:, self.lower] = -u
        diag = np.arange(k) * (k1 + 1)
        info[:, diag] = _by_bot(u, self.d, k, absolute=True)
        cross = _by_bot(v, self.d, k)
        info[:, np.arange(k) * k1 + k] = cross
        info[:, k * k1 + np.arange(k)] = cross
        info[:, k1 * k1 - 1] = (w0 + w1).sum(axis=1) + w3[:, 0]
        info = info.reshape(b, k1, k1)[:, self.keep[:, None], self.keep[None, :]]
        try:
            return np.linalg.cholesky(info)
        except np.linalg.LinAlgError:
            raise NotConnected("the ratings are not identified (a singular information matrix)") from None

    def solve(self, x: np.ndarray) -> np.ndarray:
        """Newton steps until every row's step is below ``TOL`` (``MAX_STEPS`` at most)."""
        keep, data = self.keep, self.data
        rows = np.arange(len(x))
        xa = x.copy()
        for _ in range(MAX_STEPS):
            grad, *weights = self.terms(xa, data)
            step = cholesky_solve(self.factor(*weights), grad)
            if not np.all(np.isfinite(step)):
                raise NotConnected("the ratings diverge (a bot won or lost every game and no prior is set)")
            xa[:, keep] += _damped(step)
            going = np.abs(step).max(axis=1) >= TOL
            if not going.all():
                x[rows[~going]] = xa[~going]
                rows, xa, data = rows[going], xa[going], data[:, going]
            if not len(rows):
                break
        x[rows] = xa
        return x


def _by_bot(values: np.ndarray, d: Duels, k: int, absolute: bool = False) -> np.ndarray:
    """``(B, k)``: per bot, the sum of a pairing's ``values`` ``(B, P)`` with sign +1 for
    ``pa`` and -1 for ``pb`` (+1 for both when ``absolute``), by ``np.bincount``."""
    B, P = values.shape
    rows = (np.arange(B) * k)[:, None]
    plus = np.bincount((rows + d.pa).ravel(), weights=values.ravel(), minlength=B * k)
    minus = np.bincount((rows + d.pb).ravel(), weights=values.ravel(), minlength=B * k)
    return (plus + minus if absolute else plus - minus).reshape(B, k)


def _damped(step: np.ndarray) -> np.ndarray:
    """``step`` shortened to at most ``MAX_LOGIT_STEP`` (a damped step far from the optimum)."""
    big = np.abs(step).max(axis=1, keepdims=True) if step.size else step
    return step * np.minimum(1.0, MAX_LOGIT_STEP / np.maximum(big, 1e-300))


def cholesky_solve(low: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``x`` with ``L Lᵀ x = b`` for Cholesky factors ``low`` ``(B, n, n)`` and ``b`` ``(B, n)``:
    forward then back substitution vectorised over ``B`` (``np.linalg.solve`` makes one
    threaded LAPACK call per matrix, which a busy machine turns from milliseconds into seconds).
    """
    n = low.shape[-1]
    y = np.empty_like(b)
    for i in range(n):
        y[:, i] = (b[:, i] - np.einsum("bj,bj->b", low[:, i, :i], y[:, :i])) / low[:, i, i]
    x = np.empty_like(b)
    for i in range(n - 1, -1, -1):
        x[:, i] = (y[:, i] - np.einsum("bj,bj->b", low[:, i + 1:, i], x[:, i + 1:])) / low[:, i, i]
    return x


def _expit(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))


@dataclass(frozen=True)
class Bootstrap:
    """The fit of the games played and of ``B`` bootstrap replicates.

    Attributes:
        estimate: ``(k + 1,)`` Elo of each bot (mean 0), then the first-move term.
        replicates: ``(B, k + 1)`` the same per replicate (each mean 0).
        log_odds: ``(B, P)`` float32, per replicate the log-odds of ``pa`` over ``pb`` in
            their games with the prior's draws (for the non-transitivity tests), or ``None``.
        seed: the generator's seed.
    """

    estimate: np.ndarray
    replicates: np.ndarray
    log_odds: np.ndarray | None
    seed: int


def bootstrap(duels: Duels, replicates: int = REPLICATES, seed: int = 1, prior: float = PRIOR_DRAWS,
              log_odds: bool = False) -> Bootstrap:
    """The fit and ``replicates`` bootstrap fits over series (module docstring), seeded: the
    same games, ``replicates`` and ``seed`` give the same numbers.

    Raises:
        NotConnected: as ``fit``.
    """
    cells = duels.cells()
    estimate = fit(duels, cells, prior)
    rng = np.random.default_rng(seed)
    reps, odds = [], []
    chunk = max(CHUNK, CELLS // max(len(duels.pa), 1))
    for lo in range(0, replicates, chunk):
        weights = duels.resample(rng, min(chunk, replicates - lo))
        c = duels.cells(weights)
        reps.append(fit(duels, c, prior, estimate, check=False))
        if log_odds:
            odds.append(pair_log_odds(c, prior).astype(np.float32))
    return Bootstrap(estimate, np.concatenate(reps) if reps else np.zeros((0, duels.k + 1)),
                     np.concatenate(odds) if log_odds and odds else None, seed)


def pair_log_odds(cells: np.ndarray, prior: float = PRIOR_DRAWS) -> np.ndarray:
    """Log-odds (natural) of ``pa``'s score over ``pb`` in their games, both seat orders, with
    the prior's virtual draws: ``ln((S + prior/2)/(n - S + prior/2))``; shape ``cells[..., 0]``."""
    n = cells[..., 0] + cells[..., 2]
    score = cells[..., 1] + cells[..., 2] - cells[..., 3]
    return np.log((score + prior / 2) / (n - score + prior / 2))


def anchored(elo: np.ndarray, anchor: int | None = None, value: float = 0.0) -> np.ndarray:
    """Ratings ``(..., k)`` moved so that bot ``anchor`` is at ``value`` (``None``: mean
    ``value``); each row on its own."""
    elo = np.asarray(elo, float)
    shift = elo.mean(axis=-1, keepdims=True) if anchor is None else elo[..., anchor:anchor + 1]
    return elo - shift + value


def los_matrix(replicates: np.ndarray) -> np.ndarray:
    """``(k, k)``: entry ``[i, j]`` the share of replicates (``(B, k)`` ratings) rating ``i``
    above ``j``, ties counted half; 0.5 on the diagonal, NaN without replicates."""
    r = np.asarray(replicates, float)
    if len(r) == 0:
        return np.full((r.shape[1], r.shape[1]), np.nan)
    out = np.empty((r.shape[1], r.shape[1]))
    for i in range(r.shape[1]):  # row by row: (B, k) at a time, not (B, k, k)
        out[i] = ((r[:, [i]] > r).mean(axis=0) + 0.5 * (r[:, [i]] == r).mean(axis=0))
    return out


def intervals(replicates: np.ndarray, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval of each column of ``replicates`` ``(B, m)``: (low, high), each
    ``(m,)`` (Efron & Tibshirani, "An Introduction to the Bootstrap", §13.3)."""
    r = np.asarray(replicates, float)
    if len(r) == 0:
        return np.full(r.shape[1], np.nan), np.full(r.shape[1], np.nan)
    tail = (1 - level) / 2
    low, high = np.quantile(r, [tail, 1 - tail], axis=0)
    return low, high


def ranking(elo: np.ndarray, labels) -> np.ndarray:
    """Indexes of the bots best first: by Elo, equal Elo by label."""
    return np.array(sorted(range(len(labels)), key=lambda i: (-round(float(elo[i]), 9), str(labels[i]))), np.int64)
