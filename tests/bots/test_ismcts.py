"""``ismcts``: information-set MCTS over its own information sets, from states sampled from its
view: the right calls and folds of Kuhn poker, the dominant answer of a simultaneous round, a
search that depends on the view alone, seeded, and refused where views cannot be sampled."""

from __future__ import annotations

import random

import pytest

import bots
from arena.errors import BotSpecError
from arena.games import CHANCE, TERMINAL, Answer, View, draw_chance
from arena.games.views import SampleError
from bots.base import Limits
from bots.registry import check_field, parse_spec
from tests.bots.hidden_games import Dilemma, Kuhn, KuhnUnsampled
from tests.bots.spiel_games import spiel_game
from tests.cli_run import run_cli
from tests.toy import Nim
from tests.timing import retry_under_load


def ready(spec, game, seat=0, seed=0):
    bot = bots.make(spec)
    bot.reset(game, seat, seed)
    return bot


@pytest.mark.parametrize("position, seat, best", [
    ("KJ/", 0, None),    # the king opens: either move wins
    ("JK/b", 1, "Bet"),  # the king facing a bet calls (wins 2; a fold loses 1)
    ("KJ/b", 1, "Pass"),  # the jack facing a bet folds (a call loses 2)
    ("KQ/pb", 0, "Bet"),
    ("JQ/pb", 0, "Pass"),
])
def test_kuhn_calls_with_the_king_and_folds_the_jack(position, seat, best):
    game = Kuhn()
    view = game.parse_state(position).view(seat)
    for seed in range(3):
        bot = ready("ismcts:playouts=300", game, seat, seed)
        move = bot.choose(view, Limits())
        assert move in view.moves and bot.last_stats.nodes == 300
        if best is not None:
            assert move == best


def test_the_search_depends_on_the_view_alone():
    """Two deals the seat cannot tell apart (it holds the queen): the same search, move for move."""
    game = Kuhn()
    found = []
    for position in ("QJ/pb", "QK/pb"):
        bot = ready("ismcts:playouts=200", game, 0, seed=5)
        found.append((bot.choose(game.parse_state(position).view(0), Limits()), bot.last_stats.evaluation))
    assert found[0] == found[1]


def test_the_payoff_is_the_reward():
    """The evaluation is the move's mean payoff in chips: calling with the king wins 2."""
    game = Kuhn()
    bot = ready("ismcts:playouts=300", game, 1)
    assert bot.choose(game.parse_state("JK/b").view(1), Limits()) == "Bet"
    assert bot.last_stats.evaluation == pytest.approx(2.0)
    placed = ready("ismcts:playouts=300,reward=place", game, 1)
    assert placed.choose(game.parse_state("JK/b").view(1), Limits()) == "Bet"
    assert placed.last_stats.evaluation == pytest.approx(1.0)


def test_a_simultaneous_round_gets_the_dominant_answer():
    """Regret matching, not UCB, at a simultaneous node: two like seats choosing by UCB moved in
    lockstep, never met the defection that beats cooperation, and cooperated. The answer is
    drawn from the average strategy, exploration included: mostly, not always, D."""
    game = Dilemma()
    answers = [ready("ismcts:playouts=200", game, seat, seed=seed).choose(game.initial_state().view(seat), Limits())
               for seed in range(20) for seat in (0, 1)]
    assert answers.count("D") >= 0.7 * len(answers)
    state = game.initial_state().play([Answer("D"), Answer("C")])
    assert state.outcome().scores == (5, 0)


def test_perfect_information_the_view_is_the_state():
    game = Nim(pile=10, take=3)
    bot = ready("ismcts:playouts=400,reward=place", game)
    assert bot.choose(game.initial_state(), Limits()) == 2  # leave a multiple of 4


