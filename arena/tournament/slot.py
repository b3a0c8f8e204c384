"""A game worker process as the pool holds it (``arena.tournament.pool``): started with its
pipe, shared ``arena.supervisor.Status`` and ply buffer, given tasks, killed with its process group."""

from __future__ import annotations

import itertools
import marshal
import multiprocessing
import select
import time
import weakref
from collections import deque
from collections.abc import Sequence
from typing import Any

from arena.os_guard import children_lock
from arena.referee import GameEnded, GameRecord, message_from_wire
from arena.supervisor.parent import Supervised
from arena.tournament.logs import WorkerLog
from arena.tournament.series import GameTask
from arena.tournament.worker import WorkerSetup, task_wire, worker_main

_SERIAL = itertools.count(1)
#: open pools: a sweep spares the others' workers (a Dask worker may hold two runs' pools);
#: changed, and their ``slots`` changed or read whole, under ``os_guard.children_lock()``
_POOLS: weakref.WeakSet = weakref.WeakSet()


def open_workers() -> set[int]:
    """Pids of the worker processes of every open pool (ended ones not yet replaced included:
    reaping them would lose their exit code). Call under ``os_guard.children_lock()``, as
    ``kill_orphans`` calls its ``keep``: no pool starts a worker meanwhile."""
    with children_lock():
        return {s.proc.pid for pool in list(_POOLS) for s in pool.slots if s.proc.pid is not None}


def context() -> tuple[Any, bool]:
    """(multiprocessing context, is_fork): fork where available (workers inherit registries)."""
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork"), True
    return multiprocessing.get_context("spawn"), False


class WorkerSlot:
    """One worker process of ``arena.tournament.pool.Pool`` with its pipe, its shared
    ``status`` (``arena.supervisor.Status``: the game playing, the seat on move, plies, move
    start, fork mark), its ply ``buffer``, its own log queue and its tasks in flight (in order). Start it (and put it
    in a pool's ``slots``) under ``os_guard.children_lock()``: a sweep must see it."""

    def __init__(self, ctx: Any, setup: WorkerSetup, worker_log: bool = True) -> None:
        # the worker's own log queue (arena.tournament.logs): made just before its fork
        self.log = WorkerLog(f"arena-log-{next(_SERIAL)}") if worker_log else None
        self.child = Supervised(ctx, worker_main, (setup, self.log))
        child = self.child
        self.status, self.buffer, self.conn, self.proc = child.status, child.buffer, child.conn, child.proc
        try:
            self.child.start()
        finally:
            if self.log is not None:
                self.log.forked()
                if self.proc.pid is None:  # the fork failed: nothing will write to it
                    self.log.retire()
        self._readable = select.poll()  # ``readable``'s: ``conn.poll()`` makes a selector each call
        self._readable.register(self.conn.fileno(), select.POLLIN)
        self.tasks: deque[GameTask] = deque()
        #: records of a group read from the pipe, not yet taken (``results`` with ``until``)
        self.unread: deque[GameEnded] = deque()
        #: time.monotonic() of the worker's last result, or of its first task when it had none:
        #: the pool replaces a worker that starts no game within ``pool.READY_GRACE`` of it
        self.waiting_since = time.monotonic()

    def give(self, tasks: Sequence[GameTask]) -> bool:
        """Send ``tasks`` to the worker as one task of several games (``task_wire``: marshal,
        no pickle), played in order, each record sent back as its game ends; False when its
        pipe is closed (the worker ended)."""
        try:
            self.conn.send_bytes(task_wire(tasks))
        except (OSError, ValueError):
            return False
        if not self.tasks:
            self.waiting_since = time.monotonic()
        self.tasks.extend(tasks)
        return True

    def results(self, until: int | None = None) -> list[tuple[GameTask, GameRecord]]:
        """The records waiting in the pipe with their tasks (taken off ``tasks``), in order;
        with ``until``, stop before the record of game ``until``. A worker that died stops the
        reading (its sentinel says so)."""
        out = []
        while self.tasks and self.tasks[0].game_id != until and (self.unread or self._read()):
            ended = self.unread.popleft()
            task = self.tasks.popleft()
            self.waiting_since = time.monotonic()
            assert task.game_id == ended.game_id, "results come back in order"
            out.append((task, ended.record))
        return out

    def _read(self) -> bool:
        """Read the next group of records (``outbox.Outbox``) into ``unread`` if one is waiting;
        False when none is, or the pipe ended or held bytes that are no group of records."""
        try:
            if not self.readable():
                return False
            group = marshal.loads(self.conn.recv_bytes())
            ended = [message_from_wire(values) for values in group]
        except (EOFError, OSError, ValueError, TypeError, IndexError, KeyError):
            return False
        if not all(isinstance(e, GameEnded) for e in ended):
            return False  # a worker sends only finished games
        self.unread.extend(ended)  # type: ignore[arg-type]
        return bool(ended)

    def sent(self, game_id: int) -> GameRecord | None:
        """The record of game ``game_id`` if it is the next one sent, else ``None``."""
        if self.unread or self._read():
            ended = self.unread[0]
            if ended.game_id == game_id:
                self.unread.popleft()
                return ended.record
        return None

    def readable(self) -> bool:
        """Whether the pipe has something to read now (a result, or its end: ``conn.poll()``)."""
        return bool(self._readable.poll(0))

    def playing(self) -> GameTask | None:
        """The task the worker is playing now (``None`` between games); the tasks before it
        are games it finished and has not sent yet (``outbox.Outbox``)."""
        game = self.status.game
        if game >= 0:
            for task in self.tasks:
                if task.game_id == game:
                    return task
        return None

    def kill(self) -> None:
        """Kill the worker and its process group (descendants in other sessions are the
        pool's ``kill_orphans``)."""
        self.child.kill()
        self.conn.close()
        if self.log is not None:
            self.log.retire()  # no wait: its thread reads to end-of-file (joined in Pool.close)

    def stop(self) -> None:
        try:
            self.conn.send_bytes(task_wire(()))  # no game: stop
        except (OSError, ValueError):
            pass
