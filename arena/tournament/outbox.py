"""A worker's two helper threads: the records of finished games sent in groups (``Outbox``) and
the bots of ended games dropped off the main thread (``Cleaner``); ``arena.tournament.worker``
runs both."""

from __future__ import annotations

import gc
import marshal
import queue
import threading
import time
from typing import Any

from arena.referee import GameEnded, message_to_wire

#: seconds a bot's cleanup (``__del__``, ``close``) may run before its worker retires after the
#: next game (the pool starts a fresh one; nobody is blamed: the games were stored)
CLEANUP_GRACE = 2.0
#: a worker sends its finished games' records in groups (``Outbox``): a group goes when it holds
#: GROUP_MAX records, when its first record has waited GROUP_SECONDS, when a game took that long
#: itself, and when the worker has no game left in hand; the runner commits what came together
#: at once, so a game is stored within about GROUP_SECONDS of its end (the product's window is 0.1 s)
GROUP_MAX, GROUP_SECONDS = 8, 0.05


class Outbox:
    """The records of finished games not yet sent, sent as one message of several (``marshal``
    of a list of ``message_to_wire`` values, read by ``slot.WorkerSlot.results``) by the
    worker's main thread (``add``, ``flush``) or, once the first has waited ``GROUP_SECONDS``,
    by a thread of its own (the next game is playing then). A worker that dies holding records
    loses them: the runner replays those games as it replays the ones not begun (games are
    deterministic for their seed; the blame goes to the game playing, ``Status.game``, which
    the worker clears as each game ends, sent or not)."""

    def __init__(self, conn: Any, limit: int | None = None, seconds: float | None = None) -> None:
        self.conn = conn
        self.limit = GROUP_MAX if limit is None else limit
        self.seconds = GROUP_SECONDS if seconds is None else seconds
        self.held: list[tuple] = []
        #: each held record's ``GameEnded`` when its wire values were taken as they are (``add``'s ``exact``)
        self.exact: list[GameEnded | None] = []
        self.since = 0.0  # time.monotonic() when the first record held was added
        self.lock = threading.Lock()
        self.armed = threading.Event()
        threading.Thread(target=self._run, name="record-outbox", daemon=True).start()

    def add(self, ended: GameEnded, exact: bool = False) -> None:
        """Hold ``ended`` (its wire values); send the group when it is full or the game was long.
        ``exact``: a game among the arena's own bots (``worker.trusted``): its moves and move
        records are taken as they are (``arena.referee.to_wire``'s ``exact``)."""
        wire = message_to_wire(ended, exact)
        with self.lock:
            if not self.held:
                self.since = time.monotonic()
                self.armed.set()
            self.held.append(wire)
            self.exact.append(ended if exact else None)
            if len(self.held) >= self.limit or ended.record.seconds >= self.seconds:
                self._send()

    def flush(self) -> None:
        """Send the records held now (before the worker waits for games, or retires)."""
        with self.lock:
            self._send()

    def _send(self) -> None:  # under ``lock``
        if self.held:
            held, exact, self.held, self.exact = self.held, self.exact, [], []
            try:
                data = marshal.dumps(held)
            except (ValueError, TypeError):  # a value no plain type after all: those records converted
                data = marshal.dumps([w if e is None else message_to_wire(e) for w, e in zip(held, exact)])
            self.conn.send_bytes(data)

    def _run(self) -> None:
        while True:
            self.armed.wait()
            with self.lock:
                wait = self.since + self.seconds - time.monotonic()
                if not self.held or wait <= 0:
                    try:
                        self._send()
                    except (OSError, ValueError):  # the runner is gone: the main thread's next read says so
                        self.held, self.exact = [], []
                    self.armed.clear()
                    continue
            time.sleep(wait)


class Cleaner:
    """Drops the bots of ended games on a thread of its own, so a ``__del__`` (or a ``close`` it
    calls) that blocks never delays the next game's start: the worker's main thread only hands
    the list over. ``stuck`` says when games' bots wait behind a cleanup older than
    ``CLEANUP_GRACE`` seconds: the worker then retires after sending its result (exit 0, which
    the pool replaces without blaming anyone)."""

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue[list] = queue.SimpleQueue()
        self.busy_since = 0.0  # time.monotonic() when the cleanup under way began, 0: idle
        threading.Thread(target=self._run, name="bot-cleanup", daemon=True).start()

    def _run(self) -> None:
        while True:
            bots = self.queue.get()
            self.busy_since = time.monotonic()
            try:
                bots.clear()  # the bots' last references: their __del__ runs here
                del bots
                gc.collect()  # and those in reference cycles, here rather than during a later game
            except BaseException:  # noqa: BLE001 - a bot's cleanup bug is nobody's fault
                pass
            self.busy_since = 0.0

    def drop(self, bots: list) -> None:
        """Hand over a game's bots (the caller keeps no reference)."""
        self.queue.put(bots)

    def stuck(self) -> bool:
        """A cleanup has run longer than ``CLEANUP_GRACE`` seconds."""
        since = self.busy_since
        return since > 0 and time.monotonic() - since > CLEANUP_GRACE
