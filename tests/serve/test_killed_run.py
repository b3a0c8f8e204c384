"""A run killed (``kill -9``) leaves its live file behind; the tournament page's games in
progress must not show its games as playing: its run lock is free at once (and its file stops
being rewritten)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.timing import until

pytestmark = pytest.mark.slow  # a run and a server


def test_a_killed_runs_games_are_not_shown_in_progress(tmp_path, serve):
    run = subprocess.Popen([sys.executable, "-m", "arena", "run", "--game", "interaction", "--bot", "mcts",
                            "--bot", "random", "--games", "40", "--move-time", "0.3", "--workers", "1",
                            "--results", str(tmp_path), "--name", "stale", "-q"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        until(lambda: (tmp_path / "stale.sqlite").is_file(), 120, "the run made no store")
        server = serve(tmp_path)
        until(lambda: b'class="live-game"' in server.get("/t/stale/live")[1], 120, "no game shown in progress")
        assert (tmp_path / "stale.live.json").is_file()
        os.killpg(run.pid, signal.SIGKILL)  # the run and its worker: the group this test started
        run.wait(30)
        assert (tmp_path / "stale.live.json").is_file()  # a killed run leaves its live file
        # shown no more: its lock is free at once (its file's age would tell within seconds)
        until(lambda: b'id="no-live"' in server.get("/t/stale/live")[1], 30, "the killed run's games stay shown")
        time.sleep(1.0)
        assert b'id="no-live"' in server.get("/t/stale/live")[1]
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait(30)
