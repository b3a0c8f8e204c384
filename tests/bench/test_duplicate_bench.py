"""The duplicate-series bench (``--only duplicate``): its bots, its two ways of dealing, and that
duplicate series narrow the standard error on Leduc poker (seeded: the same numbers every run)."""

from __future__ import annotations

import sys
from importlib.util import find_spec

import numpy as np
import pytest

import arena.cli.bench as bench_cli
from arena.bench import MODULES, duplicate

needs_spiel = pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs OpenSpiel (the openspiel extra)")


class View:
    def __init__(self, text, moves):
        self.text, self._moves = text, moves

    def legal_moves(self):
        return list(self._moves)


@pytest.mark.parametrize("text, moves, expected", [
    ("[Observer: 0][Private: 5][Round 1][Player: 0][Pot: 2]", ("Call", "Raise"), "Raise"),  # a king
    ("[Observer: 0][Private: 3][Round 1][Player: 0][Pot: 2]", ("Call", "Raise"), "Call"),  # a queen
    ("[Observer: 1][Private: 0][Round 1][Player: 1][Pot: 4]", ("Fold", "Call", "Raise"), "Fold"),  # a jack, a bet
    ("[Observer: 1][Private: 1][Round 1][Player: 1][Pot: 2]", ("Call", "Raise"), "Call"),  # a jack, no bet
    ("[Observer: 0][Private: 0][Round 2][Public: 1][Round1: 1 1]", ("Call", "Raise"), "Raise"),  # a pair of jacks
    ("[Observer: 0][Private: 5][Round 2][Public: 1][Round1: 2 2]", ("Fold", "Call"), "Call"),  # no raise left
])
def test_the_rank_bot_plays_its_fixed_strategy_from_the_view(text, moves, expected):
    assert duplicate.RankBot().choose(View(text, moves), None) == expected
    assert duplicate.CallBot().choose(View(text, moves), None) == "Call"


@needs_spiel
def test_duplicate_series_deal_alike_and_narrow_the_standard_error():
    import arena.games

    assert "duplicate" in MODULES
    game = arena.games.make(duplicate.GAME)
    dup = duplicate.play(game, 200, True, ("rank", "call"))
    assert np.array_equal(dup, duplicate.play(game, 200, True, ("rank", "call")))  # seeded
    ind = duplicate.play(game, 200, False, ("rank", "call"))
    assert not np.array_equal(dup, ind)
    (_, dup_se), (_, ind_se) = duplicate.standard_error(dup), duplicate.standard_error(ind)
    assert dup_se < 0.8 * ind_se
    # the standard error of 200 series of 2 games is that of their 200 means
    assert dup_se == pytest.approx(np.std(dup.mean(axis=1), ddof=1) / np.sqrt(200))


def test_without_openspiel_the_area_is_skipped(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    assert bench_cli.run_modules(quick=True, only="duplicate") == [
        ("duplicate", None, "skipped: needs pyspiel (pip install -e '.[openspiel]')")]
