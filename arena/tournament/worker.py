"""What a worker process runs: whole games, one at a time (``spec/arena.md`` "Tournaments").

The worker tells the runner what it is doing through a shared array: ``GAME`` (id of the
game being played) and ``BEGUN`` (its ``time.monotonic()`` start), ``SEAT``, ``PLY`` and
``STARTED`` (``time.monotonic()`` when the bot on move was asked, 0 between moves), written
by ``play_game``'s ``on_move`` / ``on_ply`` hooks: when a worker hangs or dies, the runner
blames the seat on move. In the worker, fds 1 and 2 go to the tournament's log (a bot's prints
never reach the arena's output), SIGINT is ignored (the runner stops the pool), and
``--memory-limit`` caps the address space the bots may add (``RLIMIT_AS``).

Faults caught here, besides those of ``play_game``: ``SystemExit`` from a bot (``exit``),
``MemoryError`` (``memory``), an exception outside ``choose`` such as in ``reset``
(``exception``).
"""

from __future__ import annotations

import fcntl
import gc
import logging
import marshal
import os
import struct
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import arena.games
from arena.games import SIMULTANEOUS, Game
from arena.match import GameRecord, MoveRecord, forfeit, play_game
from arena.tournament.series import GameTask
from arena.watch import die_with_parent, limit_memory
from bots.base import Limits
from bots.registry import BotSpec, bot_class

SEAT, PLY, STARTED, GAME, BEGUN, PLIES_END = range(6)
SHARED_SIZE = 6
#: bytes of each worker's ply buffer: the plies of the game playing, so a game whose worker
#: is killed or dies keeps the moves played (a longer game keeps those that fit)
PLY_BUFFER = 1 << 20
#: a worker's exit code when a bot closed its pipe to the runner
PIPE_CLOSED = 3
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
        log_path: file that receives the worker's fds 1 and 2 and its log records (appended
            directly: no queue, so a worker killed while logging cannot hang the runner), or
            ``None`` to leave them.
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


def fault_record(task: GameTask, n: int, seat: int, reason: str, detail: str,
                 moves: list[str] = (), stats: list[MoveRecord] = (), seconds: float = 0.0) -> GameRecord:
    """The record of a game lost by ``seat`` (``seat`` < 0: nobody to blame, all share rank 1)."""
    if seat >= 0:
        outcome = forfeit(n, seat, reason)
    else:
        outcome = arena.games.Outcome(tuple(0.0 for _ in range(n)), tuple(1 for _ in range(n)), reason)
    opening = [MoveRecord(i, -1, m) for i, m in enumerate(task.opening)]
    return GameRecord(task.seats, task.seed, len(task.opening), tuple(task.opening) + tuple(moves),
                      tuple(opening) + tuple(stats), outcome, seconds, seat if seat >= 0 else None,
                      " ".join(detail.split())[:500])


class PlyLog:
    """The plies of the game playing, in a buffer shared with the runner.

    Each entry is a 4-byte length and the ``marshal`` of ``(move text, MoveRecord fields or
    None)``; ``shared[PLIES_END]`` is the end of the last complete entry (written after it).
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
        try:  # never raise in the game's hook: that would be blamed on a bot
            data = marshal.dumps((move, None if rec is None else (rec.ply, rec.seat, rec.move, rec.seconds,
                                                                  rec.nodes, rec.depth, rec.evaluation)))
        except ValueError:  # e.g. a numpy evaluation
            data = marshal.dumps((str(move), None if rec is None else (
                rec.ply, rec.seat, str(rec.move), float(rec.seconds), _num(rec.nodes, int), _num(rec.depth, int),
                _num(rec.evaluation, float))))
        end = self.end + 4 + len(data)
        if end > len(self.buffer):
            return  # full: the runner keeps the plies that fit
        self.buffer[self.end:end] = len(data).to_bytes(4, "little") + data
        self.end = end
        self.shared[PLIES_END] = end


def _num(value: Any, kind: type) -> Any:
    return None if value is None else kind(value)


def read_plies(buffer: Any, shared: Any) -> tuple[list[str], list[MoveRecord]]:
    """(moves, move records) of a ``PlyLog`` (runner side; the worker stopped or killed)."""
    data, pos, moves, stats = buffer[:int(shared[PLIES_END])], 0, [], []
    while pos + 4 <= len(data):
        (size,) = struct.unpack_from("<I", data, pos)
        move, rec = marshal.loads(data[pos + 4:pos + 4 + size])
        pos += 4 + size
        moves.append(move)
        if rec is not None:
            stats.append(MoveRecord(*rec))
    return moves, stats


def _track_resets(bots: list, shared: Any) -> None:
    """Make each bot's ``reset`` mark its seat as on move (a fault there is blamed on it)."""
    for bot in bots:
        reset = getattr(bot, "reset", None)
        if reset is None:
            continue

        def marked(game, seat, seed, reset=reset):
            shared[SEAT] = seat
            return reset(game, seat, seed)
        try:
            bot.reset = marked
        except AttributeError:  # __slots__: no blame before the first move
            pass


