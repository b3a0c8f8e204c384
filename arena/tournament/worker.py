"""What a worker process runs: whole games, one at a time (``docs/arena.md`` "Tournaments").

The worker tells the runner what it is doing through a shared array: ``GAME`` (id of the
game being played) and ``BEGUN`` (its ``time.monotonic()`` start), ``SEAT``, ``PLY`` and
``STARTED`` (``time.monotonic()`` when the bot on move was asked, each seat of a simultaneous
round too; 0 between moves and while an engine client, which keeps its own deadline, answers a
round), written by ``play_game``'s ``on_move`` / ``on_ply`` hooks: when a worker hangs or
dies, the runner blames the seat on move.

In the worker, fds 1 and 2 go to the tournament's log (a bot's prints never reach the arena's
output; at most ``os_guard.OUTPUT_CAP`` bytes, 1 MiB, per worker process, then one "[bot output
truncated]" line), SIGINT is ignored (the runner stops the pool), and ``--memory-limit`` caps
the address space the bots may add (``RLIMIT_AS``).

Blame and termination are decided by ``arena.referee.referee_game``; the OS mechanics
(output, SIGINT, parent death, memory cap) by ``arena.os_guard``.
"""

from __future__ import annotations

import fcntl
import gc
import logging
import os
import struct
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import arena.games
from arena.games import SIMULTANEOUS, Game, State
from arena.os_guard import (PIPE_CLOSED, children, flush_output, forked_copies, guard_child, has_children,
                            new_session)
from arena.referee import (GameRecord, MoveRecord, Termination, fault_record, ply_from_wire, ply_text, ply_to_wire,
                           referee_game, to_wire)
from arena.tournament.series import GameTask
from bots.base import Limits, Player
from bots.registry import BotSpec, bot_class

SEAT, PLY, STARTED, GAME, BEGUN, PLIES_END, FORKED, FORK_SEAT, FORK_PLY = range(9)
SHARED_SIZE = 9
#: the pid of this worker (set by ``worker_main``): a process with another pid running the
#: worker's code is a copy a bot forked, and exits at once (``check_pid``)
_HOME_PID: int | None = None
#: bytes of each worker's ply buffer: the plies of the game playing, so a game whose worker
#: is killed or dies keeps the moves played (a longer game keeps those that fit)
PLY_BUFFER = 1 << 20
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
    """

    game: str
    params: dict
    specs: dict[str, BotSpec]
    limits: Limits | None = None
    time_margin: float = 0.5
    memory_limit: int | None = None
    log_path: str | None = None
    close_fds: tuple[int, ...] = ()


def bot_factories(specs: dict[str, BotSpec]) -> dict[str, Callable[[], Any]]:
    """label -> a function making a fresh bot (classes resolved once; fresh state per game)."""
    out = {}
    for label, spec in specs.items():
        cls = bot_class(spec.kind)

        def make(cls=cls, spec=spec):
            bot = cls(**spec.options)
            try:
                bot.label = spec.label
            except AttributeError:
                pass
            return bot
        out[label] = make
    return out


def task_fault(task: GameTask, seat: int, reason: str, detail: str, moves: list[str] = (),
               stats: list[MoveRecord] = (), seconds: float = 0.0) -> GameRecord:
    """The record of ``task`` lost by ``seat`` (< 0: nobody to blame, all share rank 1)."""
    return fault_record(task.seats, task.seed, task.opening, seat, reason, detail, moves, stats, seconds)


class PlyLog:
    """The plies of the game playing, in a buffer shared with the runner.

    Each entry is a 4-byte length and ``arena.referee.ply_to_wire`` of the ply; ``shared[PLIES_END]`` is the end of the last complete entry (written after it).
    """

    def __init__(self, buffer: Any, shared: Any, pipe_fd: int | None = None) -> None:
        self.buffer, self.shared, self.end = memoryview(buffer).cast("B"), shared, 0
        self.pipe_fd = pipe_fd  # the runner's pipe: checked after each ply

    def check_pipe(self) -> None:
        """End the worker at once if the bot that just moved closed the runner's pipe: the
        shared array still names its seat, so the runner blames it (``crash``)."""
        if self.pipe_fd is not None:
            try:
                fcntl.fcntl(self.pipe_fd, fcntl.F_GETFD)
            except OSError:
                os._exit(PIPE_CLOSED)

    def clear(self) -> None:
        self.end = 0
        self.shared[PLIES_END] = 0

    def add(self, move: str, rec: MoveRecord | None) -> None:
        """Append one ply (``rec`` ``None`` at a simultaneous round); a full buffer keeps what fits.
        Never raises: an error in the game's hook would be blamed on a bot."""
        data = ply_to_wire(move, rec)
        end = self.end + 4 + len(data)
        if end > len(self.buffer):
            return  # full: the runner keeps the plies that fit
        self.buffer[self.end:end] = len(data).to_bytes(4, "little") + data
        self.end = end
        self.shared[PLIES_END] = end


