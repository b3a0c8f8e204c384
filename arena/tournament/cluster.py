"""``arena run --cluster``: the games of a run played on a Dask cluster (``dask.distributed``).

The runner stays the store's only writer: ``ClusterPool.run`` is the local ``Pool.run`` of a
cluster. A Dask task (``arena.tournament.remote.play_remote``) carries a batch of games
(``GameTask`` s: as many as ``BATCH_SECONDS`` of play, one while game durations are unknown)
and the run's ``RemoteJob`` (game name and parameters, bot spec strings, limits: never a bot
object). Each record comes back to the client as its game ends, an event of the run's topic
relayed by the scheduler, and is stored at once; the task's own end only tells which games of
the batch never sent theirs. ``WINDOW_PER_THREAD`` tasks per worker thread are in flight,
each sent to the worker with the most room (the local pool's least-loaded dispatch), so the
client knows which games each worker holds and in which order it plays them; on the worker
the games queue in the pipe of a resident game worker (``remote._Feeder``), which goes from
one game to the next without waiting for a Dask round trip.

Faults (``docs/arena.md`` "Contracts / Faults"): inside a Dask worker the game runs in a
watched child process under the local pool's rules (move time, game time, memory limit,
replays of a child that dies). A Dask worker lost mid-game (killed, machine gone) makes the
scheduler fail its tasks with ``KilledWorker`` (``allowed-failures`` 0), or leave them waiting
for a worker at its address (Dask's default: the client then sees it gone from the cluster, and
the scheduler's ``remove-worker`` event tells whether it was playing, ``WorkerEvents``); the
client submits the games without a record again, counting against ``retries`` only those that
were playing (``ClusterPool._give_up``), and records a game lost more often as ``crash``
blamed on nobody (the seat on move died with the worker). A worker that holds games and ends
none for ``ClusterPool.stall`` seconds (the game-time limit of each attempt, and a slack) is
given up on the same way: the client never waits for ever on a frozen worker. A worker given
up on gets work again once a game ends there (it recovered) or a new server joins at its
address (a nanny's restart with a fixed ``--worker-port``). With ``local:N`` the scheduler is
set up for this (``dask_connect.LOCAL_CONFIG``); a scheduler of one's own should be started
with the same settings (``docs/tournaments.md`` "Running on a cluster").

A scheduler that cannot be reached, is lost mid-run, or leaves no worker making progress is a
``ClusterError``: the games stored so far stay, and the same command resumes (on the cluster,
or locally without ``--cluster``).
"""

from __future__ import annotations

import asyncio
import logging
import math
import pickle
import queue
import threading
import time
from collections import deque
from collections.abc import Generator, Iterable
from concurrent.futures import CancelledError
from typing import Any

from arena.errors import ClusterError, one_line
from arena.referee import Termination, from_wire
from arena.tournament.dask_connect import (CALL_TIMEOUT, WORKER_TIMEOUT, DaskLog, WorkerEvents, close_client, connect,
                                           import_distributed)
from arena.tournament.gamepool import Result
from arena.tournament.remote import RemoteJob, play_remote, stop_job
from arena.tournament.series import GameTask
from arena.tournament.shipping import start_job
from arena.tournament.worker import WorkerSetup, task_fault

log = logging.getLogger("arena.cluster")

