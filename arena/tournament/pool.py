"""A small process pool for games: per-game deadlines, blame, replacement of dead workers.

Why not ``pebble.ProcessPool``: its per-task timeout kills and replaces a worker well, but it
cannot tell which seat was thinking when the worker hung or died, nor distinguish a hung move
(``timeout``) from a hung game (``game_time``). Here each worker has a pipe and a shared array
written by ``play_game``'s ``on_move`` hook (seat on move, plies played, move start), and the
runner waits on the pipes and the process sentinels with ``multiprocessing.connection.wait``.

Faults handled here (``spec/arena.md`` "Contracts / Faults"):

- a game over ``game_time`` seconds: the worker is killed and replaced, the seat on move loses
  (``game_time``);
- a sequential move running past ``move_time + time_margin`` plus a grace (the greater of 1 s
  and ``move_time``): killed, the seat on move loses (``timeout``);
- a worker that dies (SIGKILL, ``os._exit``, segfault): replaced, the game replayed up to
  ``retries`` times; then the seat on move loses (``crash``).
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

from arena.match import GameRecord
from arena.tournament.series import GameTask
from arena.tournament.worker import PLY, SEAT, SHARED_SIZE, STARTED, WorkerSetup, fault_record, worker_main

log = logging.getLogger("arena.pool")


def context() -> tuple[Any, bool]:
    """(multiprocessing context, is_fork): fork where available (workers inherit registries)."""
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork"), True
    return multiprocessing.get_context("spawn"), False


@dataclass(frozen=True)
class Result:
    """A finished game: its task, its record, and how many attempts it took (1 = no replay)."""

    task: GameTask
    record: GameRecord
    attempts: int


class _Slot:
    """One worker process with its pipe, shared array and current task."""

    def __init__(self, ctx: Any, setup: WorkerSetup) -> None:
        self.shared = ctx.RawArray("d", SHARED_SIZE)
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=worker_main, args=(child, self.shared, setup), daemon=True)
        self.proc.start()
        child.close()
        self.task: GameTask | None = None
        self.started = 0.0

    def give(self, task: GameTask) -> bool:
        self.task, self.started = task, time.monotonic()
        self.shared[SEAT], self.shared[PLY], self.shared[STARTED] = -1, len(task.opening), 0.0
        try:
            self.conn.send(task)
            return True
        except (OSError, ValueError):
            return False

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass


def _signal_name(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


class Pool:
    """Plays ``GameTask`` s on ``workers`` processes; ``run`` yields each ``Result`` as it finishes.

    Args:
        setup: what every worker needs (game, bots, limits).
        workers: number of worker processes.
        num_players: seats per game.
        game_time: hard wall-clock seconds per game.
        move_time: per-move seconds (``None``: no per-move watchdog).
        time_margin: seconds of overrun tolerated per move.
        retries: replays of a game whose worker died before it is lost (``crash``).
    """

    def __init__(self, setup: WorkerSetup, workers: int, num_players: int, game_time: float,
                 move_time: float | None = None, time_margin: float = 0.5, retries: int = 2) -> None:
        self.setup, self.workers, self.n = setup, workers, num_players
        self.game_time, self.retries = game_time, retries
        self.move_grace = None if move_time is None else move_time + time_margin + max(1.0, move_time)
        self.ctx, self.fork = context()
        self.slots: list[_Slot] = []
        self.replaced = 0

    def _new_slot(self) -> _Slot:
        return _Slot(self.ctx, self.setup)

    def run(self, tasks: Iterable[GameTask]) -> Iterator[Result]:
        pending = deque(tasks)
        attempts: dict[int, int] = {}
        self.slots = [self._new_slot() for _ in range(min(self.workers, len(pending)))]
        try:
            while pending or any(s.task for s in self.slots):
                for i, slot in enumerate(self.slots):
                    while slot.task is None and pending:
                        task = pending.popleft()
                        if slot.give(task):
                            attempts[task.game_id] = attempts.get(task.game_id, 0) + 1
                        else:  # died while idle: not the game's fault
                            pending.appendleft(task)
                            slot.kill()
                            slot = self.slots[i] = self._new_slot()
                busy = [s for s in self.slots if s.task is not None]
                wait([s.conn for s in busy] + [s.proc.sentinel for s in busy], timeout=self._timeout(busy))
                for i, slot in enumerate(self.slots):
                    if slot.task is not None:
                        yield from self._check(i, slot, pending, attempts)
        finally:
            self.close()

    def _timeout(self, busy: list[_Slot]) -> float:
        now = time.monotonic()
        left = [s.started + self.game_time - now for s in busy]
        if self.move_grace is not None:
            left += [s.shared[STARTED] + self.move_grace - now for s in busy if s.shared[STARTED] > 0]
        return max(0.0, min(left + [1.0]))

    def _check(self, i: int, slot: _Slot, pending: deque, attempts: dict) -> Iterator[Result]:
        task = slot.task
        try:
            ready = slot.conn.poll()
            record = slot.conn.recv() if ready else None
        except (EOFError, OSError):
            ready, record = False, None
        if record is not None:
            slot.task = None
            yield Result(task, record, attempts[task.game_id])
            return
        now = time.monotonic()
        seat, ply = int(slot.shared[SEAT]), int(slot.shared[PLY])
        move_started = slot.shared[STARTED]
        who = f"seat {seat} ({task.seats[seat]})" if seat >= 0 else "no bot (before the first move)"
        if not slot.proc.is_alive() or ready:
            code = slot.proc.exitcode
            self._replace(i)
            if attempts[task.game_id] <= self.retries:
                log.warning("game %d: worker died (%s), replaying", task.game_id, _signal_name(code))
                pending.appendleft(task)
                return
            detail = (f"worker died ({_signal_name(code)}) at ply {ply} while {who} was choosing a move, "
                      f"{attempts[task.game_id]} attempts")
            yield Result(task, fault_record(task, self.n, seat, "crash", detail, seconds=now - slot.started),
                         attempts[task.game_id])
        elif now - slot.started > self.game_time:
            self._replace(i)
            detail = f"game over {self.game_time:g}s at ply {ply}; {who} was choosing a move; worker killed"
            yield Result(task, fault_record(task, self.n, seat, "game_time", detail, seconds=now - slot.started),
                         attempts[task.game_id])
        elif self.move_grace is not None and move_started > 0 and now - move_started > self.move_grace:
            self._replace(i)
            detail = f"move at ply {ply} not returned after {now - move_started:.1f}s; worker killed"
            yield Result(task, fault_record(task, self.n, seat, "timeout", detail, seconds=now - slot.started),
                         attempts[task.game_id])

    def _replace(self, i: int) -> None:
        self.slots[i].kill()
        self.slots[i] = self._new_slot()
        self.replaced += 1

    def close(self) -> None:
        """Stop idle workers, kill busy ones (their games are not recorded)."""
        for slot in self.slots:
            if slot.task is None:
                slot.stop()
        deadline = time.monotonic() + 2
        for slot in self.slots:
            if slot.task is None:
                slot.proc.join(max(0.0, deadline - time.monotonic()))
            slot.kill()
        self.slots = []
