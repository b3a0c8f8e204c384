"""The report's ``llm`` section (issue 44): per bot tokens and cost per game, latency p50/p95,
illegal answers per attempt and void games; left out when no bot logged and no game was void."""

from __future__ import annotations

import math

import pytest

from arena.reports.llm import llm_table
from arena.reports.render import load, tables_for
from arena.tournament import build, run_tournament

FLAKY = "tests/llm_side/net_bots.py#Flaky"


def _log(tokens, latency, verdicts, cost=0.5, cached=False):
    """A move's log; a provider's error belongs to the attempt it was retried for (``arena.llm``)."""
    numbers = [1 + sum(w != "provider_error" for w in verdicts[:i]) for i in range(len(verdicts))]
    return {"tokens_in": tokens, "tokens_out": tokens // 10, "latency": latency, "cost": cost, "cached": cached,
            "attempts": len(verdicts),
            "transcript": [{"attempt": n, "verdict": v} for n, v in zip(numbers, verdicts)]}


def test_the_figures_of_each_bot():
    games = [(["m", "x"], [{"ply": 0, "seat": 0, "log": _log(100, 1.0, ["illegal", "legal"])},
                           {"ply": 2, "seat": 0, "log": _log(300, 3.0, ["provider_error", "legal"], cached=True)}]),
             (["x", "m"], [{"ply": 1, "seat": 1, "log": _log(200, 2.0, ["unparsable", "cut_off", "illegal",
                                                                         "legal"], cost=None)}])]
    table = llm_table(games, {"m": 1, "z": 2}, ["x", "m", "z"])
    m = table.set_index("bot").loc["m"]
    assert (m["games"], m["moves"], m["tokens_in"], m["cost"], m["void"]) == (2, 3, 300.0, 0.5, 1)
    assert (m["latency_p50"], m["cached"]) == (2.0, pytest.approx(1 / 3))
    assert m["latency_p95"] == pytest.approx(2.9)
    # first attempts: illegal, legal (after a provider's error: no answer), unparsable; re-asks: legal,
    # cut_off; later: illegal, legal
    assert (m["illegal_1"], m["illegal_2"], m["illegal_3"]) == (pytest.approx(2 / 3), 0.5, 0.5)
    z = table.set_index("bot").loc["z"]  # void games only
    assert z["moves"] == 0 and z["void"] == 2 and math.isnan(z["latency_p50"])
    assert list(table["bot"]) == ["m", "z"]
    assert llm_table([], {}, ["x"]) is None


def test_the_section_of_a_run_and_its_absence(tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    summary = run_tournament(build(dict(game="nim", params={"pile": "9"}, bots=["random", f"f={FLAKY}:dir={marks}"],
                                        games=2, workers=1, results=str(tmp_path / "R"), name="t")))
    table = tables_for(load(summary.path), ["llm"])["llm"].set_index("bot")
    assert list(table.index) == ["f"] and table.loc["f", "void"] == 1 and table.loc["f", "games"] == 2
    plain = run_tournament(build(dict(game="nim", params={"pile": "9"}, bots=["random", "greedy"], games=2,
                                      workers=1, results=str(tmp_path / "R"), name="p")))
    assert "llm" not in tables_for(load(plain.path))


def test_every_column_is_documented():
    from arena.reports.llm import COLUMNS
    from tests.docs.test_report_columns import documented

    assert set(COLUMNS) == documented()["llm"]
