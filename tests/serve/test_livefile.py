"""The games in progress of a local run, in ``<results>/<name>.live.json``: written while games
play (the plies so far, opening included, replay under the rules to a board), private like the
store, and removed when the run ends."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time

import pytest

from arena.serve.live import read_playing

pytestmark = pytest.mark.slow  # a run of a few seconds


def test_live_file_follows_the_games_playing(tmp_path):
    run = subprocess.Popen([sys.executable, "-m", "arena", "run", "--game", "interaction", "--bot", "mcts",
                            "--bot", "random", "--games", "6", "--move-time", "0.15", "--opening-plies", "2",
                            "--workers", "1", "--results", str(tmp_path), "--name", "t", "-q"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    live = tmp_path / "t.live.json"
    seen = []
    try:
        deadline = time.monotonic() + 120
        while run.poll() is None and time.monotonic() < deadline:
            if live.is_file():
                try:
                    seen.append((json.loads(live.read_text()), read_playing(tmp_path / "t.sqlite"),
                                 stat.S_IMODE(os.stat(live).st_mode)))
                except (OSError, ValueError):  # replaced between the look and the read
                    pass
            time.sleep(0.1)
        assert run.wait(60) == 0, run.stderr.read().decode() if run.stderr else ""
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(10)
    playing = [(raw, drawn, mode) for raw, drawn, mode in seen if raw["games"]]
    assert playing, f"no game in progress was ever written ({len(seen)} looks)"
    raw, drawn, mode = playing[-1]
    game = raw["games"][0]
    assert game["seats"] in (["mcts", "random"], ["random", "mcts"]) and len(game["opening"]) == 2
    assert game["moves"][:2] == game["opening"] and game["seat"] in (-1, 0, 1)
    assert any(len(g["moves"]) > 2 for r, _, _ in playing for g in r["games"])  # plies beyond the opening
    assert all(g["svg"] and g["svg"].startswith("<svg") for _, d, _ in playing for g in d)  # every ply replays
    assert mode == 0o600
    assert not live.exists() and not (tmp_path / "t.live.json.tmp").exists()


def test_a_killed_runs_live_file_shows_no_game(tmp_path):
    import fcntl

    from arena.bench.report import build_store
    from arena.serve.live import STALE
    from arena.tournament.livefile import live_path

    build_store(tmp_path, "k", 2, distinct=1)
    entry = {"game_id": 3, "series": 1, "seed": 1, "seats": ["new", "base"], "opening": [], "start": None,
             "moves": [], "seat": 0, "move_seconds": 0.1, "game_seconds": 0.2, "clocks": [None, None]}
    path = live_path(tmp_path, "k")
    path.write_text(json.dumps({"written": time.time(), "games": [entry]}))
    assert read_playing(tmp_path / "k.sqlite") == []  # written now, but no run holds the lock: a killed run's
    with open(tmp_path / "k.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running run holds it
        assert [g["game_id"] for g in read_playing(tmp_path / "k.sqlite")] == [3]
        path.write_text(json.dumps({"written": time.time() - STALE - 1, "games": [entry]}))
        assert read_playing(tmp_path / "k.sqlite") == []  # its own time is old
        path.write_text(json.dumps({"written": time.time(), "games": [entry]}))
        os.utime(path, (time.time() - STALE - 1, time.time() - STALE - 1))
        assert read_playing(tmp_path / "k.sqlite") == []  # its file's time is old
    # the lock was only looked at: a run can still take it
    with open(tmp_path / "k.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)


def test_the_look_at_the_run_lock_never_takes_it(tmp_path):
    """``run_holds_lock`` reads the kernel's lock table: a run taking its lock while the server
    looks (every 0.25 s) is never refused, and a held lock is seen."""
    import fcntl
    import os
    import threading

    from arena.serve.live import run_holds_lock

    db, lock = tmp_path / "t.sqlite", tmp_path / "t.lock"
    lock.touch()
    stop, seen = threading.Event(), []

    def look() -> None:
        while not stop.is_set():
            seen.append(run_holds_lock(db))

    looker = threading.Thread(target=look)
    looker.start()
    refused = 0
    try:
        for _ in range(3000):
            fd = os.open(lock, os.O_RDWR)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                refused += 1
            finally:
                os.close(fd)
    finally:
        stop.set()
        looker.join()
    assert refused == 0
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert run_holds_lock(db)
    finally:
        os.close(fd)
    assert not run_holds_lock(db) and seen