def play_task(game: Game, factories: dict, task: GameTask, setup: WorkerSetup, shared: Any = None,
              plies: PlyLog | None = None) -> GameRecord:
    """Play one task to a ``GameRecord``, turning a bot's exit or memory fault into a loss.

    ``plies``: where each finished ply is also written for the runner (see ``PlyLog``).
    """
    shared = shared if shared is not None else [-1.0] * SHARED_SIZE
    if plies is not None:
        plies.clear()
    shared[SEAT], shared[PLY], shared[STARTED] = -1, len(task.opening), 0.0
    shared[GAME], shared[BEGUN] = task.game_id, time.monotonic()
    moves: list[str] = []
    stats: list[MoveRecord] = []

    def on_move(seat: int, state: Any) -> None:
        shared[SEAT] = seat
        shared[STARTED] = 0.0 if state.to_move == SIMULTANEOUS else time.monotonic()

    def on_ply(state: Any, rec: MoveRecord) -> None:
        if plies is not None:
            plies.check_pipe()  # before SEAT moves on: a bot closing fds is blamed, not the next
        shared[STARTED] = 0.0
        shared[PLY] += 1
        move = (state.last_round or "") if rec.status is not None else rec.move
        moves.append(move)
        if rec.status is None:
            stats.append(rec)
        if plies is not None:
            plies.add(move, rec if rec.status is None else None)

    start = time.perf_counter()
    n = game.num_players
    bots = []
    try:
        for label in task.seats:
            bots.append(factories[label]())
    except Exception as exc:
        return fault_record(task, n, len(bots), "exception", f"bot construction: {type(exc).__name__}: {exc}")
    _track_resets(bots, shared)
    try:
        rec = play_game(game, bots, task.seed, labels=task.seats, opening=task.opening, limits=setup.limits,
                        time_margin=setup.time_margin, on_move=on_move, on_ply=on_ply,
                        seeds=task.seeds or None, start=task.start)
    except SystemExit as exc:
        return fault_record(task, n, int(shared[SEAT]), "exit", f"bot called sys.exit({exc.code!r})",
                            moves, stats, time.perf_counter() - start)
    except MemoryError:
        limit = f"limit {setup.memory_limit} MiB" if setup.memory_limit else "no --memory-limit"
        return fault_record(task, n, int(shared[SEAT]), "memory", f"MemoryError: out of memory ({limit})",
                            moves, stats, time.perf_counter() - start)
    except Exception as exc:
        return fault_record(task, n, int(shared[SEAT]), "exception", f"{type(exc).__name__}: {exc}",
                            moves, stats, time.perf_counter() - start)
    if rec.outcome.termination == "exception" and (rec.fault_detail or "").startswith("MemoryError"):
        detail = rec.fault_detail.split(":", 1)[1].strip() if ":" in rec.fault_detail else ""
        limit = f"limit {setup.memory_limit} MiB" if setup.memory_limit else "no --memory-limit"
        rec = replace(rec, outcome=forfeit(n, rec.fault_seat, "memory"),
                      fault_detail=f"MemoryError ({limit}){': ' + detail if detail else ''}")
    return rec


def pack(record: GameRecord) -> tuple:
    """A ``GameRecord`` as plain tuples (pickles several times faster than the dataclasses)."""
    o = record.outcome
    stats = tuple((m.ply, m.seat, m.move, m.seconds, m.nodes, m.depth, m.evaluation, m.status)
                  for m in record.move_stats)
    return (record.seats, record.seed, record.opening_plies, record.moves, stats,
            (tuple(o.scores), tuple(o.ranks), o.termination), record.seconds, record.fault_seat,
            record.fault_detail)


def unpack(data: tuple) -> GameRecord:
    """The ``GameRecord`` of ``pack``."""
    seats, seed, opening_plies, moves, stats, outcome, seconds, fault_seat, detail = data
    return GameRecord(seats, seed, opening_plies, moves, tuple(MoveRecord(*m) for m in stats),
                      arena.games.Outcome(*outcome), seconds, fault_seat, detail)


def _redirect_output(path: str | None) -> None:
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    if path:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        sys.stdout = os.fdopen(1, "w", buffering=1, closefd=False)
        sys.stderr = os.fdopen(2, "w", buffering=1, closefd=False)


def _log_to_file(path: str) -> None:
    """Write this worker's records straight to the tournament log (``O_APPEND``: each record is
    one write; no queue or thread shared with the runner, whatever a bot kills or closes)."""
    for handler in list(log.handlers):  # the runner's, inherited through fork
        log.removeHandler(handler)
    handler = logging.StreamHandler(open(path, "a", encoding="utf-8", buffering=1))  # noqa: SIM115 (lives with the worker)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False


def worker_main(conn: Any, shared: Any, setup: WorkerSetup, buffer: Any = None) -> None:
    """A worker's loop: receive a ``GameTask`` (``None`` = stop), send back ``(game_id, GameRecord)``."""
    gc.freeze()  # inherited objects: never scanned by this worker's GC (no copy-on-write storms)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    for fd in setup.close_fds:
        try:
            os.close(fd)
        except OSError:
            pass
    _redirect_output(setup.log_path)
    if setup.log_path:
        _log_to_file(setup.log_path)
    if setup.memory_limit:
        limit_memory(setup.memory_limit)
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
            conn.send((task.game_id, pack(record)))
            shared[GAME] = -1  # after the send: a death before it is this game's
    except BaseException:  # the runner sees the death and replays the game
        import traceback
        traceback.print_exc()  # to the log file (fd 2)
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # a bot closed it
                pass
        os._exit(code)

