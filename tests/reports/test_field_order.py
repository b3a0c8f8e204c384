"""A new bot version's pairings read from the same side as its first version's (issue 41: with
``me`` then ``random`` given, v1 printed ``me vs random`` and v2 ``random vs me@2``)."""

from __future__ import annotations

import json

import pytest

from arena.reports.order import field_order
from arena.reports.output import report_json
from arena.reports.render import load
from arena.tournament import build, run_tournament
from tests.registered import register_game

BOT = '''class Bot:
    def choose(self, state, limits):
        return state.legal_moves()[{index}]
'''


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch):
    register_game(monkeypatch, "nim", "tests.toy:Nim")


def test_a_later_version_takes_its_first_versions_place():
    versions = {"me": {"bot": "me", "version": 1}, "random": {"bot": "random", "version": 1},
                "me@2": {"bot": "me", "version": 2}, "ab": {"bot": "ab", "version": 1},
                "me@3": {"bot": "me", "version": 3}, "random@2": {"bot": "random", "version": 2}}
    assert field_order(versions, versions) == ["me", "me@2", "me@3", "random", "random@2", "ab"]
    assert field_order(["b", "a"]) == ["b", "a"]  # a store before versions: the order they joined


def test_an_edited_bots_pairings_read_from_its_side(tmp_path):
    bot = tmp_path / "mybot.py"
    bot.write_text(BOT.format(index=0))
    cfg = build(dict(game="nim", params={"pile": "9"}, bots=[f"me={bot}#Bot", "random"], games=4, workers=1,
                     results=str(tmp_path), opening_plies=1, name="pool"))
    run_tournament(cfg)
    bot.write_text(BOT.format(index=-1))
    summary = run_tournament(cfg)
    data = load(summary.path)
    assert data.order == ["me", "me@2", "random"]
    tables = json.loads(report_json(data, ["pairs", "first_move"]))["tables"]
    assert [row["pairing"] for row in tables["pairs"]] == ["me vs random", "me@2 vs random"]
    assert [row["scope"] for row in tables["first_move"]][1:] == ["me vs random", "me@2 vs random"]
