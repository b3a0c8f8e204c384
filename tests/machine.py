"""What a test started, among the machine's processes: tests that look at ``/proc`` only ever
count and touch their own (other tests run beside them under pytest-xdist, other runs of the
arena on the same machine).

A test that uses the ``owner`` fixture (``tests/conftest.py``) runs with ``OWNER_ENV`` set to a
token of its own; every process it starts inherits it (the arena passes its environment down to
workers and engines, isolated ones included), so ``owned(token)`` finds them, and only them, in
``/proc``, even those that left the test's process tree (``setsid``, re-parented to init).
"""

from __future__ import annotations

import os
import subprocess

#: the environment variable holding the token of the test that started a process
OWNER_ENV = "ARENA_TEST_OWNER"


def carries(pid: int, token: str) -> bool:
    """Whether process ``pid`` has ``OWNER_ENV=token`` in its environment (``False`` when it
    ended, is a zombie, or its environment cannot be read: another user's, without
    ``CAP_SYS_PTRACE``)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return f"{OWNER_ENV}={token}".encode() in f.read().split(b"\0")
    except OSError:
        return False


def owned(token: str) -> list[int]:
    """Pids of the live processes carrying ``token`` (``carries``), this one excluded."""
    return [int(name) for name in os.listdir("/proc")
            if name.isdigit() and int(name) != os.getpid() and carries(int(name), token)]


def stopped(proc: subprocess.Popen, grace: float = 10.0) -> int:
    """End a process this test started: SIGTERM, then SIGKILL after ``grace`` seconds; its exit
    code (waited for, so no zombie is left)."""
    if proc.poll() is None:
        proc.terminate()
        try:
            return proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
    return proc.wait(10)
