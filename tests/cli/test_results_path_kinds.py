"""A named pipe (or a directory) where a tournament's database, log or lock would be is refused
in one line, exit code 2, by ``arena run``, ``arena report``, ``arena list``, ``arena replay`` and
``arena export``: never waited on (opening or reading a named pipe waits for a writer for ever),
nothing there removed. A named pipe where a report file (or the report files' stamp) goes is
replaced as a file is."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import pytest

pytestmark = pytest.mark.slow  # an arena process per command (about 20)

#: seconds a command may take before it counts as hanging (a loaded machine: a run of 2 games)
HANG = 120


def arena(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True, timeout=HANG,
                          cwd=cwd, env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"})


def refused(done: subprocess.CompletedProcess, text: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stderr.strip().splitlines() == [f"error: {text}"], done.stderr
    assert "Traceback" not in done.stdout + done.stderr


RUN = ("run", "--game", "known", "--bot", "known:elo=0", "--bot", "known:elo=100", "--games", "2",
       "--workers", "1", "--results", "results", "-q")


def test_a_named_pipe_or_a_directory_for_the_database_is_refused(tmp_path):
    (tmp_path / "results").mkdir()
    os.mkfifo(tmp_path / "results" / "x.sqlite")
    (tmp_path / "results" / "d.sqlite").mkdir()
    for name, what in (("x", "a named pipe (FIFO)"), ("d", "a directory")):
        path = f"results/{name}.sqlite"
        refused(arena(*RUN, "--name", name, cwd=tmp_path),
                f"{path!r} is {what}, not a results database; remove it or choose another --name")
        for command in (("report", name, "--results", "results"), ("report", name, "--results", "results", "--json"),
                        ("report", path), ("replay", name, "1", "--results", "results"),
                        ("export", name, "--results", "results")):
            refused(arena(*command, cwd=tmp_path), f"{path!r} is {what}, not a results database; give a "
                                                   "tournament's NAME or the path of its .sqlite file")
    listed = arena("list", "--results", "results", cwd=tmp_path)
    assert listed.returncode == 0 and "'results/x.sqlite' is a named pipe (FIFO)" in listed.stdout, listed
    assert stat.S_ISFIFO(os.stat(tmp_path / "results" / "x.sqlite").st_mode)  # left as it was
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == ["d.sqlite", "x.sqlite"]  # nothing made


def test_a_named_pipe_for_the_log_or_the_lock_is_refused(tmp_path):
    (tmp_path / "results").mkdir()
    for name, suffix in (("y", ".log"), ("z", ".lock")):
        os.mkfifo(tmp_path / "results" / f"{name}{suffix}")
        refused(arena(*RUN, "--name", name, cwd=tmp_path),
                f"'results/{name}{suffix}' is a named pipe (FIFO), not a file of a tournament; remove it or "
                "choose another --name")
        assert not (tmp_path / "results" / f"{name}.sqlite").exists()


def test_a_named_pipe_where_a_report_file_goes_is_replaced(tmp_path):
    done = arena(*RUN, "--name", "t", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = tmp_path / "results" / "t.report.md"
    report.unlink()
    os.mkfifo(report)
    done = arena("report", "t", "--results", "results", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert report.is_file() and "Leaderboard" in report.read_text()
    stamp = tmp_path / "results" / "t.report-stamp.json"  # what a resumed run reads first
    stamp.unlink()
    os.mkfifo(stamp)
    done = arena(*RUN, "--name", "t", cwd=tmp_path)
    assert done.returncode == 0 and "0 games played" in done.stdout, (done.stdout, done.stderr)
    assert stamp.is_file()
