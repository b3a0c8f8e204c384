"""Every registered game must pass ``arena.games.check`` (OpenSpiel-style random simulation
over all games); the checker itself must name the rule a broken game breaks."""

from __future__ import annotations

import pytest

import arena.games
from arena.games import GameCheckError, GameType, check
from arena.games.conformance import check_bad_text, check_illegal, check_outcomes, check_text, check_type
from tests.tictactoe import TicTacToe, TicTacToeState
from tests.toy import Nim

GAMES = arena.games.names()


@pytest.mark.parametrize("name", GAMES)
def test_registered_game_passes_check(name):
    check(arena.games.make(name))


@pytest.mark.parametrize("game", [Nim(pile=9), Nim(pile=7, players=3), TicTacToe()], ids=repr)
def test_test_games_pass_check(game):
    check(game)


def test_a_fixed_seat_count_is_the_types_and_a_varying_one_the_games_own():
    class ThreeSeats(TicTacToe):
        type = GameType(3, 3)
    assert ThreeSeats.num_players == 3 and ThreeSeats().num_players == 3
    assert arena.games.make("sandpile").num_players == 4 and arena.games.make("interaction-solo").num_players == 1
    assert Nim(pile=7, players=3).num_players == 3  # a varying count: the game's own, from its parameters


def test_a_summary_not_set_is_the_first_paragraph_of_the_games_docstring():
    class Described(TicTacToe):
        """Three in a row
        on a 3x3 board.

        The rest is not the summary."""
    assert Described.summary == "Three in a row on a 3x3 board"
    assert TicTacToe.summary == "three in a row"  # set by the game


def test_check_names_a_type_that_does_not_admit_the_seats():
    class FourSeatNim(Nim):
        type = GameType(2, 3)
    with pytest.raises(GameCheckError, match="num_players 4 must be within Game.type's 2-3 seats"):
        check_type(FourSeatNim(players=4))


def test_check_names_a_state_whose_text_does_not_read_back():
    class Lossy(TicTacToe):
        def parse_state(self, text):
            return TicTacToeState("." * 9, 0)
    with pytest.raises(GameCheckError, match=r"parse_state\(to_text\(\)\) must give the same text"):
        check_text(Lossy())


def test_check_names_an_illegal_move_that_is_accepted():
    class Lenient(TicTacToeState):
        def play(self, move):
            try:
                after = super().play(move)
            except Exception:
                return self
            return Lenient(after.cells, after.side)
    class LenientGame(TicTacToe):
        def initial_state(self, seed=None):
            return Lenient("." * 9, 0)
    with pytest.raises(GameCheckError, match="must raise IllegalMoveError"):
        check_illegal(LenientGame())


def test_check_names_bad_text_that_is_accepted():
    class Forgiving(Nim):
        def parse_move(self, state, text):
            return 1
    with pytest.raises(GameCheckError, match=r"parse_move\(''\) must raise an ArenaError"):
        check_bad_text(Forgiving())


def test_check_names_a_game_that_never_ends():
    game = Nim(pile=10**6, take=1)
    with pytest.raises(GameCheckError, match="did not end within"):
        check_outcomes(game, seeds=[0])


def test_register_a_game_at_run_time(monkeypatch):
    """``arena.games.register``: a class or a lazy "module:Class", found by ``make`` and
    listed by ``names``; clashes and bad names are one-line ConfigErrors."""
    import arena.games
    from arena.errors import ConfigError
    from arena.games.sandpile import Sandpile
    monkeypatch.setattr(arena.games, "_REGISTERED", {})
    arena.games.register("my-sandpile", Sandpile)
    arena.games.register("lazy-sandpile", "arena.games.sandpile:Sandpile")
    assert {"my-sandpile", "lazy-sandpile"} <= set(arena.games.names())
    assert isinstance(arena.games.make("my-sandpile"), Sandpile)
    assert arena.games.game_class("lazy-sandpile") is Sandpile
    arena.games.register("my-sandpile", Sandpile)  # the same again: no error
    with pytest.raises(ConfigError, match="already registered"):
        arena.games.register("sandpile", Sandpile)
    with pytest.raises(ConfigError, match="already registered"):
        arena.games.register("my-sandpile", "arena.games.interaction:InteractionGame")
    with pytest.raises(ConfigError, match="bad game name"):
        arena.games.register("My Game", Sandpile)
    with pytest.raises(ConfigError, match="not 'module:Class'"):
        arena.games.register("dotted", "arena.games.sandpile.Sandpile")
