"""A game of the page holds its tournament (``play-interaction``) only while it is written: an
unfinished game blocks neither ``arena play --bot human`` nor a second game of the page, and
games played at the same time are all stored."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.timing import until

from arena.results.store import load_game

pytestmark = pytest.mark.slow  # a server and an arena play of their own


def _start(server) -> str:
    status, body, headers = server.post("/play", {"game": "interaction", "bot": "random", "seat": "0"})
    assert status == 303, (status, body[:400])
    return headers["location"].rsplit("/", 1)[1]



def test_an_unfinished_web_game_blocks_nobody(tmp_path, serve):
    server = serve(tmp_path)
    first = _start(server)
    until(lambda: server.play_state(first)["asking"])  # the person is on move: the game is unfinished
    done = subprocess.run([sys.executable, "-m", "arena", "play", "--game", "interaction", "--bot", "human",
                           "--results", str(tmp_path), "-q"], input="quit\n", capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "already being run" not in done.stdout + done.stderr
    second = _start(server)  # a second game of the page while the first is unfinished
    until(lambda: server.play_state(second)["asking"])
    for sid in (second, first):  # both resign; each is stored as the next game
        status, body, _ = server.post(f"/play/{sid}/move", json.dumps({"move": "quit"}).encode(),
                                      headers={"Origin": server.url, "Content-Type": "application/json"})
        assert status == 200, body
    states = [until(lambda sid=sid: (s := server.play_state(sid))["over"] and s) for sid in (second, first)]
    assert [s["error"] for s in states] == [None, None]
    assert sorted(s["stored"] for s in states) == [2, 3]  # game 1 is arena play's
    for s in states:
        row = load_game(tmp_path / "play-interaction.sqlite", s["stored"])
        assert row["seats"] == ["human", "random"] and row["termination"] == "resigned", row


def test_a_finished_game_waits_for_the_lock_another_process_holds(tmp_path, serve):
    import fcntl

    server = serve(tmp_path)
    sid = _start(server)
    until(lambda: server.play_state(sid)["asking"])
    with open(tmp_path / "play-interaction.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as arena play holds it while its game is played
        status, body, _ = server.post(f"/play/{sid}/move", b'{"move": "quit"}',
                                      headers={"Origin": server.url, "Content-Type": "application/json"})
        assert status == 200, body
        waiting = until(lambda: server.play_state(sid)["waiting"])
        assert "another process" in waiting and not server.play_state(sid)["over"]
    state = until(lambda: (s := server.play_state(sid))["over"] and s)  # stored once the lock is free
    assert state["error"] is None and state["stored"] == 1 and state["waiting"] is None
