"""Reaching the Dask cluster of ``arena run --cluster``: a scheduler by address, or a
``LocalCluster`` of N worker processes for ``local:N``; Dask's own warnings routed to the
tournament log (``docs/tournaments.md`` "Running on a cluster").
"""

from __future__ import annotations

import logging
import signal
import socket
import threading
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

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


class DaskLog(logging.Handler):
    """Dask's own warnings (a worker lost, the scheduler gone) go to the tournament log (the
    ``arena.cluster`` logger), not to the terminal, where the arena prints its one-line error.

    Created, it takes over the loggers of ``distributed`` and ``tornado`` (their handlers and
    propagation saved); ``restore`` gives them back. Create it after ``import_distributed``:
    Dask's logging configuration runs on import and would replace it.
    """

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
        """Give Dask's loggers back the handlers and propagation they had (idempotent)."""
        for logger, (handlers, propagate) in self.saved.items():
            logger.handlers, logger.propagate = handlers, propagate


class WorkerEvents:
    """The scheduler's word on its workers, from its ``all`` event topic (subscribe an instance
    with ``Client.subscribe_topic("all", events)``; called in the client's event loop): each
    worker added (``Scheduler.add_worker``) and removed (``Scheduler.remove_worker``: whether
    it was retired gracefully, and which tasks it was processing). Other events are left out.

    The scheduler's worker ``id`` (``Client.scheduler_info``) is the worker's name, the same
    for the new server a nanny starts at a fixed ``--worker-port``: only the events tell the
    servers at one address apart.

    Args:
        on_add: called (no arguments, in the event loop) when a worker joins.
    """

    def __init__(self, on_add: Callable[[], None] = lambda: None) -> None:
        self.on_add = on_add
        self.servers: dict[str, int] = {}  # address -> workers added there since the subscription
        self.removed: dict[str, tuple[bool, set]] = {}  # address -> (graceful, keys processing) of its last removal

    def __call__(self, event: tuple) -> None:
        msg = event[1]
        if not isinstance(msg, dict) or not isinstance(msg.get("worker"), str):
            return
        addr, action = msg["worker"], msg.get("action")
        if action == "add-worker":
            self.removed.pop(addr, None)
            self.servers[addr] = self.servers.get(addr, 0) + 1
            self.on_add()
        elif action == "remove-worker":
            self.removed[addr] = (bool(msg.get("expected")), set(msg.get("processing-tasks") or ()))

    def server(self, addr: str) -> int:
        """Which server is at ``addr``: 0 the one there at the subscription (or the first to
        join there), each worker added there since one more."""
        return self.servers.get(addr, 0)

    def was_playing(self, addr: str, keys: Iterable[str]) -> bool:
        """Worker ``addr``, gone from the cluster, was running some of the tasks ``keys``:
        unless the scheduler reported retiring it gracefully, or its removal lists none of
        them among the tasks it was processing (they never reached it). Without word of its
        removal: ``True``, so a task that kills its worker counts as running even on a
        scheduler that does not fail it (``allowed-failures`` above 0: the task waits for a
        worker at that address, and the client replays it under a new key)."""
        removed = self.removed.get(addr)
        if removed is None:
            return True
        graceful, processing = removed
        return not graceful and any(key in processing for key in keys)


def import_distributed() -> Any:
    """The ``distributed`` module (imported on use: Dask is an optional extra).

    Raises:
        ClusterError: Dask is not installed (the message names the extra to install).
    """
    try:
        import distributed
    except ImportError:
        raise ClusterError("--cluster needs Dask: pip install -e '.[cluster]' (dask and distributed)") from None
    return distributed


