"""The HTML report in a real browser: headless Chromium driven through the DevTools protocol.

Run by ``.ci/run`` (which installs Debian's ``chromium`` when missing); skipped elsewhere when
no Chromium is on PATH. For a tournament of each built-in game: the page loads with no
JavaScript console error and no network request, each embedded replay steps (buttons and
arrow keys) to its last ply whose position text equals the stored game's final position, and
a screenshot of the viewer is not blank.
"""

from __future__ import annotations

import pytest

from arena.reports.html import write_html
from tests.reports.cdp import png_colours
from tests.reports.stores import final_position, make_store

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # each test starts headless Chromium

LOCAL = ("file:", "data:", "blob:")


def _text(browser, element_id: str) -> str:
    return browser.eval(f"document.getElementById({element_id!r}).textContent")


@pytest.mark.parametrize("name", ["interaction", "sandpile", "ricochet"])
def test_report_replays_in_chromium(name, browser, tmp_path):
    path = make_store(tmp_path, name, fault=name == "interaction")
    page = write_html(path)
    browser.open(page.as_uri())
    browser.eval("document.getElementById('last').click()")  # while the first game unpacks: no error
    ids = browser.eval("arenaReport.games.map(g => g.id)")
    assert ids, "no game embedded"
    assert browser.eval("document.querySelectorAll('.js-plotly-plot').length") >= 4
    for game_id in ids:
        browser.eval(f"arenaReport.openGame({game_id})")
        browser.eval("document.getElementById('last').click()")
        plies = browser.eval("arenaReport.view.frames.length - 1")
        assert _text(browser, "ply-label") == f"ply {plies} / {plies}"
        assert _text(browser, "position-text") == final_position(path, game_id)
        assert browser.eval("document.querySelector('#board svg') !== null")
    terminations = browser.eval("arenaReport.games.map(g => g.termination)")
    browser.eval(f"const f = document.getElementById('f-termination'); f.value = {terminations[-1]!r}; "
                 "f.dispatchEvent(new Event('input'))")
    shown = browser.eval("[...document.querySelectorAll('#game-list tbody tr')].filter(r => !r.hidden).length")
    assert shown == terminations.count(terminations[-1])
    browser.key("Home", 36)
    assert _text(browser, "ply-label").startswith("ply 0 /")
    browser.key("ArrowRight", 39)
    assert _text(browser, "ply-label").startswith("ply 1 /")
    assert "current" in browser.eval("document.querySelectorAll('#move-list li')[1].className")
    browser.key("ArrowLeft", 37)
    browser.key("End", 35)
    assert _text(browser, "position-text") == final_position(path, ids[-1])
    browser.eval("document.getElementById('viewer').scrollIntoView()")
    shot = browser.screenshot(tmp_path / f"{name}.png")
    assert png_colours(shot) >= 16, "the screenshot is blank"
    assert browser.errors() == []
    assert [url for url in browser.requests() if not url.startswith(LOCAL)] == []
