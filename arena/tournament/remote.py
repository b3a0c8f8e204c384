"""What a Dask worker runs for ``arena run --cluster`` (``docs/arena.md`` "Tournaments").

A Dask task is one game: ``play_remote(job, task)`` plays ``task`` in a watched child process
of the Dask worker and returns the record in its wire form. The child is the local pool's
worker (``arena.tournament.pool.Pool`` with one slot, kept between tasks of the same run), so
move time, game time, memory limit, output isolation and every fault termination are decided
by the same code as with ``--workers``, and a child that dies is replayed there up to
``retries``. Only the loss of the Dask worker itself is left to the client
(``arena.tournament.cluster``).

Nothing here writes results: the record goes back to the client, the store's only writer.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from dataclasses import dataclass, replace

import arena.games
from arena.referee import to_wire
from arena.tournament.config import DEFAULT_MEMORY_SHARE, MIN_MEMORY_LIMIT, physical_memory_mib
from arena.tournament.pool import Pool
from arena.tournament.series import GameTask
from arena.tournament.worker import WorkerSetup

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
    """

    token: str
    setup: WorkerSetup
    game_target: str
    num_players: int
    game_time: float
    move_time: float | None
    retries: int
    default_memory: bool = False


_pools: dict[int, tuple[str, Pool]] = {}  # thread id -> (run token, resident pool)
_busy: set[int] = set()
_lock = threading.Lock()


def _allow_children() -> None:
    """Let this process start the game's child process.

    Dask's nanny starts workers as daemonic ``multiprocessing`` processes (setting
    ``distributed.worker.daemon``), and ``multiprocessing`` refuses children to a daemonic
    process. Daemonic only serves to end children with their parent; the game's child does
    that itself (``arena.watch.die_with_parent``).
    """
    proc = multiprocessing.current_process()
    if proc.daemon:
        proc._config["daemon"] = False  # noqa: SLF001 - see the docstring


def _register_game(name: str, target: str) -> None:
    if name not in arena.games.names():
        arena.games._BUILTIN[name] = target  # noqa: SLF001 - a game registered on the client only


def _log_path(setup: WorkerSetup) -> str:
    if setup.log_path is not None:
        return setup.log_path
    from distributed import get_worker
    return os.path.join(get_worker().local_directory, WORKER_LOG)


def _start(job: RemoteJob) -> Pool:
    _allow_children()
    _register_game(job.setup.game, job.game_target)
    setup = replace(job.setup, log_path=_log_path(job.setup))
    if job.default_memory:
        mib = physical_memory_mib()
        if mib is not None:
            share = int(mib * DEFAULT_MEMORY_SHARE / (os.cpu_count() or 1))
            setup = replace(setup, memory_limit=max(MIN_MEMORY_LIMIT, share))
    # no runner's handlers in a Dask worker: its game workers append to the log file themselves
    return Pool(setup, 1, job.num_players, job.game_time, job.move_time, setup.time_margin, job.retries,
                worker_log=False)


def play_remote(job: RemoteJob, task: GameTask) -> tuple[int, tuple, int, int]:
    """Play ``task`` in this Dask worker's resident game worker for ``job``.

    Returns:
        ``(game_id, record, attempts, children replaced)``: the record in its wire form
        (``arena.referee.to_wire``); attempts 1 unless the child died and the game was
        replayed (``Pool`` rules).
    """
    me = threading.get_ident()
    with _lock:
        token, pool = _pools.get(me, (None, None))
        if pool is not None and token != job.token:
            pool.close()
            pool = None
        if pool is None:
            pool = _start(job)
            _pools[me] = (job.token, pool)
        _busy.add(me)
    try:
        before = pool.replaced
        (result,) = list(pool.run([task], keep=True))
        return task.game_id, to_wire(result.record), result.attempts, pool.replaced - before
    finally:
        with _lock:
            _busy.discard(me)


def close_pools(token: str) -> int:
    """Stop the idle game workers of run ``token`` on this Dask worker (``client.run``); the
    number stopped."""
    closed = 0
    with _lock:
        for me, (tok, pool) in list(_pools.items()):
            if tok == token and me not in _busy:
                pool.close()
                del _pools[me]
                closed += 1
    return closed

