"""Run a tournament: ask the schedule for games, play them on the pool, store each record.

``run_tournament(config, observers)`` is what ``arena run`` calls; library users call it the
same way. The run is one loop: the schedule (``arena.tournament.schedule``) releases the games
it wants now, the pool plays them, each record is checked (``referee_check``), committed and
told to the schedule and to the observers (``arena.tournament.observers``: ratings, faults,
and the caller's own, e.g. a progress bar), until the schedule is done. A resumed run (same
name, same settings) replays the stored games into the schedule, which releases only the games
not yet stored; Ctrl-C stops cleanly, keeping every finished game the schedule has taken
(``docs/arena.md`` "Tournaments", "Storage"). A schedule may hold a finished game back until
its turn (``Schedule.storable``: an SPRT match stores its pairs in order, so the games stored
do not depend on timing); held games are dropped when the schedule is done or the run stops.
The runner names no format: what one adds to the run's end is its ``Schedule.finish``.

The plan (settings checked, schedule made) and resuming a stored tournament are
``arena.tournament.planning``'s (``plan``, ``resume``, ``versioned``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from arena.engine.sandbox import Isolation, check_isolated, isolate, sweep_ended
from arena.engine.secrets import declared, secret_names
from arena.errors import ArenaError
from arena.games import Dynamics
from arena.os_guard import orphans_reaped
from arena.reaper import run_guard
from arena.referee import Adjudication, referee_check
from arena.results.store import Store, StoredGame, save_ending
from arena.results.files import PRIVATE_MODE, db_path
from arena.results.versions import Recorded, check as check_versions, current as current_versions
from arena.tournament.config import TournamentConfig
from arena.tournament import league
from arena.tournament.formats import ScheduleFactory, make_schedule
from arena.tournament.livefile import LiveFile, live_path  # serve
from arena.tournament.observers import FaultTally, LongMoves, Observer, RatingKeeper, RunStart, RunSummary
from arena.tournament.planning import Plan, plan, resume, versioned
from arena.tournament.gamepool import GamePool
from arena.tournament.pool import PREFETCH_MAX, Pool, Result, open_workers
from arena.tournament.schedule import Schedule
from arena.tournament.network import llm_cache_env
from arena.tournament.voids import VoidGames
from arena.tournament.worker import LOG_FORMAT, WorkerSetup, trusted
from bots.base import Limits
from bots.registry import BotSpec

__all__ = ["Plan", "RunSummary", "ScheduleFactory", "plan", "resume", "run_tournament", "versioned"]

log = logging.getLogger("arena.runner")
#: games released ahead of the results per local worker (the pool keeps at most
#: ``PREFETCH_MAX`` in each worker's pipe: the rest wait in its queue)
WINDOW_PER_WORKER = 2 * PREFETCH_MAX


class _Logging:
    """Tournament log ``<results>/<name>.log``.

    A ``FileHandler`` on the ``arena`` logger for the run. It receives the runner's records
    (``arena.runner``, ``arena.pool``) and the workers' (``arena.worker``, ``arena.referee``),
    which each worker's own ``multiprocessing-logging`` queue brings to this process
    (``arena.tournament.logs``); so does any handler a library caller attached to ``arena``.
    The bots' prints reach the file through the workers' fds 1 and 2.
    """

    def __init__(self, path: Path) -> None:
        self.logger = logging.getLogger("arena")
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, PRIVATE_MODE))  # runner only
        self.saved = (self.logger.level, self.logger.propagate)
        self.file = logging.FileHandler(path, encoding="utf-8")
        self.file.setFormatter(logging.Formatter(LOG_FORMAT))
        self.logger.addHandler(self.file)
        self.logger.setLevel(logging.INFO)
        self.logger.propagate = False

    def close(self) -> None:
        self.logger.removeHandler(self.file)
        self.logger.setLevel(self.saved[0])
        self.logger.propagate = self.saved[1]
        self.file.close()


def _pool(cfg: TournamentConfig, setup: WorkerSetup, k: int) -> GamePool:  # speed (issue 43): typed GamePool
    """The local process pool (``--workers``), or a Dask cluster's (``--cluster``)."""
    if cfg.cluster is None:
        return Pool(setup, cfg.workers, k, cfg.effective_game_time, cfg.move_time, cfg.time_margin, cfg.retries)
    from arena.tournament.cluster import ClusterPool  # dask: imported on use
    local = cfg.cluster.startswith("local:")  # same machine: the tournament log and memory share apply
    return ClusterPool(cfg.cluster, replace(setup, log_path=setup.log_path if local else None), k,
                       cfg.effective_game_time, cfg.move_time, cfg.retries,
                       default_memory=not local and cfg.memory_limit is None)


