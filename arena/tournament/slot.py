"""A game worker process as the pool holds it (``arena.tournament.pool``): started with its
pipe, shared ``arena.supervisor.Status`` and ply buffer, given tasks, killed with its process group."""

from __future__ import annotations

import itertools
import pickle
import select
import time
from collections import deque
from typing import Any

from arena.os_guard import kill_group
from arena.tournament.logs import WorkerLog
from arena.tournament.series import GameTask
from arena.supervisor import PLY_BUFFER, new_status
from arena.tournament.worker import WorkerSetup, worker_main

_SERIAL = itertools.count(1)


class WorkerSlot:
    """One worker process of ``arena.tournament.pool.Pool`` with its pipe, its shared
    ``status`` (``arena.supervisor.Status``: the game playing, the seat on move, plies, move
    start, fork mark), its ply ``buffer``, its own log queue and its tasks in flight (in order). Start it (and put it
    in a pool's ``slots``) under ``os_guard.children_lock()``: a sweep must see it."""

    def __init__(self, ctx: Any, setup: WorkerSetup, worker_log: bool = True) -> None:
        self.status = new_status(ctx)
        self.buffer = ctx.RawArray("c", PLY_BUFFER)
        self.conn, child = ctx.Pipe()
        # the worker's own log queue (arena.tournament.logs): made just before its fork
        self.log = WorkerLog(f"arena-log-{next(_SERIAL)}") if worker_log else None
        self.proc = ctx.Process(target=worker_main, args=(child, self.status, setup, self.buffer, self.log),
                                daemon=True)
        try:
            self.proc.start()
        finally:
            if self.log is not None:
                self.log.forked()
                if self.proc.pid is None:  # the fork failed: nothing will write to it
                    self.log.retire()
        child.close()
        self._readable = select.poll()  # ``readable``'s: ``conn.poll()`` makes a selector each call
        self._readable.register(self.conn.fileno(), select.POLLIN)
        self.tasks: deque[GameTask] = deque()
        #: time.monotonic() of the worker's last result, or of its first task when it had none:
        #: the pool replaces a worker that starts no game within ``pool.READY_GRACE`` of it
        self.waiting_since = time.monotonic()

    def give(self, task: GameTask) -> bool:
        """Send ``task`` to the worker; False when its pipe is closed (the worker ended). The
        task is pickled by ``pickle`` itself (what ``conn.recv`` reads): ``conn.send``'s own
        pickler, for the ``multiprocessing`` objects a task never holds, costs several times more."""
        try:
            self.conn.send_bytes(pickle.dumps(task, pickle.HIGHEST_PROTOCOL))
        except (OSError, ValueError):
            return False
        if not self.tasks:
            self.waiting_since = time.monotonic()
        self.tasks.append(task)
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
        if self.proc.is_alive():
            kill_group(self.proc.pid)
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()
        if self.log is not None:
            self.log.retire()  # no wait: its thread reads to end-of-file (joined in Pool.close)

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass
