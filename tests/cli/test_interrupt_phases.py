"""Ctrl-C in any phase of ``arena run`` (issue: a tour found it silent, exit 130, while the run
loaded its bots or wrote its report): one line saying the finished games are stored and how to
resume, exit code 130. The signal is sent when a file of the phase appears (no timing)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: a bot file whose import says so (a file), then takes a minute: the run is still starting
SLOW_IMPORT = ("import pathlib, time\n"
               "pathlib.Path('importing').write_text('x')\n"
               "time.sleep(60)\n"
               "class Bot:\n"
               "    pass\n")


def terminal_sigint() -> None:
    """In the child: Ctrl-C's default action, as at a terminal, even when the tests run as a
    background job (a shell starts those with SIGINT ignored, and children inherit it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt_when(tmp_path: Path, marker: str, bots: list[str]) -> subprocess.CompletedProcess[str]:
    """``arena run`` of ``bots`` in ``tmp_path``, sent SIGINT once a file matching ``marker``
    exists (skipped if the run ended before: nothing to test)."""
    args = [sys.executable, "-m", "arena", "run", *(x for b in bots for x in ("--bot", b)),
            "--games", "6", "--name", "g", "--workers", "1"]
    proc = subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}, preexec_fn=terminal_sigint)
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(marker)) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    running = proc.poll() is None
    if running:
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    if not running:
        pytest.skip(f"the run ended before {marker} appeared or was signalled: {proc.returncode} {err[-300:]}")
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


@pytest.mark.parametrize(("marker", "bots"), [
    ("importing", ["slowimport.py#Bot", "random"]),   # starting: a bot file still importing
    ("results/g.report.md", ["random", "random"]),    # every game stored, the report being written
])
def test_ctrl_c_in_any_phase_of_a_run_says_so_and_exits_130(tmp_path, marker, bots):
    (tmp_path / "slowimport.py").write_text(SLOW_IMPORT)
    r = interrupt_when(tmp_path, marker, bots)
    assert r.returncode == 130, (r.returncode, r.stdout[-500:], r.stderr[-500:])
    lines = [line for line in (r.stdout + r.stderr).splitlines() if line.startswith("interrupted")]
    assert lines == ["interrupted: finished games are stored; re-run the same command to resume"], r.stderr[-500:]
    assert "Traceback" not in r.stdout + r.stderr


def test_ctrl_c_after_the_command_returned_still_exits_130_in_one_line():
    # the command's output printed, the interpreter exiting (its atexit work): no traceback, no -2
    code = ("import os, signal, sys, time\n"
            "sys.argv = ['arena', 'games']\n"
            "from arena.cli.app import main\n"
            "try:\n"
            "    main()\n"
            "finally:\n"
            "    os.kill(os.getpid(), signal.SIGINT)\n"
            "    time.sleep(60)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}, preexec_fn=terminal_sigint)
    assert r.returncode == 130, (r.returncode, r.stderr[-500:])
    assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1 and r.stderr.startswith("interrupted")
    assert "interaction" in r.stdout  # the command's output is all there
