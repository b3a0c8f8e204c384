"""What a Dask worker runs for ``arena run --cluster`` (``docs/arena.md`` "Tournaments").

A Dask task is a batch of games: ``play_remote(job, tasks)`` plays them in watched child
processes of the Dask worker. The children are the local pool's workers
(``arena.tournament.pool.Pool``, one per Dask thread, kept for the whole run), watched by the
one game supervisor (``arena.supervisor``) as with ``--workers``, so move time,
game time, memory limit, output isolation and every fault termination are decided by the same
code as with ``--workers``, and a child that dies is replayed there up to ``retries``. The
pool runs in a thread of its own (``_Feeder``) that the run's tasks feed: a task hands its
games over and secedes from the Dask thread pool, so the next task's games are already queued
when the current ones end (a Dask task costs milliseconds of round trip, which the child no
longer waits for). Each record goes back to the client as its game ends, not with its task:
an event of the run's topic (``Worker.log_event``, relayed by the scheduler to the client
subscribed to it), so the client stores every game at once and knows, when a worker is lost,
which games of its batches had ended. Only the loss of the Dask worker itself is left to the
client (``arena.tournament.cluster``).

Nothing here writes results: the records go back to the client, the store's only writer.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import threading
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, replace
from typing import Any

import arena.games
from arena.referee import to_wire
from arena.tournament.config import DEFAULT_MEMORY_SHARE, MIN_MEMORY_LIMIT, physical_memory_mib
from arena.tournament.pool import Pool
from arena.tournament.series import GameTask
from arena.tournament.worker import WorkerSetup, bot_factories, log_to_file

#: file in the Dask worker's local directory that receives the bots' output and the game
#: workers' log records when the client's tournament log is not on this machine
WORKER_LOG = "arena-games.log"


@dataclass(frozen=True)
class RemoteJob:
    """What every game of one run needs on a Dask worker (picklable, sent with each task).

    Attributes:
        token: this run's id: a Dask worker keeps one pool per run and thread.
        setup: the game, bots and limits, as for a local worker; bot files already shipped
            (their kinds are dotted paths of the uploaded modules).
        game_target: ``module:Class`` of the game, registered on the worker under
            ``setup.game`` when its registry lacks it (a game registered only on the client).
        num_players, game_time, move_time, retries: as ``Pool`` (seconds).
        default_memory: ``setup.memory_limit`` is unset: the worker takes half its machine's
            physical memory divided by its cores (at least 256 MiB).
        topic: the Dask event topic that carries the records to the client: the client's id,
            a topic the scheduler empties an hour after the client leaves
            (``distributed.scheduler.events-cleanup-delay``).
    """

    token: str
    setup: WorkerSetup
    game_target: str
    num_players: int
    game_time: float
    move_time: float | None
    retries: int
    default_memory: bool = False
    topic: str = ""


def _allow_children() -> None:
    """Let this process start the game's child process.

    Dask's nanny starts workers as daemonic ``multiprocessing`` processes (setting
    ``distributed.worker.daemon``), and ``multiprocessing`` refuses children to a daemonic
    process. Daemonic only serves to end children with their parent; the game's child does
    that itself (``arena.os_guard.guard_child``: a parent-death signal).
    """
    proc = multiprocessing.current_process()
    if proc.daemon:
        proc._config["daemon"] = False  # type: ignore[attr-defined]  # noqa: SLF001 - private; see the docstring


def _register_game(name: str, target: str) -> None:
    if name not in arena.games.names():
        arena.games._BUILTIN[name] = target  # noqa: SLF001 - a game registered on the client only


def _log_path(setup: WorkerSetup) -> str:
    if setup.log_path is not None:
        return setup.log_path
    from distributed import get_worker
    return os.path.join(get_worker().local_directory, WORKER_LOG)


def _start(job: RemoteJob, slots: int) -> Pool:
    _allow_children()
    _register_game(job.setup.game, job.game_target)
    path = _log_path(job.setup)
    setup = replace(job.setup, log_path=path)
    log_to_file(path)  # the pool's own warnings (a game worker replaced...) too, not stderr
    if job.default_memory:
        mib = physical_memory_mib()
        if mib is not None:
            share = int(mib * DEFAULT_MEMORY_SHARE / (os.cpu_count() or 1))
            setup = replace(setup, memory_limit=max(MIN_MEMORY_LIMIT, share))
    try:  # the game and bot modules imported here once, as in the runner: each run's forks inherit them
        arena.games.make(setup.game, **setup.params)
        bot_factories(setup.specs)
    except Exception:  # noqa: BLE001 - the game worker meets the same error and reports it as with --workers
        pass
    # no runner's handlers in a Dask worker: its game workers append to the log file themselves
    return Pool(setup, slots, job.num_players, job.game_time, job.move_time, setup.time_margin, job.retries,
                worker_log=False)


class Inbox:
    """Games handed by the Dask worker's task threads to its ``_Feeder`` 's running
    ``Pool.run`` (``fileno`` is readable when some wait)."""

    def __init__(self) -> None:
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)
        self._tasks: deque[GameTask] = deque()
        self._lock = threading.Lock()
        self._closing = False

    def fileno(self) -> int:
        return self._read

    def put(self, task: GameTask | None) -> None:
        """Hand over ``task`` (``None``: no more tasks)."""
        with self._lock:
            if task is None:
                self._closing = True
            else:
                self._tasks.append(task)
        os.write(self._write, b"\0")

    def take(self) -> list[GameTask]:
        try:
            while os.read(self._read, 4096):
                pass
        except BlockingIOError:
            pass
        with self._lock:
            out = list(self._tasks)
            self._tasks.clear()
        return out

    @property
    def closed(self) -> bool:
        """No more tasks will come and none waits."""
        with self._lock:
            return self._closing and not self._tasks

    def release(self) -> None:
        os.close(self._read)
        os.close(self._write)


class _Feeder:
    """One run's games on this Dask worker: a resident ``Pool`` of one game worker per Dask
    thread, played by a thread of its own over an ``Inbox`` that every task of the run feeds.

    A task hands its games over and secedes from the Dask thread pool (it only waits), so the
    worker starts the next task of the run at once and its games go into the game worker's
    pipe (``Pool`` prefetch, as with ``--workers``): a game worker never waits for a Dask
    round trip between two games.
    """

    def __init__(self, job: RemoteJob, worker) -> None:
        self.token, self.pool, self.inbox = job.token, _start(job, worker.state.nthreads), Inbox()
        self.worker, self.topic = worker, job.topic
        #: game id -> futures of the tasks handed over (a game can come twice: Dask recomputes a
        #: task whose record was lost with a worker while the client's replay of it runs too)
        self.waiting: dict[int, deque[Future]] = {}
        self.dead = False
        self.thread = threading.Thread(target=self._loop, name=f"arena-games-{job.token}", daemon=True)
        self.thread.start()

    def play(self, task: GameTask) -> Future:
        """Hand ``task`` over (with ``_lock`` held: the feeder is not dead); its future result."""
        future: Future = Future()
        self.waiting.setdefault(task.game_id, deque()).append(future)
        self.inbox.put(task)
        return future

    def _loop(self) -> None:
        error: BaseException | None = None
        try:
            before = 0
            for result in self.pool.run([], keep=True, inbox=self.inbox):
                replaced, before = self.pool.replaced - before, self.pool.replaced
                with _lock:
                    futures = self.waiting.get(result.task.game_id)
                    future = futures.popleft() if futures else None
                    if futures is not None and not futures:
                        del self.waiting[result.task.game_id]
                # the record on its way to the client first: it is then ahead of the task's end
                payload = pickle.dumps(to_wire(result.record), protocol=pickle.HIGHEST_PROTOCOL)
                self.worker.log_event(self.topic, [result.task.game_id, result.attempts, replaced, payload,
                                                   self.worker.address])
                if future is not None:
                    future.set_result(result.task.game_id)
        except BaseException as exc:  # workers that cannot start (ConfigError): every waiting task fails
            error = exc
        finally:
            self.pool.close()
            with _lock:
                self.dead = True
                left, self.waiting = self.waiting, {}
                if _feeders.get(self.token) is self:
                    del _feeders[self.token]
                self.inbox.release()
            for future in (f for futures in left.values() for f in futures):
                future.set_exception(error or RuntimeError("the run's game workers were stopped"))

    def close(self) -> None:
        """Let the games handed over end, then stop the game workers."""
        self.inbox.put(None)


_feeders: dict[str, _Feeder] = {}  # run token -> its feeder on this Dask worker
_lock = threading.Lock()


def _hand_over(job: RemoteJob, tasks: list[GameTask]) -> list[Future]:
    with _lock:
        feeder = _feeders.get(job.token)
        if feeder is None or feeder.dead:
            for other in list(_feeders.values()):
                if not other.waiting and not other.dead:  # an earlier run, ended without close_pools
                    other.close()
            from distributed import get_worker
            feeder = _feeders[job.token] = _Feeder(job, get_worker())
        return [feeder.play(task) for task in tasks]


def play_remote(job: RemoteJob, tasks: list[GameTask]) -> int:
    """Play ``tasks`` in order in this Dask worker's resident game workers for ``job``
    (``_Feeder``); each record is sent to the client as its game ends, as the event
    ``[game_id, attempts, children replaced, pickled wire record, worker address]`` of
    ``job.topic`` (attempts 1 unless the child died and the game was replayed, ``Pool``
    rules; the record in the form of ``arena.referee.to_wire``).

    Returns:
        The number of games played.

    Raises:
        ConfigError: the game workers keep dying outside any game (``Pool``).
    """
    from distributed import secede
    futures = _hand_over(job, tasks)
    secede()  # only waits from here: the worker starts the run's next task, whose games queue behind
    for future in futures:
        future.result()  # the feeder's error, if any (it fails every game it holds at once)
    return len(futures)


async def close_pools(token: str) -> None:
    """Stop the game workers of run ``token`` on this Dask worker (``client.run``, which needs
    a coroutine not to wait) once the games handed over have ended."""
    with _lock:
        feeder = _feeders.get(token)
        if feeder is not None and not feeder.dead:
            feeder.close()


def stop_job(client: Any, token: str, workers: list[str]) -> None:
    """Ask ``workers`` (addresses) to stop run ``token``'s idle game workers (``close_pools``),
    without waiting. Never raises: a lost cluster has nothing to stop."""
    try:
        client.run(close_pools, token, workers=workers, on_error="ignore", wait=False)
    except Exception:
        pass
