"""``arena run --cluster``: the games of a run played on a Dask cluster (``dask.distributed``).

The runner stays the store's only writer: ``ClusterPool.run`` is the local ``Pool.run`` of a
cluster. Each game is one Dask task (``arena.tournament.remote.play_remote``) that carries
the ``GameTask`` and the run's ``RemoteJob`` (game name and parameters, bot spec strings,
limits: never a bot object); its record comes back to the client, which stores it at once. A
bounded window of games is submitted ahead (``WINDOW_PER_THREAD`` per worker thread) and
collected with ``distributed.as_completed``, so the cluster stays busy without the whole run
sitting in the scheduler.

Faults (``docs/arena.md`` "Contracts / Faults"): inside a Dask worker the game runs in a
watched child process under the local pool's rules (move time, game time, memory limit,
replays of a child that dies). A Dask worker lost mid-game (killed, machine gone) makes the
scheduler fail its task with ``KilledWorker``; the client submits the game again, up to
``retries`` times, then records it as ``crash`` blamed on nobody (the seat on move died with
the worker). With ``local:N`` the scheduler is set up for this (``LOCAL_CONFIG``); a
scheduler of one's own should be started with the same settings (README "Running on a
cluster").

A scheduler that cannot be reached, or is lost mid-run, is a ``ClusterError``: the games
stored so far stay, and the same command resumes (on the cluster, or locally without
``--cluster``).
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import uuid
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import CancelledError
from dataclasses import replace
from pathlib import Path
from typing import Any

import arena.games
from arena.errors import BotSpecError, ClusterError, one_line
from arena.referee import Termination, from_wire
from arena.tournament.pool import Result
from arena.tournament.remote import RemoteJob, close_pools, play_remote
from arena.tournament.series import GameTask
from arena.tournament.worker import WorkerSetup, task_fault
from bots.registry import BotSpec

log = logging.getLogger("arena.cluster")

#: games submitted ahead per worker thread (one playing, one waiting on the worker)
WINDOW_PER_THREAD = 2
#: seconds to reach a scheduler, and to wait for its first worker
CONNECT_TIMEOUT, WORKER_TIMEOUT = 10, 60
#: scheduler settings of ``local:N``: a task whose worker dies fails at once (the client
#: counts the replays against ``--retries``), and a one-thread worker holds only the game it
#: plays (a lost worker costs no game that had not begun)
LOCAL_CONFIG = {"distributed.scheduler.allowed-failures": 0, "distributed.scheduler.worker-saturation": 1.0}


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


def _clashes(stem: str, path: Path) -> bool:
    """Module ``stem`` exists here and is not this file (an earlier upload of it is: a
    ``local:N`` scheduler in this process puts its copy on ``sys.path``)."""
    found = importlib.util.find_spec(stem)
    if found is None or found.origin is None:
        return found is not None
    try:
        return Path(found.origin).read_bytes() != path.read_bytes()
    except OSError:
        return True


def ship_bots(client: Any, specs: dict[str, BotSpec]) -> dict[str, BotSpec]:
    """Upload each bot file (``path/to/file.py#Class``) to the cluster's workers
    (``Client.upload_file``, which workers joining later receive too) and return the specs
    with those kinds as dotted paths of the uploaded module (``file.Class``).

    Raises:
        BotSpecError: a bot file that cannot be shipped (its name is not a module name,
            clashes with an installed module or another bot file, or the workers cannot
            import it).
    """
    out, shipped = {}, {}
    for label, spec in specs.items():
        if "#" not in spec.kind:
            out[label] = spec
            continue
        path_text, _, cls = spec.kind.partition("#")
        path = Path(path_text).resolve()
        stem = path.stem
        why = ("its name is not a Python module name" if not stem.isidentifier()
               else f"module {stem!r} is installed already" if _clashes(stem, path)
               else f"another bot file has the same name ({shipped[stem]})" if shipped.get(stem, path) != path
               else None)
        if why is None and stem not in shipped:
            try:
                client.upload_file(str(path), load=True)
            except Exception as exc:
                why = f"the workers cannot load it: {one_line(exc)}"
        if why is not None:
            raise BotSpecError(f"bot file {path_text!r} cannot be shipped to the cluster: {why}; "
                               "rename it, or install it on every worker and name its class by dotted path")
        shipped[stem] = path
        out[label] = replace(spec, kind=f"{stem}.{cls}")
    return out


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
        self.threads = sum(self.client.nthreads().values()) or 1

    def run(self, tasks: Iterable[GameTask]) -> Iterator[Result]:
        """Play ``tasks``; the client closes when the generator ends.

        Raises:
            ClusterError: the scheduler was lost, or a game task failed on a worker (for
                instance arena is not installed there).
        """
        distributed = _dask()
        pending, live, deaths = deque(tasks), {}, {}
        done = distributed.as_completed(loop=self.client.loop)

        def top_up() -> None:
            while pending and len(live) < WINDOW_PER_THREAD * self.threads:
                task = pending.popleft()
                key = f"arena-{self.job.token}-{task.game_id}-{deaths.get(task.game_id, 0)}"
                future = self.client.submit(play_remote, self.job, task, key=key)
                live[future] = task
                done.add(future)
        try:
            top_up()
            for future in done:
                task = live.pop(future)
                try:
                    result = self._collect(future, task, deaths, pending)
                    top_up()
                except (OSError, TimeoutError, CancelledError, asyncio.CancelledError) as exc:  # CommClosedError too
                    raise self._lost(f"{type(exc).__name__}: {one_line(exc)}") from None
                if result is not None:
                    yield result
        finally:
            if live and self.client is not None:  # an interrupted run: games not stored are dropped
                try:
                    self.client.cancel(list(live))
                except Exception:  # a lost cluster has nothing to cancel
                    pass
            self.close()

    def _collect(self, future: Any, task: GameTask, deaths: dict[int, int], pending: deque) -> Result | None:
        """The finished game of ``future``; ``None`` when it goes back to ``pending``."""
        distributed = _dask()
        if future.status == "finished":
            game_id, wire, attempts, replaced = future.result()
            self.replaced += replaced
            return Result(task, from_wire(wire), deaths.get(game_id, 0) + attempts)
        error = future.exception() if future.status == "error" else None
        if isinstance(error, distributed.KilledWorker):
            self.replaced += 1
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