@contextlib.contextmanager
def _reaped() -> Iterator[None]:
    """``os_guard.orphans_reaped`` sparing every open pool's workers (another thread's run, a
    Dask worker's other run), with a warning naming what it killed."""
    with orphans_reaped(open_workers) as killed:
        yield
    if killed:
        log.warning("killed %d process(es) left by bots built or engines started to check the field: %s",
                    len(killed), killed)


def run_tournament(cfg: TournamentConfig, observers: Sequence[Observer] = (),
                   schedule: ScheduleFactory | None = None) -> RunSummary:
    """Play the games of ``cfg``'s schedule not yet stored under its name; each committed when
    it ends. ``observers`` are told of the run after the runner's own (ratings, faults);
    ``schedule``: a format of one's own (as ``plan``'s; the stored settings do not name it:
    give such a run its own ``name``).

    Raises:
        UnknownGameError, ConfigError, BotSpecError: bad settings (nothing is stored).
        ResultsError: results path unusable, name being run elsewhere, stored settings differ,
            or a write failed (games already committed stay).
        ClusterError, BotSpecError: ``--cluster`` unreachable or lost mid-run, or a bot file
            that cannot be shipped to it (games already committed stay).
    """
    # no API key (a spec's key_env=) in the environment of an engine the run starts (arena.engine.secrets)
    with run_guard(), declared(secret_names(map(str, cfg.bots))):
        with _reaped():  # what bots built and engines probed here started: nothing outlives this
            p = plan(cfg, schedule=schedule)
        legacy = cfg.legacy_run_name()  # a store of the same settings named before --games left the name
        if legacy and not db_path(p.name, cfg.results).exists() and db_path(legacy, cfg.results).exists():
            p = replace(p, name=legacy)
        return _Run(cfg, p, Store.open(cfg.results, p.name), observers, schedule).run()


