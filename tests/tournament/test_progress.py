"""What a run tells while it plays (issue 41): the tournament log says how many games are left
in all, the progress bar is drawn before the first game ends, and a move thinking for long is
said in one line naming the game, the bot, its seat and the option that bounds it."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from arena.tournament import build, run_tournament, observers
from arena.tournament.observers import Observer, RunStart, Thinking


def nim(tmp_path, **extra):
    values = dict(game="nim", params={"pile": "9"}, bots=["random", "r2=random", "r3=random"], games=12,
                  workers=1, results=str(tmp_path), opening_plies=1, name="t")
    return build(values | extra)


def test_the_log_says_how_many_games_are_left_in_all_not_the_first_batch(tmp_path):
    cfg = nim(tmp_path)  # 36 games: more than the first batch one worker is given (32)
    first = run_tournament(cfg)
    assert first.played == 36
    conn = sqlite3.connect(first.path)
    conn.execute("DELETE FROM games WHERE game_id > 31")
    conn.commit()
    conn.close()
    assert run_tournament(cfg).played == 5
    lines = re.findall(r"run t: .*", (tmp_path / "t.log").read_text())
    assert lines == ["run t: 36 of 36 games left to play (0 stored), 1 worker",
                     "run t: 5 of 36 games left to play (31 stored), 1 worker"]


WAITER = '''import os
import time


class Waiter:
    """Thinks on its first move until the file ``release`` exists (at most 300 s)."""

    def __init__(self, release):
        self.release, self.moved = release, False

    def choose(self, state, limits):
        deadline = time.monotonic() + 300
        while not self.moved and not os.path.exists(self.release) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.moved = True
        return state.legal_moves()[0]
'''


class Events(Observer):
    """Records what the runner tells, in order; releases the waiting bot once told it thinks."""

    def __init__(self, release: Path) -> None:
        self.events: list[str] = []
        self.moves: list[Thinking] = []
        self.release = release

    def started(self, start: RunStart) -> None:
        self.events.append("started")

    def playing(self) -> None:
        self.events.append("playing")

    def thinking(self, move: Thinking) -> None:
        self.events.append("thinking")
        self.moves.append(move)
        self.release.touch()

    def stored(self, result) -> None:
        self.events.append("stored")


@pytest.mark.parametrize("extra, bound", [
    ({}, "no --move-time or --tc bounds a move: only --game-time 600 s ends the game"),
    ({"move_time": 100}, "--move-time 100 s (+ --time-margin) ends it"),
])
def test_a_move_thinking_for_long_is_told_with_its_game_bot_seat_and_bound(tmp_path, monkeypatch, extra, bound):
    monkeypatch.setattr(observers, "LONG_MOVE", 0.5)
    (tmp_path / "waiter.py").write_text(WAITER)
    release = tmp_path / "release"
    events = Events(release)
    cfg = nim(tmp_path, bots=[f"me={tmp_path / 'waiter.py'}#Waiter:release={release}", "random"], games=2,
              opening_plies=0, **extra)
    summary = run_tournament(cfg, [events])
    assert summary.played == 2
    assert events.events[:3] == ["started", "playing", "thinking"]  # the pool started, then the long move
    move = events.moves[0]
    assert (move.game_id, move.label, move.seat, move.ply) == (1, "me", 0, 1) and move.seconds >= 0.5
    assert move.line() == (f"game 1: me (seat 0) has been thinking for {move.seconds:.0f} s on ply 1; {bound}")
    assert "game 1: me (seat 0) has been thinking for" in (tmp_path / "t.log").read_text()
