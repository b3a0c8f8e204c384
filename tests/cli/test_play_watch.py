"""``arena play`` runs the game in a watched child: move-time deadline, crash, exit, memory."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from arena.referee import GameSettings
from arena.watch import watch_game
from bots.registry import make
from tests.toy import Nim

BROKEN = "tests/fixtures/broken_bots.py#"


def play(*args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    return subprocess.run([sys.executable, "-m", "arena", "play", "interaction", "-q", "--seed", "3", *args],
                          capture_output=True, text=True, timeout=timeout, env=env)


@pytest.mark.parametrize("kind, extra, words", [
    ("Sleeper", ["--move-time", "0.1", "--time-margin", "0.2"], "fault by seat 1: timeout: no move after 0.3s"),
    ("Burner", ["--move-time", "0.1", "--time-margin", "0.2"], "fault by seat 1: timeout"),
    ("Suicide", [], "fault by seat 1: crash: bot process killed by signal SIGKILL"),
    ("Exiter", [], "fault by seat 1: exit: bot called sys.exit(3)"),
    ("Hog", ["--memory-limit", "64"], "fault by seat 1: memory"),
    ("ResetKiller", [], "fault by seat 1: crash"),
])
def test_broken_bot_loses_and_play_reports_it(kind, extra, words):
    proc = play("--bot", "random", "--bot", BROKEN + kind, *extra)
    assert proc.returncode == 0, proc.stderr
    assert words in proc.stdout
    assert "seat 0 random: score 0, rank 1" in proc.stdout and "rank 2" in proc.stdout
    if kind != "ResetKiller":  # the plies before the fault were printed
        assert "ply 1: random plays" in proc.stdout


def test_bot_output_never_reaches_the_diagrams():
    proc = play("--bot", BROKEN + "Printer", "--move-time", "5")
    assert proc.returncode == 0, proc.stderr
    assert "PRINTED" not in proc.stdout + proc.stderr and "RAW-FD" not in proc.stdout + proc.stderr
    assert "result after" in proc.stdout and "fault" not in proc.stdout


def test_watch_game_streams_plies_and_matches_the_in_process_game():
    from arena.referee import play_game

    game = Nim(pile=9)
    seen = []
    rec = watch_game(GameSettings(game, 4, labels=("a", "b")), [make("random"), make("random")], move_time=5,
                     on_ply=lambda ply: seen.append((ply.record.move, ply.diagram)))
    same = play_game(GameSettings(game, 4, labels=("a", "b")), [make("random"), make("random")])
    assert rec.moves == same.moves and rec.outcome == same.outcome
    assert [m for m, _ in seen] == list(rec.moves) and all(d for _, d in seen)


def test_watch_game_timeout_keeps_the_plies_played():
    game = Nim(pile=9)
    bots = [make("random"), make(BROKEN + "Slow:ms=2000")]
    rec = watch_game(GameSettings(game, 1, labels=("r", "slow"), time_margin=0.1), bots, move_time=0.05)
    assert rec.outcome.termination == "timeout" and rec.fault_seat == 1 and rec.outcome.ranks == (1, 2)
    assert rec.plies == 1 and rec.move_stats[0].seat == 0


HOSTILE = "tests/fixtures/hostile_bots.py#"


def test_play_a_forking_bot_loses_by_crash_and_leaves_no_process(tmp_path):
    """``arena play`` as ``arena run``: a bot whose ``os.fork()`` copy plays on loses (``crash``)
    at the ply it forked, the plies before stand, and no copy outlives the game."""
    from tests.tournament.hostile import assert_no_survivors
    marks = tmp_path / "marks"
    marks.mkdir()
    proc = play("--bot", "random", "--bot", f"h={HOSTILE}Forker:dir={marks}")
    assert proc.returncode == 0, proc.stderr
    assert "fault by seat 1: crash: seat 1 (h) forked the bot process (os.fork) at ply 3" in proc.stdout
    assert "seat 0 random: score 0, rank 1" in proc.stdout
    assert "result after 3 plies" in proc.stdout and "ply 4:" not in proc.stdout  # its 2nd move (ply 4) forked
    assert list(marks.glob("*.pid"))  # the bot (and its copy, unless killed before it wrote)
    assert_no_survivors(marks, seconds=1.0)


@pytest.mark.slow  # an arena play in a process of its own
def test_play_kills_a_setsid_grandchild_when_the_game_ends(tmp_path):
    from tests.tournament.hostile import assert_no_survivors
    marks = tmp_path / "marks"
    marks.mkdir()
    proc = play("--bot", "random", "--bot", f"h={HOSTILE}SetsidForker:dir={marks}")
    assert proc.returncode == 0, proc.stderr
    assert "fault by seat 1: crash: seat 1 (h) forked the bot process" in proc.stdout  # a fork without exec
    assert len(list(marks.glob("*.pid"))) == 2  # a child in its own session and its child
    assert_no_survivors(marks, seconds=1.0)


def test_watch_game_forking_bot_keeps_the_plies_before_the_fork(tmp_path):
    game = Nim(pile=9)
    rec = watch_game(GameSettings(game, 1, labels=("r", "f")),
                     [make("random"), make(f"{HOSTILE}Forker:dir={tmp_path}")])
    assert rec.outcome.termination == "crash" and rec.fault_seat == 1 and rec.outcome.ranks == (1, 2)
    assert rec.plies == 3 and [m.seat for m in rec.move_stats] == [0, 1, 0]
    assert "forked the bot process" in rec.fault_detail


@pytest.mark.parametrize("at", ["init", "reset"])
def test_play_leaves_no_process_a_bot_started_where_it_was_made(tmp_path, at):
    """``arena play`` makes the bots in its own process before the game's child: a ``setsid``
    sleeper a bot starts there (or in ``reset``, in the child) does not outlive the command."""
    from tests.tournament.hostile import assert_no_survivors
    marks = tmp_path / "marks"
    marks.mkdir()
    proc = play("--bot", "random", "--bot", f"h={HOSTILE}SetupSetsid:dir={marks},at={at}")
    assert proc.returncode == 0, proc.stderr
    assert len(list(marks.glob("*.pid"))) == (1 if at == "init" else 2)
    assert_no_survivors(marks, seconds=1.0)