class _Run:
    """One run of ``run_tournament`` on its open store: open, play, close."""

    def __init__(self, cfg: TournamentConfig, p: Plan, store: Store, observers: Sequence[Observer],
                 factory: ScheduleFactory | None) -> None:
        self.cfg, self.p, self.store, self.extra = cfg, p, store, list(observers)
        self.specs: dict[str, BotSpec] = {}  # what the workers play (``_open``: isolated, by version label)
        self.added: list[str] = []  # labels of the bot versions this run stored (a refusal drops them)
        self.software: list[Recorded] = []  # versions to record with the first game stored (``store_versions``)
        #: games stored and told, to commit together (``_commit``), and their series' start positions
        self.unsaved: list[Result] = []
        self.starts: dict[int, str] = {}
        self.trusted: frozenset[str] = frozenset()  # labels whose games' records need no replay (``worker.trusted``)
        self.factory = factory
        self.summary = RunSummary(p.name, store.path, p.schedule.total, 0)
        self.observers: list[Observer] = []  # told once ``started`` (``_open``)
        self.before: tuple[dict[str, Any], int] | None = None  # the stored settings and total
        self.extend = self.refused = False
        self.committed = 0  # games this run has committed (``_commit``)
        self.league_ids: list[int] = []  # the league changes this run stored on opening (a refusal drops them)
        self.log_path = Path(cfg.results) / f"{p.name}.log"
        self.new_log = not self.log_path.exists()
        self.logging: _Logging | None = None
        self.voids = VoidGames(cfg.retries)  # games a provider's failure voided: stored apart, played again

    def run(self) -> RunSummary:
        start = time.perf_counter()
        try:
            self._open()
            if not self.p.schedule.done:
                with llm_cache_env(self.cfg.results, self.p.name, self.cfg.llm_cache):  # --llm-cache (issue 44)
                    self._play()
        except ArenaError:  # refused (exit code 2): no new results file, a stored one left as it was
            self.refused = True
            self._restore()
            raise
        finally:
            self.summary.seconds = time.perf_counter() - start
            self._close()
        return self.summary

    def _open(self) -> None:
        """Resume or begin the stored tournament: its settings checked, each bot's version
        resolved (a changed bot is a new version, said in one line), the schedule made on the
        versions and told the stored games; then the observers start."""
        cfg, store = self.cfg, self.store
        self.before = stored = store.stored()
        notes = []
        if stored is not None:
            self.p, note = resume(self.p, cfg, stored[0])
            notes += [note] if note else []
        games = store.results()
        members = store.members() if stored is not None else []
        self.p, res = versioned(self.p, cfg, members, games, self.factory)
        self.p, changes = league.apply(self.p, cfg, members, store.league() if stored is not None else [], res.labels,
                                       len(games), self._pool_schedule)  # before any write: a refusal changes nothing
        p = self.p
        if stored is None:
            store.begin(p.name, p.game.name, cfg.params, p.game.num_players, cfg.seed, p.settings, [],
                        p.schedule.total)
        else:
            same_field = p.settings.get("bots") == stored[0].get("bots")
            total = max(p.schedule.total, stored[1]) if same_field else p.schedule.total
            if p.settings != stored[0] or total != stored[1]:
                store.set_settings(p.settings, total)
                self.extend = True  # written: a refusal below puts the stored settings back
        store.add_members(res.new, res.adopted)
        self.league_ids = store.add_league(changes.events)  # a league's retirements and candidates
        store.name_engines(p.id_names)  # a store written before the column, or before the engine said one
        self.added = [m.label for m in res.new]
        self.specs = isolate(p.specs, cfg.isolation, cfg.effective_memory_limit, cfg.each)  # --isolation process
        self.trusted = frozenset(label for label, spec in self.specs.items() if trusted(spec))
        for game in games:
            p.schedule.add(game)
        replayed = p.schedule.changes()  # a candidate placed by stored games whose join a killed run did not store
        store.add_league([replace(e, after=len(games)) for e in replayed])
        lines = list(res.notes) + changes.notes  # the bots' versions, a league's changes, and the software's
        if not p.schedule.done:  # games to play: under the versions the stored ones were played under, or allowed
            versions = check_versions(p.name, store.software(), current_versions(p.game.name), len(games),
                                      cfg.allow_version_change)
            self.software, lines = versions.rows, lines + versions.notes
        for line in lines:
            log.info("%s", line)
        self.summary.note = "; ".join(notes) or None
        self.summary.total = p.schedule.total
        self.summary.done = sum(1 for g in games if p.schedule.owns(g))
        self.summary.stored = len(games)
        self.observers = [RatingKeeper(store, float(p.settings.get("tau", 0.0))), FaultTally(), *self.extra]
        start = RunStart(p.name, tuple(p.specs), p.game.num_players, games, self.summary.total, p.schedule,
                         self.summary.done, tuple(lines))
        for observer in self.observers:
            observer.started(start)

    def _play(self) -> None:
        """Hand the schedule's games to the pool and store each record until the schedule is
        done (the games still in flight, and finished ones it held back, are dropped) or the
        pool has no game left."""
        cfg, p, schedule = self.cfg, self.p, self.p.schedule
        with _reaped():  # a bot its engine cannot load: a spec error before any game
            check_isolated(p.specs, self.specs, p.game)
        self.logging = _Logging(self.log_path)
        pool = _pool(cfg, self._setup(), p.game.num_players)
        if isinstance(pool, Pool):  # a cluster's moves are watched on its workers
            watch = LongMoves(cfg.move_time, cfg.effective_game_time)
            pool.on_wait = lambda: watch.tell(pool.playing, self.observers)
            live = LiveFile(live_path(cfg.results, p.name)).start(pool)  # serve: the games in progress
        for observer in self.observers:
            observer.playing()
        window = WINDOW_PER_WORKER * cfg.workers
        if isinstance(pool, Pool) and pool.at_once > 1:  # games in threads (arena.tournament.threads)
            window = max(window, (2 * pool.at_once + PREFETCH_MAX) * cfg.workers)
        released = self._release(pool, window)
        log.info("run %s: %s%d of %d games left to play (%d stored), %s", p.name,
                 "at most " if schedule.stops_early else "",
                 self.summary.total - self.summary.done, self.summary.total, self.summary.done,
                 f"{cfg.workers} worker{'s' * (cfg.workers != 1)}" if cfg.cluster is None else f"cluster {cfg.cluster}")
        results = pool.run()
        held: list[Result] = []  # finished games the schedule does not take yet (``Schedule.storable``)
        try:
            for res in results:
                if not self.voids.take(res):  # a provider's failure: kept apart, played again (``voids``)
                    held.append(res)
                    self._store_held(held)
                if getattr(pool, "left", 0) and not schedule.done:
                    continue  # more games that came together: committed, and the next released, with the last
                self._commit()
                if schedule.done:
                    break
                pool.submit(self.voids.again())  # void games: played again, behind the games queued
                released += self._release(pool, window - (released - self.summary.played - self.voids.left))
            else:
                if not schedule.done and not self.voids.left:  # void games left: a resumed run plays them
                    raise RuntimeError(f"schedule {type(schedule).__name__} released no game with none in flight")
        except KeyboardInterrupt:
            self.summary.interrupted = True
        finally:
            self._commit()
            results.close()
            if isinstance(pool, Pool):  # serve: no game is playing any more
                live.close()
            self.summary.workers_replaced = pool.replaced
            if held:
                log.info("run %s: %d finished game(s) not stored (%s): %s", p.name, len(held),
                         "after the schedule's decision" if schedule.done else "interrupted before their turn",
                         ", ".join(str(r.task.game_id) for r in held))

    def _store_held(self, held: list[Result]) -> None:
        """Store the held games the schedule takes now, lowest game id first, until none is
        storable or the schedule is done; the rest stay in ``held``."""
        schedule = self.p.schedule
        while not schedule.done:
            ready = min((r for r in held if schedule.storable(r.task)), key=lambda r: r.task.game_id, default=None)
            if ready is None:
                return
            held.remove(ready)
            self._store(ready)

    def _release(self, pool: Any, limit: int) -> int:
        """Hand at most ``limit`` of the schedule's next games to ``pool``; returns how many."""
        games = self.p.schedule.next_games(max(0, limit))
        pool.submit(games)
        return len(games)

    def _pool_schedule(self, labels: Sequence[str]) -> Schedule:
        """A league's format on its active pool ``labels`` (``league.apply``), on the series
        settings of the plan's schedule."""
        return make_schedule(self.cfg, self.p.game, labels, self.p.schedule.settings, self.factory)

    def _setup(self) -> WorkerSetup:
        cfg = self.cfg
        limits = Limits(cfg.move_time, cfg.move_nodes)  # all None = unlimited; bots get a Limits always
        return WorkerSetup(self.p.game.name, dict(cfg.params), self.specs, limits, cfg.time_margin,
                           cfg.effective_memory_limit, str(self.log_path), (self.store.lock_fd,), cfg.tc,
                           None if cfg.adjudicate is None else Adjudication.parse(cfg.adjudicate), dict(cfg.each),
                           cfg.trace_engines, concurrency=cfg.concurrency)

    def _store(self, res: Result) -> None:
        """Check a finished game's record and tell the schedule; the game is committed and the
        observers told with the others that came together (``_commit``)."""
        if not set(res.task.seats) <= self.trusted:  # a bot's own code ran in the worker: replay the record
            checked = referee_check(self.p.game, res.record, res.task.start)  # never the worker's objects
            if checked.mismatch:
                self.summary.mismatches += 1
                log.warning("game %d: referee check: %s", res.task.game_id, checked.mismatch)
                res = replace(res, record=checked.record)
        task, record = res.task, res.record
        self.unsaved.append(res)
        if task.start is not None:
            self.starts[task.series] = task.start
        self.summary.played += 1
        if record.opening_plies < self.cfg.opening_plies and self.p.game.type.dynamics != Dynamics.SIMULTANEOUS:
            self.summary.short_openings += 1  # the random opening stopped before a move that ends the game
            fewest = self.summary.fewest_opening_plies
            self.summary.fewest_opening_plies = record.opening_plies if fewest is None else min(fewest,
                                                                                                record.opening_plies)
        self.p.schedule.add(StoredGame(task.game_id, task.series, tuple(record.seats),
                                       tuple(int(r) for r in record.outcome.ranks)))

    def _commit(self) -> None:
        """Commit the games stored since the last commit (those a wait of the pool returned
        together: within ``outbox.GROUP_SECONDS`` of their ends) in one transaction
        (``Store.add_games``), with the software versions at the run's first game; then tell
        the observers each game, in order (the rating state never runs ahead of the games).

        Raises:
            ResultsError: the write failed; none of these games is stored.
        """
        self.voids.commit(self.store)
        if not self.unsaved:
            return
        done, starts, self.unsaved, self.starts = self.unsaved, self.starts, [], {}
        self.store.add_games([(r.task.game_id, r.task.series, r.record, r.attempts) for r in done], starts,
                             self.software)
        self.software = []  # recorded with the run's first game
        self.committed += len(done)
        self.summary.stored += len(done)
        self.summary.done += len(done)
        joined = self.p.schedule.changes()  # a league's candidates placed by these games
        if joined:
            self.store.add_league([replace(e, after=self.summary.stored) for e in joined])
            for e in joined:  # said at the run's end too
                log.info("%s", e.detail)
                self.summary.note = "; ".join(filter(None, [self.summary.note, f"{e.detail}: joined the pool"]))
        for res in done:
            for observer in self.observers:
                observer.stored(res)

    def _restore(self) -> None:
        """A refused run that played nothing puts the stored settings and total back and drops
        the bot versions it stored. Never raises: the refusal is the message."""
        if self.committed:  # games of this run are stored: the settings they were played under stay
            return
        try:
            if self.extend and self.before is not None:
                self.store.set_settings(*self.before)
            self.store.drop_members(self.added)
            self.store.drop_league(self.league_ids)
        except ArenaError:
            pass  # resuming with the same settings is unaffected

    def _close(self) -> None:
        """Tell the observers the run ended, then the schedule (``Schedule.finish``: an SPRT's
        state stored), store how the run ended, close the log and the store (a refused run that
        created them removes them)."""
        # a format that adds games as it goes (a knockout's tie-break series) planned more than it said
        self.summary.total = max(self.summary.total, self.p.schedule.total, self.summary.done)
        self.summary.voids = self.voids.text()
        try:
            for observer in self.observers:
                observer.finished(self.summary)
            schedule = self.p.schedule
            if self.observers:  # opened: the format's own part (an SPRT's state, a ranking's outcome)
                schedule.finish(self.summary, self.store)
            if self.observers and not self.refused:  # a run stopped by its schedule is no interrupted one
                self.summary.finished = schedule.done
                save_ending(self.store, {"finished": self.summary.finished, "games": self.summary.stored,
                                         "stopped": schedule.stopped() if schedule.done else None})
        finally:
            if self.logging:
                self.logging.close()
            if self.refused:  # nothing new left behind: the database, its empty log, lock and folders
                self.store.abandon([self.log_path] if self.new_log else [])
            self.store.close()
            if self.cfg.isolation is Isolation.PROCESS:
                sweep_ended()  # the private directories of engines whose worker was killed
