"""The game browser's seat filter offers the seats of the tournament's game, no more."""

from __future__ import annotations

import re

import pytest

from arena.results.store import load_tournament

pytestmark = pytest.mark.slow  # a server of its own


def test_the_seat_filter_offers_the_games_seats(tmp_path, serve):
    from arena.bench.report import build_store

    build_store(tmp_path, "two", 2, distinct=1)
    assert load_tournament(tmp_path / "two.sqlite")["num_players"] == 2
    server = serve(tmp_path)
    status, body = server.get("/t/two/games?seat=1")
    assert status == 200, body[:300]
    select = re.search(r'<select name="seat">(.*?)</select>', body.decode(), re.S)
    assert select, body[:2000]
    offered = re.findall(r'<option value="(\d*)"', select.group(1))
    assert offered == ["", "0", "1"], offered
    assert '<option value="1" selected>' in select.group(1)
