"""Coverage figures (``arena bench --only coverage``): how often each 95% interval the reports
print contains the truth, on the test game of known strengths (``arena.games.known``,
``docs/statistics.md`` "Coverage of the intervals").

Many seeded tournaments per setup — round-robins and a gauntlet of 4 and 12 bots, 20 to 200
games a pairing, gaps of 0 to 400 Elo, with and without draws and a first-move advantage,
duplicate series (one chance number per series, as the referee deals the test game's chance
ply) and games without shared luck; an SPRT match; ``--until-ranked`` runs; 3- and 4-player
fields — simulated as the game plays them (``arena.bench.coverage_sim``) and measured with the
reports' own functions (``arena.bench.coverage_measure``). The issue's field (0/+50/+100/+200,
100 games a pairing, first move +30) is also **played** through the runner and read back
through the report's field, pair and first-move tables (``arena.bench.coverage_played``).

Each figure is the share of intervals containing the truth, in percent, with its
Clopper–Pearson 95% interval over the runs (its Monte-Carlo error) and the mean error of the
point estimate; the goal is 93–97%. ``--games N`` sets the simulated tournaments per setup
(default ``RUNS``; ``--quick`` ``QUICK_RUNS``), and the played ones to ``N`` too.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from arena.bench import Figure
from arena.bench import coverage_measure as cm
from arena.bench.coverage_sim import Tally, pair_truth, play_pairs, play_rankings
from arena.stats import elo, ranking, sprt
from arena.stats import field as fs

#: simulated tournaments per setup (``--quick``: fewer), and tournaments played through the runner
RUNS, QUICK_RUNS = 400, 40
PLAYED, QUICK_PLAYED = 200, 6
#: bootstrap replicates of every field-table fit (the reports' number)
REPLICATES = fs.REPLICATES
#: the goal: a 95% interval covers between these shares
LOW, HIGH = 0.93, 0.97


@dataclass(frozen=True)
class Setup:
    """A simulated tournament: ``ratings`` (Elo), ``games`` a pairing, seat 0's ``first``
    advantage (Elo), ``draws`` (draw rate between equals), ``duplicate`` series, a
    ``gauntlet`` (bot 0 against each other bot) instead of a round-robin, or ``seats`` > 2: an
    n-player field playing every table of ``seats`` bots."""

    name: str
    ratings: tuple[float, ...]
    games: int
    first: float = 0.0
    draws: float = 0.0
    duplicate: bool = True
    gauntlet: bool = False
    seats: int = 2


def _spread(k: int, top: float = 400.0) -> tuple[float, ...]:
    return tuple(float(x) for x in np.linspace(0, top, k))


SETUPS = (
    Setup("4 bots 0/50/100/200, 100 games, first +30", (0, 50, 100, 200), 100, 30),
    Setup("  the same, games without shared luck", (0, 50, 100, 200), 100, 30, duplicate=False),
    Setup("4 equal bots, 20 games, draws 30%, first +30", (0, 0, 0, 0), 20, 30, 0.3, duplicate=False),
    Setup("4 bots 0-400, 20 games, first +50", _spread(4), 20, 50, duplicate=False),
    Setup("4 bots 0-400, 200 games, draws 30%", _spread(4), 200, 30, 0.3),
    Setup("12 bots 0-400, 20 games, first +30", _spread(12), 20, 30, duplicate=False),
    Setup("12 bots 0-400, 200 games, draws 30%", _spread(12), 200, 30, 0.3, duplicate=False),
    Setup("gauntlet +100 vs 0/50/200/400, 200 games", (100, 0, 50, 200, 400), 200, 30, 0.2, duplicate=False,
          gauntlet=True),
    Setup("3 players, 4 bots 0/50/100/200, 60 games a table", (0, 50, 100, 200), 60, 30, seats=3),
    Setup("4 players, 5 bots 0-400, 40 games a table", _spread(5), 40, 30, seats=4, duplicate=False),
)


def simulate(setup: Setup, runs: int, seed: int = 1) -> dict[str, Tally]:
    """The tallies of ``runs`` seeded tournaments of ``setup``."""
    t: defaultdict[str, Tally] = defaultdict(Tally)
    r = np.asarray(setup.ratings, float)
    k = len(r)
    for run in range(runs):
        rng = np.random.default_rng([seed, run])
        if setup.seats > 2:
            tables = np.array(list(combinations(range(k), setup.seats)))
            each = np.repeat(tables, max(1, setup.games // setup.seats), axis=0)
            bots, ranks, series = play_rankings(rng, r, each, setup.first, setup.duplicate)
            cm.luce_table(t, bots, ranks, series, r, setup.first, REPLICATES, run)
            continue
        pairs = [(0, j) for j in range(1, k)] if setup.gauntlet else list(combinations(range(k), 2))
        a, b = (np.repeat(np.array(x), setup.games // 2) for x in zip(*pairs))
        g = play_pairs(rng, r, a, b, setup.first, setup.draws, setup.duplicate)
        cm.field_table(t, g, r, setup.first, REPLICATES, run)
        cm.pair_table(t, g, r, setup.first, setup.draws, setup.duplicate)
        cm.seat_table(t, g, r, setup.first, setup.draws)
        cm.payoff_table(t, g, r, setup.first, setup.draws)
    for tally in t.values():
        tally.runs = runs
    return dict(t)


def sprt_match(runs: int, seed: int = 1, true_elo: float = 10.0, cap: int = 3000) -> dict[str, Tally]:
    """``runs`` SPRT matches (``elo0=0,elo1=20``, checked after every pair as the runner does,
    at most ``cap`` pairs; seat 0 +30, draws 30%): the pair table's Elo interval where each
    stopped."""
    spec = sprt.SprtSpec(0.0, 20.0)
    low, high = sprt.bounds(spec.alpha, spec.beta)
    ratings = np.array([true_elo, 0.0])
    truth, _ = pair_truth(true_elo, 0.0, 30.0, 0.3, False)
    t: defaultdict[str, Tally] = defaultdict(Tally)
    for run in range(runs):
        g = play_pairs(np.random.default_rng([seed, 7, run]), ratings, np.zeros(cap, np.int64),
                       np.ones(cap, np.int64), 30.0, 0.3, False)
        points = (g.points[:cap] + 1 - g.points[cap:])
        counts = np.zeros((cap, 5), np.int64)
        counts[np.arange(cap), np.rint(2 * points).astype(np.int64)] = 1
        tallied = np.cumsum(counts, axis=0)
        stop = cap - 1
        for n in range(cap):
            value = sprt.llr(tallied[n].tolist(), spec)
            if not low < value < high:
                stop = n
                break
        m = elo.match_stats(tallied[stop].tolist())
        t["SPRT match: pair Elo at the stop"].add(m.elo_low, m.elo_high, truth, m.elo)
    for tally in t.values():
        tally.runs = runs
    return dict(t)


def until_ranked(runs: int, seed: int = 1, cap: int = 400) -> dict[str, Tally]:
    """``runs`` adaptive runs (``arena.stats.ranking.decide``, as ``--until-ranked``) of 4 bots
    0/50/100/200, first move +30, at most ``cap`` games a pairing: the field table at the end."""
    r = np.array([0.0, 50.0, 100.0, 200.0])
    pa, pb = (np.array(x) for x in zip(*combinations(range(4), 2)))
    t: defaultdict[str, Tally] = defaultdict(Tally)
    for run in range(runs):
        rng = np.random.default_rng([seed, 11, run])
        g = play_pairs(rng, r, pa, pb, 30.0, 0.0, False)
        for round_ in range(200):
            duels = fs.Duels.from_games(["0", "1", "2", "3"], g.seat0, g.seat1, g.points, g.series)
            d = ranking.decide(duels, cap_games=cap, seed=run, round_=round_)
            if d.done:
                break
            a = np.concatenate([np.full(s, x) for x, _, s in d.next])
            b = np.concatenate([np.full(s, y) for _, y, s in d.next])
            g = g.add(play_pairs(rng, r, a, b, 30.0, 0.0, False))
        cm.field_table(t, g, r, 30.0, REPLICATES, run, prefix="until-ranked: ")
    for tally in t.values():
        tally.runs = runs
    return dict(t)


def figures(area: str, tallies: dict[str, Tally], quick: bool, unit: str = "Elo") -> list[Figure]:
    """One figure per interval: the share covered, percent."""
    out = []
    for name, tally in tallies.items():
        lo, hi = tally.interval()
        error = tally.mean_error
        note = (f"[{100 * lo:.1f}, {100 * hi:.1f}] (Clopper-Pearson) of {tally.n} intervals in {tally.runs} runs"
                + ("" if math.isnan(error) or "share" in name or "LOS" in name else f"; mean error {error:+.1f}"))
        if not tally.n:
            note = f"none in {tally.runs} runs"
        elif not (hi >= LOW and lo <= HIGH):
            note += "; OUTSIDE 93-97%: see docs/statistics.md"
        out.append(Figure(area, f"  {name}", 100 * tally.share, "% covered",
                          "" if quick else f"≥ {100 * LOW:.0f} (to {100 * HIGH:.0f})", note))
    return out


def run(quick: bool, runs: int | None = None) -> list[Figure]:
    """The figures; ``runs``: simulated tournaments per setup and tournaments played (``--games``)."""
    from arena.bench import coverage_played

    n = runs or (QUICK_RUNS if quick else RUNS)
    played = runs or (QUICK_PLAYED if quick else PLAYED)
    out: list[Figure] = []
    for setup in SETUPS:
        start = time.perf_counter()
        tallies = simulate(setup, n if setup.seats == 2 else max(n // 4, 5))
        out.append(Figure("coverage", setup.name, float(next(iter(tallies.values())).runs), "runs", "",
                          f"{time.perf_counter() - start:.0f} s"))
        out.extend(figures("coverage", tallies, quick))
    pair_elo = pair_truth(10, 0, 30, 0.3, False)[0]
    for name, tallies in ((f"SPRT match elo0=0, elo1=20, true +10 (pair Elo {pair_elo:+.1f})",
                           sprt_match(max(n // 4, 10))),
                          ("--until-ranked 4 bots 0/50/100/200, --games 400", until_ranked(max(n // 8, 5)))):
        out.append(Figure("coverage", name, float(next(iter(tallies.values())).runs), "runs", "", ""))
        out.extend(figures("coverage", tallies, quick))
    start = time.perf_counter()
    tallies = coverage_played.play(played)
    out.append(Figure("coverage", "played: arena run + arena report, 4 bots 0/50/100/200, 100 games", float(played),
                      "runs", "", f"round-robins, a gauntlet, an SPRT match, --until-ranked; "
                                  f"{time.perf_counter() - start:.0f} s"))
    out.extend(figures("coverage", tallies, quick))
    return out
