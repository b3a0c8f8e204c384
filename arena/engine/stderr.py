"""An engine's standard error, drained by a thread into the tournament log.

``start_drain(fd, label)`` widens the pipe (``F_SETPIPE_SZ``, up to ``PIPE_BYTES``) and starts
a daemon thread running ``drain``: each line is logged prefixed with the engine's label, the
first ``STDERR_LOG_BYTES`` of it only (the rest is read in large chunks and dropped), so an
engine writing megabytes there can never block, and thousands of short lines cost a few reads.
Used by ``arena.engine.process.EngineProcess.start``.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
import time

log = logging.getLogger("arena.worker.engine")
#: bytes of an engine's standard error copied to the log per process
STDERR_LOG_BYTES = 64 * 1024
#: bytes asked of the kernel for an engine's standard error pipe (``F_SETPIPE_SZ``; Linux's
#: default ceiling ``/proc/sys/fs/pipe-max-size`` is 1 MiB) and read at once from it
PIPE_BYTES = 2**20
#: seconds the standard error drain waits after a short read, for more lines to gather
DRAIN_PAUSE = 0.005


def start_drain(fd: int, label: str) -> None:
    """Drain ``fd`` (an engine's standard error pipe) in a daemon thread named after
    ``label``, after asking for a ``PIPE_BYTES`` pipe (the pipe as it is, 64 KiB by default,
    when over ``pipe-max-size`` or the user's pipe quota)."""
    try:
        size = fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except OSError:  # over pipe-max-size or the user's pipe quota: the pipe as it is (64 KiB)
        size = fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
    threading.Thread(target=drain, args=(fd, label, size), daemon=True, name=f"engine-stderr-{label}").start()


def drain(fd: int, label: str, size: int = PIPE_BYTES) -> None:
    """Read ``fd`` (a pipe of ``size`` bytes) to its end in chunks of up to ``size``; log its first
    ``STDERR_LOG_BYTES`` bytes, one log record per chunk (each line in it prefixed with the
    label), and drop the rest unread line by line.

    Cheap for an engine writing thousands of short lines per move: a short read (the pipe
    a quarter full or less) is followed by a ``DRAIN_PAUSE`` pause, so the lines gather in the
    pipe and come out in a few large reads instead of one wake-up, one system
    call and one log record per line competing with the engine and the arena for the cores."""
    logged, pending = 0, b""
    try:
        while chunk := os.read(fd, size):
            if logged < STDERR_LOG_BYTES:
                *lines, pending = (pending + chunk).split(b"\n")
                if len(pending) > STDERR_LOG_BYTES - logged:  # a line longer than what is left: logged cut
                    lines.append(pending)
                    pending = b""
                logged = _log_lines(label, lines, logged)
                if logged >= STDERR_LOG_BYTES:
                    log.info("%s stderr: more than %d bytes; the rest is dropped", label, STDERR_LOG_BYTES)
                    pending = b""
            if len(chunk) <= size // 4:
                time.sleep(DRAIN_PAUSE)
        if pending and logged < STDERR_LOG_BYTES:
            _log_lines(label, [pending], logged)
    except OSError:
        pass


def _log_lines(label: str, lines: list[bytes], logged: int) -> int:
    """Log ``lines`` (as many as fit in ``STDERR_LOG_BYTES`` after ``logged``) in one record;
    the bytes logged after them."""
    kept = []
    for raw in lines:
        if logged >= STDERR_LOG_BYTES:
            break
        kept.append(f"{label} stderr: {raw.decode('utf-8', 'replace')[:1000]}")
        logged += len(raw) + 1
    if kept:
        log.info("%s", "\n".join(kept))
    return logged
