"""The game browser over a 100,000-game store in Chromium: the first page, then a filtered
one, each loaded within 1 s (the figures are printed; the assertion keeps a loaded machine's
margin: 5 s). The store is built by copying real games (``arena.bench.report.build_store``)."""

from __future__ import annotations

import json
import time

import pytest

from arena.bench.report import build_store
from arena.results.browse import GameFilter, game_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GAMES = 100_000
#: what the page load took (ms) by the browser's navigation timing: request start to load end
_LOADED = "(() => { const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime; })()"


def test_browser_first_page_of_100000_games(tmp_path, serve, browser):
    path = build_store(tmp_path, "big", GAMES, distinct=20)
    server = serve(tmp_path)
    figures = {}
    for what, query, flt in (("first page", "", GameFilter()),
                             ("bot at a seat, length", "?bot=new&seat=1&min_plies=20&max_plies=60",
                              GameFilter(bot="new", seat=1, min_plies=20, max_plies=60)),
                             ("termination, older page", "?termination=repetition&before=90000",
                              GameFilter(termination="repetition"))):
        start = time.monotonic()
        browser.open(f"{server.url}/t/big/games{query}")
        wall = time.monotonic() - start
        figures[what] = (browser.eval(_LOADED) / 1000, wall)
        shown = browser.eval("[...document.querySelectorAll('#game-list tbody tr')].map(r => Number(r.dataset.id))")
        before = 90000 if "before" in query else None
        expected = game_page(path, flt, before=before)
        assert shown == [g["game_id"] for g in expected.games] and len(shown) == 50
        assert browser.eval("document.getElementById('matching').textContent").startswith(f"{expected.matching} ")
    browser.send("Runtime.evaluate", expression="document.getElementById('older').click()")
    browser.wait_event("Page.loadEventFired")
    assert max(browser.eval("[...document.querySelectorAll('#game-list tbody tr')].map(r => Number(r.dataset.id))")) \
        < 90000 - 50
    print("\n" + json.dumps({k: f"{v[0]:.2f} s (wall {v[1]:.2f} s)" for k, v in figures.items()}))
    assert all(loaded <= 5.0 for loaded, _ in figures.values())
    assert browser.errors() == []
