"""What a worker process runs: whole games, one at a time (``docs/arena.md`` "Tournaments").

The worker plays each game under ``arena.supervisor.Watched``, the child side of the one game
supervisor: it keeps the shared ``arena.supervisor.Status`` current (game id and start, seat on
move, plies, move start; a fork mark) and writes each ``Ply`` to the shared ply buffer
(``PlyLog``), so when a worker hangs or dies the runner blames the seat on move and keeps the
plies played. A finished game goes back through the pipe as ``arena.referee.GameEnded``
(``message_to_wire``).

In the worker, fds 1 and 2 go to the tournament's log (a bot's prints never reach the arena's
output; at most ``os_guard.OUTPUT_CAP`` bytes, 1 MiB, per worker process, then one "[bot output
truncated]" line), SIGINT is ignored (the runner stops the pool), and ``--memory-limit`` caps
the address space the bots may add (``RLIMIT_AS``).

Blame and termination are decided by ``arena.referee.referee_game``; the OS mechanics
(output, SIGINT, parent death, memory cap) by ``arena.os_guard``.
"""

from __future__ import annotations

import functools
import gc
import logging
import marshal
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import arena.games
from arena.games import Game
from arena.os_guard import flush_output, guard_child, new_session
from arena.referee import Adjudication, GameEnded, GameRecord, GameSettings, MoveRecord, Termination, fault_record
from arena.supervisor import PlyLog, Status, Watched
from arena.tournament.outbox import CLEANUP_GRACE, Cleaner, Outbox
from arena.tournament.series import GameTask
from arena.tournament.threads import serve, threaded
from bots.base import Limits, Player
from bots.clock import TimeControl
from bots.registry import BotSpec, bot_class, builtin, prefix_of, with_each

log = logging.getLogger("arena.worker")
#: the tournament log's line format (runner and workers)
LOG_FORMAT = "%(asctime)s %(processName)s %(name)s %(levelname)s %(message)s"


@dataclass(frozen=True)
class WorkerSetup:
    """Everything a worker needs, picklable.

    Attributes:
        game, params: the game's registered name and parameters.
        specs: bot label -> parsed spec (``bots.registry.BotSpec``).
        limits: per-move limits (``--move-time`` seconds, ``--move-nodes``) or ``None``.
        time_margin: seconds a move may overrun ``limits.time``.
        memory_limit: MiB of address space the bots may add to the worker, or ``None``.
        log_path: file that receives the worker's fds 1 and 2 (a bot's prints), or ``None``
            to leave them; the worker's log records go to the runner's handlers through its
            own queue (``arena.tournament.logs``), or to this file without fork.
        close_fds: the runner's fds a forked worker must not keep (the run lock).
        tc: every seat's game clock (``--tc`` text), or ``None``; a spec's own ``tc`` replaces it.
        adjudication: the ``--adjudicate`` rules, or ``None``.
        each: ``--each`` options, given to the Python bots whose class declares them (an
            engine's are in its spec already: ``config.field_specs``).
        trace_engines: write every engine protocol line to the log (``--trace-engines``).
        concurrency: games at once in threads when a bot waits on the network (``--concurrency``).
    """

    game: str
    params: dict
    specs: dict[str, BotSpec]
    limits: Limits | None = None
    time_margin: float = 0.5
    memory_limit: int | None = None
    log_path: str | None = None
    close_fds: tuple[int, ...] = ()
    tc: str | None = None
    adjudication: Adjudication | None = None
    each: dict[str, str] = field(default_factory=dict)
    trace_engines: bool = False
    #: games at once for a field with bots that wait on the network (``arena.tournament.threads``)
    concurrency: int = 1

    def clocks(self, seats: Sequence[str]) -> tuple[TimeControl | None, ...] | None:
        """Each seat's time control for a game of the bots ``seats`` (labels): the bot's own
        ``tc=``, else ``--tc``; ``None`` when no seat has a clock."""
        texts = [self.specs[label].tc if label in self.specs and self.specs[label].tc else self.tc
                 for label in seats]
        if all(t is None for t in texts):
            return None
        return tuple(None if t is None else _time_control(t) for t in texts)


def trusted(spec: BotSpec) -> bool:
    """Whether the bot of ``spec`` runs no code of its author in the worker: a built-in bot (the
    arena's own code), or a bot in a process of its own (an engine, ``exec:``; an isolated
    Python bot is one). Games among such bots need neither the worker's fork and pipe checks
    (``arena.supervisor.Watched``) nor the runner's replay of their records
    (``arena.referee.referee_check``): no code there could have forked the worker, closed its
    pipe or written into its memory (``docs/tournaments.md`` "What the arena guarantees")."""
    return builtin(spec.kind) or prefix_of(spec.kind) == "exec"


@functools.cache
def _time_control(text: str) -> TimeControl:
    return TimeControl.parse(text)


