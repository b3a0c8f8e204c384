"""``arena run --cluster``: the games of a run played on a Dask cluster (``dask.distributed``).

The runner stays the store's only writer: ``ClusterPool.run`` is the local ``Pool.run`` of a
cluster. Each game is one Dask task (``arena.tournament.remote.play_remote``) that carries
the ``GameTask`` and the run's ``RemoteJob`` (game name and parameters, bot spec strings,
limits: never a bot object); its record comes back to the client, which stores it at once. A
bounded window of games is submitted ahead (``WINDOW_PER_THREAD`` per worker thread, more for
short games) and collected with ``distributed.as_completed``, so the cluster stays busy
without the whole run sitting in the scheduler. The client sends each game to the worker with
the most room (the local pool's least-loaded dispatch), so it knows which games each worker
holds and in which order it plays them; on the worker the games queue in the pipe of a
resident game worker (``remote._Feeder``), which goes from one game to the next without
waiting for a Dask round trip.

Faults (``docs/arena.md`` "Contracts / Faults"): inside a Dask worker the game runs in a
watched child process under the local pool's rules (move time, game time, memory limit,
replays of a child that dies). A Dask worker lost mid-game (killed, machine gone) makes the
scheduler fail its tasks with ``KilledWorker``; the client submits the games again, counting
against ``retries`` only those that were playing (``ClusterPool._was_playing``), and records a
game lost more often as ``crash`` blamed on nobody (the seat on move died with the worker).
With ``local:N`` the scheduler is set up for this (``LOCAL_CONFIG``); a
scheduler of one's own should be started with the same settings (README "Running on a
cluster").

A scheduler that cannot be reached, or is lost mid-run, is a ``ClusterError``: the games
stored so far stay, and the same command resumes (on the cluster, or locally without
``--cluster``).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
import uuid
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import CancelledError
from dataclasses import replace
from typing import Any

import arena.games
from arena.errors import ClusterError, one_line
from arena.referee import Termination, from_wire
from arena.tournament.pool import Result
from arena.tournament.remote import RemoteJob, close_pools, play_remote
from arena.tournament.series import GameTask
from arena.tournament.shipping import ship_bots
from arena.tournament.worker import WorkerSetup, task_fault

log = logging.getLogger("arena.cluster")

#: games in flight per worker thread: one playing and the next waiting in its game worker's
#: pipe; for short games enough for WINDOW_SECONDS of play (a Dask round trip on a loaded
#: machine takes tens of ms), at most WINDOW_MAX (so the end of a run stays balanced)
WINDOW_PER_THREAD, WINDOW_SECONDS, WINDOW_MAX = 2, 0.1, 8
#: seconds to reach a scheduler, and to wait for its first worker
CONNECT_TIMEOUT, WORKER_TIMEOUT = 10, 60
#: scheduler settings of ``local:N``: a task whose worker dies fails at once (the client
#: replays it, counting against ``--retries`` when it was playing);
#: ``local:N`` also turns off what costs CPU for nothing here: the workers' statistical
#: profiler (it samples every thread each 10 ms), work stealing (each game goes to the worker
#: the client chose), and the 20 ms event-loop tick
LOCAL_CONFIG = {"distributed.scheduler.allowed-failures": 0, "distributed.worker.profile.enabled": False,
                "distributed.scheduler.work-stealing": False, "distributed.admin.tick.interval": "1s"}


class _DaskLog(logging.Handler):
    """Dask's own warnings (a worker lost, the scheduler gone) go to the tournament log, not
    to the terminal, where the arena prints its one-line error."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.saved = {}
        for name in ("distributed", "distributed.client", "distributed.gc", "tornado", "tornado.application"):
            logger = logging.getLogger(name)  # Dask's logging config gives each a stderr handler
            self.saved[logger] = logger.handlers[:], logger.propagate
            logger.handlers, logger.propagate = [self], False

    def emit(self, record: logging.LogRecord) -> None:
        log.log(record.levelno, "%s: %s", record.name, record.getMessage())

    def restore(self) -> None:
        for logger, (handlers, propagate) in self.saved.items():
            logger.handlers, logger.propagate = handlers, propagate


def _dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError("--cluster needs Dask: pip install 'arena[cluster]' (dask and distributed)") from None
    return distributed


def connect(address: str) -> tuple[Any, Any]:
    """``(client, cluster)`` for ``tcp://host:port`` (cluster ``None``) or ``local:N`` (a new
    ``distributed.LocalCluster`` of N one-thread worker processes, closed with the client).

    Raises:
        ClusterError: Dask missing, the scheduler unreachable, or no worker within
            ``WORKER_TIMEOUT`` seconds.
    """
    distributed = _dask()
    import dask
    cluster = None
    try:
        if address.startswith("local:"):
            with dask.config.set(LOCAL_CONFIG):
                cluster = distributed.LocalCluster(n_workers=int(address[6:]), threads_per_worker=1, processes=True,
                                                   dashboard_address=":0", memory_limit=0,
                                                   silence_logs=logging.ERROR)
            client = distributed.Client(cluster, set_as_default=False)
        else:
            client = distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except Exception as exc:  # OSError, TimeoutError, CommClosedError...: all one line
        if cluster is not None:
            cluster.close()
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {one_line(exc)}; start one with "
                           "`dask scheduler` and `dask worker`, or play locally with --workers N") from None
    try:
        client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
    except Exception:
        _close(client, cluster)
        raise ClusterError(f"no Dask worker joined the scheduler at {address} within {WORKER_TIMEOUT}s; "
                           f"start some with `dask worker {address}`") from None
    return client, cluster


