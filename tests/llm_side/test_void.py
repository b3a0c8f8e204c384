"""Void games (issue 44): a provider's failure ends the game ``void``, blaming nobody; a run
keeps it apart from the results (table ``voids``), plays the same game again, and a resumed run
plays the games left void."""

from __future__ import annotations

import json
import sqlite3

from arena.games import make
from arena.referee import FAULTS, GameSettings, Termination, play_game
from arena.results.store import load_games
from arena.tournament import build, run_tournament
from tests.llm_side.net_bots import Flaky, Logged

FLAKY = "tests/llm_side/net_bots.py#Flaky"


def test_a_provider_failure_voids_the_game_blaming_nobody(tmp_path):
    flaky = Flaky(dir=str(tmp_path), times=1)
    record = play_game(GameSettings(make("nim"), seed=3), [Logged(), flaky])
    assert record.outcome.termination == Termination.VOID and Termination.VOID not in FAULTS
    assert record.fault_seat is None and record.outcome.ranks == (1, 1)
    assert record.fault_detail.startswith("seat 1 provider failure: HTTP 503")
    logs = json.loads(record.log)
    assert [(e["ply"], e["seat"]) for e in logs] == [(0, 0), (1, 1), (2, 0), (3, 1)]
    assert logs[-1]["log"]["attempts"] == 3  # the failed move's log is kept too


def _run(tmp_path, marks, **extra):
    values = dict(game="nim", params={"pile": "9"}, bots=["random", f"f={FLAKY}:dir={marks},times=1"], games=4,
                  workers=1, results=str(tmp_path / "R"), name="t", retries=1)
    values.update(extra)
    return run_tournament(build(values))


def test_a_void_game_is_stored_apart_and_played_again(tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    summary = _run(tmp_path, marks)
    assert summary.done == summary.total == 4 and summary.finished
    games = load_games(summary.path)
    assert len(games) == 4 and Termination.VOID not in set(games["termination"])
    conn = sqlite3.connect(summary.path)
    voids = conn.execute("SELECT game_id, seats, detail, log FROM voids").fetchall()
    assert len(voids) == 1 and voids[0][0] in set(games["game_id"]) and voids[0][3] is not None
    assert "void: 1 game(s)" in summary.voids and "f 1" in summary.voids


def test_games_void_on_every_attempt_are_left_to_a_resumed_run(tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    (marks / "down").touch()
    first = _run(tmp_path, marks)
    assert not first.finished and first.done < first.total == 4
    assert "left unplayed" in first.voids
    conn = sqlite3.connect(first.path)
    void_ids = [g for (g,) in conn.execute("SELECT game_id FROM voids")]
    assert len(void_ids) == 2 * (4 - first.done)  # each left game: played 1 + retries times
    (marks / "down").unlink()
    (marks / "failures").write_text("f" * 100)  # the provider is back
    again = _run(tmp_path, marks)
    assert again.finished and again.played == 4 - first.done and again.voids is None
    assert set(void_ids) <= set(load_games(again.path)["game_id"])


def test_a_server_answering_no_chat_completion_voids_the_game_blaming_nobody(tmp_path, monkeypatch):
    # a 200 whose body is not JSON, or holds no choice: the provider's failure (once lost by
    # the model as an exception or bad_move fault)
    from bots.registry import make as make_bot
    from tests.llm.server import ChatServer, Step

    monkeypatch.delenv("ARENA_LLM_CACHE", raising=False)
    monkeypatch.setenv("ARENA_LLM_LIMITS", str(tmp_path / "limits"))
    for broken in (Step(raw="<html>oops</html>", headers={"Content-Type": "text/html"}), Step(raw='{"choices": []}')):
        with ChatServer([broken]) as server:
            llm = make_bot(f"llm:model=test,base_url={server.url},provider_retries=1,backoff=0.01,timeout=20")
            record = play_game(GameSettings(make("interaction"), seed=3), [llm, make_bot("random")])
        assert record.outcome.termination == Termination.VOID and record.fault_seat is None
        detail = record.fault_detail
        assert detail.startswith("seat 0 provider failure: test at ") and "broken answer" in detail
        assert server.count == 2
