"""``arena serve`` only reads: a store without a rating state (a run killed before it stored
one, a store of an earlier arena) is rated in memory for its pages, never rebuilt into the
file, and the run lock beside it is never taken."""

from __future__ import annotations

import sqlite3

import pytest

from tests.reports.stores import make_store


@pytest.mark.slow  # a server (its imports: seconds)
def test_serving_a_store_without_rating_state_writes_nothing(tmp_path, serve):
    db = make_store(tmp_path, "interaction")
    lock = db.with_suffix(".lock")
    lock.unlink()  # no run holds it: a report would take it and store the rebuilt state
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every game in the file itself
        assert not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'rating_state'").fetchone()
    before = db.read_bytes()
    server = serve(tmp_path)
    for page in ("/t/interaction", "/t/interaction/summary", "/t/interaction/report", "/t/interaction/live"):
        status, body = server.get(page)
        assert status == 200, (page, body[:300])
    assert b'id="table-ratings"' in server.get("/t/interaction/summary")[1]  # rated, in memory
    server.stop()
    assert db.read_bytes() == before
    assert not lock.exists()  # the lock was never made, so never held


@pytest.mark.slow  # a server (its imports: seconds)
def test_serving_an_earlier_layout_migrates_it_in_memory_only(tmp_path, serve):
    """A store of an earlier arena (the layout-3 fixture) is shown, and its file left as it was:
    a report would migrate it in place, the server never does."""
    import shutil
    from pathlib import Path

    old = Path(__file__).resolve().parents[1] / "fixtures" / "layouts" / "b6b6042" / "old.sqlite"
    db = tmp_path / "old.sqlite"
    shutil.copy(old, db)
    before = db.read_bytes()
    server = serve(tmp_path)
    status, body = server.get("/t/old")
    assert status == 200, body[:300]
    status, body = server.get("/t/old/games")
    assert status == 200 and b"/t/old/games/1" in body, body[:300]
    server.stop()
    assert db.read_bytes() == before
    assert not db.with_suffix(".lock").exists()
