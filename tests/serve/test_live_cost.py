"""What following a run costs the server: the summary's tables are computed again only when the
games changed, and no more often than keeps them within ``BUDGET`` of a core."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from arena.serve import live


def test_tables_computed_again_within_the_cpu_budget(monkeypatch):
    computed: list[float] = []

    def tables(path: Path) -> list:  # a field table that costs 0.1 s of CPU
        start = time.thread_time()
        while time.thread_time() - start < 0.1:
            pass
        computed.append(time.monotonic())
        return [{"name": "ratings"}]

    clock = [1000.0]
    monkeypatch.setattr(live, "_tables", tables)
    monkeypatch.setattr(live.time, "monotonic", lambda: clock[0])
    summaries, path = live.Summaries(), Path("t.sqlite")
    first = summaries.get(path, (10, 10))
    assert first["tables_games"] == 10 and not first["stale"] and len(computed) == 1
    wait = 0.1 / live.BUDGET  # 2 s: more than REFRESH
    assert wait > live.REFRESH
    clock[0] += live.REFRESH
    assert summaries.get(path, (10, 10))["tables_games"] == 10 and len(computed) == 1  # nothing new
    later = summaries.get(path, (12, 12))  # new games, but the last tables cost 0.1 s of CPU
    assert later["stale"] and later["tables_games"] == 10 and len(computed) == 1
    assert not summaries.due(path, (12, 12))
    clock[0] += wait - live.REFRESH + 0.01
    assert summaries.due(path, (12, 12))
    again = summaries.get(path, (12, 12))
    assert not again["stale"] and again["tables_games"] == 12 and len(computed) == 2
    assert summaries.key(path) == (12, clock[0])


@pytest.mark.parametrize("text", ["<p>one</p>", "<p>\n  two\n</p>\n"])
def test_an_event_carries_a_fragment_line_by_line(text):
    message = live.sse("summary", text)
    lines = message.split("\n")
    assert lines[0] == "event: summary" and message.endswith("\n\n")
    assert "\n".join(line[len("data: "):] for line in lines[1:-2]) == text  # as the browser joins them
