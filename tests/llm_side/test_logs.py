"""Network players' move logs (issue 44): read after each ``choose``, stored with the game
(``games.log``), exported in every format and shown in the HTML replay."""

from __future__ import annotations

import base64
import gzip
import json
import sqlite3

import pandas as pd

from arena.cli.export import games_frame, write
from arena.games import make
from arena.referee import GameSettings, play_game
from arena.reports.html import game_entries
from arena.reports.render import load
from arena.tournament import build, run_tournament
from tests.llm_side.net_bots import Logged

LOGGED = "tests/llm_side/net_bots.py#Logged"


class Stale(Logged):
    """Logs its first move only (the log object stays set afterwards)."""

    def choose(self, state, limits):
        keep = getattr(self, "last_log", None)
        move = super().choose(state, limits)
        if keep is not None:
            self.last_log = keep
        return move


class Odd(Logged):
    def choose(self, state, limits):
        move = super().choose(state, limits)
        self.last_log = {"latency": float("nan")}  # no JSON: replaced by a note
        return move


def test_each_move_log_is_kept_once_and_a_bad_one_as_a_note():
    record = play_game(GameSettings(make("nim"), seed=1), [Stale(), Odd()])
    logs = json.loads(record.log)
    assert [e["seat"] for e in logs].count(0) == 1  # the same object again is no new log
    assert all("dropped" in e["log"] for e in logs if e["seat"] == 1)
    assert play_game(GameSettings(make("nim"), seed=1), [Logged(), Logged()]).log.count('"transcript"') \
        == len(play_game(GameSettings(make("nim"), seed=1), [Logged(), Logged()]).moves)


def _run(tmp_path):
    return run_tournament(build(dict(game="nim", params={"pile": "9"}, bots=["random", f"m={LOGGED}"], games=2,
                                     workers=1, results=str(tmp_path / "R"), name="t")))


def test_logs_are_stored_exported_and_replayed(tmp_path):
    summary = _run(tmp_path)
    conn = sqlite3.connect(summary.path)
    assert conn.execute("SELECT count(*) FROM games WHERE log IS NOT NULL").fetchone()[0] == 2
    df = games_frame(summary.path)
    assert all(e["log"]["transcript"][-1]["verdict"] == "legal" for logs in df["log"] for e in logs)
    lines = tmp_path / "g.jsonl"
    with open(lines, "w") as f:
        write(df, "jsonl", f)
    first = json.loads(lines.read_text().splitlines()[0])
    assert first["log"][0]["log"]["tokens_in"] >= 100
    with open(tmp_path / "g.csv", "w") as f:
        write(df, "csv", f)
    assert json.loads(pd.read_csv(tmp_path / "g.csv")["log"][0])[0]["log"]["attempts"] >= 1
    write(df, "parquet", tmp_path / "g.parquet")
    assert json.loads(pd.read_parquet(tmp_path / "g.parquet")["log"][0])[0]["seat"] in (0, 1)
    entries = game_entries(summary.path, load(summary.path), [1])
    frames = json.loads(gzip.decompress(base64.b64decode(entries[0]["frames_gz"])))
    shown = [f["transcript"] for f in frames if f.get("transcript")]
    assert shown and "prompt:" in shown[0] and "MOVE: " in shown[0] and "tokens_in" in shown[0]


def test_a_store_without_logs_exports_as_before(tmp_path):
    summary = run_tournament(build(dict(game="nim", params={"pile": "9"}, bots=["random", "greedy"], games=2,
                                        workers=1, results=str(tmp_path / "R"), name="t")))
    assert "log" not in games_frame(summary.path).columns
