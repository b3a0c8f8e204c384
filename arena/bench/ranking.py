"""Ranking figures (``arena bench --only ranking``): the adaptive ranking of ``arena run
--until-ranked`` (``arena.stats.ranking.decide``) simulated without playing a game, on many
fields of known strength, against a fixed round-robin (``docs/statistics.md`` "Adaptive
ranking", ``docs/speed.md``).

A field has 4 to 12 bots whose neighbouring true ratings differ by gaps drawn uniformly from
0 to 100 Elo, and seat 0 is ``FIRST_MOVE`` Elo stronger. A game between the seat-0 bot ``i``
and the seat-1 bot ``j`` ends as Davidson's Bradley–Terry model with draws says (Davidson
1970): with ``π = 10^(rating/400)`` (seat 0's rating plus the first-move term), seat 0 wins
with probability ``π_i/(π_i + π_j + ν√(π_i π_j))``, draws with ``ν√(π_i π_j)/(...)``; ``ν =
DRAW_NU`` makes 30% of the games between equals draws. A series is two such games, the seats
swapped. The adaptive runs use ``decide`` exactly as the schedule does (seeded per field and
round), capped at ``CAP`` games per pairing; the fixed round-robins play ``N`` games per
pairing for each ``N`` of ``ROUND_ROBIN_GAMES`` on the same fields and rank by the
Bradley–Terry fit.

Figures: the share of adaptive runs that end with a wrongly ordered adjacent pair whose true
gap is at least ``GAP`` Elo (goal ≤ 1 - confidence); the share of fixed round-robins with such
a pair at each size, and the games the adaptive runs used over the games of the smallest fixed
round-robin reaching the same share of correct orders (goal ≤ ½; between two sizes, the games
are interpolated on the share, linearly in log games).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from arena.bench import Figure
from arena.stats import field, ranking

#: fields simulated (quick: fewer)
FIELDS, QUICK_FIELDS = 240, 24
#: the adaptive runs' cap, games per pairing (``--games``)
CAP = 4000
#: the fixed round-robins compared, games per pairing
ROUND_ROBIN_GAMES = (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096)
#: the smallest true gap (Elo) whose wrong order counts as an error
GAP = 10.0
#: first-move advantage (Elo) and Davidson's draw parameter (30% draws between equals)
FIRST_MOVE, DRAW_NU = 30.0, 0.6 / 0.7


@dataclass(frozen=True)
class Field:
    """A simulated field: ``ratings`` (Elo, weakest first: bot ``i`` is the ``i``-th weakest)."""

    ratings: np.ndarray

    @property
    def k(self) -> int:
        return len(self.ratings)

    def wrong(self, order) -> bool:
        """Whether the ranking ``order`` (best first) has an adjacent pair whose lower bot is at
        least ``GAP`` Elo stronger than the upper one."""
        r = self.ratings[np.asarray(order)]
        return bool(np.any(r[1:] - r[:-1] >= GAP))


def make_field(rng: np.random.Generator, low: int = 4, high: int = 12) -> Field:
    """A field of ``low``..``high`` bots with uniform 0-100 Elo gaps."""
    k = int(rng.integers(low, high + 1))
    return Field(np.concatenate([[0.0], np.cumsum(rng.uniform(0, 100, k - 1))]))


class Simulator:
    """The games of one field as series classes (``arena.stats.field.Duels``): every pairing's
    series fall in 9 classes (the results of its two games)."""

    def __init__(self, f: Field, rng: np.random.Generator) -> None:
        self.f, self.rng = f, rng
        k = f.k
        self.pa, self.pb = (np.asarray(x, np.int64) for x in np.triu_indices(k, 1))
        P = len(self.pa)
        # per pairing, per game (pa in seat 0, pb in seat 0): P(seat 0 scores 0, 1/2, 1)
        g0 = _davidson(f.ratings[self.pa] + FIRST_MOVE, f.ratings[self.pb])
        g1 = _davidson(f.ratings[self.pb] + FIRST_MOVE, f.ratings[self.pa])
        self.probs = (g0[:, :, None] * g1[:, None, :]).reshape(P, 9)  # class 3·x + y
        self.counts = np.zeros((P, 9), np.int64)
        outcome = np.arange(9)
        self.cq = np.repeat(np.arange(P * 9), 2)
        self.cp = np.repeat(np.arange(P), 18)
        self.side = np.tile([0, 1], P * 9)
        self.pts = np.tile(np.stack([outcome // 3, outcome % 3], axis=1).ravel() / 2, P)

    def play(self, pair: int | np.ndarray, series: int | np.ndarray) -> None:
        """Play ``series`` more series of pairing ``pair`` (arrays: of each)."""
        pairs = np.atleast_1d(pair)
        for p, s in zip(pairs.tolist(), np.broadcast_to(series, pairs.shape).tolist()):
            self.counts[p] += self.rng.multinomial(int(s), self.probs[p])

    def duels(self) -> field.Duels:
        labels = tuple(f"b{i}" for i in range(self.f.k))
        return field.Duels(labels, self.pa, self.pb, self.counts.ravel(), self.cq, self.cp, self.side, self.pts)

    @property
    def games(self) -> int:
        return int(2 * self.counts.sum())


def _davidson(seat0: np.ndarray, seat1: np.ndarray) -> np.ndarray:
    """``(n, 3)``: seat 0's P(loss), P(draw), P(win) in Davidson's model (module docstring)."""
    a, b = 10 ** (seat0 / 400), 10 ** (seat1 / 400)
    tie = DRAW_NU * np.sqrt(a * b)
    total = a + b + tie
    return np.stack([b / total, tie / total, a / total], axis=1)


def adaptive(f: Field, seed: int, confidence: float = ranking.CONFIDENCE, cap: int = CAP,
             replicates: int = ranking.REPLICATES) -> tuple[int, bool, bool, int]:
    """One simulated ``--until-ranked`` run: (games, ended wrong, settled, rounds)."""
    sim = Simulator(f, np.random.default_rng([seed, 1]))
    sim.play(np.arange(len(sim.pa)), 1)
    index = {(int(a), int(b)): p for p, (a, b) in enumerate(zip(sim.pa, sim.pb))}
    rounds = 0
    while True:
        d = ranking.decide(sim.duels(), confidence, cap, seed, rounds, replicates)
        rounds += 1
        if d.done:
            return sim.games, f.wrong(d.order), d.settled, rounds
        sim.play(np.array([index[(a, b)] for a, b, _ in d.next]), np.array([s for _, _, s in d.next]))


def fixed(f: Field, seed: int, games: int) -> bool:
    """One simulated round-robin of ``games`` games per pairing: whether it ends wrong."""
    sim = Simulator(f, np.random.default_rng([seed, 2, games]))
    sim.play(np.arange(len(sim.pa)), max(1, games // 2))
    d = sim.duels()
    elo = field.fit(d, d.cells())
    return f.wrong(field.ranking(elo[:f.k], d.labels))


def matched_games(share: float, sizes, wrong_shares, games) -> float:
    """Games of a fixed round-robin whose share of correct orders reaches ``share``: the first
    size reaching it, interpolated linearly in log games with the size before; NaN if none does."""
    correct = [1 - w for w in wrong_shares]
    for i, (c, g) in enumerate(zip(correct, games)):
        if c >= share:
            if i == 0 or correct[i - 1] >= c:
                return float(g)
            c0, g0 = correct[i - 1], games[i - 1]
            t = (share - c0) / (c - c0)
            return float(math.exp(math.log(g0) + t * (math.log(g) - math.log(g0))))
    return math.nan


def simulate(fields: int, seed: int = 1, confidence: float = ranking.CONFIDENCE, cap: int = CAP,
             replicates: int = ranking.REPLICATES, sizes=ROUND_ROBIN_GAMES, low: int = 4, high: int = 12) -> dict:
    """The bench's simulation: ``fields`` fields; returns the figures as a dict (``wrong``,
    ``games``, ``settled``, ``rounds``, ``rr_wrong`` per size, ``rr_games`` per size,
    ``matched``, ``ratio``, ``seconds``)."""
    rng = np.random.default_rng(seed)
    made = [make_field(rng, low, high) for _ in range(fields)]
    start = time.perf_counter()
    runs = [adaptive(f, seed * 100_003 + i, confidence, cap, replicates) for i, f in enumerate(made)]
    seconds = time.perf_counter() - start
    pairs = np.array([f.k * (f.k - 1) // 2 for f in made])
    rr_wrong = [float(np.mean([fixed(f, seed * 100_003 + i, n) for i, f in enumerate(made)])) for n in sizes]
    rr_games = [float(pairs.sum() * n / fields) for n in sizes]
    games = float(np.mean([r[0] for r in runs]))
    wrong = float(np.mean([r[1] for r in runs]))
    matched = matched_games(1 - wrong, sizes, rr_wrong, rr_games)
    return {"fields": fields, "wrong": wrong, "games": games, "settled": float(np.mean([r[2] for r in runs])),
            "rounds": float(np.mean([r[3] for r in runs])), "rr_wrong": rr_wrong, "rr_games": rr_games,
            "matched": matched, "ratio": games / matched if matched == matched else math.nan, "seconds": seconds}


def run(quick: bool) -> list[Figure]:
    n = QUICK_FIELDS if quick else FIELDS
    out = simulate(n)
    c = ranking.CONFIDENCE
    best = next((size for size, w in zip(ROUND_ROBIN_GAMES, out["rr_wrong"]) if w <= out["wrong"]), None)
    rr = ", ".join(f"{size}: {100 * w:.1f}%" for size, w in zip(ROUND_ROBIN_GAMES, out["rr_wrong"]))
    goal = "" if quick else f"≤ {1 - c:.2f}"
    return [
        Figure("ranking", f"adaptive runs ending with a wrong adjacent pair ≥ {GAP:g} Elo apart", out["wrong"],
               "share", goal, f"{n} fields of 4-12 bots, gaps 0-100 Elo, --until-ranked {c}, --games {CAP}; "
                              f"{100 * out['settled']:.0f}% settled, {out['rounds']:.1f} rounds"),
        Figure("ranking", "  the same, fixed round-robin by games per pairing", out["rr_wrong"][-1], "share", "",
               rr),
        Figure("ranking", "  games of an adaptive run", out["games"], "games", "",
               f"a round-robin reaching the same share of correct orders: {out['matched']:,.0f} games"
               + (f" (~{best} per pairing)" if best else "")),
        Figure("ranking", "adaptive games / round-robin games at the same correct share", out["ratio"], "ratio",
               "" if quick else "≤ 0.5", f"{out['seconds']:.0f} s to simulate the adaptive runs"),
    ]
