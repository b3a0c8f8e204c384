"""Engines die with the process that started them (``docs/engine-protocol.md`` "Process
rules"): an ``exec:`` engine, not sandboxed, hanging in ``go``, is gone soon after the runner
is SIGKILLed."""

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.tournament.hostile import alive

HANG = Path(__file__).parents[1] / "fixtures" / "hang_engine.sh"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG: Linux")
@pytest.mark.parametrize("workers", [1, 2])
def test_exec_engine_dies_when_the_runner_is_killed(tmp_path, workers):
    pidfile = tmp_path / "engine.pid"
    spec = f"hang=exec:{shlex.join([str(HANG), str(pidfile)])}:startup_timeout=60"
    args = [sys.executable, "-m", "arena.cli.app", "run", "--game", "interaction", "--bot", spec, "--bot", "random",
            "--games", "2", "--workers", str(workers), "--move-time", "600", "--results", str(tmp_path), "-q"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120  # a loaded machine: start-up may be slow
        while not pidfile.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        assert pidfile.exists(), f"the engine never received go (runner exit {proc.poll()})"
        engine = int(pidfile.read_text())
        assert alive(engine)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 30
        while alive(engine) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(engine), "the engine outlived the runner"
    finally:
        groups = [proc.pid] + ([int(pidfile.read_text())] if pidfile.exists() else [])
        for group in groups:  # the runner's workers, the engine's own group (its orphaned sleep)
            try:
                os.killpg(group, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
