"""Hostile ``exec:`` engines (issue 29, the external-engine side): each loses by a fault, its
opponent is never blamed, the stored game replays under the rules and nothing of it is left
behind."""

import shlex
import threading
import time
from pathlib import Path

import pytest

import arena.games
from arena.engine import process
from arena.engine.client import close_all
from arena.referee import GameSettings, play_game, referee_check
from bots.base import Limits
from bots.registry import make
from tests.tournament.hostile import alive

ENGINES = Path(__file__).parents[1] / "fixtures" / "hostile_engines"
EXIT_LEAVING_CHILD = ENGINES / "exit_leaving_child.sh"


@pytest.fixture(autouse=True)
def _quit_engines():
    yield
    close_all()


def _duel(bot, limits):
    """One interaction game, ``bot`` in seat 0 against ``random``; the record."""
    game = arena.games.make("interaction")
    settings = GameSettings(game, 5, labels=["bad", "random"], limits=limits, time_margin=0.5)
    return play_game(settings, [bot, make("random")])


def _gone(pid: int, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


@pytest.mark.parametrize("pidfd", [True, False], ids=["pidfd", "status-polled"])
@pytest.mark.parametrize("move_time", [30.0, None], ids=["move-time", "no-limit"])
def test_an_engine_exit_is_seen_although_its_child_keeps_the_output_open(tmp_path, monkeypatch, move_time, pidfd):
    """cutechess #27: the engine exits at ``go``, a ``sleep 1000 &`` holds its standard output.
    The loss is a ``crash`` at once (well under the 30 s move time; without a move time it
    would never end), and the sleeper is killed with the engine's process group. Without a
    pidfd (an older kernel) the exit status is polled instead."""
    if not pidfd:
        monkeypatch.setattr(process, "_pidfd", lambda pid: -1)
    pidfile = tmp_path / "child.pid"
    bot = make(f"bad=exec:{shlex.join([str(EXIT_LEAVING_CHILD), str(pidfile)])}:startup_timeout=30")
    out: list = []
    start = time.monotonic()
    player = threading.Thread(target=lambda: out.append(_duel(bot, Limits(time=move_time))), daemon=True)
    player.start()
    player.join(120)
    assert not player.is_alive(), "the game never ended: the engine's exit was not seen"
    assert time.monotonic() - start < 15, "the exit was seen only at the move's deadline"
    record = out[0]
    assert (record.fault_seat, record.outcome.termination) == (0, "crash")
    assert "engine exited mid-game (exit code 3)" in record.fault_detail
    assert referee_check(arena.games.make("interaction"), record).mismatch is None
    assert _gone(int(pidfile.read_text())), "the engine's child outlived it"