def _close(client: Any, cluster: Any) -> None:
    try:
        client.close(timeout=5)
    except Exception:  # a lost scheduler: nothing left to close
        pass
    if cluster is not None:
        cluster.close(timeout=10)


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
        _dask()  # its logging set up before _DaskLog takes it over
        self.dask_log = _DaskLog()
        try:
            self.client, self.cluster = connect(address)
        except BaseException:
            self.dask_log.restore()
            raise
        try:
            setup = replace(setup, specs=ship_bots(self.client, setup.specs), close_fds=())
        except BaseException:
            self.close()
            raise
        cls = arena.games.game_class(setup.game)
        self.job = RemoteJob(uuid.uuid4().hex[:12], setup, f"{cls.__module__}:{cls.__qualname__}", num_players,
                             game_time, move_time, retries, default_memory)
        self.mean_seconds: float | None = None  # running mean of game durations (seconds)
        self.nthreads: dict[str, int] = {}  # the workers now: address -> threads
        self.threads_of: dict[str, int] = {}  # every worker seen (a lost one too)
        self.asked = -math.inf  # when nthreads was last asked
        self.on_worker: dict[str, list] = {}  # address -> its futures in flight, in submission order
        self.where: dict[Any, str] = {}  # future -> address it was submitted to
        self.sent: dict[int, int] = {}  # game id -> times submitted (a fresh task key each time)
        self.lost: set[tuple] = set()  # workers lost: (address, server id)
        self.waited: set = set()  # futures of lost workers whose games had not begun

    def run(self, tasks: Iterable[GameTask]) -> Iterator[Result]:
        """Play ``tasks``; the client closes when the generator ends.

        Raises:
            ClusterError: the scheduler was lost, or a game task failed on a worker (for
                instance arena is not installed there).
        """
        distributed = _dask()
        pending, live, deaths = deque(tasks), {}, {}
        done = distributed.as_completed(loop=self.client.loop)
        try:
            while True:
                try:
                    self._top_up(pending, live, done)
                    if not live:
                        if not pending:
                            return
                        self._await_workers()
                        continue
                    # every game ended by now, their records fetched together (one request)
                    batch = done.next_batch(block=True)
                    values = self._fetch([f for f in batch if f.status == "finished"])
                    results = [self._collect(f, values.get(f), live.pop(f), deaths, pending) for f in batch]
                except (OSError, TimeoutError, CancelledError, asyncio.CancelledError) as exc:  # CommClosedError too
                    raise self._lost(f"{type(exc).__name__}: {one_line(exc)}") from None
                for result in results:
                    if result is not None:
                        yield result
        finally:
            if live and self.client is not None:  # an interrupted run: games not stored are dropped
                try:
                    self.client.cancel(list(live))
                except Exception:  # a lost cluster has nothing to cancel
                    pass
            self.close()

    def _fetch(self, futures: list) -> dict:
        """future -> its result, fetched in one request; one by one if that fails (a record
        lost with its worker is left out)."""
        if not futures:
            return {}
        try:
            return dict(zip(futures, self.client.gather(futures)))
        except (OSError, TimeoutError, CancelledError, asyncio.CancelledError):
            raise
        except Exception:  # noqa: BLE001 - a result gone with its worker: fetched one by one below
            pass
        out = {}
        for future in futures:
            try:
                out[future] = future.result()
            except (OSError, TimeoutError, CancelledError, asyncio.CancelledError):
                raise
            except Exception:  # noqa: BLE001 - the record is lost: _collect replays the game
                pass
        return out

    def _window(self) -> int:
        """Games in flight per Dask worker thread: the game playing and the next, more for short
        games (``WINDOW_SECONDS`` of play), at most ``WINDOW_MAX``; only the game playing once
        a worker was lost (see ``_was_playing``)."""
        if self.lost:
            return 1
        if not self.mean_seconds:
            return WINDOW_PER_THREAD
        return max(WINDOW_PER_THREAD, min(WINDOW_MAX, 1 + math.ceil(WINDOW_SECONDS / self.mean_seconds)))

    def _workers(self) -> dict[str, int]:
        """Address -> threads of the workers now in the cluster (asked at most once a second)."""
        now = time.monotonic()
        if now - self.asked > 1.0:
            self.nthreads, self.asked = self.client.nthreads(), now
            self.threads_of.update(self.nthreads)
        return self.nthreads

    def _await_workers(self) -> None:
        try:
            self.client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
        except Exception:
            raise self._lost(f"no Dask worker left for {WORKER_TIMEOUT}s") from None
        self.asked = -math.inf

    def _top_up(self, pending: deque, live: dict, done: Any) -> None:
        """Submit games while a worker has room, to the worker with the most room first (ties:
        the fewest games in flight, then the address), so the windows stay even. A worker
        with a deep window (short games) is topped up by halves: one message for several
        games."""
        window = self._window()
        while pending:
            room = {addr: window * n - len(self.on_worker.get(addr, ())) for addr, n in self._workers().items()}
            addr = max(room, key=lambda a: (room[a], -len(self.on_worker.get(a, ())), a), default=None)
            if addr is None or room[addr] < max(1, min(window * self.nthreads[addr] // 2, len(pending))):
                return
            share = math.ceil(len(pending) / sum(r > 0 for r in room.values()))  # the last games spread out
            tasks = [pending.popleft() for _ in range(min(room[addr], share))]
            keys = []
            for task in tasks:
                self.sent[task.game_id] = tries = self.sent.get(task.game_id, -1) + 1
                keys.append(f"arena-{self.job.token}-{task.game_id}-{tries}")
            futures = self.client.map(play_remote, [self.job] * len(tasks), tasks, key=keys, workers=[addr],
                                      allow_other_workers=True, pure=False)
            for future, task in zip(futures, tasks):
                live[future] = task
                self.where[future] = addr
            self.on_worker.setdefault(addr, []).extend(futures)
            done.update(futures)

    def _was_playing(self, future: Any, error: Any) -> bool:
        """Was ``future`` 's game playing when its worker was lost (``KilledWorker``)?

        A worker plays its games in the order they were submitted, one per thread, the others
        waiting in its pipe (``remote._Feeder``); all of a lost worker's tasks fail in one
        report, so at the first of them the client sees them all: the first ``nthreads`` (in
        submission order) were playing, the others had not begun and are replayed without
        counting against ``retries``, as the local pool does. The order holds while every game
        went to the worker it was sent to; once a worker is lost, games sent to it before the
        client knew run wherever the scheduler puts them, so from then on each worker holds
        only the games it plays (``_window``): a loss then costs only games that had begun.
        """
        worker = error.last_worker
        ident = (worker.address, getattr(worker, "server_id", None))
        if ident not in self.lost:
            self.lost.add(ident)
            self.replaced += 1
            self.asked = -math.inf  # the nanny's new worker has another address
            gone = [f for f in self.on_worker.get(worker.address, ()) if f.status == "error"]
            self.waited.update(gone[max(1, self.threads_of.get(worker.address, worker.nthreads or 1)):])
        return future not in self.waited

    def _collect(self, future: Any, value: Any, task: GameTask, deaths: dict[int, int],
                 pending: deque) -> Result | None:
        """The finished game of ``future`` (``value``: its result, ``None`` unless it
        finished); ``None`` when it goes back to ``pending``."""
        distributed = _dask()
        on = self.on_worker.get(self.where.pop(future, None), [])
        if future.status == "finished" and value is not None:
            on.remove(future)
            game_id, wire, attempts, replaced = value
            self.replaced += replaced
            record = from_wire(wire)
            m = self.mean_seconds
            self.mean_seconds = record.seconds if m is None else 0.9 * m + 0.1 * record.seconds
            return Result(task, record, deaths.get(game_id, 0) + attempts)
        if future.status == "finished":  # ended, but its record went with its worker
            on.remove(future)
            log.warning("game %d: its record was lost with its Dask worker, replaying", task.game_id)
            pending.appendleft(task)
            return None
        error = future.exception() if future.status == "error" else None
        if isinstance(error, distributed.KilledWorker):
            playing = self._was_playing(future, error)
            on.remove(future)
            if not playing:
                self.waited.discard(future)
                log.info("game %d: its Dask worker was lost before it began, replaying", task.game_id)
                pending.appendleft(task)
                return None
            deaths[task.game_id] = lost = deaths.get(task.game_id, 0) + 1
            if lost <= self.retries:
                log.warning("game %d: Dask worker lost (%s), replaying", task.game_id, one_line(error))
                pending.appendleft(task)
                return None
            detail = f"Dask worker lost while playing ({one_line(error)}), {lost} attempts"
            return Result(task, task_fault(task, -1, Termination.CRASH, detail), lost)
        if error is not None:
            raise ClusterError(f"game {task.game_id} failed on the Dask cluster at {self.address}: "
                               f"{type(error).__name__}: {one_line(error)} (is arena installed on every worker?)")
        raise self._lost(f"game {task.game_id} {future.status}")

    def _lost(self, why: str) -> ClusterError:
        return ClusterError(f"lost the Dask cluster at {self.address} mid-run ({why}); games stored so far are kept: "
                            "re-run the same command to resume, on the cluster or with --workers N")

    def close(self) -> None:
        """Stop this run's idle game workers on a cluster of one's own, close the client and a
        ``local:N`` cluster."""
        if self.client is None:
            return
        if self.cluster is None and getattr(self, "job", None) is not None:
            try:
                self.client.run(close_pools, self.job.token, on_error="ignore")
            except Exception:  # a lost cluster has nothing to stop
                pass
        _close(self.client, self.cluster)
        self.client = self.cluster = None
        self.dask_log.restore()
