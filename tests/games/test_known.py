"""The test game of known strengths (``arena.games.known``) and its bot ``known:elo=N``."""

from __future__ import annotations

import math

import numpy as np
import pytest

import arena.games
from arena.errors import BotSpecError, IllegalMoveError
from arena.games import CHANCE, check
from arena.games.known import outcome_probabilities
import bots


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_known_game_passes_the_conformance_checks(players):
    check(arena.games.make("known", players=players, first=30))


@pytest.mark.parametrize("draws", [0.0, 0.3, 1.0])
def test_two_player_outcomes_score_exactly_as_the_elo_model_says(draws):
    d = np.array([-400.0, -35.0, 0.0, 120.0, 800.0])
    p = outcome_probabilities(np.stack([d, np.zeros_like(d)], axis=1), first=50.0, draws=draws)
    expected = 1 / (1 + 10 ** (-(d + 50) / 400))
    assert np.allclose(p.sum(axis=1), 1.0) and (p >= 0).all()
    assert np.allclose(p[:, 0] + 0.5 * p[:, 1], expected)
    # the draw rate between equals (first move aside) is the parameter
    equal = outcome_probabilities(np.array([0.0, 0.0]), draws=draws)
    assert equal[1] == pytest.approx(draws)


def test_three_player_orders_follow_plackett_luce_by_hand():
    r = np.array([100.0, 0.0, -50.0])
    p = outcome_probabilities(r, first=30.0)
    e = np.exp(math.log(10) / 400 * np.array([130.0, 0.0, -50.0]))
    # orders in lexicographic order: (0, 1, 2) first, (2, 1, 0) last
    assert p[0] == pytest.approx(e[0] / e.sum() * e[1] / (e[1] + e[2]))
    assert p[-1] == pytest.approx(e[2] / e.sum() * e[1] / (e[1] + e[0]))
    assert p.sum() == pytest.approx(1.0)


def test_the_bot_declares_its_strength_and_the_chance_ply_decides():
    game = arena.games.make("known", first=20)
    bot = bots.make("known:elo=150")
    bot.reset(game, 0, 1)
    state = game.initial_state()
    state = state.play(bot.choose(state, None))
    state = state.play(-60)
    assert state.to_move == CHANCE
    (w, pw), (lo, pl) = state.chance_outcomes()  # no draws: a draw is no outcome
    assert (w, lo) == ("1-0", "0-1") and pw == pytest.approx(1 / (1 + 10 ** (-230 / 400))) == 1 - pl
    end = state.play("0-1")
    assert end.outcome().ranks == (2, 1) and game.parse_state(end.to_text()) == end
    with pytest.raises(IllegalMoveError):
        game.initial_state().play(5000)


def test_a_strength_out_of_range_is_refused_in_the_spec():
    with pytest.raises(BotSpecError, match="elo"):
        bots.make("known:elo=9000")


def test_a_tournament_of_the_known_game_plays_no_random_opening_plies_by_default():
    """The game's first plies are the bots' declared strengths: its tournaments default to no
    random opening plies (the arena's default of 2 would declare random strengths), and a
    given ``opening_plies`` still wins."""
    from arena.tournament import build

    assert build({"game": "known", "bots": ["known:elo=0", "known:elo=100"]}).opening_plies == 0
    assert build({"game": "known", "bots": ["known:elo=0", "known:elo=100"], "opening_plies": 1}).opening_plies == 1
    assert build({"game": "interaction", "bots": ["random", "random"]}).opening_plies == 2
