"""A game worker process as the pool holds it (``arena.tournament.pool``): started with its
pipe, shared ``arena.supervisor.Status`` and ply buffer, given tasks, killed with its process group."""

from __future__ import annotations

import itertools
import select
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

from arena.supervisor.parent import Supervised
from arena.tournament.logs import WorkerLog
from arena.tournament.series import GameTask
from arena.tournament.worker import WorkerSetup, task_wire, worker_main

_SERIAL = itertools.count(1)


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

    def readable(self) -> bool:
        """Whether the pipe has something to read now (a result, or its end: ``conn.poll()``)."""
        return bool(self._readable.poll(0))

    def playing(self) -> GameTask | None:
        """The task the worker is playing now (``None`` between games)."""
        if self.tasks and self.status.game == self.tasks[0].game_id:
            return self.tasks[0]
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
