"""The tournament page of a running ``arena run`` in headless Chromium: each stored game's
count, and the field table of it, show without reload (server-sent events) within 2 s; the
game in progress is drawn (the run's live file); the page makes no request of its own while it
follows (the events carry the fragments).

The figures (seconds from the test seeing a game stored to the page showing it) are printed;
the assertion keeps margins for a loaded machine: the median within 2 s plus a poll's slack,
every game within 10 s.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

import pytest

from arena.errors import ResultsError
from arena.results.browse import change_mark as mark_of

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def change_mark(db) -> tuple[int, int]:
    """The store's (games, last id); (0, 0) while the run has not made its tables yet."""
    try:
        return mark_of(db)
    except ResultsError:
        return 0, 0


def _shown(browser) -> tuple[int, int]:
    """(the game count the page shows, the games its field table is of)."""
    got = browser.eval("""(() => { const c = document.getElementById('game-count'),
        t = document.getElementById('summary-tables');
        return [c ? Number(c.textContent) : -1, t ? Number(t.dataset.games) : -1,
                document.querySelectorAll('#table-ratings tbody tr').length]; })()""")
    return got[0], got[1] if got[2] >= 2 else -1


def test_running_tournament_page_follows_each_game(tmp_path, serve, browser):
    results = tmp_path / "results"
    results.mkdir()
    server = serve(results)  # ready before the run starts
    run = subprocess.Popen([sys.executable, "-m", "arena", "run", "--game", "interaction", "--bot", "mcts",
                            "--bot", "random", "--games", "12", "--move-time", "0.2", "--workers", "1",
                            "--results", str(results), "--name", "live", "-q"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    try:
        db = results / "live.sqlite"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (db.is_file() and change_mark(db)[0] >= 1):
            time.sleep(0.1)
        assert db.is_file(), "the run stored no game"
        browser.open(f"{server.url}/t/live")
        count_lags, table_lags = [], []
        seen, boards = 0, 0
        board = "document.querySelectorAll('#playing .live-game svg').length"
        while run.poll() is None or seen < change_mark(db)[0]:
            stored = change_mark(db)[0]
            boards = max(boards, browser.eval(board))
            if stored <= seen:
                time.sleep(0.05)
                continue
            t0 = time.monotonic()
            count_at = table_at = None
            while time.monotonic() - t0 < 15 and (count_at is None or table_at is None):
                count, table = _shown(browser)
                now = time.monotonic() - t0
                if count_at is None and count >= stored:
                    count_at = now
                if table_at is None and table >= stored:
                    table_at = now
                time.sleep(0.05)
            assert count_at is not None and table_at is not None, f"game {stored} not shown within 15 s"
            count_lags.append(count_at)
            table_lags.append(table_at)
            seen = stored
        assert run.wait(60) == 0, run.stderr.read().decode() if run.stderr else ""
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(10)
    print(f"\nstored -> shown (s), count: median {statistics.median(count_lags):.2f} max {max(count_lags):.2f}; "
          f"field table: median {statistics.median(table_lags):.2f} max {max(table_lags):.2f}; {len(count_lags)} looks")
    assert len(count_lags) >= 3  # several games were seen arriving one by one
    assert boards >= 1  # the game in progress, drawn from the run's live file
    assert statistics.median(count_lags) <= 2.5 and statistics.median(table_lags) <= 2.5
    assert max(count_lags) <= 10 and max(table_lags) <= 10
    assert browser.errors() == []
    asked = browser.eval("""performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)
        .filter(p => p.endsWith('/summary') || p.endsWith('/live')).length""")
    assert asked == 0  # the events carried the summary and the games in progress: no request each
    assert not (results / "live.live.json").exists()  # the run removed its live file at the end
