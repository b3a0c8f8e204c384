"""The watchdog of a run: the process ``arena.reaper.run_guard`` starts (``python -I -S`` on
this file) to kill what is left of the run when the runner ends or dies.

It waits for the end of its standard input (a pipe the runner holds: closed when the runner
closes it or dies, SIGKILL included), then writes ``cgroup.kill`` of the run's cgroup, kills
every process whose environment carries the run's token (``RUN_TOKEN_ENV``, the fallback
without a cgroup), and removes the private directories of engines whose starting process has
ended (``sweep_ended``). It imports built-in modules only (``os``, ``sys``, ``time``,
``_signal``): the process starts in about 10 ms of CPU, where the ``signal``, ``subprocess``,
``tempfile``, ``shutil`` and ``pathlib`` modules of ``arena.reaper`` took 30 ms more.
"""

from __future__ import annotations

import _signal
import os
import sys
import time

#: the environment variable marking a run's processes (the fallback's way to find them)
RUN_TOKEN_ENV = "ARENA_RUN_TOKEN"
#: the private directories of engines (``arena.engine.sandbox``): ``arena-engine-PID-...``
ENGINE_DIR_PREFIX = "arena-engine-"


def sweep_ended(tmp: str) -> None:
    """Remove every ``arena-engine-PID-*`` directory in ``tmp`` (the engines' private
    directories, ``arena.engine.sandbox``) whose starting process ``PID`` has ended (a worker
    killed, or ended by ``os._exit``, with engines still running)."""
    try:
        entries = [e for e in os.scandir(tmp) if e.name.startswith(ENGINE_DIR_PREFIX) and e.is_dir()]
    except OSError:
        return
    for entry in entries:
        try:
            os.kill(int(entry.name[len(ENGINE_DIR_PREFIX):].split("-")[0]), 0)
        except ProcessLookupError:
            import shutil  # only with a directory to remove

            shutil.rmtree(entry.path, ignore_errors=True)
        except (ValueError, PermissionError, OverflowError):
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
                try:
                    os.kill(int(name), _signal.SIGKILL)
                except OSError:
                    pass
        if not found:
            return
        time.sleep(0.05)


def watch(token: str, path: str, tmp: str) -> None:
    """Wait for the end of standard input (the runner closed it or died), then kill the run's
    processes (the cgroup ``path`` when given, those marked with ``token``) and remove what they
    left in ``tmp``."""
    _signal.signal(_signal.SIGINT, _signal.SIG_IGN)  # Ctrl-C is the runner's to handle
    os.environ.pop(RUN_TOKEN_ENV, None)
    while os.read(0, 4096):
        pass
    if path:
        kill_cgroup(path)
    kill_marked(token)
    sweep_ended(tmp)


if __name__ == "__main__":
    watch(sys.argv[1], sys.argv[2], sys.argv[3])
