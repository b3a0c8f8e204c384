"""The OpenSpiel bench module (``--only openspiel``) measures; it never asserts a speed."""

from __future__ import annotations

import sys
from importlib.util import find_spec

import pytest

import arena.cli.bench as bench_cli
from arena.bench import MODULES, Figure, openspiel

needs_openspiel = pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs OpenSpiel (the openspiel extra)")


@needs_openspiel
def test_openspiel_figures_are_measured():
    assert "openspiel" in MODULES
    seconds, plies = openspiel.spiel_seconds(50)
    assert seconds > 0 and 5 * 50 <= plies <= 9 * 50  # tic-tac-toe ends in 5 to 9 plies
    figures = openspiel.run(quick=True)
    assert [f.unit for f in figures] == ["games/CPU s", "×", "ms/game", "ms/game",
                                         "games/CPU s", "games/CPU s", "games/CPU s", "×", "×"]
    for f in figures:
        assert isinstance(f, Figure) and f.area == "openspiel" and f.note
    assert figures[0].value > 0 and figures[1].value > 1 and figures[1].goal == "≤ 15"
    kuhn = figures[4:]
    assert all(f.value > 0 for f in kuhn) and "kuhn_poker" in kuhn[0].name
    assert kuhn[3].value > 1 and kuhn[4].value > kuhn[3].value  # the arena's runner does more than play_game


@needs_openspiel
def test_the_plain_loop_plays_kuhn_poker_with_chance_by_probability():
    wall, cpu, plies = openspiel.spiel_times(400, seed=3, name="kuhn_poker")
    assert wall > 0 and cpu > 0
    assert 4 * 400 <= plies <= 5 * 400  # two cards dealt, then 2 or 3 bets
    assert openspiel.spiel_times(400, seed=3, name="kuhn_poker")[2] == plies  # seeded


@needs_openspiel
def test_the_referee_loop_hands_each_kuhn_seat_its_view(monkeypatch, tmp_path):
    from arena.games import View
    from arena.tournament import build
    from bots.random import RandomBot

    handed = []
    choose = RandomBot.choose
    monkeypatch.setattr(RandomBot, "choose", lambda self, state, limits: handed.append(state) or choose(
        self, state, limits))
    cfg = build({"game": openspiel.POKER, "bots": ["random", "r2=random"], "games": 4, "workers": 1,
                 "opening_plies": 0, "results": str(tmp_path)})
    wall, cpu = openspiel.referee_times(cfg)
    assert wall > 0 and cpu > 0 and len(handed) >= 8
    assert all(isinstance(v, View) and v.seat == v.to_move and v.moves for v in handed)


def test_without_openspiel_the_area_is_skipped_with_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    rows = bench_cli.run_modules(quick=True, only="openspiel")
    assert rows == [("openspiel", None, "skipped: needs pyspiel (pip install -e '.[openspiel]')")]
