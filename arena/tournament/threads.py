"""Many games at once in one worker, in threads, for bots that wait on the network.

A language model's seat (``bots.base.Player.waits_on_network``: ``arena.llm``) spends its move
waiting for a server; a process per game would waste the machine's memory and cores on waiting.
When the field holds such a bot and ``--concurrency`` is above 1, a worker serves its tasks here
(``serve``) instead of one game after the other: each game plays on a thread of a pool of
``concurrency`` threads, and the worker keeps reading new games from the runner while they play.

- A game whose seats are all network bots or the arena's built-in bots (``worker.trusted``,
  ``exec:`` engines left out) plays freely alongside the others: its bots are its own objects
  and the waits release the GIL. Any other game (a user's Python bot, an engine) holds a lock
  for its whole length: at most one such game at a time, as a plain worker plays it.
- Records go back in the order the games came (the runner's ``WorkerSlot`` reads them so), as
  each game at the head of that order ends (``outbox.Outbox``'s groups).
- The worker's shared ``Status`` names the oldest game still playing, its start, no seat and no
  move start (each game's moves are timed by the referee itself, ``arena.referee.asking.ask``):
  the pool's ``--game-time`` watchdog still bounds every game, and a worker that dies blames
  nobody (its games are replayed, ``crash`` after ``--retries``).
- The fork and pipe checks of ``arena.supervisor.Watched`` and the ply buffer are not kept for
  these games (they watch one game at a time); the runner's replay of every record still checks
  it (``arena.referee.referee_check``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from multiprocessing.connection import wait
from typing import Any

from arena.games import Game
from arena.referee import GameEnded, GameRecord, GameSettings, Termination, fault_record, referee_game
from arena.supervisor import Status
from arena.tournament.series import GameTask

log = logging.getLogger("arena.worker")
#: bytes of each game thread's stack (the default 8 MiB of address space a thread would count
#: against ``--memory-limit``; the referee and a network bot need far less)
STACK_BYTES = 4 * 2**20


def network_labels(setup: Any) -> frozenset[str]:
    """The labels of the field whose bot class declares ``waits_on_network`` (``setup``: a
    ``worker.WorkerSetup``)."""
    from bots.registry import bot_class

    out = set()
    for label, spec in setup.specs.items():
        try:
            if getattr(bot_class(spec.kind), "waits_on_network", False) is True:
                out.add(label)
        except Exception:  # noqa: BLE001 - a class that cannot be loaded: its games say so, one at a time
            continue
    return frozenset(out)


def threaded(setup: Any) -> bool:
    """Whether a worker of ``setup`` plays its games here: ``concurrency`` above 1 and a bot of
    the field waits on the network."""
    return getattr(setup, "concurrency", 1) > 1 and bool(network_labels(setup))


class Games:
    """The worker's games in threads (module docstring); used by ``serve`` from the worker's
    main thread only."""

    def __init__(self, game: Game, factories: dict[str, Callable[[], Any]], setup: Any, status: Status,
                 free: frozenset[str], capabilities: Callable[[list, str], list]) -> None:
        self.game, self.factories, self.setup, self.status, self.free = game, factories, setup, status, free
        self.capabilities = capabilities  # ``worker._capabilities``
        threading.stack_size(STACK_BYTES)
        self.pool = ThreadPoolExecutor(max_workers=setup.concurrency, thread_name_prefix="game")
        self.order: deque[tuple[GameTask, Future[GameRecord]]] = deque()
        self.started: dict[int, float] = {}  # game id -> time.monotonic() its thread began it
        self.one_at_a_time = threading.Lock()  # games with a user's bot or an engine: one at a time
        self.wake_r, self.wake_w = os.pipe()  # a byte each time a game ends: ``serve`` wakes
        os.set_blocking(self.wake_r, False)

    def submit(self, tasks: list[GameTask]) -> None:
        for task in tasks:
            future = self.pool.submit(self._play, task)
            future.add_done_callback(lambda _f: os.write(self.wake_w, b"."))
            self.order.append((task, future))
        self._watch()

    def _play(self, task: GameTask) -> GameRecord:
        self.started[task.game_id] = time.monotonic()
        free = set(task.seats) <= self.free
        with contextlib.nullcontext() if free else self.one_at_a_time:
            bots: list[Any] = []
            try:
                for label in task.seats:
                    bots.append(self.factories[label]())
            except Exception as exc:
                return _fault(task, len(bots), Termination.EXCEPTION, f"bot construction: {type(exc).__name__}: {exc}")
            if not free:
                for hook in self.capabilities(bots, "for_game"):
                    hook(bots)  # an engine client: those of other bots are closed
            s = self.setup
            settings = GameSettings(self.game, task.seed, labels=task.seats, opening=task.opening, limits=s.limits,
                                    time_margin=s.time_margin, memory_limit=s.memory_limit,
                                    seeds=task.seeds or None, start=task.start, clocks=s.clocks(task.seats),
                                    adjudication=s.adjudication)
            return referee_game(settings, bots)

    def ended(self) -> list[GameEnded]:
        """The records of the games ended at the head of the order (the order they came in)."""
        with contextlib.suppress(BlockingIOError):
            os.read(self.wake_r, 4096)
        out = []
        while self.order and self.order[0][1].done():
            task, future = self.order.popleft()
            self.started.pop(task.game_id, None)
            try:
                record = future.result()
            except BaseException as exc:  # noqa: BLE001 - referee_game records a bot's; this is the arena's
                log.error("game %d raised in its thread", task.game_id, exc_info=True)
                record = _fault(task, -1, Termination.CRASH, f"the game's thread raised {type(exc).__name__}")
            out.append(GameEnded(task.game_id, record))
        self._watch()
        return out

    def _watch(self) -> None:
        """``status``: the oldest game still in hand, from its start (no seat, no move timed);
        ``game`` -1 when none is."""
        st = self.status
        if not self.order:
            st.game = -1
            return
        first = self.order[0][0].game_id
        if st.game != first:
            st.seat, st.ply, st.move_started, st.move_allowed = -1, 0, 0.0, 0.0
            st.game_started = self.started.get(first, time.monotonic())
            st.game = first

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def _fault(task: GameTask, seat: int, reason: str, detail: str) -> GameRecord:
    """The record of ``task`` lost by ``seat`` before any move (< 0: nobody blamed)."""
    return fault_record(task.seats, task.seed, task.opening, seat, reason, detail)


def serve(conn: Any, outbox: Any, game: Game, factories: dict[str, Callable[[], Any]], setup: Any,
          status: Status, read: Callable[[bytes], list[GameTask]], capabilities: Callable[[list, str], list]) -> None:
    """The worker's loop in threaded mode: read tasks (``read``: ``worker.tasks_from_wire``)
    while games play, hand each ended game's record to ``outbox`` in order; return on the order
    to stop (games in hand are dropped, as a stopped pool drops them) or when the runner is gone.
    ``capabilities``: ``worker._capabilities`` (an engine client's ``for_game``)."""
    from bots.registry import builtin

    free = network_labels(setup) | {label for label, spec in setup.specs.items() if builtin(spec.kind)}
    games = Games(game, factories, setup, status, frozenset(free), capabilities)
    log.info("worker %d: up to %d games at once in threads", os.getpid(), setup.concurrency)
    try:
        while True:
            ready = wait([conn, games.wake_r])
            if games.wake_r in ready or games.order:
                for ended in games.ended():
                    outbox.add(ended)
                if not games.order:
                    outbox.flush()
            if conn in ready:
                try:
                    tasks = read(conn.recv_bytes())
                except EOFError:
                    return
                if not tasks:
                    return
                games.submit(tasks)
    finally:
        games.close()
