"""Stores written by earlier arenas (``tests/fixtures/layouts``): each opens, is migrated once
with one line said, reports the same tables as the code that read it before, and resumes to
the games that code would have played."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.results.reading import SCHEMA_VERSION

pytestmark = pytest.mark.slow  # a store of each earlier layout reported and resumed by new processes

LAYOUTS = Path(__file__).parent.parent / "fixtures" / "layouts"
FIXTURES = {"acb775b": 1, "b917e00": 2, "b6b6042": 3}  # folder -> its layout (the first two: user_version 1)


def arena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True, cwd=cwd)


def copied(name: str, tmp_path: Path) -> Path:
    folder = tmp_path / "R"
    folder.mkdir()
    shutil.copy(LAYOUTS / name / "old.sqlite", folder / "old.sqlite")
    return folder


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_report_migrates_once_and_reports_the_same(name: str, tmp_path: Path) -> None:
    folder = copied(name, tmp_path)
    conn = sqlite3.connect(folder / "old.sqlite")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == (1 if FIXTURES[name] < 3 else 3)
    conn.close()
    first = arena("report", "old", "--results", "R", "--json", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    lines = [line for line in first.stderr.splitlines() if "migrated" in line]
    assert lines == [f"R/old.sqlite: migrated the store from layout {FIXTURES[name]} to {SCHEMA_VERSION}"]
    assert json.loads(first.stdout) == json.loads((LAYOUTS / name / "report.json").read_text())
    again = arena("report", "old", "--results", "R", "--json", cwd=tmp_path)
    assert again.returncode == 0 and "migrated" not in again.stderr
    assert json.loads(again.stdout) == json.loads(first.stdout)
    conn = sqlite3.connect(folder / "old.sqlite")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "moves" not in tables and "series" in tables
    assert {"id_name", "bot", "version", "digest", "code"} <= {r[1] for r in conn.execute("PRAGMA table_info(bots)")}
    assert "voids" in tables and "log" in {r[1] for r in conn.execute("PRAGMA table_info(games)")}  # layout 4


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_resume_plays_the_games_the_old_code_would_have(name: str, tmp_path: Path) -> None:
    copied(name, tmp_path)
    run = arena("run", "--game", "interaction", "--bot", "random", "--bot", "greedy", "--games", "8", "--workers",
                "1", "--results", "R", "--name", "old", "-q", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stderr.count(f"migrated the store from layout {FIXTURES[name]} to") == 1
    out = arena("export", "old", "--results", "R", "--out", "-", cwd=tmp_path)
    got = []
    for line in out.stdout.splitlines():
        game = json.loads(line)
        game.pop("seconds")
        game.pop("attempts")
        got.append(game)
    want = [json.loads(line) for line in (LAYOUTS / name / "games8.jsonl").read_text().splitlines()]
    assert got == want


def test_a_store_held_by_a_run_is_read_through_a_copy(tmp_path: Path) -> None:
    """A reader never migrates a store whose run lock is held (a run of an earlier arena): it
    reads a migrated copy in memory and says so; the file keeps its layout."""
    import fcntl

    from arena.results.reading import connect_readonly, load_moves

    folder = copied("b917e00", tmp_path)
    with open(folder / "old.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        conn = connect_readonly(folder / "old.sqlite")
        assert len(load_moves(conn)) > 0
        conn.close()
    raw = sqlite3.connect(folder / "old.sqlite")
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 1
    assert raw.execute("SELECT count(*) FROM moves").fetchone()[0] > 0
