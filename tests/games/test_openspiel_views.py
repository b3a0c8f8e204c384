"""OpenSpiel's imperfect-information and simultaneous games (issue 42): each seat's view (its
information-state string, else its observation string, and its own moves), the samplers of
views (OpenSpiel's ``resample_from_infostate``, the replay sampler, none), joint actions at
simultaneous nodes, and their notation, position text and stored rounds."""

from __future__ import annotations

import pickle
import random
from importlib.util import find_spec

import pytest

import arena.games
from arena.errors import IllegalMoveError, MoveSyntaxError, PositionSyntaxError
from arena.games import CHANCE, SIMULTANEOUS, TERMINAL, Answer, SampleError, View, draw_chance
from arena.games.openspiel.library import REPLAYS

pytestmark = pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs OpenSpiel (the openspiel extra)")


def _spiel(name: str):
    import pyspiel
    return pyspiel.load_game(name)


def _walk(game, seed: int, until=lambda s: s.is_terminal()):
    """The states of one seeded random game of ``game`` (an arena game) until ``until``."""
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    while not until(state) and not state.is_terminal():
        if state.to_move == CHANCE:
            state = state.play(draw_chance(state.chance_outcomes(), rng.random()))
        elif state.to_move == SIMULTANEOUS:
            state = state.play([Answer(rng.choice(state.view(s).moves)) for s in range(game.num_players)])
        else:
            state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


@pytest.mark.parametrize("name, information_state", [("kuhn_poker", True), ("leduc_poker", True),
                                                     ("phantom_ttt", True), ("hanabi", False),
                                                     ("dark_chess", False), ("goofspiel", True)])
def test_a_view_is_the_information_state_else_the_observation(name, information_state):
    game = arena.games.make(f"openspiel:{name}")
    assert game.information_state is information_state
    for state in _walk(game, 3)[:40]:
        for seat in range(game.num_players):
            view = state.view(seat)
            want = (state.spiel.information_state_string(seat) if information_state
                    else state.spiel.observation_string(seat))
            assert isinstance(view, View) and view.text == want and view.seat == seat
            assert view.to_move == state.to_move and view.game is game


def test_kuhn_poker_a_seat_sees_its_own_card_and_the_bets_not_the_other_card():
    game = arena.games.make("openspiel:kuhn_poker")
    state = game.initial_state()
    assert state.to_move == CHANCE and state.view(0).moves == () and not state.view(0).can_sample
    state = state.play("Deal:2").play("Deal:0")  # seat 0 holds the king, seat 1 the jack
    mine, theirs = state.view(0), state.view(1)
    assert mine.text == "2" and theirs.text == "0"
    assert mine.moves == ("Pass", "Bet") and theirs.moves == () and mine.legal_moves() == ["Pass", "Bet"]
    after = state.play("Bet")
    assert after.view(0).text == "2b" and after.view(1).text == "0b" and after.view(1).moves == ("Pass", "Bet")
    assert "2" not in after.view(1).text  # the king seat 0 holds
    assert after.play("Pass").view(1).is_terminal() and after.play("Pass").view(1).to_move == TERMINAL


def test_at_a_simultaneous_node_each_seat_sees_its_own_moves():
    game = arena.games.make("openspiel:goofspiel")
    state = game.initial_state()
    state = state.play(state.chance_outcomes()[0][0])  # the first point card
    assert state.to_move == SIMULTANEOUS and state.legal_moves() == []
    views = [state.view(seat) for seat in (0, 1)]
    assert views[0].moves[:2] == ("[P0]Bid:_1", "[P0]Bid:_2") and views[1].moves[0] == "[P1]Bid:_1"
    for seat, view in enumerate(views):
        assert [state.spiel.action_to_string(seat, a).replace(" ", "_") for a in state.spiel.legal_actions(seat)] \
            == list(view.moves)
    assert game.parse_move(state, "[P1]Bid:_3") == "[P1]Bid:_3"  # a move of any seat reads at a round
    with pytest.raises(ValueError, match="2 is not a seat of the game; accepted: 0 to 1"):
        state.view(2)


