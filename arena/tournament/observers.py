"""Observers of a run: what watches the stored games without deciding them.

The runner (``arena.tournament.runner``) tells each observer, in the order given:

- ``started(start)`` once the stored tournament is open (``RunStart``: its stored games, the
  schedule, how many games it plans), before any game is played;
- ``stored(result)`` after each game is committed (``pool.Result``: the task, the record as
  stored, the attempts);
- ``finished(summary)`` when the run ends, however it ends (``RunSummary``); an observer may
  add what it kept to the summary.

Here: ``RatingKeeper`` (the TrueSkill state stored beside the games, ``arena.rating_state``)
and ``FaultTally`` (faults by termination, logged). ``arena.tournament.live.MatchLine`` keeps
a two-bot match's score line; ``arena run`` draws its progress bar as an observer
(``arena.cli.run``). The library itself draws nothing.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from arena import rating_state
from arena.aggregates import game_sums
from arena.ratings import make_env
from arena.referee import Termination
from arena.store import Store, StoredGame

if TYPE_CHECKING:
    from arena.tournament.pool import Result
    from arena.tournament.schedule import Schedule

log = logging.getLogger("arena.runner")
#: Seconds between saves of the rating state during a run.
SAVE_EVERY = 1.0


@dataclass(frozen=True)
class RunStart:
    """A run about to play: ``name``; ``labels`` of the field in field order (each bot's version
    label); ``num_players`` seats per game; ``stored`` games in game-id order (an earlier run's,
    the tournament's whole store: earlier versions and bots outside today's field too);
    ``total`` games the schedule plans; the ``schedule`` deciding the games; ``done``: the
    schedule's games among those stored; ``notes``: one line each on the bots' versions (a
    changed bot played again as a new version)."""

    name: str
    labels: tuple[str, ...]
    num_players: int
    stored: list[StoredGame]
    total: int
    schedule: Schedule
    done: int = 0
    notes: tuple[str, ...] = ()


@dataclass
class RunSummary:
    """What a run did: ``played`` now, ``stored`` in all (the tournament's store), ``total`` the
    schedule planned and ``done`` of them stored; ``seconds`` wall."""

    name: str
    path: Path
    total: int
    stored: int
    played: int = 0
    done: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    #: the schedule was done when the run ended (all played, or stopped by its own rule: SPRT, --until-ranked)
    finished: bool = False
    workers_replaced: int = 0
    faults: dict[str, int] = field(default_factory=dict)
    #: how the stored tournament was resumed (bot versions, extended, asked for fewer games), or None
    note: str | None = None
    sprt: dict | None = None  # the SPRT's state (``arena.stats.sprt.SprtTally.state``) with --sprt
    #: with --until-ranked: how the adaptive ranking ended (``UntilRanked.outcome``)
    ranking: str | None = None
    #: games whose worker record the runner's replay contradicted (``arena.referee.check``)
    mismatches: int = 0
    #: games played now with fewer random opening plies than ``--opening-plies`` (the next random
    #: move would have ended the game), and the fewest any of them had; a game whose seats move
    #: at once has none and is not counted
    short_openings: int = 0
    fewest_opening_plies: int | None = None


class Observer:
    """Watches a run; every method does nothing unless overridden."""

    def started(self, start: RunStart) -> None:
        """The run opened its stored tournament (called once, before any game is played)."""

    def stored(self, result: Result) -> None:
        """One game was committed (``result.record`` as stored)."""

    def finished(self, summary: RunSummary) -> None:
        """The run ended (played out, decided, interrupted or refused)."""


class RatingKeeper(Observer):
    """The rating state stored beside the games (``arena.rating_state``): the contiguous prefix
    of game ids is rated as it grows, its state stored about every ``SAVE_EVERY`` seconds and at
    the end; a killed run leaves a shorter prefix, never a wrong one.

    Args:
        store: the run's open store.
        tau: the TrueSkill dynamics factor (the stored settings' ``tau``).

    Raises (``started``):
        ResultsError: unreadable database.
    """

    def __init__(self, store: Store, tau: float) -> None:
        self.store, self.tau = store, tau
        self.rater: rating_state.Rater | None = None
        self.saved = time.perf_counter()

    def started(self, start: RunStart) -> None:
        stored = ((g.game_id, g.seats, g.ranks) for g in start.stored)
        self.rater = rating_state.keeper(self.store.conn, self.store.path, make_env(tau=self.tau),
                                         list(start.labels), stored, start.num_players)
        self.saved = time.perf_counter()

    def stored(self, result: Result) -> None:
        assert self.rater is not None, "started first"
        record = result.record
        self.rater.unsaved += self.rater.add(result.task.game_id, record.seats, record.outcome.ranks,
                                             game_sums(record.seats, record.move_stats))
        if time.perf_counter() - self.saved > SAVE_EVERY:
            rating_state.flush(self.store.conn, self.store.path, self.rater)
            self.saved = time.perf_counter()

    def finished(self, summary: RunSummary) -> None:
        if self.rater is not None:
            rating_state.flush(self.store.conn, self.store.path, self.rater)


class FaultTally(Observer):
    """Games lost by a fault (a seat's fault, or a crash blamed on nobody), counted by
    termination into ``RunSummary.faults`` and logged one line each."""

    def __init__(self) -> None:
        self.faults: dict[str, int] = {}

    def stored(self, result: Result) -> None:
        record = result.record
        if record.fault_seat is None and record.outcome.termination != Termination.CRASH:
            return
        reason = str(record.outcome.termination)
        self.faults[reason] = self.faults.get(reason, 0) + 1
        log.info("game %d: %s by seat %s: %s", result.task.game_id, reason, record.fault_seat, record.fault_detail)

    def finished(self, summary: RunSummary) -> None:
        summary.faults = dict(self.faults)
