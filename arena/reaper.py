"""Nothing a bot starts outlives its run, even a SIGKILL of the runner's whole process group.

``run_guard()`` (``arena.tournament.runner`` holds it for a run) makes a cgroup v2 of the run
(``/sys/fs/cgroup[/unified]/<the runner's cgroup>/arena-<pid>-<n>``) where the machine has
cgroups v2 and lets root write there; every game worker joins it when it starts
(``os_guard.guard_child`` calls ``join``), every engine process when it starts
(``arena.engine.process``), so each bot process and each of their descendants is in it
(``setsid``, double ``fork`` and re-parenting to init do not leave a cgroup). A watchdog
(``arena.watchdog``, run by ``python -I -S``) in a session of its own, outside the runner's
process group, waits for the end of a pipe the runner holds: when the runner closes it or
dies (SIGKILL included), the watchdog writes ``cgroup.kill`` (every process in the cgroup, at
once), removes the cgroup and the private directories of engines whose starting process has
ended (``sweep_ended``), and exits.

Fallback (no cgroup v2, no ``cgroup.kill``, or not root): the run's processes carry
``RUN_TOKEN_ENV=<token>`` in their environment and the watchdog kills every process whose
``/proc/PID/environ`` has it. Its limits: a bot that ``exec``s a program with an environment
of its own (``env -i``) escapes it, and a process running as another user than the watchdog's
cannot be read (it is not killed unless the watchdog is root).

The interpreter's own helpers are spared: ``multiprocessing``'s resource tracker is started
before the run's processes are marked (``run_guard``), and sweeps of stray children leave it
and the fork server alone (``os_guard.multiprocessing_helpers``).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator

from arena import watchdog
from arena.watchdog import RUN_TOKEN_ENV, kill_cgroup, kill_marked  # noqa: F401 (re-exported: their home before)

#: the run's cgroup directory while ``run_guard`` is held, else ``None``
_cgroup: str | None = None
#: how many ``run_guard`` blocks of this process are open, and their watchdog
_holders = 0
_watchdog: subprocess.Popen | None = None
_lock = threading.Lock()


def _forgotten_in_child() -> None:
    """A forked child (a game worker) holds no ``run_guard`` and owns no watchdog; it keeps the
    cgroup's path, to ``join`` it."""
    global _holders, _watchdog, _lock
    _holders, _watchdog, _lock = 0, None, threading.Lock()


os.register_at_fork(after_in_child=_forgotten_in_child)


def cgroup() -> str | None:
    """The cgroup directory of the run in progress (``None``: none, or the fallback)."""
    return _cgroup


def join(path: str | None = None) -> None:
    """Move this process into the run's cgroup (``path``, default ``cgroup()``); nothing
    without one. Safe between ``fork`` and ``exec`` (no imports, no allocation to speak of)."""
    path = _cgroup if path is None else path
    if path is None:
        return
    try:
        fd = os.open(path + "/cgroup.procs", os.O_WRONLY)
        try:
            os.write(fd, b"0")
        finally:
            os.close(fd)
    except OSError:
        pass


def _cgroup2_root() -> str | None:
    """Where cgroup v2 is mounted (``/sys/fs/cgroup`` or ``/sys/fs/cgroup/unified``), or ``None``."""
    try:
        with open("/proc/self/mounts") as f:
            for line in f:
                fields = line.split()
                if len(fields) > 2 and fields[2] == "cgroup2":
                    return fields[1]
    except OSError:
        pass
    return None


def _make_cgroup() -> str | None:
    """A new cgroup for the run under this process's own v2 cgroup, with ``cgroup.kill``; ``None``
    where it cannot be made (no v2, no ``cgroup.kill`` before Linux 5.14, no rights)."""
    root = _cgroup2_root()
    if root is None or os.geteuid() != 0:
        return None
    try:
        with open("/proc/self/cgroup") as f:
            own = next((line.split(":", 2)[2].strip() for line in f if line.startswith("0::")), "/")
        parent = os.path.join(root, own.lstrip("/"))
        for n in range(100):
            path = os.path.join(parent, f"arena-{os.getpid()}-{n}")
            try:
                os.mkdir(path)
                break
            except FileExistsError:
                continue
        else:
            return None
        if not os.path.exists(path + "/cgroup.kill"):
            os.rmdir(path)
            return None
        return path
    except (OSError, StopIteration):
        return None


@contextlib.contextmanager
def run_guard() -> Iterator[str | None]:
    """Hold a run's cgroup (or the fallback's token) and its watchdog for the block; yields the
    cgroup directory (``None``: the fallback). Holders in one process (nested, or runs in
    several threads) share the first one's; when the last one ends, what is left in the cgroup
    (or carries the token) is killed."""
    global _holders, _watchdog, _cgroup
    with _lock:
        if _holders == 0:
            _cgroup = _make_cgroup()
            token = f"{os.getpid()}-{time.time_ns()}"
            # ``arena.watchdog`` run alone (built-in modules only): ``-I -S`` skip the user's environment
            # and site-packages, a start of about 10 ms of CPU (``-m arena.reaper`` took 80)
            _watchdog = subprocess.Popen(
                [sys.executable, "-I", "-S", os.path.abspath(watchdog.__file__), token, _cgroup or "",
                 tempfile.gettempdir()], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True, close_fds=True)
            _start_resource_tracker()  # before the mark: the interpreter's, not the run's
            os.environ[RUN_TOKEN_ENV] = token  # after the watchdog started: it is not marked itself
        _holders += 1
    try:
        yield _cgroup
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0:
                _stop_watchdog()


def _start_resource_tracker() -> None:
    """Start ``multiprocessing``'s resource tracker now, so that it does not carry the run's
    token: the first user of it inside the run would start it marked, and the watchdog would
    kill it with the run's processes (the next use in this process then warns "Some resources
    might leak"). Its users: a run's first ``multiprocessing.Queue`` (a worker's log queue) when
    the start method is ``forkserver`` (Python 3.14's default) or ``spawn``, and a spawn context
    whatever the default (Dask's ``LocalCluster`` of ``--cluster local:N`` starts its workers
    so). Started once per process (``ensure_running`` returns at once while it runs); a failure
    to start it is left to ``multiprocessing`` to report when it is needed."""
    from multiprocessing import resource_tracker
    try:
        resource_tracker.ensure_running()
    except OSError:
        pass


def _stop_watchdog() -> None:
    """Close the watchdog's pipe (its signal to kill what is left) and wait for it."""
    global _watchdog, _cgroup
    os.environ.pop(RUN_TOKEN_ENV, None)
    _cgroup, watchdog, _watchdog = None, _watchdog, None
    if watchdog is None or watchdog.stdin is None:
        return
    watchdog.stdin.close()
    try:
        watchdog.wait(10)
    except subprocess.TimeoutExpired:
        watchdog.kill()
        watchdog.wait()


def sweep_ended() -> None:
    """Remove every ``arena-engine-PID-*`` private directory (``arena.engine.sandbox``) whose
    starting process ``PID`` has ended (a worker killed, or ended by ``os._exit``, with engines
    still running): ``arena.watchdog.sweep_ended`` of the temporary directory."""
    watchdog.sweep_ended(tempfile.gettempdir())