def bot_factories(specs: dict[str, BotSpec], each: dict[str, str] | None = None) -> dict[str, Callable[[], Any]]:
    """label -> a function making a fresh bot (classes resolved once; fresh state per game),
    with the options of ``each`` (``--each``) its class declares; an engine of a spec with
    ``restart=on`` gets a new process every game."""
    out: dict[str, Callable[[], Any]] = {}
    for label, spec in specs.items():
        cls = bot_class(spec.kind)
        spec = with_each(spec, cls, each)

        def make(cls: Any = cls, spec: BotSpec = spec) -> Any:
            bot = cls(**spec.options)
            try:
                bot.label = spec.label
                if spec.restart:
                    bot.restart = True
            except AttributeError:
                pass
            return bot
        out[label] = make
    return out


#: the classes of every bot this process made (``_capabilities``)
_MADE: set[type] = set()


def _capabilities(bots: Sequence[Any], name: str) -> list[Callable[..., Any]]:
    """The class-level capability ``name`` (``bots.base.Player``: ``for_game``, ``close_all``)
    of the classes of ``bots`` and of every bot made before in this process, each function once."""
    _MADE.update(type(bot) for bot in bots)
    found = {getattr(cls, name, None) for cls in _MADE}
    return sorted((f for f in found if callable(f)), key=lambda f: f.__qualname__)


def task_wire(tasks: Sequence[GameTask]) -> bytes:
    """A task of several games (``GameTask`` s, in the order to play them) as the bytes a
    worker reads (``tasks_from_wire``): ``marshal`` of their fields, a few times cheaper than
    pickling the dataclasses; no game is the order to stop."""
    return marshal.dumps([(t.game_id, t.series, t.pairing, t.seats, t.seed, t.opening, t.index, t.seeds, t.start)
                          for t in tasks])


def tasks_from_wire(data: bytes) -> list[GameTask]:
    """The games of ``task_wire`` 's bytes (from the runner's end of the pipe)."""
    return [GameTask(*fields) for fields in marshal.loads(data)]


def task_fault(task: GameTask, seat: int, reason: str, detail: str, moves: Sequence[str] = (),
               stats: Sequence[MoveRecord] = (), seconds: float = 0.0) -> GameRecord:
    """The record of ``task`` lost by ``seat`` (< 0: nobody to blame, all share rank 1)."""
    return fault_record(task.seats, task.seed, task.opening, seat, reason, detail, list(moves), list(stats), seconds)


def play_task(game: Game, factories: dict[str, Callable[[], Player]], task: GameTask, setup: WorkerSetup,
              watched: Watched, bots: list | None = None, trusted_labels: frozenset[str] = frozenset()) -> GameRecord:
    """Play one task under ``watched`` (``arena.supervisor.Watched``: status current, plies streamed).

    A bot that cannot be made loses for its seat (``exception``), before any move. The
    worker's engines of bots not in this game are closed first (``arena.engine.client.for_game``).
    ``bots``: a list that receives the bots made and keeps them after the game (their cleanup,
    which may block, is then the caller's: ``Cleaner``). ``trusted_labels``: the labels whose
    bots are ``trusted``; a game among them only is played without the fork and pipe checks
    and without private copies of the state (``GameSettings.trusted``).
    """
    own = set(task.seats) <= trusted_labels  # only the arena's code runs here: no private copies, no checks
    watched.begin(task.game_id, len(task.opening), guarded=not own)
    bots = [] if bots is None else bots
    try:
        for label in task.seats:
            bots.append(factories[label]())
    except Exception as exc:
        return task_fault(task, len(bots), Termination.EXCEPTION, f"bot construction: {type(exc).__name__}: {exc}")
    for hook in _capabilities(bots, "for_game"):
        hook(bots)  # an engine client: at most one engine per seat, those of other bots are closed
    settings = GameSettings(game, task.seed, labels=task.seats, opening=task.opening, limits=setup.limits,
                            time_margin=setup.time_margin, memory_limit=setup.memory_limit, seeds=task.seeds or None,
                            start=task.start, clocks=setup.clocks(task.seats), adjudication=setup.adjudication,
                            trusted=own)
    # no --move-time: the parent times no move (its ``Deadlines``), so no move's start is written
    timed = setup.limits is not None and setup.limits.time is not None
    return watched.play(settings, bots, guarded=not own, timed=timed)


def log_to_file(path: str) -> None:
    """Write this process's ``arena`` records straight to the tournament log at ``path``
    (``O_APPEND``: each record is one write), not to the handlers it had: a worker without fork
    (no ``WorkerLog``), and a Dask worker's game pool (``arena.tournament.remote``), whose
    warnings went to the Dask worker's stderr, the terminal of a ``local:N`` run."""
    top = logging.getLogger("arena")
    for logger in (top, log):
        for handler in list(logger.handlers):  # the runner's, inherited through fork
            logger.removeHandler(handler)
    handler = logging.StreamHandler(open(path, "a", encoding="utf-8", buffering=1))  # noqa: SIM115 (lives with the worker)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    top.addHandler(handler)
    top.setLevel(logging.INFO)
    top.propagate = False