def test_a_joint_action_is_one_answer_per_seat_and_its_round_reads_back():
    game = arena.games.make("openspiel:matrix_rps")
    state = game.initial_state()
    after = state.play([Answer("Rock"), Answer("Paper")])
    assert after.last_round == "Rock Paper" and after.last_status == ("valid", "valid")
    assert after.outcome().scores == (-1.0, 1.0) and after.outcome().ranks == (2, 1)
    text = after.to_text()
    assert text == "matrix_rps() history=0,1" and game.parse_state(text).to_text() == text
    answers = game.parse_round(state, after.last_round)
    assert [a.move for a in answers] == ["Rock", "Paper"] and state.play(answers).to_text() == after.to_text()
    assert state.play(["Scissors", "Paper"]).outcome().ranks == (1, 2)  # the moves themselves do too
    with pytest.raises(IllegalMoveError, match=r"seat 1's no answer is not one of its moves; legal: Rock, Paper"):
        state.play([Answer("Rock"), Answer(None)])
    with pytest.raises(IllegalMoveError, match="one answer per seat"):
        state.play([Answer("Rock")])
    for bad in ("Rock", "Rock Lizard", "Rock Paper Paper"):
        with pytest.raises(MoveSyntaxError, match="is not a round of this position; accepted: one move of each"):
            game.parse_round(state, bad)


def test_a_game_of_rounds_and_chance_reads_back_from_its_text_and_pickles():
    game = arena.games.make("openspiel:goofspiel")
    states = _walk(game, 5)
    final = states[-1]
    assert final.is_terminal() and sum(s.to_move == SIMULTANEOUS for s in states) == 12  # OpenSpiel plays the 13th
    for state in states:
        again = game.parse_state(state.to_text())
        assert again.to_text() == state.to_text() and again.to_move == state.to_move
    copy = pickle.loads(pickle.dumps(final))
    assert copy.to_text() == final.to_text() and copy.last_round == final.last_round
    assert copy.outcome() == final.outcome()
    head = final.to_text().rsplit(",", 1)[0]  # the last round lacks seat 1's part
    with pytest.raises(PositionSyntaxError, match=r"at ply \d+ .* is not legal there"):
        game.parse_state(head + ",999")


def test_samplers_draw_states_the_seat_cannot_tell_apart():
    game = arena.games.make("openspiel:kuhn_poker")
    state = game.initial_state().play("Deal:2").play("Deal:0").play("Bet")  # seat 1 to move, holds the jack
    view = state.view(1)
    assert view.can_sample
    rng = random.Random(1)
    drawn = [view.sample(rng) for _ in range(40)]
    assert {d.view(1).text for d in drawn} == {view.text}
    assert {d.spiel.history()[0] for d in drawn} == {1, 2}  # seat 0's card: the queen or the king
    assert all(d.game is game and d.to_move == 1 for d in drawn)


def test_the_replay_sampler_keeps_the_seats_dice_and_draws_the_others():
    game = arena.games.make("openspiel:liars_dice")
    state = game.initial_state().play("Roll_3").play("Roll_6").play("1-2")  # seat 1 to move
    view = state.view(1)
    rng = random.Random(2)
    drawn = [view.sample(rng) for _ in range(60)]
    assert {d.view(1).text for d in drawn} == {view.text}
    assert {d.spiel.history()[1] for d in drawn} == {5}  # seat 1's own die
    assert len({d.spiel.history()[0] for d in drawn}) == 6  # seat 0's die: any of six
    from arena.games.openspiel.views import replayed

    with pytest.raises(SampleError, match="no deal of 0 kept seat 1's view"):
        replayed(state, 1, rng, tries=0)


