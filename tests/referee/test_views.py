"""The referee in games with hidden information (issue 42): each bot is handed only its seat's
view, from which no state can be reached through attributes; the answer is judged on the
referee's full state; at a simultaneous node of joint actions (OpenSpiel) every seat must
answer one of its moves, and a seat that does not loses the game, blamed per seat."""

from __future__ import annotations

import importlib
import re
import time
from importlib.util import find_spec

import pytest

import arena.games
from arena.games import SIMULTANEOUS, State, View
from arena.games.leaks import reachable  # the leak check's own walk over a view's attributes
from arena.errors import ProviderFailure
from arena.referee import GameSettings, Private, Termination, last_frame, play_game
from arena.referee.rounds import RoundFault
from bots.base import Limits
from bots.random import RandomBot
from tests.bots.hidden_games import Dilemma

needs_openspiel = pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs OpenSpiel (the openspiel extra)")




def _states(objs: list[object]) -> list[object]:
    import pyspiel
    return [o for o in objs if isinstance(o, (State, pyspiel.State))]


class Spy(RandomBot):
    """A random bot that keeps everything it is handed."""

    def __init__(self) -> None:
        super().__init__()
        self.handed: list[object] = []

    def choose(self, state, limits):
        self.handed.append(state)
        return super().choose(state, limits)


@needs_openspiel
def test_the_walk_finds_a_state_where_there_is_one():
    game = arena.games.make("openspiel:kuhn_poker")
    state = game.initial_state()

    def peek():
        return state

    class Holder:
        __slots__ = ("inner",)

        def __init__(self):
            self.inner = [{"k": peek}]

    assert _states(reachable(Holder())) and _states(reachable(state)) and _states(reachable(peek))


@needs_openspiel
@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "liars_dice", "phantom_ttt", "goofspiel", "matrix_pd"])
def test_each_bot_is_handed_only_its_views_and_no_state_is_reachable_from_them(name):
    game = arena.games.make(f"openspiel:{name}")
    spies = [Spy() for _ in range(game.num_players)]
    record = play_game(GameSettings(game, 11), spies)
    assert record.fault_seat is None and record.outcome.termination == "terminal"
    for seat, spy in enumerate(spies):
        assert spy.handed and all(isinstance(v, View) and v.seat == seat for v in spy.handed)
        for view in spy.handed:
            assert _states(reachable(view)) == [], (name, seat)
            assert view.game is not game  # the seat's own copy of the game
    if game.type.dynamics == "simultaneous":
        assert all(v.to_move == SIMULTANEOUS for spy in spies for v in spy.handed)


@needs_openspiel
def test_the_views_are_pyspiels_information_states_of_the_seat():
    import pyspiel

    game = arena.games.make("openspiel:leduc_poker")
    spies = [Spy(), Spy()]
    record = play_game(GameSettings(game, 5), spies)
    spiel = pyspiel.load_game("leduc_poker").new_initial_state()
    texts: dict[int, list[str]] = {0: [], 1: []}
    for text in record.moves:  # pyspiel itself, action by action, from the stored notation
        player = spiel.current_player()
        actions = [a for a, _ in spiel.chance_outcomes()] if spiel.is_chance_node() else spiel.legal_actions()
        if player >= 0:
            texts[player].append(spiel.information_state_string(player))
        spiel.apply_action(next(a for a in actions if "_".join(spiel.action_to_string(player, a).split()) == text))
    for seat, spy in enumerate(spies):
        assert [v.text for v in spy.handed] == texts[seat]


@needs_openspiel
def test_a_sample_is_the_seats_own_and_the_answer_is_judged_on_the_referees_state():
    """A bot that plays on its samples and rewrites its copy of the game changes nothing of
    the referee's: the game's record is the one OpenSpiel's rules give."""
    game = arena.games.make("openspiel:kuhn_poker")

    class Tamperer(RandomBot):
        def choose(self, view, limits):
            drawn = view.sample(self.rng)
            assert drawn.game is view.game and drawn.game is not game
            drawn.spiel.apply_action(drawn.spiel.legal_actions()[0])  # its own draw
            view.game.game_string = "tampered"
            with pytest.raises(AttributeError, match="read-only"):
                view.text = "2"
            return super().choose(view, limits)

    record = play_game(GameSettings(game, 3), [Tamperer(), Tamperer()])
    assert record.fault_seat is None and game.game_string == "kuhn_poker()"
    state = game.initial_state()
    for move in record.moves:
        state = state.play(move)
    assert state.outcome() == record.outcome


class Answers:
    """A bot that answers what ``say(view)`` gives (or raises / sleeps, as told)."""

    def __init__(self, say):
        self.say = say

    def choose(self, view, limits):
        return self.say(view)


def _boom(view):
    raise RuntimeError("my bug")


def _late(view):
    time.sleep(1.0)  # ten times the move time and margin
    return view.moves[0]


