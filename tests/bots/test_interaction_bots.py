"""The search bots on Interaction: exact values, tactics, determinism and limits."""

import random

import pytest

import arena.games
import bots
from arena.referee import play_game, random_opening, GameSettings
from bots.base import Limits
from bots.eval import WIN, evaluator
from bots.eval.interaction import SCORE, evaluate
from tests.bots.minimax import minimax
from tests.timing import retry_under_load
from tests.games.interaction_util import position


@pytest.fixture(scope="module")
def game():
    return arena.games.make("interaction")


def random_positions(game, count, seed):
    """Live positions after 0..60 seeded random plies, re-read from text (empty history)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(61)):
            moves = state.legal_moves()
            nxt = state.play(moves[rng.randrange(len(moves))])
            if nxt.is_terminal():
                break
            state = nxt
        out.append(game.parse_state(state.to_text()))
    return out


def ready(spec, game, seat=0, seed=0):
    bot = bots.make(spec)
    bot.reset(game, seat, seed)
    return bot


def test_evaluator_registered_and_antisymmetric(game):
    assert evaluator("interaction") is evaluate
    for state in random_positions(game, 20, seed=5):
        assert evaluate(state, 0) == -evaluate(state, 1)
        s0, s1 = state.scores
        assert abs(evaluate(state, 0) - SCORE * (s0 - s1)) < SCORE  # the score difference comes first


def test_evaluator_counts_the_neutrals_of_ranks_3_4_6_7(game):
    # the heuristic's formula (bots/eval/interaction.py) with the neutrals counted cell by cell
    from bots.eval.interaction import FAR, NEAR

    for state in random_positions(game, 40, seed=11):
        neutral = [state.board[c] == 3 for c in range(81)]
        near = sum(neutral[r * 9 + f] for r in (3, 5) for f in range(9))
        far = sum(neutral[r * 9 + f] for r in (2, 6) for f in range(9))
        s0, s1 = state.scores
        tempo = NEAR * near + FAR * far
        assert evaluate(state, state.side) == SCORE * (s0 - s1 if state.side == 0 else s1 - s0) + tempo
        assert evaluate(state, 1 - state.side) == SCORE * (s1 - s0 if state.side == 0 else s0 - s1) - tempo


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_root_value_equals_minimax(game, depth):
    states = random_positions(game, 50, seed=depth)
    proven = 0
    for state in states:
        bot = ready("alphabeta", game, state.to_move)
        bot.choose(state, Limits(depth=depth))
        expected = minimax(state, depth, evaluate)
        assert bot.last_stats.evaluation == expected, state.to_text()
        proven += abs(expected) > WIN / 2
    assert 5 <= proven <= 45  # both finished games and heuristic leaves are compared


def test_takes_the_winning_pocket(game):
    # Red has 4 of 5; e1N pockets e4 (spec example 1), every other move does not win at once
    text = position({"e1": "R", "a8": "R", "i2": "B", "h8": "B", "e4": "Y", "c7": "Y", "g3": "Y"},
                    "r", (4, 3), 20)
    state = game.parse_state(text)
    for spec in ("alphabeta:depth=1", "alphabeta:depth=3", "greedy", "mcts:playouts=200"):
        move = ready(spec, game).choose(state, Limits())
        after = state.play(move)
        assert after.is_terminal() and after.outcome().winners == (0,), spec
    bot = ready("alphabeta:depth=3", game)
    bot.choose(state, Limits())
    assert bot.last_stats.evaluation == WIN - 1 and bot.last_stats.depth == 1


def test_stops_the_opponents_winning_pocket(game):
    # Blue (4 of 5) threatens c8N (spec example 2); Red must spoil it, e.g. by moving c7
    text = position({"a7": "R", "g4": "R", "c8": "B", "i2": "B", "c7": "Y", "e3": "Y", "g7": "Y"},
                    "r", (3, 4), 20)
    state = game.parse_state(text)
    threat = game.parse_state(text.replace(" r ", " b "))
    assert threat.play("c8N").outcome().winners == (1,)  # the threat is real
    bot = ready("alphabeta:depth=2", game)
    move = bot.choose(state, Limits())
    assert bot.last_stats.evaluation > -WIN / 2
    after = state.play(move)
    assert not any(after.play(m).is_terminal() for m in after.legal_moves())


def test_same_seed_same_game(game):
    def one():
        rec = play_game(GameSettings(game, 9, opening=random_opening(game, 9, 3)),
                        [bots.make("alphabeta:depth=2"), bots.make("mcts:playouts=60")])
        return rec.moves, [m.nodes for m in rec.move_stats], rec.outcome
    assert one() == one()


def test_node_and_time_limits(game):
    state = next(s for s in random_positions(game, 30, seed=11) if max(s.scores) <= 1)  # no quick win
    for cap in (1, 30, 500, 3000):
        bot = ready(f"alphabeta:nodes={cap}", game, state.to_move)
        assert bot.choose(state, Limits()) in state.legal_moves()
        assert bot.last_stats.nodes <= cap

    def check(slack):
        bot = ready("alphabeta:depth=20", game, state.to_move)
        bot.choose(state, Limits(time=0.3))
        # no new iteration after half the time
        assert bot.last_stats.seconds < 0.6 * slack and bot.last_stats.depth >= 2
        bot = ready("mcts:time=0.3", game, state.to_move)
        bot.choose(state, Limits())
        assert bot.last_stats.seconds < 0.6 * slack and bot.last_stats.nodes > 5
    retry_under_load(check)


def test_time_limited_games_keep_to_the_clock(game):
    def check(slack):
        rec = play_game(GameSettings(game, 4, limits=Limits(time=0.05), time_margin=0.2 * slack,
                                     opening=random_opening(game, 4, 2)),
                        [bots.make("alphabeta"), bots.make("mcts")])
        assert rec.fault_seat is None and rec.outcome.termination != "timeout"
        searched = [m for m in rec.move_stats if m.seat == 0 and m.nodes > 1]
        assert searched and max(m.seconds for m in searched) < 0.25 * slack
    retry_under_load(check)
