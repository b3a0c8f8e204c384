import random

import pytest

import bots
from bots.base import Limits
from tests.bots.minimax import WIN, minimax
from tests.tictactoe import LINES, TicTacToe
from tests.timing import retry_under_load
from tests.toy import Nim


def open_lines(state, seat):
    """A small tic-tac-toe heuristic: lines still open to ``seat`` minus those open to the other."""
    mine, theirs = "XO"[seat], "XO"[1 - seat]
    cells = state.cells
    score = 0
    for line in LINES:
        marks = {cells[i] for i in line}
        score += (theirs not in marks) - (mine not in marks)
    return float(score)


def live_positions(game, count, seed, max_plies):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(max_plies + 1)):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
        if not state.is_terminal():
            out.append(state)
    return out


def make_bot(game, spec="alphabeta", evaluate=None, seed=0):
    bot = bots.make(spec)
    bot.reset(game, 0, seed)
    if evaluate is not None:
        bot._evaluate = evaluate
    return bot


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_root_value_equals_minimax_tictactoe(depth):
    game = TicTacToe()
    shared = make_bot(game, evaluate=open_lines)  # one table reused over all positions
    tiny = make_bot(game, "alphabeta:tt=3", evaluate=open_lines)  # a table cleared all the time
    for state in live_positions(game, 40, seed=depth, max_plies=6):
        expected = minimax(state, depth, open_lines)
        fresh = make_bot(game, evaluate=open_lines)
        for bot in (fresh, shared, tiny):
            bot.choose(state, Limits(depth=depth))
            assert bot.last_stats.evaluation == expected, state.to_text()


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_root_value_equals_minimax_nim(depth):
    game = Nim(pile=12, take=3)
    for state in live_positions(game, 20, seed=depth, max_plies=8):
        bot = make_bot(game)
        bot.choose(state, Limits(depth=depth))
        assert bot.last_stats.evaluation == minimax(state, depth, lambda s, seat: 0.0)


def test_solves_nim_and_prefers_fast_wins():
    game = Nim(pile=10, take=3)
    bot = make_bot(game, "alphabeta:depth=12")
    assert bot.choose(game.initial_state(), Limits()) == 2  # leave a multiple of 4
    assert bot.last_stats.evaluation == WIN - 5  # 2, then each pair of plies takes 4: 8 -> 4 -> 0
    assert bot.choose(game.parse_state("3 0 -1"), Limits()) == 3
    assert bot.last_stats.evaluation == WIN - 1


def test_tictactoe_perfect_play_is_a_draw():
    game = TicTacToe()
    players = [make_bot(game, "alphabeta:depth=9", seed=s) for s in (0, 1)]
    state = game.initial_state()
    while not state.is_terminal():
        state = state.play(players[state.to_move].choose(state, Limits()))
    assert state.outcome().ranks == (1, 1)
    assert players[0].last_stats.evaluation == 0.0


def test_blocks_and_wins():
    game = TicTacToe()
    bot = make_bot(game, "alphabeta:depth=3", evaluate=open_lines)
    assert bot.choose(game.parse_state("XX.OO.... x"), Limits()) == 2  # win at once
    assert bot.choose(game.parse_state("XX..O.... o"), Limits()) == 2  # block


def test_node_limit_and_stats():
    game = TicTacToe()
    for cap in (1, 5, 37, 400):
        bot = make_bot(game, f"alphabeta:nodes={cap}")
        move = bot.choose(game.initial_state(), Limits())
        assert move in game.initial_state().legal_moves()
        assert bot.last_stats.nodes <= cap
    bot = make_bot(game, "alphabeta")
    bot.choose(game.initial_state(), Limits(nodes=50, depth=9))  # runner's limits apply too
    assert bot.last_stats.nodes <= 50


def test_time_limit_respected():
    game = Nim(pile=400, take=6)

    def check(slack):  # a loaded machine gets more room (tests/timing.py)
        bot = make_bot(game, "alphabeta:time=0.2")
        bot.choose(game.initial_state(), Limits())
        assert 0.0 < bot.last_stats.seconds < 0.5 * slack
        assert bot.last_stats.depth >= 1
    retry_under_load(check)


def test_deterministic_without_time():
    game = TicTacToe()
    runs = []
    for _ in range(2):
        a, b = make_bot(game, "alphabeta:depth=3", seed=7), make_bot(game, "alphabeta:depth=4", seed=8)
        state, moves = game.initial_state(), []
        while not state.is_terminal():
            move = (a, b)[state.to_move].choose(state, Limits())
            moves.append((move, (a, b)[state.to_move].last_stats.nodes))
            state = state.play(move)
        runs.append(moves)
    assert runs[0] == runs[1]


def test_refuses_more_than_two_players():
    from arena.errors import ConfigError
    with pytest.raises(ConfigError):
        bots.make("alphabeta").reset(Nim(players=3), 0, 0)