@needs_openspiel
@pytest.mark.parametrize("say, fault, detail", [
    (_boom, Termination.EXCEPTION, "RuntimeError: my bug"),
    (lambda view: "Lizard", Termination.BAD_MOVE, "'Lizard' is not one of the seat's moves: Rock, Paper, Scissors"),
    (lambda view: None, Termination.BAD_MOVE, "no answer; every seat answers one of its moves"),
    (_late, Termination.TIMEOUT, "s for a 0.05s move"),
])
def test_a_seat_that_does_not_answer_one_of_its_moves_at_a_joint_action_loses(say, fault, detail):
    game = arena.games.make("openspiel:matrix_rps")
    for seat in (0, 1):
        bots = [RandomBot(), RandomBot()]
        bots[seat] = Answers(say)
        record = play_game(GameSettings(game, 1, limits=Limits(time=0.05), time_margin=0.05), bots)
        assert record.outcome.termination == fault and record.fault_seat == seat
        assert record.outcome.ranks == tuple(2 if s == seat else 1 for s in (0, 1))
        assert detail in record.fault_detail and record.moves == ()  # the round is not played


@needs_openspiel
def test_another_seats_move_is_an_illegal_move_and_faults_at_one_round_are_each_seats():
    game = arena.games.make("openspiel:goofspiel")
    theirs = Answers(lambda view: "[P1]Bid:_1")  # seat 0 answering seat 1's move
    record = play_game(GameSettings(game, 2), [theirs, RandomBot()])
    assert record.outcome.termination == Termination.ILLEGAL_MOVE and record.fault_seat == 0
    assert record.moves and not record.moves[-1].startswith("[P0]")  # the deal of the first card, no round
    three = arena.games.make("openspiel:matching_pennies_3p")
    record = play_game(GameSettings(three, 2), [Answers(_boom), RandomBot(), Answers(lambda view: "Tails?")])
    assert record.outcome.ranks == (2, 1, 2) and record.outcome.termination == Termination.EXCEPTION
    assert record.fault_seat == 0 and re.match(r"seat 0: exception: RuntimeError: my bug; seat 2: bad_move: "
                                               r"'Tails\?'.*\nTraceback", record.fault_detail)
    assert "_boom" in last_frame(record.fault_detail)  # the blamed seat's own frame


def _provider_down(view):
    raise ProviderFailure("HTTP 503 after 3 requests")


@pytest.mark.parametrize("says", [[lambda view: "Lizard", _provider_down], [_provider_down, lambda view: "Lizard"]])
def test_a_round_where_a_provider_failed_is_void_whatever_the_other_seats_did(says):
    """A provider's failure is not its bot's fault and the round cannot be judged: the game is
    void (nobody blamed) even when another seat answered something that is not its move."""
    game = Dilemma()
    record = play_game(GameSettings(game, 1), [Answers(say) for say in says])
    down = [say is _provider_down for say in says].index(True)
    assert record.outcome.termination == Termination.VOID and record.fault_seat is None
    assert record.outcome.ranks == (1, 1) and record.moves == ()
    assert record.fault_detail.startswith(f"seat {down} provider failure: HTTP 503")


def test_the_referee_voids_a_round_whose_faults_include_a_void_in_any_place(monkeypatch):
    """``RoundFault`` lists every faulted seat in seat order; a ``void`` after another seat's
    fault still voids the game (``play_round`` raised at once, seat 0's fault first)."""
    play_module = importlib.import_module("arena.referee.play")

    def faulted(*args, **kwargs):
        raise RoundFault([(0, Termination.ILLEGAL_MOVE, "'Lizard' is not one of the seat's moves"),
                          (1, Termination.VOID, "provider failure: HTTP 503")])
    monkeypatch.setattr(play_module, "play_round", faulted)
    record = play_game(GameSettings(Dilemma(), 1), [RandomBot(), RandomBot()])
    assert record.outcome.termination == Termination.VOID and record.fault_seat is None
    assert record.outcome.ranks == (1, 1) and record.fault_detail == "seat 1 provider failure: HTTP 503"


@needs_openspiel
def test_private_hands_the_view_in_hidden_information_games_and_the_state_otherwise():
    hidden = arena.games.make("openspiel:kuhn_poker")
    state = hidden.initial_state().play("Deal:0").play("Deal:1")
    mine = Private(hidden)
    view = mine.handed(state, 0)
    assert isinstance(view, View) and view.text == "0" and view.game is mine.game and view.can_sample
    assert view.sample(__import__("random").Random(0)).game is mine.game
    plain = arena.games.make("openspiel:tic_tac_toe")
    ttt = plain.initial_state()
    copy = Private(plain).handed(ttt, 0)
    assert isinstance(copy, State) and copy is not ttt and copy.to_text() == ttt.to_text()
