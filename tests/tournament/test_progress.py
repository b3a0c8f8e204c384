"""What a run tells while it plays (issue 41): the tournament log says how many games are left
in all, the progress bar is drawn before the first game ends, and a move thinking for long is
said in one line naming the game, the bot, its seat and the option that bounds it."""

from __future__ import annotations

import re
import sqlite3

from arena.tournament import build, run_tournament


def nim(tmp_path, **extra):
    values = dict(game="nim", params={"pile": "9"}, bots=["random", "r2=random", "r3=random"], games=12,
                  workers=1, results=str(tmp_path), opening_plies=1, name="t")
    return build(values | extra)


def test_the_log_says_how_many_games_are_left_in_all_not_the_first_batch(tmp_path):
    cfg = nim(tmp_path)  # 36 games: more than the first batch one worker is given (32)
    first = run_tournament(cfg)
    assert first.played == 36
    conn = sqlite3.connect(first.path)
    conn.execute("DELETE FROM moves WHERE game_id > 31")
    conn.execute("DELETE FROM games WHERE game_id > 31")
    conn.commit()
    conn.close()
    assert run_tournament(cfg).played == 5
    lines = re.findall(r"run t: .*", (tmp_path / "t.log").read_text())
    assert lines == ["run t: 36 of 36 games left to play (0 stored), 1 worker",
                     "run t: 5 of 36 games left to play (31 stored), 1 worker"]
