"""Worker log records to the runner's handlers: one ``multiprocessing-logging`` handler per worker.

``multiprocessing_logging.MultiProcessingHandler`` sends a record through a
``multiprocessing.Queue`` to a thread in the runner, which hands it to the runner's logging
(here: ``logging.getLogger(record.name).handle``, so the tournament log, ``arena run -v``'s
console and any handler a library caller attached to the ``arena`` logger all receive the
worker's records, with the worker's ``processName``). Its usual set-up, one handler shared by
every process (``install_mp_handler``), lets a worker killed while holding the queue's write
lock block every other worker's logging and the runner's exit. The arena kills workers
routinely (hung bots, ``game_time``), so each worker gets **its own** handler, made just before
it is forked (``WorkerLog``): a worker killed mid-record can only break its own queue.

Retiring a worker's handler must not wait: the package's ``close()`` waits up to 5 s for the
queue to empty, which a killed writer may never allow. Instead the runner closes its copy of
the queue's write end as soon as the worker is forked, so the receiving thread reads what the
worker sent and then sees end-of-file when the worker is gone; ``retire`` only marks the
handler closed. Each forked worker also closes its inherited copies of the other live
workers' queues, so no worker keeps another's queue open.

A worker writes each record to its pipe at once (``WorkerLog._send``), not through the queue's
feeder thread: a worker killed right after logging keeps its records.

This relies on the package's private attributes (``_send``, called by ``emit``;
``_receive_thread``; ``_is_closed``, read by its ``_receive`` loop) and on the queue's
(``_reader``, ``_writer``, ``_sem``); all such use is in this
module, the version range is pinned in ``pyproject.toml`` and ``tests/tournament/test_logs.py``
fails if the internals change.
"""

from __future__ import annotations

import logging
import threading
import time
from multiprocessing.reduction import ForkingPickler

from multiprocessing_logging import MultiProcessingHandler

#: handlers of workers that may still be running (a forked worker closes their queue ends)
_LIVE: set[WorkerLog] = set()
#: retired handlers whose receiving thread may still be draining a pipe
_RETIRED: list[WorkerLog] = []


class _Dispatch(logging.Handler):
    """In the runner: hand a worker's record to the runner's logger of the same name
    (whose handlers, and its parents', decide where it goes)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            logging.getLogger(record.name).handle(record)
        except Exception:  # noqa: BLE001 - the receiving thread must survive a broken handler
            self.handleError(record)


class WorkerLog(MultiProcessingHandler):
    """The log handler of one worker process (make it in the runner just before the fork).

    Runner side: ``forked()`` after the worker started, ``retire()`` once it has ended or been
    killed, ``join_retired()`` before the runner returns. Worker side: ``install()`` first
    thing, ``flush()`` before ``os._exit``.

    Args:
        name: name of the receiving thread (e.g. ``arena-log-3``).
    """

    def __init__(self, name: str) -> None:
        super().__init__(name, sub_handler=_Dispatch())
        _LIVE.add(self)

    # -- runner side -------------------------------------------------------------------------
    def forked(self) -> None:
        """The worker holds its copy of the write end now: drop the runner's, so the receiving
        thread sees end-of-file when the worker ends, and later workers never inherit it."""
        self.queue._writer.close()

    def retire(self) -> None:
        """The worker has ended or been killed: let the receiving thread end on its own (it reads
        what is left, then end-of-file). Does not wait."""
        if self in _LIVE:
            _LIVE.discard(self)
            self.queue._writer.close()  # if the fork failed, ``forked`` never ran
            self._is_closed = True
            _RETIRED.append(self)
        join_retired(0.0)  # close the read ends of threads already done (a long run replaces many)

    # -- worker side -------------------------------------------------------------------------
    def _send(self, record: logging.LogRecord) -> None:
        """Write the record to the pipe now (the package's ``put_nowait`` leaves it to a feeder
        thread, and a worker killed a moment later, as the arena does to hung bots, would lose
        the records that explain why). ``emit`` runs under the handler's lock, so one thread
        writes at a time; the queue's semaphore is taken as ``put`` does (``get`` releases it)."""
        data = ForkingPickler.dumps(record)
        self.queue._sem.acquire()
        self.queue._writer.send_bytes(data)

    def install(self, level: int = logging.INFO) -> None:
        """In the forked worker: close the inherited ends of the other workers' queues and of
        this queue's read end, and send every ``arena`` record through this handler."""
        for other in [*_LIVE, *_RETIRED]:
            if other is not self:
                other.queue._writer.close()
                other.queue._reader.close()
        _LIVE.clear()
        _RETIRED.clear()
        self.queue._reader.close()
        top = logging.getLogger("arena")
        for logger in [top, *(lg for lg in logging.Logger.manager.loggerDict.values()
                               if isinstance(lg, logging.Logger) and lg.name.startswith("arena."))]:
            for handler in list(logger.handlers):  # the runner's, inherited through fork
                logger.removeHandler(handler)
        top.addHandler(self)
        top.setLevel(level)
        top.propagate = False

    def flush(self) -> None:
        """In the worker, before ``os._exit``: write any record still buffered to the pipe
        (none unless the package's own ``put`` was used)."""
        try:
            self.queue.close()
            self.queue.join_thread()
        except (OSError, ValueError):  # a bot closed the pipe
            pass


def join_retired(timeout: float = 5.0) -> list[str]:
    """Wait (``timeout`` seconds in all) for the retired handlers' threads; names of those
    still running (a process other than the worker kept its write end open)."""
    deadline = time.monotonic() + timeout
    left = []
    for handler in _RETIRED:
        handler._receive_thread.join(max(0.0, deadline - time.monotonic()))
        if handler._receive_thread.is_alive():
            left.append(handler)
        else:
            handler.queue._reader.close()
    _RETIRED[:] = left
    return [h._receive_thread.name for h in left]


def receiving_threads() -> list[threading.Thread]:
    """The receiving threads not yet joined (live and retired handlers)."""
    return [h._receive_thread for h in [*_LIVE, *_RETIRED] if h._receive_thread.is_alive()]
