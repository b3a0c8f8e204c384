"""Bad input and a damaged store are answered as such, never a 500 with a traceback: a number
out of range or a body that is no JSON object is 400 naming what is accepted; a store that is
no database is a 503 page giving the one-line reason (its tournament page as its game list)."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.slow  # a server of its own


def test_bad_input_and_a_damaged_store_are_no_500(tmp_path, serve):
    from arena.bench.report import build_store

    build_store(tmp_path, "good", 2, distinct=1)
    (tmp_path / "bad.sqlite").write_bytes(b"this is no database\n" * 200)
    server = serve(tmp_path)
    huge = "9" * 23
    for query in (f"min_plies={huge}", f"max_plies=-{huge}", f"before={huge}", f"seat={huge}", "seat=-1",
                  "min_plies=x"):
        status, body = server.get(f"/t/good/games?{query}")
        assert status == 400, (query, status, body[:300])
        assert b"accepted" in body or b"whole number" in body, body[:300]
    statuses = {}
    for path in ("/t/bad/games", "/t/bad/export/csv", "/t/bad/export/html", "/t/bad/games/1", "/t/bad/report",
                 "/t/bad", "/t/bad/live", "/t/bad/summary"):
        status, body = server.get(path)
        statuses[path] = status
        assert status < 500 or status == 503, (path, status, body[:300])
        if status >= 400:
            assert b"not a database" in body or b"cannot be read" in body, (path, body[:400])
    assert statuses["/t/bad"] == statuses["/t/bad/games"] == 503, statuses  # the page as its game list
    status, _, headers = server.post("/play", {"game": "interaction", "bot": "random", "seat": "0"})
    assert status == 303
    sid = headers["location"].rsplit("/", 1)[1]
    for raw in (b"{bad", b"[1,2]", b'"quit"', b"\xff\xfe"):
        status, body, _ = server.post(f"/play/{sid}/move", raw,
                                      headers={"Origin": server.url, "Content-Type": "application/json"})
        assert status == 400, (raw, status, body[:300])
        assert b"move" in body, body
    status, body, _ = server.post(f"/play/{sid}/move", json.dumps({"move": "quit"}).encode(),
                                  headers={"Origin": server.url, "Content-Type": "application/json"})
    assert status in (200, 409), body
    server.proc.terminate()
    _, log = server.proc.communicate(timeout=30)
    assert "Traceback" not in log, log[-3000:]
