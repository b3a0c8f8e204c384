"""Run a tournament: plan the games, open the store, play the missing games on the pool.

``run_tournament(config)`` is what ``arena run`` calls; library users call it the same way.
A resumed run (same name, same settings) plays only the games not yet stored; Ctrl-C stops
cleanly, keeping every finished game (``docs/arena.md`` "Tournaments", "Storage").

Resuming (``resume``): a larger ``games`` extends a stored tournament (new series appended, game
ids continue); a smaller one plays nothing beyond its first ``games`` per pairing and leaves
the stored tournament as it is; a tournament stored with an older bot seeding scheme
(``arena.referee.SEEDING``) is finished with its own scheme, so its games stay one tournament.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
from rich.markup import escape
from rich.text import Text

import arena.games
import bots as bot_registry
from arena.engine.sandbox import check_isolated, isolate, sweep_ended
from arena.os_guard import orphans_reaped
from arena.errors import ArenaError, BotSpecError, ResultsError
from arena.games import Game
from arena import rating_state
from arena.ratings import make_env
from arena.referee import referee_check
from arena.aggregates import game_sums
from arena.store import Store, db_path, load_games, save_sprt
from arena.tournament.config import TournamentConfig, field_specs, settings_difference
from arena.tournament.live import watch_for
from arena.tournament.pairing import pairings
from arena.tournament.pool import Pool, open_workers
from arena.tournament.series import GameTask, schedule
from arena.tournament.worker import LOG_FORMAT, WorkerSetup
from bots.base import Limits
from bots.registry import BotSpec, check_field

log = logging.getLogger("arena.runner")
#: Seconds between saves of the rating state during a run.
SAVE_EVERY = 1.0


@dataclass(frozen=True)
class Plan:
    """A tournament's games before they are played."""

    name: str
    game: Game
    specs: dict[str, BotSpec]  # label -> spec, field order
    tasks: list[GameTask]
    settings: dict[str, Any]


@dataclass
class RunSummary:
    """What a run did: ``played`` now, ``stored`` in all, ``total`` planned; ``seconds`` wall."""

    name: str
    path: Path
    total: int
    stored: int
    played: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    workers_replaced: int = 0
    faults: dict[str, int] = field(default_factory=dict)
    #: one line on how the stored tournament was resumed (extended, or asked for fewer games)
    note: str | None = None
    sprt: dict | None = None  # the SPRT's state (``arena.sprt.SprtTally.state``) with --sprt
    #: games whose worker record the runner's replay contradicted (``arena.referee.check``)
    mismatches: int = 0


def plan(cfg: TournamentConfig, seeding: int | None = None) -> Plan:
    """Check the settings and list the games (``seeding``: the bot seeding scheme, default the
    current one).

    Raises:
        UnknownGameError, ConfigError, BotSpecError: bad game, parameters, field or format, or
            a bot that cannot play the game (``PLAYS`` against ``Game.type``).
    """
    game = arena.games.make(cfg.game, **cfg.params)
    specs = field_specs(cfg, game.num_players)
    check_field(specs, game)
    for spec in specs:  # a bad option or a broken constructor fails here, before anything is stored
        try:
            bot_registry.make(spec)
        except ArenaError:
            raise
        except Exception as exc:
            raise BotSpecError(f"bot {spec.text!r} cannot be made: {type(exc).__name__}: {exc}") from None
    labels = [s.label for s in specs]
    tasks = schedule(game, pairings(cfg.format, labels, game.num_players), cfg.games, cfg.seed,
                     cfg.opening_plies, cfg.seat_rotation, openings=cfg.openings,
                     openings_order=cfg.openings_order, **({} if seeding is None else {"seeding": seeding}))
    return Plan(cfg.run_name(), game, {s.label: s for s in specs}, tasks, cfg.settings())