def test_seeded_and_limited():
    game = Kuhn()
    view = game.parse_state("QJ/pb").view(0)
    runs = [[ready("ismcts:playouts=50", game, 0, seed=s).choose(view, Limits()) for s in range(8)] for _ in range(2)]
    assert runs[0] == runs[1]
    bot = ready("ismcts", game)
    bot.choose(view, Limits(nodes=30))
    assert bot.last_stats.nodes == 30

    def check(slack):  # a loaded machine gets more room (tests/timing.py)
        timed = ready("ismcts:time=0.1", game)
        timed.choose(view, Limits())
        assert timed.last_stats.seconds < 0.3 * slack and timed.last_stats.nodes > 10
    retry_under_load(check)


def test_a_game_whose_views_cannot_be_sampled_is_refused():
    check_field([parse_spec("ismcts")], Kuhn())
    with pytest.raises(BotSpecError, match="ismcts plays games whose views can be sampled .View.sample.; "
                                           "kuhn-unsampled gives no sampler"):
        check_field([parse_spec("i=ismcts:playouts=20")], KuhnUnsampled())


def _duel(game, spec, games):
    """Mean payoff per game of ``spec`` against ``random``, seats alternating, fixed seeds."""
    ours, theirs = bots.make(spec), bots.make("random")
    total = 0.0
    for i in range(games):
        seats = (ours, theirs) if i % 2 == 0 else (theirs, ours)
        for seat, bot in enumerate(seats):
            bot.reset(game, seat, 1000 * i + seat)
        deal = random.Random(i // 2)
        state = game.initial_state()
        while state.to_move != TERMINAL:
            if state.to_move == CHANCE:
                state = state.play(draw_chance(state.chance_outcomes(), deal.random()))
            else:
                state = state.play(seats[state.to_move].choose(state.view(state.to_move), Limits()))
        total += state.outcome().scores[i % 2]
    return total / games


def test_leduc_poker_against_random():
    """OpenSpiel's resampler of Leduc's views: 200 hands, about 1.7 chips a hand won (random
    loses to a bot that never folds the best hand)."""
    assert _duel(spiel_game("leduc_poker"), "ismcts:playouts=100", 200) > 0.8


@pytest.mark.parametrize("args", [
    ["--game", "openspiel:goofspiel", "-p", "num_cards=3"],  # simultaneous, OpenSpiel's resampler
    pytest.param(["--game", "openspiel:liars_dice"], marks=pytest.mark.slow),  # the replay sampler
])
def test_plays_through_the_arena(args, tmp_path, capsys):
    code, out, err = run_cli(["run", *args, "--bot", "ismcts:playouts=30", "--bot", "random", "--games", "4",
                              "--results", str(tmp_path), "-q"], capsys)
    assert code == 0, err
    assert "4/4 stored" in out


def test_phantom_games_are_refused_in_one_line(tmp_path, capsys):
    """Phantom tic-tac-toe hides the other seat's moves: no sampler."""
    pytest.importorskip("pyspiel")
    code, out, err = run_cli(["run", "--game", "openspiel:phantom_ttt", "--bot", "ismcts", "--bot", "random",
                              "--results", str(tmp_path)], capsys)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "ismcts plays games whose views can be sampled (View.sample); openspiel:phantom_ttt gives no sampler" in err


class Flaky:
    """A sampler of Kuhn's views that fails (``SampleError``) on the draws ``fails`` picks."""

    def __init__(self, state, seat, fails):
        self.sample, self.fails, self.calls = state._sampler(seat), fails, 0

    def __call__(self, rng):
        self.calls += 1
        if self.fails(self.calls):
            raise SampleError("no deal kept the view")
        return self.sample(rng)


def test_a_sample_the_sampler_cannot_draw_loses_its_playout():
    game = Kuhn()
    state = game.parse_state("JK/b")
    half = View(game, 1, 1, "Kb", ("Pass", "Bet"), Flaky(state, 1, lambda n: n % 2 == 0))
    bot = ready("ismcts:playouts=100", game, 1)
    assert bot.choose(half, Limits()) == "Bet" and bot.last_stats.nodes == 50
    never = View(game, 1, 1, "Kb", ("Pass", "Bet"), Flaky(state, 1, lambda n: True))
    moves = {ready("ismcts:playouts=20", game, 1, seed=s).choose(never, Limits()) for s in range(20)}
    assert moves == {"Pass", "Bet"}  # nothing searched: a uniformly random move
