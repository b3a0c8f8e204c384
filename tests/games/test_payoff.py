"""Which games rank by payoff (``arena.games.payoff``, ``arena.games.openspiel.payoffs``):
the declaration, and OpenSpiel's rule (zero-sum games that pay more than one unit)."""

from __future__ import annotations

import math
from importlib.util import find_spec

import pytest

import arena.games
from arena.games import Payoff
from arena.games.payoff import payoff_of
from tests.payoff_toy import DiceDuel

needs_spiel = pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs OpenSpiel (the openspiel extra)")


def test_a_payoff_declares_its_unit_blind_and_forfeit():
    p = Payoff("chips", forfeit=13.0, big_blind=2.0, blind="the big blind, 2 chips")
    assert p.mbb(0.5) == 250.0 and math.isnan(Payoff("points").mbb(1.0))
    assert p.describe() == "chips; big blind: the big blind, 2 chips; a fault pays 13 chips"
    assert Payoff("points").describe() == "points; games lost by a fault are left out"
    for bad in ({"unit": " "}, {"unit": "chips", "forfeit": -1.0}, {"unit": "chips", "big_blind": 0.0},
                {"unit": "chips", "big_blind": math.inf}):
        with pytest.raises(ValueError):
            Payoff(**bad)


def test_the_arenas_own_games_rank_by_places_and_a_users_game_may_declare_a_payoff():
    for name in ("interaction", "sandpile", "ricochet", "interaction-solo-race"):
        assert payoff_of(arena.games.make(name)) is None, name
    assert payoff_of(DiceDuel()) == DiceDuel.payoff
    assert payoff_of(object()) is None


@needs_spiel
@pytest.mark.parametrize("name, params, expected", [
    ("kuhn_poker", {}, Payoff("chips", 2.0, 1.0, "the ante, 1 chip (no blinds)")),
    ("leduc_poker", {}, Payoff("chips", 13.0, 1.0, "the ante, 1 chip (no blinds)")),
    ("universal_poker", {}, Payoff("chips", 1200.0, 100.0, "the largest blind, 100 chips (blind=100 100)")),
    ("universal_poker", {"blind": "100 50"}, Payoff("chips", 1200.0, 100.0,
                                                   "the largest blind, 100 chips (blind=100 50)")),
    ("backgammon", {"scoring_type": "full_scoring"}, Payoff("points", 3.0)),
    ("backgammon", {}, None),  # win-loss scoring: places
    ("goofspiel", {"returns_type": "point_difference"}, Payoff("points", 45.0)),
    ("goofspiel", {}, None),
    ("gin_rummy", {}, Payoff("points", 123.0)),
    ("tic_tac_toe", {}, None),
    ("pig", {}, None),
    ("2048", {}, None),  # not zero-sum
])
def test_openspiel_games_rank_by_payoff_when_zero_sum_and_paying_more_than_one(name, params, expected):
    import pyspiel

    from arena.games.openspiel.payoffs import spiel_payoff

    assert spiel_payoff(pyspiel.load_game(name, params)) == expected


@needs_spiel
def test_an_openspiel_game_carries_its_payoff_with_its_parameters():
    assert arena.games.make("openspiel:backgammon").payoff is None
    full = arena.games.make("openspiel:backgammon", scoring_type="full_scoring")
    assert full.payoff == Payoff("points", 3.0)
