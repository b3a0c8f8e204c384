"""Ranking a 2-player field adaptively: which pairs play next, and when the order is settled
(``arena run --until-ranked``; ``docs/tournaments.md`` "Ranking until the order is settled",
``docs/statistics.md`` "Adaptive ranking"). numpy and the standard library only: the
schedule (``arena.tournament.adaptive``) decides with it during a run, and ``arena bench
--only ranking`` simulates it without games.

**The procedure.** Round 0 plays one series (a colour-swapped pair of games) of every
pairing. After each round the field is rated (``arena.stats.field``: Bradley–Terry with a
first-move term and the prior's draws, ``replicates`` bootstrap fits over series, seeded by
the tournament's seed and the round) and ranked by Elo. An adjacent pair of that ranking is
**settled** when its CFS (the bootstrap share rating the upper bot above the lower) reaches
``1 - (1 - C)/(k - 1)`` (Bonferroni over the ``k - 1`` adjacent pairs, so that the whole
order holds with probability ``C``) and the two have played ``min_series`` series against
each other (a bootstrap resamples a few identical series unchanged and would call a 2-0
certain; the exact sign test would not). The next round gives series to every adjacent pair
not settled and below ``--games`` games, least certain (CFS nearest ½) first: as many as the
normal approximation says the pair still needs, ``n·((z_C/z)² - 1)`` games for ``n`` played
and ``z = Φ⁻¹(CFS)``, at least one series and at most as many as it has played (the rounds
grow geometrically, so a pair needing ``N`` games takes about ``log2 N`` rounds). The run
stops when every adjacent pair is settled, or when every pair not settled has played
``--games`` games.

**Its error rate.** A CFS is the bootstrap's probability that an order is right (for large
samples ``Φ(d/se)``: the posterior probability under a flat prior, which stays calibrated
however the looks are timed); stopping each adjacent pair at ``1 - (1 - C)/(k - 1)`` leaves
some pair wrong with probability at most about ``1 - C`` (a union bound), less where true
gaps are large (their CFS overshoots). Pairs closer than the games can tell apart end at
``--games`` either way. ``arena bench --only ranking`` measures the share of runs that end
with a wrongly ordered adjacent pair whose true gap is at least 10 Elo (fields of 4 to 12
bots, gaps of 0 to 100 Elo) against the goal ``1 - C``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from arena.stats.field import Duels, NotConnected, bootstrap, los_matrix, ranking

#: bootstrap replicates of each decision
REPLICATES = 400
#: series two adjacent bots must have played against each other before their order is settled,
#: at least (``min_series`` raises it with the level)
MIN_SERIES = 2
#: the default confidence of ``--until-ranked``
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Decision:
    """The state of an adaptive ranking after a round.

    Attributes:
        order: bot indexes, best first (by Elo).
        cfs: ``(k - 1,)`` the CFS of each adjacent pair of ``order`` (the upper over the lower).
        series: ``(k - 1,)`` series each adjacent pair has played against each other.
        next: ``(a, b, series)``: the series to give each pair next (``a < b``, indexes into the
            labels), least certain first; empty when done.
        done: no more games are needed (``settled`` says whether every adjacent pair is).
        settled: every adjacent pair reached the confidence.
    """

    order: tuple[int, ...]
    cfs: tuple[float, ...]
    series: tuple[int, ...]
    next: tuple[tuple[int, int, int], ...]
    done: bool
    settled: bool

    def least_certain(self) -> int | None:
        """The position in ``order`` of the upper bot of the least certain adjacent pair."""
        return int(np.argmin(self.cfs)) if self.cfs else None

    def line(self, labels) -> str:
        """``order: a > b > c; least certain: b-c 71% CFS`` (``settled`` when it is)."""
        names = [str(labels[i]) for i in self.order]
        text = "order: " + " > ".join(names)
        low = self.least_certain()
        if low is not None:
            text += f"; least certain: {names[low]}-{names[low + 1]} {100 * self.cfs[low]:.0f}% CFS"
        return text + ("; settled" if self.settled else "")


def decide(duels: Duels, confidence: float = CONFIDENCE, cap_games: int | None = None, seed: int = 1,
           round_: int = 0, replicates: int = REPLICATES, per_series: int = 2) -> Decision:
    """The decision after a round, from the games of every round so far (``duels``): the
    ranking, each adjacent pair's CFS, and the series to play next (the module docstring).
    ``cap_games``: games per pairing at most (``--games``); ``seed`` and ``round_`` seed the
    bootstrap, so the same games give the same decision.

    Raises:
        ValueError: a confidence outside (0.5, 1).
    """
    if not 0.5 < confidence < 1:
        raise ValueError(f"confidence {confidence!r}: accepted: a number between 0.5 and 1")
    k = duels.k
    if k < 2:
        return Decision(tuple(range(k)), (), (), (), True, True)
    cells = duels.cells()
    games = cells[:, 0] + cells[:, 2]
    index = {(int(a), int(b)): p for p, (a, b) in enumerate(zip(duels.pa, duels.pb))}
    try:
        boot = bootstrap(duels, replicates, seed=_seed(seed, round_))
    except NotConnected:
        return Decision(tuple(range(k)), (0.5,) * (k - 1), (0,) * (k - 1), (), True, False)
    order = ranking(boot.estimate[:k], duels.labels)
    los = los_matrix(boot.replicates[:, :k])
    level = pair_level(confidence, k)
    least = min_series(level)
    cfs, played, wanted = [], [], []
    for upper, lower in zip(order[:-1].tolist(), order[1:].tolist()):
        p = index.get((min(upper, lower), max(upper, lower)))
        n = float(games[p]) if p is not None else 0.0
        c = float(los[upper, lower])
        cfs.append(c)
        played.append(int(round(n / per_series)))
        series = series_wanted(c, n, level, cap_games, per_series)
        if series:
            wanted.append((abs(c - 0.5), min(upper, lower), max(upper, lower), series))
    settled = all(c >= level for c in cfs) and all(s >= least for s in played)
    nxt = tuple((a, b, s) for _, a, b, s in sorted(wanted))
    return Decision(tuple(order.tolist()), tuple(cfs), tuple(played), nxt, not nxt, settled)


def series_wanted(cfs: float, games: float, level: float, cap_games: int | None = None, per_series: int = 2) -> int:
    """The series to give next to a pair of bots whose order has CFS ``cfs`` after ``games``
    games against each other, for it to reach ``level`` (the module docstring's rule: the
    normal approximation's ``n·((z_C/z)² - 1)`` games, at least ``min_series`` in all, at most
    as many as played, within ``cap_games``); 0 when it is settled or at the cap."""
    least = min_series(level)
    if cfs >= level and games >= least * per_series:
        return 0
    room = math.inf if cap_games is None else cap_games - games
    if room < per_series:
        return 0
    z_c = NormalDist().inv_cdf(level)
    z = NormalDist().inv_cdf(min(max(cfs, 0.5), 1 - 1e-12))
    need = games * ((z_c / z) ** 2 - 1) if z > 0 else math.inf
    series = min(max(need, least * per_series - games) / per_series, max(1, games // per_series), room // per_series)
    return max(1, math.ceil(series))


def pair_level(confidence: float, k: int) -> float:
    """The CFS each of the ``k - 1`` adjacent pairs must reach for the whole order to hold with
    probability ``confidence``: ``1 - (1 - confidence)/(k - 1)`` (Bonferroni)."""
    return 1 - (1 - confidence) / max(1, k - 1)


def min_series(level: float) -> int:
    """Series an adjacent pair must have played against each other before it can be settled at
    ``level``: as many as the exact sign test needs to reach it with every series won,
    ``⌈log2(1/(1 - level)) - 1⌉`` (a record of ``w`` won pairs and none lost has the LOS
    ``1 - 2^-(w+1)``, ``docs/statistics.md`` "Small samples"), and ``MIN_SERIES`` at least: a
    bootstrap resamples a few identical series unchanged and would call them certain."""
    return max(MIN_SERIES, math.ceil(math.log2(1 / (1 - level)) - 1 - 1e-9))


def _seed(seed: int, round_: int) -> int:
    """The bootstrap seed of a round: the tournament seed and the round, mixed."""
    return int(np.random.SeedSequence([int(seed) % 2**63, int(round_)]).generate_state(1, np.uint64)[0] % 2**63)
