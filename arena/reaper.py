"""Nothing a bot starts outlives its run, even a SIGKILL of the runner's whole process group.

``run_guard()`` (``arena.tournament.runner`` holds it for a run) makes a cgroup v2 of the run
(``/sys/fs/cgroup[/unified]/<the runner's cgroup>/arena-<pid>-<n>``) where the machine has
cgroups v2 and lets root write there; every game worker joins it when it starts
(``os_guard.guard_child`` calls ``join``), every engine process when it starts
(``arena.engine.process``), so each bot process and each of their descendants is in it
(``setsid``, double ``fork`` and re-parenting to init do not leave a cgroup). A watchdog
(this file run by ``python -I -S``: the standard library only) in a session of its own,
outside the runner's process group, waits for the end of a pipe the runner holds: when the
runner closes it or dies (SIGKILL included), the watchdog writes ``cgroup.kill`` (every
process in the cgroup, at once), removes the cgroup and the private directories of engines
whose starting process has ended (``sweep_ended``), and exits.

Fallback (no cgroup v2, no ``cgroup.kill``, or not root): the run's processes carry
``RUN_TOKEN_ENV=<token>`` in their environment and the watchdog kills every process whose
``/proc/PID/environ`` has it. Its limits: a bot that ``exec``s a program with an environment
of its own (``env -i``) escapes it, and a process running as another user than the watchdog's
cannot be read (it is not killed unless the watchdog is root).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

#: the environment variable marking a run's processes (the fallback's way to find them)
RUN_TOKEN_ENV = "ARENA_RUN_TOKEN"
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
            # this file run alone (it imports the standard library only): ``-I -S`` skip the user's
            # environment and site-packages, a start of about 15 ms of CPU instead of 60
            _watchdog = subprocess.Popen(
                [sys.executable, "-I", "-S", os.path.abspath(__file__), token, _cgroup or ""], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)
            os.environ[RUN_TOKEN_ENV] = token  # after the watchdog started: it is not marked itself
        _holders += 1
    try:
        yield _cgroup
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0:
                _stop_watchdog()


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
    still running)."""
    for path in Path(tempfile.gettempdir()).glob("arena-engine-*-*"):
        try:
            os.kill(int(path.name.split("-")[2]), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except (ValueError, PermissionError, IndexError):
            pass


def kill_cgroup(path: str, wait: float = 5.0) -> None:
    """SIGKILL every process of the cgroup ``path`` (``cgroup.kill``), wait up to ``wait``
    seconds for it to empty, and remove it."""
    try:
        with open(path + "/cgroup.kill", "w") as f:
            f.write("1")
    except OSError:
        return
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            os.rmdir(path)
            return
        except FileNotFoundError:
            return
        except OSError:  # still busy: its processes are being reaped
            time.sleep(0.02)


def kill_marked(token: str, rounds: int = 20) -> None:
    """SIGKILL every process whose environment has ``RUN_TOKEN_ENV=token`` (the fallback)."""
    mark = f"{RUN_TOKEN_ENV}={token}".encode()
    me = os.getpid()
    for _ in range(rounds):
        found = False
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == me:
                continue
            try:
                with open(f"/proc/{name}/environ", "rb") as f:
                    marked = mark in f.read().split(b"\0")
            except OSError:
                continue
            if marked:
                found = True
                with contextlib.suppress(OSError):
                    os.kill(int(name), signal.SIGKILL)
        if not found:
            return
        time.sleep(0.05)


def _watch(token: str, path: str) -> None:
    """The watchdog: wait for the end of standard input (the runner closed it or died), then kill
    the run's processes and remove what they left."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the runner's to handle
    os.environ.pop(RUN_TOKEN_ENV, None)
    while os.read(0, 4096):
        pass
    if path:
        kill_cgroup(path)
    kill_marked(token)
    sweep_ended()


if __name__ == "__main__":
    _watch(sys.argv[1], sys.argv[2])