def _close_engines() -> None:
    """``os._exit`` skips atexit: each bot class's ``close_all`` capability (``bots.base.Player``:
    an engine client quits its engines, their private directories go too)."""
    for close in _capabilities((), "close_all"):
        try:
            close()
        except Exception:  # noqa: BLE001 - the worker is ending anyway; the runner sweeps what is left
            pass


def _play_tasks(tasks: list[GameTask], outbox: Outbox, game: Game, factories: dict[str, Callable[[], Player]],
                setup: WorkerSetup, watched: Watched, trusted_labels: frozenset[str], cleaner: Cleaner) -> bool:
    """Play the games of one task in order, handing each ``GameEnded`` to ``outbox`` as its game
    ends (sent in groups, marshal, never pickle; all of them before the worker waits for its
    next task). False: the worker retires now (a bot's cleanup blocks), the games left are the
    runner's to give again."""
    for task in tasks:
        bots: list = []
        record = play_task(game, factories, task, setup, watched, bots, trusted_labels)
        watched.after_game()
        watched.ended()  # before the record is sent: a death now replays it and blames nobody
        own = set(task.seats) <= trusted_labels  # the arena's own bots, or engine clients
        outbox.add(GameEnded(task.game_id, record), exact=own)  # a record the arena's code alone made
        if own:
            bots.clear()  # the arena's own bots, or engine clients: nothing of theirs blocks
        else:
            cleaner.drop(bots)  # a bot's __del__ runs on the cleaner's thread
        del bots
        if cleaner.stuck():
            outbox.flush()
            log.warning("worker %d: a bot's cleanup blocks for over %gs; retiring", os.getpid(), CLEANUP_GRACE)
            return False
    outbox.flush()
    return True


def _local_loop(conn: Any, outbox: Outbox, game: Game, factories: dict[str, Callable[[], Player]],
                setup: WorkerSetup, watched: Watched, trusted_labels: frozenset[str]) -> None:
    """A worker's games one after the other: read a task (``task_wire``), play its games
    (``_play_tasks``), until the order to stop (an empty task), the runner's end of the pipe
    closing, or a bot's cleanup that blocks (``Cleaner.stuck``: the worker retires)."""
    cleaner = Cleaner()
    while True:
        try:
            tasks = tasks_from_wire(conn.recv_bytes())
        except EOFError:
            return
        if not tasks or not _play_tasks(tasks, outbox, game, factories, setup, watched, trusted_labels, cleaner):
            return


def worker_main(conn: Any, status: Status, buffer: Any, setup: WorkerSetup, log_handler: Any = None) -> None:
    """A worker's loop: receive a task of one or more games (``task_wire``; none = stop), play
    them in order and send back their ``GameEnded`` s in groups (``_local_loop``, ``Outbox``), or,
    for a field with bots that wait on the network, many at once in threads
    (``arena.tournament.threads.serve``). ``buffer``: the shared ply buffer (``None``: plies not kept).

    ``log_handler``: this worker's ``arena.tournament.logs.WorkerLog`` (its records go to the
    runner's handlers); ``None`` (no fork) appends them to ``setup.log_path`` instead.
    """
    new_session()  # the runner kills the worker's whole process group (os_guard.kill_group)
    status.forked = -1
    gc.freeze()  # inherited objects: never scanned by this worker's GC (no copy-on-write storms)
    for fd in setup.close_fds:
        try:
            os.close(fd)
        except OSError:
            pass
    guard_child(setup.memory_limit, setup.log_path)
    if log_handler is not None:
        log_handler.install()
    elif setup.log_path:
        log_to_file(setup.log_path)
    game = arena.games.make(setup.game, **setup.params)
    if setup.trace_engines:
        from arena.engine.process import set_trace
        set_trace(True)
    factories = bot_factories(setup.specs, setup.each)
    trusted_labels = frozenset(label for label, spec in setup.specs.items() if trusted(spec))
    plies = PlyLog(buffer, status) if buffer is not None else None
    watched = Watched(status, plies, pipe_fd=conn.fileno())
    log.info("worker %d ready", os.getpid())
    outbox = Outbox(conn)
    code = 0
    try:
        if threaded(setup):  # issue 44: bots waiting on the network play many games at once, in threads
            serve(conn, outbox, game, factories, setup, status, tasks_from_wire, _capabilities)
        else:
            _local_loop(conn, outbox, game, factories, setup, watched, trusted_labels)
    except BaseException:  # the runner sees the death and replays the game
        watched.after_game()
        import traceback
        traceback.print_exc()  # to the log file (fd 2)
        code = 1
    finally:
        _close_engines()
        if log_handler is not None:
            log_handler.flush()
        flush_output()
        os._exit(code)

