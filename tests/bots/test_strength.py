"""Strength of the search bots on Interaction (slow): 40 games per pairing, alternating the
first player, from seeded random openings of 2-4 plies; score = wins + draws / 2."""

import pytest

import arena.games
import bots
from arena.referee import play_game, random_opening, GameSettings


def score(spec, opponent, games=40, seed=1000):
    """``spec``'s score fraction over ``games`` games against ``opponent``."""
    game = arena.games.make("interaction")
    total = 0.0
    for i in range(games):
        pair_seed = seed + i // 2  # the two games of a pair share an opening
        opening = random_opening(game, pair_seed, 2 + (i // 2) % 3)
        seat = i % 2
        players = [bots.make(opponent), bots.make(opponent)]
        players[seat] = bots.make(spec)
        rec = play_game(GameSettings(game, pair_seed, opening=opening), players)
        mine, theirs = rec.outcome.ranks[seat], rec.outcome.ranks[1 - seat]
        assert rec.fault_seat is None, rec.fault_detail
        total += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    return total / games


@pytest.mark.slow
def test_alphabeta_beats_random():
    assert score("alphabeta:depth=3", "random") >= 0.9


@pytest.mark.slow
def test_alphabeta_beats_greedy():
    assert score("alphabeta:depth=3", "greedy") >= 0.7


@pytest.mark.slow
def test_mcts_beats_random():
    assert score("mcts:playouts=400", "random") >= 0.8