def test_a_sampled_state_with_another_view_is_refused():
    from arena.games.openspiel.views import _checked

    game = arena.games.make("openspiel:kuhn_poker")
    state = game.initial_state().play("Deal:2").play("Deal:0")
    other = game.initial_state().play("Deal:1").play("Deal:0")
    with pytest.raises(SampleError, match="drew a state that seat 0 can tell from its view"):
        _checked(state, 0, other.spiel, "a test")


@pytest.mark.parametrize("name, kind", [("kuhn_poker", "resample"), ("leduc_poker", "resample"),
                                        ("goofspiel", "resample"), ("liars_dice", "replay"),
                                        ("matrix_rps", "replay"), ("blotto", "replay"), ("tiny_bridge_2p", "replay"),
                                        ("phantom_ttt", None), ("dark_hex", None), ("spades", None),
                                        ("battleship", None)])
def test_each_game_has_its_sampler_and_every_draw_keeps_the_view(name, kind):
    from arena.games.openspiel.views import sampler_kind

    game = arena.games.make(f"openspiel:{name}")
    assert sampler_kind(game) == kind
    rng = random.Random(0)
    for seed in range(3):
        for state in _walk(game, seed):
            if state.to_move in (CHANCE, TERMINAL):
                continue
            seats = range(game.num_players) if state.to_move == SIMULTANEOUS else [state.to_move]
            for seat in seats:
                view = state.view(seat)
                assert view.can_sample == (kind is not None)
                if kind is not None:
                    assert view.sample(rng).view(seat).text == view.text


def test_resamples_lists_the_games_whose_resampler_openspiel_implements(capfd):
    """``library.RESAMPLES`` is exactly the supported games whose ``resample_from_infostate``
    OpenSpiel implements (at the first node where a seat chooses)."""
    from arena.games.openspiel.library import RESAMPLES

    implemented = set()
    for name in arena.games.family_names("openspiel"):
        game = arena.games.make(name)
        if not game.type.hidden_information:
            continue
        spiel = game.spiel.new_initial_state()
        rng = random.Random(0)
        while spiel.is_chance_node():
            spiel.apply_action(draw_chance(spiel.chance_outcomes(), rng.random()))
        seat = max(spiel.current_player(), 0)
        try:
            spiel.resample_from_infostate(seat, random.Random(0).random)
        except Exception as exc:  # noqa: BLE001 - OpenSpiel's SpielError
            assert "not implemented" in str(exc), (name, exc)
            continue
        implemented.add(game.spiel_name)
    capfd.readouterr()  # OpenSpiel prints each refusal on stderr
    assert implemented == set(RESAMPLES)


@pytest.mark.parametrize("name", sorted(REPLAYS) + ["phantom_ttt", "dark_hex", "coin_game"])
def test_the_replayed_games_show_every_move_to_every_seat(name):
    """A game of ``library.REPLAYS`` hides nothing but chance: two different moves of a seat
    never leave another seat with the same view (else the replay sampler, which keeps the
    true moves, would tell a seat what it may not know); the check finds the hidden moves of
    games not listed."""
    game = arena.games.make(f"openspiel:{name}")
    hidden = []
    for seed in range(4):
        for state in _walk(game, seed):
            if state.to_move < 0:
                continue
            for other in range(game.num_players):
                if other != state.to_move:
                    seen = [state.play(m).view(other).text for m in state.legal_moves()[:12]]
                    if len(set(seen)) < len(seen):
                        hidden.append((state.to_text(), other))
    assert (hidden == []) == (name in REPLAYS), (name, hidden[:1])


def test_the_picture_of_a_round_names_each_seats_answer():
    game = arena.games.make("openspiel:matrix_rps")
    state = game.initial_state()
    after = state.play(["Rock", "Paper"])
    assert "openspiel:matrix_rps after Rock Paper" in game.render_svg(after, ["Rock", "Paper"], state)
    assert "openspiel:matrix_rps after Rock Paper" in game.render_svg(after, after.last_round, state)