def resume(p: Plan, cfg: TournamentConfig, stored: dict[str, Any]) -> tuple[Plan, str | None]:
    """The plan of a run on a stored tournament, and a note for the user (or ``None``).

    The stored settings stay the tournament's (a larger ``games`` raises their ``games``); the
    tasks use the stored bot seeding scheme (``seeding``, 1 when absent: stored before it).

    Raises:
        ResultsError: the settings decide other games than the stored ones.
    """
    key = settings_difference(stored, p.settings)
    if key is not None:
        raise ResultsError(f"tournament {p.name!r} exists with different settings ({key}: stored "
                           f"{stored.get(key)!r}, now {p.settings.get(key)!r}); use another --name or the same settings")
    seeding = stored.get("seeding", 1)
    if seeding != p.settings["seeding"]:
        p = replace(p, tasks=plan(cfg, seeding).tasks)
    had, note = int(stored["games"]), None
    if cfg.games > had:
        note = f"extended from {had} to {cfg.games} games per pairing"
        stored = {**stored, "games": cfg.games}
    elif cfg.games < had:
        note = (f"stored tournament has {had} games per pairing; --games {cfg.games} plays nothing beyond the "
                f"first {cfg.games} (reports cover every stored game)")
    return replace(p, settings=stored), note


class _Rate(ProgressColumn):
    def render(self, task: Any) -> Text:
        return Text(f"{task.speed or 0:.1f} games/s", style="progress.data.speed")


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


def _progress(console: Console | None) -> Progress:
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), _Rate(),
                    TextColumn("ETA"), TimeRemainingColumn(), console=console or Console(stderr=True),
                    transient=False)


def _pool(cfg: TournamentConfig, setup: WorkerSetup, k: int) -> Any:
    """The local process pool (``--workers``), or a Dask cluster's (``--cluster``)."""
    if cfg.cluster is None:
        return Pool(setup, cfg.workers, k, cfg.effective_game_time, cfg.move_time, cfg.time_margin, cfg.retries)
    from arena.tournament.cluster import ClusterPool  # dask: imported on use
    local = cfg.cluster.startswith("local:")  # same machine: the tournament log and memory share apply
    return ClusterPool(cfg.cluster, replace(setup, log_path=setup.log_path if local else None), k,
                       cfg.effective_game_time, cfg.move_time, cfg.retries,
                       default_memory=not local and cfg.memory_limit is None)


def _remove_empty(path: Path) -> None:
    """Remove ``path`` if it is an empty file. Never raises (it runs while a refusal is on its
    way to the user): a file that cannot be removed is logged and left."""
    try:
        if path.exists() and not path.stat().st_size:
            path.unlink()
    except OSError as exc:
        log.warning("could not remove the empty log %s of a refused run: %s", path, exc)


@contextlib.contextmanager
def _reaped() -> Iterator[None]:
    """``os_guard.orphans_reaped`` sparing every open pool's workers (another thread's run, a
    Dask worker's other run), with a warning naming what it killed."""
    with orphans_reaped(open_workers) as killed:
        yield
    if killed:
        log.warning("killed %d process(es) left by bots built or engines started to check the field: %s",
                    len(killed), killed)


