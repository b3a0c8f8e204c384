import pytest

import bots
from bots.base import Limits
from arena.games import place_rewards
from tests.tictactoe import TicTacToe
from tests.toy import Nim
from tests.timing import retry_under_load


def ready(spec, game, seat=0, seed=0):
    bot = bots.make(spec)
    bot.reset(game, seat, seed)
    return bot


def test_place_rewards():
    assert place_rewards((1, 2)) == (1.0, 0.0)
    assert place_rewards((1, 1)) == (0.5, 0.5)
    assert place_rewards((1, 2, 2)) == (1.0, 0.25, 0.25)
    assert place_rewards((1, 1, 3)) == (0.75, 0.75, 0.0)
    assert sum(place_rewards((2, 1, 4, 2))) == pytest.approx(2.0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mcts_takes_the_last_stones(players):
    game = Nim(pile=20, take=3, players=players)
    for pile in (2, 3):  # one stone: a single legal move, played without search
        for seat in range(players):
            state = game.parse_state(f"{pile} {seat} -1")
            bot = ready("mcts:playouts=200", game, seat, seed=pile)
            assert bot.choose(state, Limits()) == pile
            assert bot.last_stats.evaluation == pytest.approx(1.0)


def test_mcts_finds_the_nim_strategy():
    game = Nim(pile=10, take=3)
    for seed in range(3):
        bot = ready("mcts:playouts=400", game, 0, seed)
        assert bot.choose(game.initial_state(), Limits()) == 2  # leave a multiple of 4
        assert bot.last_stats.nodes == 400


def test_mcts_limits_and_determinism():
    game = TicTacToe()
    moves = []
    for _ in range(2):
        bot = ready("mcts:playouts=300", game, 0, seed=11)
        moves.append([bot.choose(game.initial_state(), Limits()) for _ in range(3)])
    assert moves[0] == moves[1]
    bot = ready("mcts", game)
    bot.choose(game.initial_state(), Limits(nodes=50))
    assert bot.last_stats.nodes == 50

    def check(slack):  # a loaded machine gets more room (tests/timing.py)
        bot = ready("mcts:time=0.1", game)
        bot.choose(game.initial_state(), Limits())
        assert bot.last_stats.seconds < 0.3 * slack and bot.last_stats.nodes > 10
    retry_under_load(check)


def test_mcts_blocks_at_tictactoe():
    game = TicTacToe()
    bot = ready("mcts:playouts=1000", game, 1, seed=2)
    assert bot.choose(game.parse_state("XX..O.... o"), Limits()) == 2


def test_greedy_takes_wins_and_breaks_ties_by_seed():
    game = Nim(pile=10, take=3, players=3)
    bot = ready("greedy", game, 1, seed=0)
    assert bot.choose(game.parse_state("3 1 -1"), Limits()) == 3
    assert bot.last_stats.nodes == 3
    picks = {ready("greedy", game, 0, seed=s).choose(game.initial_state(), Limits()) for s in range(20)}
    assert picks == {1, 2, 3}  # no heuristic for Nim: a seeded random choice
    again = [ready("greedy", game, 0, seed=s).choose(game.initial_state(), Limits()) for s in range(20)]
    assert again == [ready("greedy", game, 0, seed=s).choose(game.initial_state(), Limits()) for s in range(20)]


@pytest.mark.parametrize("spec", ["greedy", "alphabeta", "mcts"])
def test_no_answer_at_a_simultaneous_node(spec):
    from arena.games import SIMULTANEOUS

    class Round:
        to_move = SIMULTANEOUS

        def legal_moves(self):
            return []

    bot = ready(spec, TicTacToe())
    assert bot.choose(Round(), Limits()) is None and bot.last_stats.nodes == 0


def test_inlined_shuffle_is_random_shuffle():
    """``bots.mcts._shuffle``: the same permutations and the same generator state afterwards as
    ``random.Random.shuffle`` (MCTS results stay those of the seeded generator)."""
    import random

    from bots.mcts import _shuffle

    for n in range(70):
        a, b = list(range(n)), list(range(n))
        r1, r2 = random.Random(n), random.Random(n)
        r1.shuffle(a)
        _shuffle(b, r2.getrandbits)
        assert a == b and r1.random() == r2.random()


def test_a_timed_search_leaves_a_move_overhead():
    """``Limits.deadline``: a search stops ``MOVE_OVERHEAD`` (10 ms) before its time, a fifth of
    a short time at most, so a bot at ``--time-margin 0`` returns in time (a search to the
    last millisecond lost on time every game at 50 ms)."""
    from bots.base import MOVE_OVERHEAD, Limits

    assert Limits(time=1.0).deadline(100.0) == pytest.approx(100.0 + 1.0 - MOVE_OVERHEAD)
    assert Limits(time=0.02).deadline(0.0) == pytest.approx(0.016)
    assert Limits().deadline(0.0) is None


def test_the_deepest_iteration_of_a_search():
    """``Limits.plies``: the depth given (at most ``MAX_DEPTH``, a runner's too), ``MAX_DEPTH``
    under a time or node limit alone, else the bot's default."""
    from bots.base import MAX_DEPTH, Limits

    assert (Limits(depth=5).plies(4), Limits(depth=10 ** 20).plies(4), Limits(time=1.0).plies(4),
            Limits(nodes=9, depth=3).plies(4), Limits().plies(4)) == (5, MAX_DEPTH, MAX_DEPTH, 3, 4)


def test_mcts_pauses_the_collector_while_it_searches(monkeypatch):
    """The tree holds no reference cycle, so the cyclic collector would free nothing; its full
    passes over a process's objects made MCTS overrun a 50 ms move (``arena play`` at
    ``--time-margin 0``). The collector is paused during the playouts and back after."""
    import gc

    import arena.games
    import bots

    game = arena.games.make("interaction")
    state = game.initial_state()
    seen = []
    bot = bots.make("mcts:playouts=40")
    bot.reset(game, 0, 1)
    iterate = bot._iterate
    monkeypatch.setattr(bot, "_iterate", lambda root: (seen.append(gc.isenabled()), iterate(root)))
    bot.choose(state, bots.Limits())
    assert seen and not any(seen) and gc.isenabled()
