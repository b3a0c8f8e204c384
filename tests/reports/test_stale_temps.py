"""A report file is written to a temporary file beside it, renamed over it once complete
(``atomic_path``). A writer killed with ``kill -9`` leaves its temporary file: the next report of
that file removes it, while the temporary file of a writer still alive is left to it
(``arena.results.temps``: a writer holds a lock on its file)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from tests.machine import stopped

#: a writer stopped inside ``atomic_path``: it has filled part of its temporary file
WRITER = """
import sys, time
import pytest
from arena.results.writing import atomic_path
with atomic_path(sys.argv[1]) as tmp:
    tmp.write_text("part of a report")
    print("writing", flush=True)
    time.sleep(600)
"""


def arena(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env={**os.environ, "NO_COLOR": "1"})


def writer(target) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(target)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "writing"
    return proc


def temps(folder, name: str) -> set[str]:
    return {n for n in os.listdir(folder) if n.startswith(f".{name}.") and n.endswith(".tmp")}


@pytest.mark.slow  # writers killed in processes of their own
def test_a_killed_writers_temporary_file_is_removed_by_the_next_report(tmp_path):
    done = arena("run", "--game", "known", "--bot", "known:elo=0", "--bot", "known:elo=100", "--games", "2",
                 "--workers", "1", "--results", "results", "--name", "t", "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "results"
    killed = [writer(folder / "t.report.md") for _ in range(2)]
    for proc in killed:
        proc.kill()  # kill -9: no cleanup runs
        proc.wait(10)
    left = temps(folder, "t.report.md")
    assert len(left) == 2  # as a killed arena report leaves them
    alive = writer(folder / "t.report.md")
    try:
        mine = temps(folder, "t.report.md") - left
        assert len(mine) == 1
        old = time.time() - 600
        for name in left | mine:  # all written long ago: only whose writer is gone tells them apart
            os.utime(folder / name, (old, old))
        done = arena("report", "t", "--results", "results", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert temps(folder, "t.report.md") == mine  # the killed writers' removed, the live one's kept
        assert "Leaderboard" in (folder / "t.report.md").read_text()
    finally:
        stopped(alive)