def _choices(setup: int, plies: int) -> list[tuple[str, int, float]]:
    """(move, nodes, evaluation) of ``alphabeta:depth=4`` playing both seats of one
    Interaction game from seeded ``setup`` for ``plies`` plies: consecutive choices, so
    killers, history and the transposition table carry from move to move; the collector runs
    again after each choice."""
    import gc

    import arena.games
    import bots

    game = arena.games.make("interaction")
    state = game.initial_state(setup)
    bot = bots.make("alphabeta:depth=4")
    bot.reset(game, 0, 0)
    out = []
    for _ in range(plies):
        if state.is_terminal():
            break
        move = bot.choose(state, bots.Limits())
        assert gc.isenabled()
        out.append((str(move), bot.last_stats.nodes, bot.last_stats.evaluation))
        state = state.play(move)
    return out


def test_staged_move_generation_searches_the_same_tree(monkeypatch):
    """Hash and killer moves checked alone before generating (``InteractionState.try_play``,
    and ``best_leaf`` at depth-1 nodes) give the same moves, node counts and values as
    generating every move first and playing each."""
    from arena.games.interaction.search import SearchSteps

    staged = _choices(3, 12)
    monkeypatch.delattr(SearchSteps, "try_play")
    monkeypatch.delattr(SearchSteps, "best_leaf")
    assert _choices(3, 12) == staged
    assert sum(n for _, n, _ in staged) > 1000


def test_positions_kept_between_iterations_change_nothing_but_work(monkeypatch):
    """Children and leaves kept from one iteration of the deepening to the next (``_kids``,
    ``InteractionState.expand``) give the same moves, node counts and values as a search that
    keeps nothing."""
    from bots.alphabeta import AlphaBetaBot

    kept = _choices(5, 10)
    monkeypatch.setattr(AlphaBetaBot, "_kids_of", lambda self, state: {})
    assert _choices(5, 10) == kept
    assert sum(n for _, n, _ in kept) > 1000


def test_a_compacted_journal_searches_the_same_tree(monkeypatch):
    """The history journal (what a node that tried its hash move and killers first reads to
    order the rest as the history stood when it began) is compacted past ``JOURNAL`` entries
    and emptied when no node waits: the same moves, node counts and values as keeping every
    entry, and it stays small."""
    from bots.alphabeta import AlphaBetaBot

    full = _choices(7, 10)
    sizes: list[int] = []
    compact = AlphaBetaBot._compact

    def recorded(self):
        compact(self)
        sizes.append(len(self._journal))

    monkeypatch.setattr(AlphaBetaBot, "JOURNAL", 8)
    monkeypatch.setattr(AlphaBetaBot, "_compact", recorded)
    assert _choices(7, 10) == full
    assert len(sizes) > 5 and max(sizes) < 8 * 64  # compacted; (waiting nodes x moves) at most
    assert sum(n for _, n, _ in full) > 1000


def test_the_journal_is_bounded_in_a_long_search(monkeypatch):
    """A long search keeps no unbounded record of its cut-offs: the journal is compacted past
    ``JOURNAL`` entries (here 256, over thousands of cut-offs; it used to keep every cut-off of
    the choice, about 5 MB/s at depth 30)."""
    import arena.games
    import bots
    from bots.alphabeta import AlphaBetaBot

    monkeypatch.setattr(AlphaBetaBot, "JOURNAL", 256)

    game = arena.games.make("interaction")
    state = game.initial_state(3)
    for _ in range(6):
        state = state.play(state.legal_moves()[0])
    bot = bots.make("alphabeta:nodes=40000")
    bot.reset(game, state.to_move, 0)
    grew: list[int] = []
    cutoff = bot._cutoff

    def watched(*args):
        cutoff(*args)
        grew.append(len(bot._journal))

    bot._cutoff = watched
    bot.choose(state, bots.Limits())
    assert len(grew) > 5000 and max(grew) <= 4 * 256  # twice the size it compacted to, at most


def test_collector_paused_restores_the_collector_also_on_an_exception():
    import gc

    from bots.base import collector_paused

    assert gc.isenabled()
    with pytest.raises(KeyError):
        with collector_paused():
            assert not gc.isenabled()
            raise KeyError("x")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


@pytest.mark.parametrize("cap", [1, 2, 3, 40, 333, 1500])
def test_a_node_limit_stops_best_leaf_where_the_plain_leaf_loop_stops(monkeypatch, cap):
    """A node limit reached inside a depth-1 node (``best_leaf``'s ``check``) stops the search
    at the same node, with the same move, depth and value, as the plain loop over ``play``."""
    import arena.games
    import bots
    from arena.games.interaction.search import SearchSteps

    from arena.bench import search as search_bench

    game = arena.games.make("interaction")
    state = search_bench.positions(6)[4]

    def choice():
        bot = bots.make(f"alphabeta:nodes={cap}")
        bot.reset(game, state.to_move, 0)
        move = bot.choose(state, bots.Limits())
        stats = bot.last_stats
        return str(move), stats.nodes, stats.depth, stats.evaluation

    fused = choice()
    monkeypatch.delattr(SearchSteps, "best_leaf")
    assert choice() == fused
    assert fused[1] == cap or cap > 1000  # the limit was met exactly, in the middle of a node