def read_plies(buffer: Any, shared: Any) -> tuple[list[str], list[MoveRecord]]:
    """(moves, move records) of a ``PlyLog`` (runner side; the worker stopped or killed)."""
    data, pos, moves, stats = buffer[:int(shared[PLIES_END])], 0, [], []
    while pos + 4 <= len(data):
        (size,) = struct.unpack_from("<I", data, pos)
        move, rec = ply_from_wire(data[pos + 4:pos + 4 + size])
        pos += 4 + size
        moves.append(move)
        if rec is not None:
            stats.append(rec)
    return moves, stats


#: the id of the game ``play_task`` is playing: a copy a bot forked marks this game, not
#: ``shared[GAME]``, which the worker may have moved on before the copy ran
_PLAYING = -1


def _mark_fork(shared: Any, seat: int, ply: int) -> None:
    shared[FORK_SEAT], shared[FORK_PLY] = seat, ply
    shared[FORKED] = _PLAYING if _PLAYING >= 0 else shared[GAME]


def check_pid(shared: Any, seat: int, ply: int = -1, known: set[int] | None = None) -> None:
    """Fork safety (called before every send and in every hook of ``play_task``).

    In a copy of the worker forked by a bot: mark the game (``shared[FORKED]``: its id,
    ``FORK_SEAT``: the forking seat, ``FORK_PLY``: the ply it was choosing) and exit at once,
    before the copy can send anything or touch the store. In the worker itself, when a child
    that is a copy of it appeared since ``known`` (``os_guard.forked_copies``; checked only
    when the worker has children at all): mark the game the same way and wait to be killed.
    The runner kills the worker and its descendants; the plies before the fork stand and the
    forking seat loses (``crash``).
    """
    if _HOME_PID is None:
        return
    if os.getpid() != _HOME_PID:
        try:
            _mark_fork(shared, seat, ply)
        finally:
            os._exit(0)
    if known is not None and has_children():
        copies = forked_copies(known)
        if copies:
            log.warning("seat %d forked the worker (pids %s)", seat, copies)
            _mark_fork(shared, seat, ply)
            while True:  # the runner sees FORKED and kills this process group
                time.sleep(0.05)