def run_tournament(cfg: TournamentConfig, console: Console | None = None, progress: bool = True) -> RunSummary:
    """Play every game of ``cfg`` not yet stored under its name; each committed when it ends.

    Raises:
        UnknownGameError, ConfigError, BotSpecError: bad settings (nothing is stored).
        ResultsError: results path unusable, name being run elsewhere, stored settings differ,
            or a write failed (games already committed stay).
        ClusterError, BotSpecError: ``--cluster`` unreachable or lost mid-run, or a bot file
            that cannot be shipped to it (games already committed stay).
    """
    with _reaped():  # what bots built and engines probed here started: nothing outlives this
        p = plan(cfg)
    k = p.game.num_players
    specs = isolate(p.specs, cfg.isolation, cfg.effective_memory_limit)  # --isolation process: engines
    legacy = cfg.legacy_run_name()  # a store of the same settings named before --games left the name
    if legacy and not db_path(p.name, cfg.results).exists() and db_path(legacy, cfg.results).exists():
        p = replace(p, name=legacy)
    store = Store.open(cfg.results, p.name)
    summary = RunSummary(p.name, store.path, len(p.tasks), 0)
    log_setup = watch = rater = None
    start, refused, extend = time.perf_counter(), False, False
    log_path = Path(cfg.results) / f"{p.name}.log"
    new_log = not log_path.exists()
    try:
        stored = store.stored()
        if stored is not None:
            p, summary.note = resume(p, cfg, stored[0])
            summary.total = max(len(p.tasks), stored[1])
        grow = stored is not None and cfg.games > int(stored[0]["games"])
        store.begin(p.name, p.game.name, cfg.params, k, cfg.seed, p.settings, [(label, s.text) for label, s in p.specs.items()],
                    len(p.tasks), extend=grow)
        extend = grow  # written: a refusal below puts the stored settings back
        done = store.done_ids()
        stored_games = load_games(store) if done else None
        watch = watch_for(cfg, list(p.specs), k, stored_games)
        rater = rating_state.keeper(store.conn, store.path, make_env(tau=float(p.settings.get("tau", 0.0))),
                                    list(p.specs), None if stored_games is None else
                                    zip(stored_games["game_id"].tolist(), stored_games["seats"].tolist(),
                                        stored_games["ranks"].tolist()), k)
        todo = [t for t in p.tasks if t.game_id not in done]
        summary.stored = len(done)
        if not todo or (watch and watch.decided):
            return summary
        with _reaped():  # a bot its engine cannot load: a spec error before any game
            check_isolated(p.specs, specs, p.game, cfg.seed)
        log_setup = _Logging(log_path)
        limits = Limits(cfg.move_time, cfg.move_nodes)  # all None = unlimited; bots get a Limits always
        setup = WorkerSetup(p.game.name, dict(cfg.params), specs, limits, cfg.time_margin, cfg.effective_memory_limit,
                            str(log_path), (store.lock_fd,))
        pool = _pool(cfg, setup, k)
        log.info("run %s: %d games to play of %d, %s", p.name, len(todo), len(p.tasks),
                 f"{cfg.workers} workers" if cfg.cluster is None else f"cluster {cfg.cluster}")
        results = pool.run(todo)
        saved = time.perf_counter()
        bar = _progress(console) if progress else None
        try:
            if bar:
                bar.start()
                tid = bar.add_task(p.name, total=len(p.tasks), completed=len(p.tasks) - len(todo))
            for res in results:
                checked = referee_check(p.game, res.record, res.task.start)  # never the worker's objects
                if checked.mismatch:
                    summary.mismatches += 1
                    log.warning("game %d: referee check: %s", res.task.game_id, checked.mismatch)
                    res = replace(res, record=checked.record)
                store.add_game(res.task.game_id, res.task.series, res.record, res.attempts, start=res.task.start)
                # the contiguous prefix of game ids is rated as it grows, its state stored about once
                # a second (and at the end): a killed run leaves a shorter prefix, never a wrong one
                rater.unsaved += rater.add(res.task.game_id, res.record.seats, res.record.outcome.ranks,
                                           game_sums(res.record.seats, res.record.move_stats))
                if time.perf_counter() - saved > SAVE_EVERY:
                    rating_state.flush(store.conn, store.path, rater)
                    saved = time.perf_counter()
                summary.played += 1
                summary.stored += 1
                if res.record.fault_seat is not None or res.record.outcome.termination == "crash":
                    reason = res.record.outcome.termination
                    summary.faults[reason] = summary.faults.get(reason, 0) + 1
                    log.info("game %d: %s by seat %s: %s", res.task.game_id, reason, res.record.fault_seat,
                             res.record.fault_detail)
                if bar:
                    bar.advance(tid)
                if watch and watch.add(res.task.series, res.task.seats, res.record.outcome.ranks):
                    break  # SPRT decided: the games in flight are dropped
                if bar and watch:
                    bar.update(tid, description=escape(watch.line()))
        except KeyboardInterrupt:
            summary.interrupted = True
        finally:
            results.close()
            if bar:
                bar.stop()
            summary.workers_replaced = pool.replaced
    except ArenaError:  # refused (exit code 2): no new results file, a stored one left as it was
        refused = True
        if extend and not summary.played:  # the stored settings and total before --games raised them
            try:
                store.begin(p.name, p.game.name, cfg.params, k, cfg.seed, stored[0], [], stored[1], extend=True)
            except ArenaError:
                pass  # the refusal is the message; resuming with the larger --games is unaffected
        raise
    finally:
        summary.seconds = time.perf_counter() - start
        try:
            if rater is not None:
                rating_state.flush(store.conn, store.path, rater)
            if watch is not None and watch.sprt is not None:
                summary.sprt = watch.sprt.state()
                save_sprt(store, summary.sprt)
        finally:
            if log_setup:
                log_setup.close()
            if refused and store.abandon() and new_log:
                _remove_empty(log_path)  # the empty log of a run that left no results file
            store.close()
            if cfg.isolation == "process":
                sweep_ended()  # the private directories of engines whose worker was killed
    return summary
