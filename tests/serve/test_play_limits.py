"""What a visitor of ``/play`` may make the server compute is bounded: the page's bot plays
under a per-move time limit (``BOT_MOVE_TIME``: ``alphabeta:depth=50`` or
``mcts:playouts=10000000`` answer within it), and an option that costs memory is refused
above its bound with a one-line reason."""

from __future__ import annotations


import pytest

from tests.timing import until

pytestmark = pytest.mark.slow  # a server of its own



def test_a_page_bot_moves_within_the_web_move_time(tmp_path, serve):
    from arena.serve.play import BOT_MOVE_TIME

    server = serve(tmp_path)
    status, body = server.get("/play")
    assert status == 200 and f"at most {BOT_MOVE_TIME:g} s a move" in body.decode(), body[-600:]
    sids = []
    for spec in ("alphabeta:depth=50", "mcts:playouts=10000000"):  # hours of search unbounded
        status, body, headers = server.post("/play", {"game": "interaction", "bot": spec, "seat": "1"})
        assert status == 303, (spec, status, body[:400])
        sids.append(headers["location"].rsplit("/", 1)[1])
    for sid in sids:  # each bot moved first and the person is asked: far sooner than unbounded
        state = until(lambda sid=sid: (s := server.play_state(sid))["asking"] or s["over"] and s, seconds=180,
                      what=lambda sid=sid: server.play_state(sid))
        assert state["seat"] == 1, state
        status, body, _ = server.post(f"/play/{sid}/move", b'{"move": "quit"}',
                                      headers={"Origin": server.url, "Content-Type": "application/json"})
        assert status == 200, body
    from arena.results.store import load_game

    for sid in sids:
        state = until(lambda sid=sid: (s := server.play_state(sid))["over"] and s)
        assert state["error"] is None, state
        row = load_game(tmp_path / "play-interaction.sqlite", state["stored"])
        assert row["termination"] == "resigned" and len(row["moves"]) == 1, row  # the bot's move, then quit


def test_a_memory_option_above_its_bound_is_refused(tmp_path, serve):
    server = serve(tmp_path)
    status, body, _ = server.post("/play", {"game": "interaction", "bot": "alphabeta:tt=1000000000", "seat": "0"})
    assert status == 400, (status, body[:400])
    assert b"tt=1000000000 is more than a web page may start (at most 1000000)" in body, body[:600]
    assert not (tmp_path / "play-interaction.sqlite").exists()
    status, _, _ = server.post("/play", {"game": "interaction", "bot": "alphabeta:tt=1000", "seat": "0"})
    assert status == 303