def play_task(game: Game, factories: dict[str, Callable[[], Player]], task: GameTask, setup: WorkerSetup,
              shared: Any = None, plies: PlyLog | None = None) -> GameRecord:
    """Play one task with ``arena.referee.referee_game``, keeping the shared array current.

    ``plies``: where each finished ply is also written for the runner (see ``PlyLog``).
    """
    global _PLAYING
    shared = shared if shared is not None else [-1.0] * SHARED_SIZE
    _PLAYING = task.game_id
    if plies is not None:
        plies.clear()
    shared[SEAT], shared[PLY], shared[STARTED] = -1, len(task.opening), 0.0
    # BEGUN before GAME: the runner reads GAME first (``WorkerSlot.playing``), then times the game from
    # BEGUN; the other order let it see a fresh worker's BEGUN of 0 and call the game overdue.
    shared[BEGUN] = time.monotonic()
    shared[GAME] = task.game_id

    here = [-1, len(task.opening)]  # seat last asked, plies played: a forked copy keeps the fork's
    known: set[int] = children() if has_children() else set()  # e.g. engine processes

    def on_move(seat: int, state: State) -> None:
        check_pid(shared, *here, known)  # also adds processes a bot started (an engine) to known
        here[0] = seat
        shared[SEAT] = seat
        # the pool's watchdog times each move, each seat's answer at a simultaneous round too,
        # but an engine's round (its client kills a late engine: ``late``, the game goes on)
        shared[STARTED] = 0.0 if state.to_move == SIMULTANEOUS and own_deadline[seat] else time.monotonic()

    def on_reset(seat: int) -> None:
        check_pid(shared, *here, known)
        here[0] = seat
        shared[SEAT] = seat
        shared[STARTED] = time.monotonic()  # reset counts against the first move: the watchdog times it

    def on_ply(state: State, rec: MoveRecord) -> None:
        check_pid(shared, *here, known)
        here[1] += 1
        if plies is not None:
            plies.check_pipe()  # before SEAT moves on: a bot closing fds is blamed, not the next
        shared[STARTED] = 0.0
        shared[PLY] += 1
        if plies is not None:
            plies.add(ply_text(state, rec), rec if rec.status is None else None)

    bots = []
    try:
        for label in task.seats:
            bots.append(factories[label]())
    except Exception as exc:
        return task_fault(task, len(bots), Termination.EXCEPTION, f"bot construction: {type(exc).__name__}: {exc}")
    engines = sys.modules.get("arena.engine.client")  # not imported: no engine bot in this worker
    own_deadline = [engines is not None and engines.keeps_time(bot) for bot in bots]
    record = referee_game(game, bots, task.seed, labels=task.seats, opening=task.opening, limits=setup.limits,
                          time_margin=setup.time_margin, memory_limit=setup.memory_limit, on_move=on_move,
                          on_ply=on_ply, on_reset=on_reset, seeds=task.seeds or None, start=task.start)
    check_pid(shared, *here, known)
    return record




def _log_to_file(path: str) -> None:
    """Without fork (no ``WorkerLog``): write this worker's records straight to the tournament
    log (``O_APPEND``: each record is one write)."""
    top = logging.getLogger("arena")
    for logger in (top, log):
        for handler in list(logger.handlers):  # the runner's, inherited through fork
            logger.removeHandler(handler)
    handler = logging.StreamHandler(open(path, "a", encoding="utf-8", buffering=1))  # noqa: SIM115 (lives with the worker)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    top.addHandler(handler)
    top.setLevel(logging.INFO)
    top.propagate = False


def worker_main(conn: Any, shared: Any, setup: WorkerSetup, buffer: Any = None, log_handler: Any = None) -> None:
    """A worker's loop: receive a ``GameTask`` (``None`` = stop), send back ``(game_id, GameRecord)``.

    ``log_handler``: this worker's ``arena.tournament.logs.WorkerLog`` (its records go to the
    runner's handlers); ``None`` (no fork) appends them to ``setup.log_path`` instead.
    """
    global _HOME_PID
    _HOME_PID = os.getpid()
    new_session()  # the runner kills the worker's whole process group (os_guard.kill_group)
    shared[FORKED] = -1
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
        _log_to_file(setup.log_path)
    game = arena.games.make(setup.game, **setup.params)
    factories = bot_factories(setup.specs)
    plies = PlyLog(buffer, shared, conn.fileno()) if buffer is not None else None
    log.info("worker %d ready", os.getpid())
    code = 0
    try:
        while True:
            try:
                task = conn.recv()
            except EOFError:
                break
            if task is None:
                break
            record = play_task(game, factories, task, setup, shared, plies)
            check_pid(shared, -1)
            conn.send((task.game_id, to_wire(record)))
            shared[GAME] = -1  # after the send: a death before it is this game's
    except BaseException:  # the runner sees the death and replays the game
        check_pid(shared, -1)
        import traceback
        traceback.print_exc()  # to the log file (fd 2)
        code = 1
    finally:
        engines = sys.modules.get("arena.engine.client")
        if engines is not None:  # os._exit skips atexit: quit the engines (their private directories go too)
            try:
                engines.close_all()
            except Exception:  # noqa: BLE001 - the worker is ending anyway; the runner sweeps what is left
                pass
        if log_handler is not None:
            log_handler.flush()
        flush_output()
        os._exit(code)

