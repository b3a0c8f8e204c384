"""A person plays Interaction against a bot in Chromium (``/play``): a click on a piece of the
board keeps its moves, moves clicked (and one typed that is refused, with the reason shown) to
the game's end; the game is stored as the next
game of ``play-interaction`` (as ``arena play --bot human`` stores one) and the report rates it."""

from __future__ import annotations

import re

import pytest

from tests.timing import until

from arena.reports.render import load, tables_for
from arena.results.store import load_game, load_tournament
from tests.reports.stores import final_position

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _state(browser) -> str:
    return browser.eval("document.getElementById('status').textContent")


def _wait(browser, test, seconds: float = 60.0):
    return until(test, seconds, lambda: f"the page did not get there: {_state(browser)!r}", every=0.05)


def test_a_human_plays_interaction_in_the_browser(tmp_path, serve, browser):
    server = serve(tmp_path)
    browser.open(f"{server.url}/play")
    browser.eval("document.querySelector('input[name=bot]').value = 'random'")
    browser.send("Runtime.evaluate", expression="document.getElementById('start').click()")
    browser.wait_event("Page.loadEventFired")
    _wait(browser, lambda: _state(browser).startswith("your move"))
    browser.eval("document.getElementById('move-text').value = 'z9Q'")
    browser.eval("document.querySelector('#type-move button[type=submit]').click()")
    _wait(browser, lambda: "z9Q" in browser.eval("document.getElementById('problem').textContent"))
    # a click on the board at the cell of a legal move's piece keeps that piece's moves only
    cell = re.match(r"[a-z]\d+", browser.eval("document.querySelector('.legal-move').dataset.move")).group(0)
    x, y = browser.eval(f"""(() => {{ const g = window.arenaPlay.grid, svg = document.querySelector('#board svg');
        const col = {ord(cell[0]) - ord("a")}, row = {int(cell[1:])};
        const p = new DOMPoint(g.margin + (col + 0.5) * g.cell, g.margin + (g.size - row + 0.5) * g.cell)
          .matrixTransform(svg.getScreenCTM());
        return [p.x, p.y]; }})()""")
    for kind in ("mousePressed", "mouseReleased"):
        browser.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
    kept = browser.eval("[...document.querySelectorAll('.legal-move')].map(b => b.dataset.move)")
    assert kept and all(m.startswith(cell) for m in kept), (cell, kept)
    assert len(kept) < browser.eval("window.arenaPlay.legal.length")
    moves = 0
    while not _state(browser).startswith(("game over", "error")):
        ready = _wait(browser, lambda: _state(browser).startswith(("your move", "game over", "error"))
                      and (browser.eval("document.querySelectorAll('.legal-move').length") or "over" in _state(browser)
                           or "error" in _state(browser)))
        if ready and _state(browser).startswith("your move"):
            before = browser.eval("document.getElementById('position-text').textContent")
            browser.eval("document.querySelector('.legal-move').click()")
            moves += 1
            _wait(browser, lambda shown=before: _state(browser).startswith("game over")
                  or browser.eval("document.getElementById('position-text').textContent") != shown)
        assert moves < 400
    status = _state(browser)
    assert status.startswith("game over") and "stored as game 1 of play-interaction" in status, status
    path = tmp_path / "play-interaction.sqlite"
    row = load_game(path, 1)
    assert row["seats"] == ["human", "random"] and row["fault_seat"] is None
    assert (row["plies"] + 1) // 2 == moves  # every ply of seat 0 is a move clicked (the typed one was refused)
    tour = load_tournament(path)
    assert tour["bots"] == {"human": "human", "random": "random"} and tour["settings"]["played"] is True
    final_position(path, 1)  # the stored moves replay under the rules to the stored outcome
    board = tables_for(load(path), ["leaderboard"])["leaderboard"]
    assert set(board["label"]) >= {"human", "random"}
    assert browser.errors() == []
