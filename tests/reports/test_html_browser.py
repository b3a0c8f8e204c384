"""The HTML report in a real browser: headless Chromium driven through the DevTools protocol.

Run by ``.ci/run`` (which installs Debian's ``chromium`` when missing); skipped elsewhere when
no Chromium is on PATH. For a tournament of each built-in game: the page loads with no
JavaScript console error and no network request, each embedded replay steps (buttons and
arrow keys) to its last ply whose position text equals the stored game's final position, and
a screenshot of the viewer is not blank. The page's layout, measured in the browser: no plot
title under plotly's mode bar, no two x tick labels overlapping (their rotated boxes) or cut off
by the plot's edge, the game list as wide as its pane (also in a narrow window), and the search
plot on a linear axis from 0; a 4-player report's seat plot carries the seat table's 95%
intervals, and an engine's ``id name`` stands beside its label in the field table, the
leaderboard and the bot list; the search plot's error bars are the search table's spread.
"""

from __future__ import annotations

import pytest

from pathlib import Path

from arena.reports.html import write_html
from arena.reports.render import load, tables_for
from arena.tournament import build, run_tournament
from tests.reports.cdp import png_colours
from tests.reports.stores import final_position, make_store

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # each test starts headless Chromium

LOCAL = ("file:", "data:", "blob:")


FIRST = Path(__file__).parents[2] / "examples" / "engines" / "first_legal.sh"

#: Per plot: its title's and its mode bar's boxes, its svg's box and the four corners (screen
#: px) of each x tick label's box turned as the label is drawn (rotated, several lines).
_GEOMETRY = """[...document.querySelectorAll('.js-plotly-plot')].map(gd => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const ticks = [...gd.querySelectorAll('.xtick text')].filter(t => t.textContent && t.getBBox().width > 0)
    .map(t => { const b = t.getBBox(), m = t.getScreenCTM();
      return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
        .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]); });
  return {id: gd.id, title: box(gd.querySelector('.gtitle')), modebar: box(gd.querySelector('.modebar')),
          svg: box(gd.querySelector('.main-svg')), ticks};
})"""

#: The game list against its pane (px): its width, the pane's, the pane's scrolled width and overflow.
_LIST = """(() => { const p = document.getElementById('list-pane'), t = document.getElementById('game-list');
  return [t.getBoundingClientRect().right, p.getBoundingClientRect().right, p.scrollWidth, p.clientWidth,
          getComputedStyle(p).overflowX]; })()"""


def _text(browser, element_id: str) -> str:
    return browser.eval(f"document.getElementById({element_id!r}).textContent")


def _apart(a: list, b: list) -> bool:
    """Whether two convex quadrilaterals (corner lists) do not overlap by more than a pixel: a
    separating axis among their edges' normals."""
    for quad in (a, b):
        for (x0, y0), (x1, y1) in zip(quad, quad[1:] + quad[:1]):
            nx, ny = y0 - y1, x1 - x0
            length = (nx * nx + ny * ny) ** 0.5 or 1.0
            pa = [(nx * x + ny * y) / length for x, y in a]
            pb = [(nx * x + ny * y) / length for x, y in b]
            if max(pa) <= min(pb) + 1 or max(pb) <= min(pa) + 1:
                return True
    return False


def _inside(box: list, outer: list) -> bool:
    return box[0] >= outer[0] - 1 and box[1] >= outer[1] - 1 and box[2] <= outer[2] + 1 and box[3] <= outer[3] + 1


def layout_problems(browser) -> list[str]:
    """What the page's layout gets wrong, measured in the browser (empty: nothing)."""
    out = []
    for plot in browser.eval(_GEOMETRY):
        title, bar, svg = plot["title"], plot["modebar"], plot["svg"]
        if not (title[2] <= bar[0] or bar[2] <= title[0] or title[3] <= bar[1] or bar[3] <= title[1]):
            out.append(f"{plot['id']}: the title {title} is under the mode bar {bar}")
        if not _inside(title, svg):
            out.append(f"{plot['id']}: the title {title} leaves the plot {svg}")
        ticks = plot["ticks"]
        for i, a in enumerate(ticks):
            xs, ys = [x for x, _ in a], [y for _, y in a]
            if not _inside([min(xs), min(ys), max(xs), max(ys)], svg):
                out.append(f"{plot['id']}: x tick label {i} is cut off by the plot's edge")
            out += [f"{plot['id']}: x tick labels {i} and {j} overlap" for j in range(i + 1, len(ticks))
                    if not _apart(a, ticks[j])]
    table_right, pane_right, scrolled, width, _ = browser.eval(_LIST)
    if table_right > pane_right + 1 or scrolled > width + 1:
        out.append(f"the game list ({scrolled} px) is wider than its pane ({width} px)")
    browser.send("Emulation.setDeviceMetricsOverride", width=640, height=1800, deviceScaleFactor=1, mobile=False)
    table_right, pane_right, scrolled, width, overflow = browser.eval(_LIST)
    browser.send("Emulation.clearDeviceMetricsOverride")
    if (table_right > pane_right + 1 or scrolled > width + 1) and overflow not in ("auto", "scroll"):
        out.append(f"at 640 px the game list ({scrolled} px) is cut off by its pane ({width} px)")
    if browser.eval("document.getElementById('plot-search') !== null"):
        axis = browser.eval("(a => [a.type, a.range[0]])(document.getElementById('plot-search')._fullLayout.yaxis)")
        if axis != ["linear", 0]:
            out.append(f"the search plot's axis is {axis[0]} from {axis[1]}, not linear from 0")
    return out


