import pytest

import bots
from arena.errors import IllegalMoveError
from arena.referee import derive_seed, play_game, random_opening, GameSettings
from bots.base import Limits
from tests.fixtures.broken_bots import Illegal, NonMove, Raiser, Slow
from tests.toy import Nim


def test_random_game_reproducible():
    game = Nim(pile=21)
    a = play_game(GameSettings(game, 5), [bots.make("random"), bots.make("random")])
    b = play_game(GameSettings(game, 5), [bots.make("random"), bots.make("random")])
    assert a.moves == b.moves and a.outcome == b.outcome
    assert a.outcome.termination == "last_stone" and sorted(a.outcome.ranks) == [1, 2]


@pytest.mark.parametrize("bad,reason", [(Raiser, "exception"), (Illegal, "illegal_move"), (NonMove, "bad_move")])
def test_faulty_bot_loses(bad, reason):
    rec = play_game(GameSettings(Nim(players=3), 1), [bots.make("random"), bad(), bots.make("random")])
    assert rec.outcome.termination == reason
    assert rec.fault_seat == 1 and rec.outcome.ranks == (1, 3, 1)


def test_timeout_beyond_margin():
    rec = play_game(GameSettings(Nim(), 1, limits=Limits(time=0.01), time_margin=0.01),
                    [Slow(ms="50"), bots.make("random")])
    assert rec.outcome.termination == "timeout" and rec.fault_seat == 0


def test_opening_and_seeds():
    game = Nim(pile=30)
    op = random_opening(game, 3, 4)
    assert op == random_opening(game, 3, 4) and len(op) == 4
    rec = play_game(GameSettings(game, 3, opening=op), [bots.make("random"), bots.make("random")])
    assert rec.moves[:4] == tuple(op) and rec.opening_plies == 4
    assert derive_seed(1, "a") == derive_seed(1, "a") != derive_seed(1, "b")
    with pytest.raises(IllegalMoveError):
        play_game(GameSettings(game, 3, opening=["7"]), [bots.make("random")] * 2)
