"""Reaching the Dask cluster of ``arena run --cluster``: a scheduler by address, or a
``LocalCluster`` of N worker processes for ``local:N``; Dask's own warnings routed to the
tournament log (README "Running on a cluster").
"""

from __future__ import annotations

import logging
from typing import Any

from arena.errors import ClusterError, one_line

log = logging.getLogger("arena.cluster")

#: seconds to reach a scheduler, to wait for its first worker, and for a scheduler's answer
CONNECT_TIMEOUT, WORKER_TIMEOUT, CALL_TIMEOUT = 10, 60, 30
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