@pytest.mark.parametrize("name", ["interaction", "sandpile", "ricochet"])
def test_report_replays_in_chromium(name, browser, tmp_path):
    path = make_store(tmp_path, name, fault=name == "interaction")
    page = write_html(path)
    browser.open(page.as_uri())
    browser.eval("document.getElementById('last').click()")  # while the first game unpacks: no error
    ids = browser.eval("arenaReport.games.map(g => g.id)")
    assert ids, "no game embedded"
    assert browser.eval("document.querySelectorAll('.js-plotly-plot').length") >= 4
    assert layout_problems(browser) == []
    if name == "sandpile":  # the seat plot's error bars: the seat table's 95% intervals
        seats = tables_for(load(path))["seat_advantage"]
        bars = browser.eval("(d => [d.y, d.error_y.array, d.error_y.arrayminus].map(a => Array.from(a)))"
                            "(document.getElementById('plot-first-move')._fullData[0])")
        assert bars[0] == pytest.approx(list(seats["win_share"] * 100))
        ends = [None if e is None else y + e for y, e in zip(bars[0], bars[1])], \
            [None if e is None else y - e for y, e in zip(bars[0], bars[2])]
        for ci, shown in zip(("ci_high", "ci_low"), ends):  # a seat without an interval ("-"): no bar
            assert shown == pytest.approx([None if v != v else 100 * v for v in seats[ci]], nan_ok=True)
        assert sum(e is not None for e in bars[1]) >= 2
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


def test_long_names_an_engine_and_search_in_chromium(browser, tmp_path):
    """A real run of an engine and two bots with long labels: tick labels and the game list
    stay readable, the engine's ``id name`` is beside its label, the search axis starts at 0
    and carries each bot's spread of nodes per move."""
    engine = "an_engine_with_a_label_of_forty_characters"  # no place to break a line: wider than its pane
    bots = [f"{engine}=exec:{FIRST}", "greedy_with_a_label_of_forty_characters_=greedy",
            "alphabeta_with_a_label_of_forty_character=alphabeta:depth=1"]
    summary = run_tournament(build(dict(game="interaction", bots=bots, games=2, workers=1,
                                        results=str(tmp_path), name="long")))
    browser.open(write_html(summary.path).as_uri())
    assert layout_problems(browser) == []
    search = tables_for(load(summary.path))["search"]  # the spread of each bot's nodes per move: its error bars
    bars = browser.eval("(d => Array.from(d.error_y.array))(document.getElementById('plot-search')._fullData[0])")
    assert bars == pytest.approx([None if v != v else v for v in search["sd_nodes"]], nan_ok=True)
    assert sum(v is not None and v > 0 for v in bars) == 2  # greedy and alphabeta count nodes, the engine none
    assert browser.eval("document.getElementById('plot-lengths')._fullData.length") == 3  # three pairings
    for table in ("leaderboard", "ratings"):
        rows = browser.eval(f"[...document.querySelectorAll('#table-{table} tbody tr')]"
                            ".map(r => [...r.cells].map(c => c.textContent))")
        named = [row for row in rows if engine in row]
        assert len(named) == 1 and named[0][named[0].index(engine) + 1] == "first-legal-sh"
    items = browser.eval("[...document.querySelectorAll('ul.meta li')].map(li => li.textContent)")
    assert f"{engine} (first-legal-sh): {engine}=exec:" in "\n".join(items)
    assert browser.errors() == []
    assert [url for url in browser.requests() if not url.startswith(LOCAL)] == []
