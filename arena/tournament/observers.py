"""Observers of a run: what watches the stored games without deciding them.

The runner (``arena.tournament.runner``) tells each observer, in the order given:

- ``started(start)`` once the stored tournament is open (``RunStart``: its stored games, the
  schedule, how many games it plans), before any game is played;
- ``playing()`` once the field is checked and the pool is about to play (a run with nothing to
  play, or refused, never gets there): a progress display starts here, at 0 games;
- ``thinking(move)`` when a move has been thinking for ``LONG_MOVE`` seconds, then again at each
  doubling (``Thinking``: the game, the bot, its seat, the seconds, what bounds the move): a
  hung bot without ``--move-time`` is seen long before its game ends (local pool only: a
  cluster's games are watched on their Dask workers);
- ``stored(result)`` after each game is committed (``pool.Result``: the task, the record as
  stored, the attempts);
- ``finished(summary)`` when the run ends, however it ends (``RunSummary``); an observer may
  add what it kept to the summary.

Here: ``RatingKeeper`` (the TrueSkill state stored beside the games, ``arena.results.rating_state``)
and ``FaultTally`` (faults by termination, logged). ``arena.tournament.live.MatchLine`` keeps
a two-bot match's score line; ``arena run`` draws its progress bar as an observer
(``arena.cli.progress``). The library itself draws nothing.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from arena.results import rating_state
from arena.results.aggregates import game_sums
from arena.results.ratings import make_env
from arena.referee import Termination
from arena.results.store import Store, StoredGame

if TYPE_CHECKING:
    from arena.supervisor import Status
    from arena.tournament.pool import Result
    from arena.tournament.schedule import Schedule
    from arena.tournament.series import GameTask

log = logging.getLogger("arena.runner")
#: Seconds between saves of the rating state during a run.
SAVE_EVERY = 1.0
#: Seconds a move thinks before the run says so (``Observer.thinking``), then again at 2x, 4x...
LONG_MOVE = 30.0


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
    #: one line on the games a provider's failure voided (``arena.tournament.voids``), or None
    voids: str | None = None


class Observer:
    """Watches a run; every method does nothing unless overridden."""

    def started(self, start: RunStart) -> None:
        """The run opened its stored tournament (called once, before any game is played)."""

    def stored(self, result: Result) -> None:
        """One game was committed (``result.record`` as stored)."""

    def playing(self) -> None:
        """The field passed its checks and the pool is about to play the first games."""

    def thinking(self, move: Thinking) -> None:
        """A move has been thinking for ``LONG_MOVE`` seconds (told again at each doubling)."""

    def finished(self, summary: RunSummary) -> None:
        """The run ended (played out, decided, interrupted or refused)."""


class RatingKeeper(Observer):
    """The rating state stored beside the games (``arena.results.rating_state``): the contiguous prefix
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


@dataclass(frozen=True)
class Thinking:
    """A move thinking for long (``Observer.thinking``).

    Attributes:
        game_id: the game's id.
        label: the bot on move (its version label), or ``None`` while the game's bots are
            being made (``seat`` -1).
        seat: its 0-based seat.
        ply: the 1-based ply it is choosing (opening plies included).
        seconds: how long it has thought so far.
        bound: what ends the move, in words (``--move-time 5 s (+ --time-margin) bounds it``;
            without ``--move-time`` or ``--tc``, only ``--game-time`` ends the game).
    """

    game_id: int
    label: str | None
    seat: int
    ply: int
    seconds: float
    bound: str

    def line(self) -> str:
        """The one line a run shows (``game 7: me (seat 1) has been thinking for 30 s on ply 12;
        ...``)."""
        if self.label is None:
            return f"game {self.game_id} has been making its bots for {self.seconds:.0f} s; {self.bound}"
        return (f"game {self.game_id}: {self.label} (seat {self.seat}) has been thinking for {self.seconds:.0f} s "
                f"on ply {self.ply}; {self.bound}")


class LongMoves:
    """Tells the observers of the moves of the games playing that have thought for ``LONG_MOVE``
    seconds or more (``Observer.thinking``, and a warning in the tournament log): each once at
    ``LONG_MOVE`` seconds, then once more at each doubling.

    Args:
        move_time: ``--move-time`` seconds, or ``None``.
        game_time: ``--game-time`` seconds.
        long_move: seconds before a move is told (default ``LONG_MOVE``).
    """

    def __init__(self, move_time: float | None, game_time: float, long_move: float | None = None) -> None:
        self.move_time, self.game_time = move_time, game_time
        self.long_move = LONG_MOVE if long_move is None else long_move
        #: (game, ply, seat) -> (when the move began, seconds at which it is told next)
        self.moves: dict[tuple[int, int, int], tuple[float, float]] = {}
        self.looked = -math.inf

    def bound(self, allowed: float) -> str:
        """What ends a move, in words; ``allowed``: seconds its game clock gives it (0: none)."""
        if allowed > 0:
            return f"its --tc clock allows it {allowed:.1f} s"
        if self.move_time is not None:
            return f"--move-time {self.move_time:g} s (+ --time-margin) ends it"
        return f"no --move-time or --tc bounds a move: only --game-time {self.game_time:g} s ends the game"

    def check(self, playing: Iterable[tuple[GameTask, Status]], now: float) -> list[Thinking]:
        """The moves to tell now, of ``playing`` (each game with its worker's shared status:
        ``arena.supervisor.Status``). A move's start is its ``move_started`` when the worker
        times it, else when it was first seen here (a move nothing times)."""
        told, seen = [], {}
        for task, st in playing:
            seat, ply, started, allowed = st.seat, st.ply, st.move_started, st.move_allowed  # read once
            key = (task.game_id, ply, seat)
            began, due = self.moves.get(key, (now, self.long_move))
            began = started if started > 0 else began
            seen[key] = (began, due)
            if now - began >= due:
                label = task.seats[seat] if 0 <= seat < len(task.seats) else None
                told.append(Thinking(task.game_id, label, seat, ply + 1, now - began, self.bound(allowed)))
                seen[key] = (began, 2 * due)
        self.moves = seen
        return told

    def tell(self, playing: Callable[[], Iterable[tuple[GameTask, Status]]], observers: Iterable[Observer]) -> None:
        """Look at the games ``playing()`` returns (at most once a second) and tell ``observers``
        of each long move (``check``)."""
        now = time.monotonic()
        if now - self.looked < 1.0:
            return
        self.looked = now
        for move in self.check(playing(), now):
            log.warning("%s", move.line())
            for observer in observers:
                observer.thinking(move)