def connect(address: str) -> tuple[Any, Any]:
    """``(client, cluster)`` for ``tcp://host:port`` (cluster ``None``) or ``local:N`` (a new
    ``distributed.LocalCluster`` of N one-thread worker processes, closed with the client).

    Raises:
        ClusterError: Dask missing, the scheduler unreachable (a refused connection or an
            unknown host at once, else after ``CONNECT_TIMEOUT`` seconds), or no worker within
            ``WORKER_TIMEOUT`` seconds.
    """
    distributed = import_distributed()
    try:
        if address.startswith("local:"):
            client, cluster = _local(distributed, int(address[6:]))
        else:
            _reachable(address)
            client, cluster = distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False), None
    except Exception as exc:  # OSError, TimeoutError, CommClosedError...: all one line
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {one_line(exc)}; start one with "
                           "`dask scheduler` and `dask worker`, or play locally with --workers N") from None
    try:
        client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
    except Exception:
        close_client(client, cluster)
        raise ClusterError(f"no Dask worker joined the scheduler at {address} within {WORKER_TIMEOUT}s; "
                           f"start some with `dask worker {address}`") from None
    return client, cluster


def _local(distributed: Any, n: int) -> tuple[Any, Any]:
    """``(client, LocalCluster)`` of ``local:N`` (``local_cluster``)."""
    cluster = local_cluster(n)
    try:
        return distributed.Client(cluster, set_as_default=False), cluster
    except BaseException:
        cluster.close()
        raise


def local_cluster(n: int) -> Any:
    """The ``distributed.LocalCluster`` of ``local:N``: ``n`` one-thread worker processes set up
    as ``LOCAL_CONFIG`` says, no memory limit of Dask's own, and worker processes that ignore
    SIGINT: a Ctrl-C at the terminal goes to the whole process group, and only this process
    should take it (the run stops and closes the cluster; a worker that took it printed Dask's
    tracebacks). The workers are started with SIGINT ignored here (a disposition a new process
    keeps, and Python leaves alone), so a Ctrl-C during the cluster's start (a second or two)
    is ignored too; a worker the nanny starts again later ignores it from its preload
    (``dask_preload``).

    Raises:
        ClusterError: Dask is not installed.
    """
    distributed = import_distributed()
    import dask
    handler = signal.getsignal(signal.SIGINT)
    main_thread = threading.current_thread() is threading.main_thread()  # where signal.signal works
    if main_thread:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with dask.config.set(LOCAL_CONFIG):
            return distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                                            memory_limit=0, silence_logs=logging.ERROR,
                                            preload=["arena.tournament.dask_preload"])
    finally:
        if main_thread:
            signal.signal(signal.SIGINT, handler)


def _reachable(address: str) -> None:
    """Open and close a TCP connection to ``tcp://host:port`` (other schemes: nothing), so
    that a refused connection or an unknown host fails at once; Dask's client retries those
    until its timeout.

    Raises:
        OSError: the connection failed (``ConnectionRefusedError``, ``socket.gaierror``,
            ``TimeoutError`` after ``CONNECT_TIMEOUT`` seconds).
    """
    parts = urlsplit(address)
    if parts.scheme != "tcp" or parts.hostname is None or parts.port is None:
        return
    try:
        socket.create_connection((parts.hostname, parts.port), timeout=CONNECT_TIMEOUT).close()
    except socket.gaierror as exc:
        raise OSError(f"unknown host {parts.hostname!r} ({exc.strerror})") from None
    except ConnectionRefusedError:
        raise OSError(f"connection refused by {parts.hostname} port {parts.port} (no scheduler there)") from None


def close_client(client: Any, cluster: Any, topics: Iterable[str] = ()) -> None:
    """Close ``client`` (within 5 s; a lost scheduler is not an error; ``None``: none made),
    then ``cluster``, the ``LocalCluster`` of ``local:N`` (``None`` for a scheduler of one's
    own), with its worker processes (within 10 s).

    The client first leaves the event ``topics`` it subscribed to: the scheduler tells a
    client's removal to the ``all`` topic and to the client's own, and a client still
    subscribed to them has the scheduler write that event to its closed connection, two
    CRITICAL tracebacks in the scheduler's log. The unsubscriptions go through the same
    ordered stream as the close, so the scheduler drops them before it removes the client."""
    if client is not None:
        for topic in topics:
            try:
                client.unsubscribe_topic(topic)
            except Exception:  # a lost scheduler, or a topic never subscribed: nothing to leave
                pass
    try:
        if client is not None:
            client.close(timeout=5)
    except Exception:  # a lost scheduler: nothing left to close
        pass
    if cluster is not None:
        cluster.close(timeout=10)
