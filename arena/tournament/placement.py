"""A league candidate's placement (``arena.tournament.league``): a gauntlet against the active
pool in rounds, until the candidate's place in the pool's order is settled: ``--until-ranked``'s
rule (``arena.stats.ranking``) for one bot (``docs/tournaments.md`` "Leagues").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from arena.games import Game
from arena.results.store import StoredGame
from arena.stats.field import Duels, bootstrap, los_matrix, ranking
from arena.stats.ranking import CONFIDENCE, REPLICATES, _seed, min_series, pair_level, series_wanted
from arena.tournament.rounds import InRounds, seats_and_points, stored_games
from arena.tournament.series import GameTask, SeriesSettings, series_count, series_games


@dataclass(frozen=True)
class Placed:
    """A candidate's place after a round of its gauntlet (``place``).

    Attributes:
        order: bot indexes, best first (the candidate is index 0).
        rank: the candidate's 1-based place in ``order``.
        neighbours: ``(index, cfs, series)`` of the bots just above and below it: the CFS of
            the upper over the lower, the series they played against each other.
        next: ``(index, series)`` to play next against each neighbour not settled.
        done: no more games are needed; ``settled``: both neighbours reached the level.
    """

    order: tuple[int, ...]
    rank: int
    neighbours: tuple[tuple[int, float, int], ...]
    next: tuple[tuple[int, int], ...]
    done: bool
    settled: bool


def place(duels: Duels, confidence: float = CONFIDENCE, cap_games: int | None = None, seed: int = 1,
          round_: int = 0, per_series: int = 2) -> Placed:
    """The place of the candidate (label 0 of ``duels``, which holds its gauntlet's games against
    the pool) after a round: the field fitted and ranked as ``arena.stats.ranking.decide`` does;
    settled when the CFS against each bot next to it in that order reaches ``1 - (1 -
    confidence)/m`` (``m`` the one or two neighbours) after ``min_series`` series at least;
    the next round gives each unsettled neighbour the series ``series_wanted`` says, within
    ``cap_games`` games a pairing (``--games``).
    """
    k = duels.k
    boot = bootstrap(duels, REPLICATES, seed=_seed(seed, round_))
    order = ranking(boot.estimate[:k], duels.labels).tolist()
    los = los_matrix(boot.replicates[:, :k])
    cells = duels.cells()
    played = {int(b if a == 0 else a): float(cells[p, 0] + cells[p, 2])
              for p, (a, b) in enumerate(zip(duels.pa, duels.pb)) if 0 in (a, b)}
    at = order.index(0)
    around = ([(order[at - 1], True)] if at > 0 else []) + ([(order[at + 1], False)] if at + 1 < k else [])
    level = pair_level(confidence, len(around) + 1)
    neighbours, wanted = [], []
    for other, above in around:
        cfs = float(los[other, 0] if above else los[0, other])
        n = played.get(other, 0.0)
        neighbours.append((other, cfs, int(round(n / per_series))))
        series = series_wanted(cfs, n, level, cap_games, per_series)
        if series:
            wanted.append((other, series))
    settled = all(c >= level and s >= min_series(level) for _, c, s in neighbours)
    return Placed(tuple(order), at + 1, tuple(neighbours), tuple(wanted), not wanted, settled)


class Placement(InRounds[str]):
    """One candidate's gauntlet against the pool, in rounds (module docstring): round 0 is one
    series against every pool bot; each next round, decided once every game of the rounds
    before is stored and from those games alone, plays the bots next to it in the order whose
    order against it is not settled (``place``). A pairing's series are numbered 0, 1, ... in
    the order its rounds ask for them (so they are the same games as the pool's round-robin
    plays of that pairing once the candidate has joined). Game ids are left 0 (``League``
    gives them)."""

    def __init__(self, game: Game, candidate: str, pool: Sequence[str], settings: SeriesSettings,
                 confidence: float) -> None:
        self.game, self.candidate, self.pool, self.settings = game, candidate, tuple(pool), settings
        self.labels = (candidate, *self.pool)
        self.confidence = confidence
        self.per_series = settings.per_series(2)
        self.cap_series = series_count(settings.games, 2, settings.rotation)
        self.total = len(self.pool) * self.cap_series * self.per_series
        self._series = dict.fromkeys(self.pool, 0)
        self.placed: Placed | None = None
        self._start_rounds()

    def owns(self, game: StoredGame) -> bool:
        return len(game.seats) == 2 and self.candidate in game.seats and set(game.seats) <= set(self.labels) \
            and game.seats[0] != game.seats[1]

    def outcome(self) -> str:
        """Its place in one line (``placed 2 of 5, settled after 3 round(s), 14 games: ...``)."""
        p = self.placed
        if p is None:
            return f"candidate {self.candidate}: round 0 of its gauntlet"
        level = pair_level(self.confidence, len(p.neighbours) + 1)
        how = ("settled" if p.settled else f"not settled at --games {self.settings.games}") if self.finished \
            else "placing"
        sides = ", ".join(f"CFS of {self.labels[o]} over it {100 * c:.1f}%" if p.order.index(o) < p.rank - 1
                          else f"CFS over {self.labels[o]} {100 * c:.1f}%" for o, c, _ in p.neighbours)
        return (f"candidate {self.candidate}: place {p.rank} of {len(self.labels)}, {how} after {len(self._rounds)} "
                f"round(s), {self.played()} games ({sides}; CFS needed {100 * level:.2f}%)")

    def _first_round(self) -> list[tuple[str, int]]:
        return [(o, 1) for o in self.pool]

    def _next_round(self) -> list[tuple[str, int]] | None:
        self.placed = self._decide()
        return None if self.placed.done else [(self.labels[o], s) for o, s in self.placed.next]

    def _new_round(self, wanted: list[tuple[str, int]]) -> None:
        tasks: list[GameTask] = []
        for other, count in wanted:
            stop = min(self._series[other] + count, self.cap_series)
            for s in range(self._series[other], stop):
                tasks += series_games(self.game, (self.candidate, other), s, 0, self.settings)
            self._series[other] = stop
        self._rounds.append(tasks)

    def _decide(self) -> Placed:
        games = stored_games(self._rounds, self._stored)  # every one: a round is decided once all are stored
        seat0, seat1, points = seats_and_points(self.labels, games)
        other = np.where(seat0 == 0, seat1, seat0)
        series = other * (self.cap_series + 1) + np.array([g.series for g in games], np.int64)
        duels = Duels.from_games(self.labels, seat0, seat1, points, series)
        return place(duels, self.confidence, self.cap_series * self.per_series, self.settings.seed,
                     len(self._rounds) - 1, self.per_series)
