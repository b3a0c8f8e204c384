"""A move request without the field ``move`` (or whose ``move`` is no text) is refused 400
naming the field, and the game goes on: only ``quit`` resigns."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest

from tests.timing import until

pytest.importorskip("starlette", reason="arena serve needs the serve extra: pip install -e '.[serve]'")


def _post(app, sid: str, body: bytes, content_type: str) -> tuple[int, dict]:
    """``(status, JSON answer)`` of ``arena.serve.play.move`` for a POST of ``body``."""
    from starlette.requests import Request

    from arena.serve.play import move

    scope = {"type": "http", "method": "POST", "path": f"/play/{sid}/move", "path_params": {"sid": sid},
             "headers": [(b"content-type", content_type.encode())], "query_string": b"", "app": app}
    sent = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict:
        return sent.pop(0) if sent else {"type": "http.disconnect"}

    response = asyncio.run(move(Request(scope, receive)))
    return response.status_code, json.loads(response.body)


def test_a_request_without_a_move_is_refused_and_the_game_goes_on(tmp_path):
    from arena.serve.play import Games

    games = Games(tmp_path)
    app = SimpleNamespace(state=SimpleNamespace(games=games))
    sid = games.start("interaction", "random", 0)
    session = games.get(sid)
    until(lambda: session.source.asking)
    form, js = "application/x-www-form-urlencoded", "application/json"
    bad = [(b"{}", js), (b'{"move": null}', js), (b'{"move": 3}', js), (b'{"mvoe": "quit"}', js),
           (b"", form), (b"mvoe=quit", form),
           (b'--x\r\nContent-Disposition: form-data; name="move"\r\n\r\nquit\r\n--x--\r\n',
            "multipart/form-data; boundary=x")]
    for body, kind in bad:
        status, answer = _post(app, sid, body, kind)
        assert status == 400, (body, status, answer)
        assert "'move'" in answer["error"], answer
        assert session.source.asking and not session.state()["over"], body  # the game goes on
    status, answer = _post(app, sid, b"move=quit", form)
    assert status == 200, answer
    state = until(lambda: (s := session.state())["over"] and s)
    assert state["termination"] == "resigned" and state["stored"] == 1, state