#: tasks in flight per worker thread: one playing and the next queued behind it
WINDOW_PER_THREAD = 2
#: games per task: enough for BATCH_SECONDS of play, at most BATCH_MAX (a lost worker loses
#: few). A Dask task costs about 10 ms of CPU over the client, the scheduler and the worker
#: (measured on two CPU-bound Dask workers, alpha-beta against MCTS, a game 0.22 s: one game a
#: task cost 0.9 s of CPU in 64 games over the local pool, and 2 Dask workers ran at 0.95 of
#: ``--workers 2``; batches of a second's play, 0.35-0.48 s and 0.97): on busy cores that CPU
#: is taken from the games. Each record still comes back as its game ends (an event).
BATCH_SECONDS, BATCH_MAX = 1.0, 32
#: a worker that holds games and ends none for (game time + margin + STALL_GRACE) per
#: attempt (``retries`` + 1) plus STALL_SLACK seconds is given up on (its games replayed);
#: the client checks every POLL_SECONDS while it waits
STALL_GRACE, STALL_SLACK, POLL_SECONDS = 1.0, 30.0, 1.0
#: a game whose task ends this often without its record reaching the client: the cluster is lost
MAX_UNRECORDED = 3
class ClusterPool:
    """Plays ``GameTask`` s on a Dask cluster; ``run`` yields each ``pool.Result`` as it ends.

    Args:
        address: ``tcp://host:port`` or ``local:N``.
        setup: as for the local pool (game, bots, limits, memory limit, log file);
            ``log_path`` ``None``: each Dask worker logs to ``remote.WORKER_LOG`` in its
            local directory.
        num_players, game_time, move_time, retries: as ``Pool`` (seconds).
        default_memory: no ``--memory-limit`` given: each worker machine sets its own default.

    Raises:
        ClusterError: as ``connect``.
        BotSpecError: as ``ship_bots``.
    """

    def __init__(self, address: str, setup: WorkerSetup, num_players: int, game_time: float,
                 move_time: float | None, retries: int = 2, default_memory: bool = False) -> None:
        self.address, self.retries = address, retries
        self.replaced = 0  # game children replaced on the workers, and Dask workers lost in a game
        self.job: RemoteJob | None = None  # set below, or the constructor raises
        # distributed's Client and a local:N cluster (untyped: Any), None once closed
        self.client: Any = None
        self.cluster: Any = None
        #: seconds without a game ending on a worker that holds games before it is given up
        self.stall = (game_time + setup.time_margin + STALL_GRACE) * (retries + 1) + STALL_SLACK
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()  # ("game", event) and ("task", future)
        self.mean_seconds: float | None = None  # running mean of game durations (seconds)
        self.nthreads: dict[str, int] = {}  # the workers now: address -> threads
        self.threads_of: dict[str, int] = {}  # every worker seen (a lost one too)
        self.asked = -math.inf  # when nthreads was last asked
        self.on_worker: dict[str, list] = {}  # address -> its futures in flight, in submission order
        self.where: dict[Any, str] = {}  # future -> address it was submitted to
        self.batch_of: dict[Any, list[GameTask]] = {}  # future in flight -> its games, in order
        self.heard: dict[str, float] = {}  # address -> when it last ended a game (or got work, idle)
        self.tasks: dict[int, GameTask] = {}  # game id -> game not yet stored
        self.pending: deque[GameTask] = deque()  # games not submitted to the cluster yet
        self.submitted = 0
        #: workers given up on (lost, left, or no game ended for ``stall`` seconds): address -> the
        #: server given up on there (``WorkerEvents.server``); a later server at that address gets work
        self.lost: dict[str, int] = {}
        self.epoch: dict[Any, int] = {}  # future in flight -> the server at its address when sent
        self.roster = WorkerEvents(on_add=self._refresh)
        self.requeued: set[int] = set()  # games put back in ``pending`` (after a loss), not resent yet
        self.unrecorded: dict[int, int] = {}  # game id -> times its task ended without its record
        self.missing: dict[str, float] = {}  # worker holding games -> when it was first seen gone
        self.gone = False  # the scheduler is lost: nothing more to ask it
        self.topics: list[str] = []  # the event topics subscribed to (left before the client closes)
        import_distributed()  # its logging set up before DaskLog takes it over
        self.dask_log = DaskLog()
        try:
            self.client, self.cluster = connect(address)
        except BaseException:
            self.dask_log.restore()
            raise
        try:  # the scheduler can drop at any point: the client, a local:N cluster and the log redirect go with it
            self.job = start_job(self.client, setup, num_players, game_time, move_time, retries, default_memory)
            self.client.subscribe_topic("all", self.roster)
            self.topics.append("all")
            self.client.subscribe_topic(self.job.topic, self._on_event)
            self.topics.append(self.job.topic)
        except BaseException:
            self.close()
            raise

    def _on_event(self, event: tuple) -> None:
        """An event of the client's topic (in its event loop): a record of ``remote.play_remote``
        (a list, or a tuple once through msgpack); the scheduler's own (a dict) are left out."""
        if isinstance(event[1], (list, tuple)):
            self.inbox.put(("game", event[1]))

    def _refresh(self) -> None:
        """The workers are asked again at the next look (a worker joined)."""
        self.asked = -math.inf

    def submit(self, tasks: Iterable[GameTask]) -> None:
        """Queue ``tasks``: a running ``run`` plays them too (call it between two of its
        results, from the thread iterating it)."""
        for task in tasks:
            self.pending.append(task)
            self.tasks[task.game_id] = task

    def run(self, tasks: Iterable[GameTask] = ()) -> Generator[Result, None, None]:
        """Play ``tasks`` and the games submitted until none is left without a record; the
        client closes when the generator ends.

        Raises:
            ClusterError: the scheduler was lost or stalled, or a game task failed on a worker
                (for instance arena is not installed there).
        """
        self.submit(tasks)
        pending, checked = self.pending, time.monotonic()
        deaths: dict[int, int] = {}  # game id -> workers lost while playing it
        try:
            while self.tasks:
                try:
                    self._top_up(pending)
                    if not self.batch_of:
                        self._await_workers()
                        continue
                    try:
                        kind, item = self.inbox.get(timeout=POLL_SECONDS)
                    except queue.Empty:
                        kind = None
                    results = [] if kind is None else self._ended(item, deaths, pending) if kind == "game" \
                        else self._task_done(item, deaths, pending)
                    if time.monotonic() - checked > POLL_SECONDS:
                        results += self._check_workers(deaths, pending)
                        checked = time.monotonic()
                except (OSError, TimeoutError, CancelledError, asyncio.CancelledError) as exc:  # CommClosedError too
                    raise self._lost(f"{type(exc).__name__}: {one_line(exc)}") from None
                yield from results
        finally:
            if self.batch_of and not self.gone:  # an interrupted run: games not stored are dropped
                try:
                    self.client.cancel(list(self.batch_of))
                except Exception:  # a lost cluster has nothing to cancel
                    pass
            self.close()

    def _batch(self, pending: int, threads: int) -> int:
        """Games per Dask task: enough for ``BATCH_SECONDS`` of play (the running mean of game
        durations; 1 until a game has ended), at most ``BATCH_MAX``, and few enough that the
        games left still fill every worker's window."""
        if not self.mean_seconds:
            return 1
        want = max(1, round(BATCH_SECONDS / self.mean_seconds))
        return max(1, min(want, BATCH_MAX, math.ceil(pending / (WINDOW_PER_THREAD * max(1, threads)))))

    def _workers(self) -> dict[str, int]:
        """Address -> threads of the workers now in the cluster and not given up on (asked at
        most once a second)."""
        now = time.monotonic()
        if now - self.asked > 1.0:
            self.nthreads = {a: n for a, n in self.client.nthreads(callback_timeout=CALL_TIMEOUT).items()
                             if not self._given_up(a)}
            self.asked = now
            self.threads_of.update(self.nthreads)
        return self.nthreads

    def _given_up(self, addr: str) -> bool:
        """The server now at ``addr`` is one given up on (not a later one)."""
        return addr in self.lost and self.lost[addr] >= self.roster.server(addr)

    def _await_workers(self) -> None:
        start = time.monotonic()
        while not self._workers():
            if time.monotonic() - start > WORKER_TIMEOUT:
                raise self._lost(f"no Dask worker left for {WORKER_TIMEOUT}s")
            time.sleep(POLL_SECONDS)
            self.asked = -math.inf

    def _top_up(self, pending: deque) -> None:
        """Submit batches while a worker has room (``WINDOW_PER_THREAD`` tasks per thread: one
        playing, the next queued behind it), to the worker with the most room first, so the
        windows stay even; each task bound to its worker (see ``_give_up``). The run's last
        games (no more than the cluster has threads) go only to a thread that has none left,
        never queued behind a game: whichever thread runs out first plays them, and the run
        does not end with one worker playing its queue while the others idle."""
        window = WINDOW_PER_THREAD
        while pending:
            workers = self._workers()
            room = {addr: window * n - len(self.on_worker.get(addr, ())) for addr, n in workers.items()}
            addr = max(room, key=lambda a: (room[a], a), default=None)
            if addr is None or room[addr] < 1:
                return
            if len(pending) <= sum(workers.values()) and room[addr] <= (window - 1) * workers[addr]:
                return  # the run's last games: only to a thread with nothing left
            size = self._batch(len(pending), sum(workers.values()))
            batch = [pending.popleft() for _ in range(min(size, len(pending)))]
            self.requeued.difference_update(task.game_id for task in batch)
            self.submitted += 1
            job = self.job
            assert job is not None, "set by the constructor"
            future = self.client.submit(play_remote, job, batch, key=f"arena-{job.token}-{self.submitted}",
                                        workers=[addr], allow_other_workers=False, pure=False)
            if not self.on_worker.get(addr):
                self.heard[addr] = time.monotonic()  # an idle worker's clock starts with its work
            self.batch_of[future], self.where[future] = batch, addr
            self.epoch[future] = self.roster.server(addr)
            self.on_worker.setdefault(addr, []).append(future)
            future.add_done_callback(lambda f: self.inbox.put(("task", f)))

    def _ended(self, event: list, deaths: dict[int, int], pending: deque) -> list[Result]:
        """The record of a game that ended (an event of ``remote.play_remote``), stored unless
        a copy of it was (a game replayed while its first record was on its way)."""
        game_id, attempts, replaced, payload, addr = event
        self.heard[addr] = time.monotonic()
        if self._given_up(addr):  # it plays again: a stalled worker that recovered
            log.warning("Dask worker %s: a game ended there again, giving it work again", addr)
            del self.lost[addr]
            self.asked = -math.inf
        self.replaced += replaced
        task = self.tasks.pop(game_id, None)
        if task is None:
            return []
        if game_id in self.requeued:  # queued for a replay: this record came first
            self.requeued.discard(game_id)
            pending.remove(task)
        record = from_wire(pickle.loads(payload))
        m = self.mean_seconds
        self.mean_seconds = record.seconds if m is None else 0.9 * m + 0.1 * record.seconds
        return [Result(task, record, deaths.get(game_id, 0) + attempts)]

    def _task_done(self, future: Any, deaths: dict[int, int], pending: deque) -> list[Result]:
        """A batch's task ended: the games whose record did not come are replayed (its worker
        lost: every game it held, see ``_give_up``)."""
        distributed = import_distributed()
        batch = self.batch_of.get(future)
        if batch is None:  # its worker was given up on
            return []
        addr = self.where[future]
        error = future.exception() if future.status == "error" else None
        if isinstance(error, distributed.KilledWorker):
            return self._give_up(addr, True, f"Dask worker lost ({one_line(error)})", deaths, pending)
        del self.batch_of[future], self.where[future], self.epoch[future]
        self.on_worker[addr].remove(future)
        self.heard[addr] = time.monotonic()
        left = [task for task in batch if task.game_id in self.tasks]
        # "lost": it had finished (this callback comes at its end), then its worker died before
        # this look and the scheduler said its result went too: a normal end all the same
        if future.status in ("finished", "lost"):  # ended, but records went with their worker (or never came)
            for task in left:
                self.unrecorded[task.game_id] = times = self.unrecorded.get(task.game_id, 0) + 1
                if times > MAX_UNRECORDED:
                    raise self._lost(f"the records of game {task.game_id} do not reach the client")
                log.warning("game %d: its record was lost with its Dask worker, replaying", task.game_id)
            self._requeue(pending, left)
            return []
        if error is not None:
            raise ClusterError(f"game {batch[0].game_id} failed on the Dask cluster at {self.address}: "
                               f"{type(error).__name__}: {one_line(error)} (is arena installed on every worker?)")
        raise self._lost(f"game {batch[0].game_id} {future.status}")

    def _give_up(self, addr: str, ran: bool, why: str, deaths: dict[int, int], pending: deque) -> list[Result]:
        """Worker ``addr`` is lost (``ran``: it was playing; else it was retired gracefully or
        its tasks never began, sent to it as it left): every game it holds without a record
        goes back to ``pending``.

        Each task is bound to the worker the client chose, a worker plays its games in the
        order submitted, one per thread (``remote._Feeder``), and each record reaches the client
        as its game ends: of the games without a record, the first ``nthreads`` were playing and
        count against ``retries`` (then a ``crash`` blamed on nobody), the others are replayed
        without counting, as the local pool does. The one gap: a record still in the worker's
        send buffer (Dask sends its events every few milliseconds) is lost with the worker, so
        the ended game counts as the one playing (one attempt more) and the next as not begun;
        each loss still counts once. A stalled worker that recovers plays the games it held
        ahead of new ones (a record that comes first is stored).
        """
        futures = self.on_worker.pop(addr, [])
        games = [task for f in futures for task in self.batch_of.pop(f, ()) if task.game_id in self.tasks]
        epochs = [self.epoch.pop(f, 0) for f in futures]
        for f in futures:
            self.where.pop(f, None)
        self.lost[addr] = min(epochs, default=self.roster.server(addr))  # the server that held them
        self.missing.pop(addr, None)
        self.asked = -math.inf  # a nanny's new worker: another address, or a new server at this one
        self.replaced += ran
        if futures:  # tasks still waiting for it on the scheduler; not waited for (a frozen scheduler)
            threading.Thread(target=self.client.cancel, args=(futures,), daemon=True).start()
        playing = max(1, self.threads_of.get(addr, 1)) if ran else 0
        out, again = [], []
        for task in games[:playing]:
            deaths[task.game_id] = lost = deaths.get(task.game_id, 0) + 1
            if lost <= self.retries:
                log.warning("game %d: %s, replaying", task.game_id, why)
                again.append(task)
            else:
                del self.tasks[task.game_id]
                detail = f"{why} while playing, {lost} attempts"
                out.append(Result(task, task_fault(task, -1, Termination.CRASH, detail), lost))
        for task in games[playing:]:
            log.info("game %d: %s before it began, replaying", task.game_id, why)
        self._requeue(pending, again + games[playing:])
        return out

    def _requeue(self, pending: deque, games: list[GameTask]) -> None:
        """``games`` back at the head of ``pending``, in order."""
        pending.extendleft(reversed(games))
        self.requeued.update(task.game_id for task in games)

    def _check_workers(self, deaths: dict[int, int], pending: deque) -> list[Result]:
        """Give up on each worker that holds games and either left the cluster (for more than
        ``POLL_SECONDS``, each absence anew: its tasks' failures come first, when it was
        playing and the scheduler fails them; else ``WorkerEvents.was_playing``) or has
        ended none for ``stall`` seconds (the game-time limit of every attempt its pool may
        make, and a slack: frozen, or cut off without the scheduler noticing). With no worker
        left, ``run`` waits ``WORKER_TIMEOUT`` seconds for one, then the cluster is lost."""
        now, out, present = time.monotonic(), [], self._workers()
        for addr, futures in list(self.on_worker.items()):
            if not futures:
                continue
            if addr not in present:
                if now - self.missing.setdefault(addr, now) > POLL_SECONDS:
                    ran = self.roster.was_playing(addr, [f.key for f in futures])
                    out += self._give_up(addr, ran, "Dask worker left the cluster", deaths, pending)
                continue
            self.missing.pop(addr, None)  # back (a late answer to a heartbeat): a later absence waits again
            if now - self.heard.get(addr, now) > self.stall:
                log.warning("Dask worker %s: no game ended for %.0fs, giving up on it", addr, now - self.heard[addr])
                out += self._give_up(addr, True, f"Dask worker {addr} stalled for {self.stall:.0f}s", deaths, pending)
        self.nthreads = {a: n for a, n in self.nthreads.items() if not self._given_up(a)}
        return out

    def _lost(self, why: str) -> ClusterError:
        self.gone = True
        return ClusterError(f"lost the Dask cluster at {self.address} mid-run ({why}); games stored so far are kept: "
                            "re-run the same command to resume, on the cluster or with --workers N")

    def close(self) -> None:
        """Stop this run's idle game workers on a cluster of one's own, close the client and a
        ``local:N`` cluster."""
        if self.client is None:
            return
        if self.cluster is None and self.job is not None and not self.gone:
            stop_job(self.client, self.job.token, [a for a in self.threads_of if not self._given_up(a)])
        close_client(self.client, self.cluster, () if self.gone else self.topics)
        self.client = self.cluster = None
        self.dask_log.restore()
