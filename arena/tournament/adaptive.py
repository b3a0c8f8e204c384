"""``arena run --until-ranked [CONFIDENCE]``: a 2-player round-robin that plays in rounds of
series and gives each next round to the adjacent pairs of the current ranking whose order is
least certain, until the order is settled or ``--games`` per pairing
(``docs/tournaments.md`` "Ranking until the order is settled"; the decision rule is
``arena.stats.ranking.decide``, numpy only, so the runner stays free of pandas and scipy).

Round 0 is one series of every pairing, in field order. A round is decided only once every
game of the rounds before it is stored, from those games alone (a stored game of a pairing
that no round has asked for yet waits until one does: the same series of the same pairing is
the same game), with the bootstrap seeded by the tournament's seed and the round; so the same
seed and results give the same rounds, and a killed run resumes to the same decisions by
replaying its stored games. A pairing's series are numbered 0, 1, ... in the order its rounds
ask for them. Game ids follow the rounds: the ``q``-th game of the rounds is ``base + q``,
``base`` the largest id of the store's games of other pairings (0 in a new store), unless
another stored game holds that id (then the next id after every id in use).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from arena.errors import ConfigError
from arena.games import Game
from arena.stats.field import Duels
from arena.stats.ranking import CONFIDENCE, Decision, decide, min_series, pair_level
from arena.results.store import Store, StoredGame
from arena.tournament.pairing import round_robin
from arena.tournament.rounds import InRounds, seats_and_points, stored_games
from arena.tournament.schedule import Schedule
from arena.tournament.series import GameTask, SeriesSettings, series_count, series_games

if TYPE_CHECKING:
    from arena.tournament.observers import RunSummary


class UntilRanked(InRounds[int], Schedule):
    """The adaptive ranking of a 2-player field (module docstring).

    Attributes:
        confidence: the probability the final order must hold (``--until-ranked``).
        decision: the last round's ``arena.stats.ranking.Decision`` (``None`` before round 0
            is stored).

    Raises (constructor):
        ConfigError: a game that is not for two players, fewer than two bots, or a confidence
            outside (0.5, 1).
    """

    stops_early = True

    def __init__(self, game: Game, labels: Sequence[str], settings: SeriesSettings,
                 confidence: float = CONFIDENCE) -> None:
        super().__init__(game, labels, settings)
        if game.num_players != 2:
            raise ConfigError(f"--until-ranked ranks a 2-player field; {game.name} has {game.num_players} players")
        if len(self.labels) < 2:
            raise ConfigError("--until-ranked needs at least two bots")
        if not 0.5 < confidence < 1:
            raise ConfigError(f"bad --until-ranked {confidence!r}; accepted: a confidence between 0.5 and 1, "
                              f"e.g. {CONFIDENCE}")
        self.confidence = confidence
        self.pairings = round_robin(self.labels, 2)
        self.per_series = settings.per_series(2)
        self.cap_series = series_count(settings.games, 2, settings.rotation)
        self.total = len(self.pairings) * self.cap_series * self.per_series
        self._index = {frozenset(p): i for i, p in enumerate(self.pairings)}
        self._series = [0] * len(self.pairings)  # series each pairing's rounds asked for
        self._base: int | None = None  # the largest id of the store's games of other pairings
        self._count = 0  # tasks numbered so far
        self._taken: set[int] = set()  # ids of every stored game and every task
        self.decision: Decision | None = None
        self._start_rounds()

    def owns(self, game: StoredGame) -> bool:
        """Whether ``game`` is a game of one of this field's pairings."""
        return frozenset(game.seats) in self._index and len(game.seats) == 2

    def add(self, game: StoredGame) -> None:
        self._taken.add(game.game_id)
        super().add(game)

    def status(self) -> str | None:
        if self.decision is None:
            return f"round 0 of --until-ranked {self.confidence:g}"
        return f"round {len(self._rounds) - 1}: " + self.decision.line(self.labels)

    def outcome(self) -> str | None:
        """How the ranking ended, in one line: settled (every adjacent CFS at the level),
        stopped at ``--games`` with the pairs not settled, or not finished; ``None`` before the
        first decision."""
        d = self.decision
        if d is None:
            return None
        played = self.played()
        names = [self.labels[i] for i in d.order]
        where = f"after {len(self._rounds) - (0 if self.finished else 1)} round(s), {played} games"
        if self.finished and d.settled:
            return (f"--until-ranked {self.confidence:g}: order settled {where} (every adjacent CFS >= "
                    f"{100 * self.level():.2f}%): {' > '.join(names)}")
        open_ = [f"{names[i]}-{names[i + 1]} {100 * c:.1f}%" for i, c in enumerate(d.cfs)
                 if c < self.level() or d.series[i] < min_series(self.level())]
        if self.finished:
            return (f"--until-ranked {self.confidence:g}: stopped at --games {self.settings.games} per pairing "
                    f"{where}; not settled: {', '.join(open_)} (CFS needed {100 * self.level():.2f}%)")
        return f"--until-ranked {self.confidence:g}: not finished {where}; {d.line(self.labels)}"

    def stopped(self) -> str:
        """``settled`` (every adjacent pair at the level) or ``not settled`` (``--games`` reached)."""
        return "settled" if self.decision is not None and self.decision.settled else "not settled"

    def finish(self, summary: RunSummary, store: Store) -> None:
        """How the ranking ended (``outcome``) into ``summary.ranking``."""
        summary.ranking = self.outcome()

    def level(self) -> float:
        """The CFS every adjacent pair must reach (``arena.stats.ranking.pair_level``)."""
        return pair_level(self.confidence, len(self.labels))

    # --- rounds ------------------------------------------------------------------------------

    def _first_round(self) -> list[tuple[int, int]]:
        return [(p, 1) for p in range(len(self.pairings))]

    def _next_round(self) -> list[tuple[int, int]] | None:
        self.decision = self._decide()
        if self.decision.done:
            return None
        return [(self._index[frozenset((self.labels[a], self.labels[b]))], s) for a, b, s in self.decision.next]

    def _new_round(self, wanted: list[tuple[int, int]]) -> None:
        """Append a round: ``(pairing index, series)`` each, in that order; a game stored
        already keeps its id, the others take the next ids (module docstring)."""
        if self._base is None:  # the largest id of the store's games of other pairings
            self._base = max((g for g in self._taken if g not in self._own_ids()), default=0)
        tasks: list[GameTask] = []
        for p, count in wanted:
            pairing = self.pairings[p]
            stop = min(self._series[p] + count, self.cap_series)
            for s in range(self._series[p], stop):
                for task in series_games(self.game, pairing, s, 0, self.settings):
                    self._count += 1
                    stored = self._stored.get((task.series, task.seats))
                    tasks.append(replace(task, game_id=stored.game_id if stored else self._id()))
            self._series[p] = stop
        self._rounds.append(tasks)

    def _own_ids(self) -> set[int]:
        return {g.game_id for g in self._stored.values()}

    def _id(self) -> int:
        """The id of the ``_count``-th task: ``base + _count``, or after every id in use when
        another stored game holds that one."""
        assert self._base is not None
        candidate = self._base + self._count
        if candidate in self._taken:
            candidate = max(self._taken) + 1
        self._taken.add(candidate)
        return candidate

    def _decide(self) -> Decision:
        """The decision after the rounds so far, from their games only."""
        games = stored_games(self._rounds, self._stored)  # every one: a round is decided once all are stored
        seat0, seat1, points = seats_and_points(self.labels, games)
        pairing = np.array([self._index[frozenset(g.seats)] for g in games], np.int64)
        series = pairing * (self.cap_series + 1) + np.array([g.series for g in games], np.int64)
        duels = Duels.from_games(self.labels, seat0, seat1, points, series)
        return decide(duels, self.confidence, self.cap_series * self.per_series, self.settings.seed,
                      len(self._rounds) - 1, per_series=self.per_series)
