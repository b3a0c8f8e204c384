"""Interaction rules against ``spec/interaction.md``: worked examples 1-9, legality, the end."""

from __future__ import annotations

import pytest

from arena.errors import ArenaError, ConfigError, IllegalMoveError, MoveSyntaxError, PositionSyntaxError
from arena.games.interaction import DEFAULT_SETUP, PASS, Move
from arena.games.interaction.geometry import free_path
from tests.games.interaction_util import balls_of, game, position


def after(balls, move, side="r", **params):
    g = game(**params)
    state = g.parse_state(position(balls, side=side))
    return state.play(g.parse_move(state, move))


# -- worked examples ("Bounces / Worked examples") -------------------------------------------

def test_example_1_pocket_on_entering():
    st = after({"e1": "R", "e4": "Y"}, "e1N")
    assert balls_of(st) == {"e3": "R"}
    assert st.scores == (1, 0)


def test_example_1_stop_rule_leaves_it_on_e6():
    st = after({"e1": "R", "e4": "Y"}, "e1N", pocketing="stop")
    assert balls_of(st) == {"e3": "R", "e6": "Y"}
    assert st.scores == (0, 0)


def test_example_2_bounce_back_then_pocket():
    st = after({"c8": "B", "c7": "Y"}, "c8N", side="b")
    assert balls_of(st) == {"c8": "B"}
    assert st.scores == (0, 1)


def test_example_3_diagonal_off_the_north_wall():
    st = after({"h6": "B", "d8": "Y"}, "h6NW", side="b")
    assert balls_of(st) == {"e9": "B"}
    assert st.scores == (0, 1)


def test_example_4_corner_cushions():
    st = after({"a7": "R", "d2": "B"}, "a7S")
    assert balls_of(st) == {"c2": "R", "i4": "B"}


def test_example_5_coloured_ball_stops_on_a_pocket():
    st = after({"a8": "R", "d2": "B"}, "a8S")
    assert balls_of(st) == {"c2": "R", "i5": "B"}


def test_example_6_newtons_cradle():
    st = after({"b2": "R", "d2": "Y", "e2": "Y"}, "b2E")
    assert balls_of(st) == {"c2": "R", "d2": "Y", "f2": "Y"}


def test_example_7_remainder():
    st = after({"a3": "R", "d3": "Y", "f3": "Y"}, "a3E")
    assert balls_of(st) == {"c3": "R", "e3": "Y", "g3": "Y"}


def test_example_8_row_against_a_wall():
    st = after({"d3": "R", "a3": "Y", "b3": "Y"}, "d3W")
    assert balls_of(st) == {"d3": "R", "a3": "Y", "b3": "Y"}
    assert st.ply == 11 and st.side == 1


def test_example_9_momentum_zero_is_illegal():
    g = game()
    st = g.parse_state(position({"d4": "R", "c4": "B"}))
    assert Move.parse("d4W") not in st.legal_moves()
    with pytest.raises(IllegalMoveError, match="momentum 0"):
        st.play("d4W")


def test_a6e_from_the_default_setup_acts_as_a_pass():
    g = game()
    st = g.initial_state()
    nxt = st.play("a6E")
    assert nxt.board == st.board and nxt.side == 1 and nxt.ply == 1


# -- geometry ------------------------------------------------------------------------------

def test_cushion_turns():
    assert free_path(9, 4)[0] == ("b2", "E")       # a2 S -> E
    assert free_path(9, 6)[0] == ("a3", "N")       # a2 W -> N
    assert free_path(1, 6)[0] == ("b2", "N")       # b1 W -> N
    assert free_path(1, 4)[0] == ("c1", "E")       # b1 S -> E
    assert free_path(1, 5)[0] == ("c2", "NE")      # b1 SW -> NE
    assert free_path(10, 5)[0] == ("c3", "NE")     # b2 SW: straight back


def test_a2_southeast_ends_bouncing_between_b1_and_i8():
    path = free_path(9, 3)
    assert path[0] == ("b1", "SE") and ("i8", "NE") in path
    assert path[-1] == ("b1", "SW")  # the next state, (c2, NE), repeats


def test_never_meeting_path_is_illegal():
    g = game()
    st = g.parse_state(position({"a2": "R", "e9": "Y"}))
    assert Move.parse("a2SE") not in st.legal_moves()
    with pytest.raises(IllegalMoveError, match="never meets"):
        st.play("a2SE")


def test_only_pass_without_legal_move():
    g = game()
    st = g.parse_state(position({"a2": "R"}))  # a lone ball meets nothing
    assert st.legal_moves() == [PASS]
    st2 = g.parse_state(position({"e1": "R", "e4": "Y"}))
    with pytest.raises(IllegalMoveError, match="pass"):
        st2.play(PASS)


def test_wedged_row_loses_its_momentum():
    # The diagonal b9-i2 is closed by the a9 and i1 cushions, which send a diagonal straight
    # back: blue a8NE enters b9 (m = 1), turns SE and strikes the full diagonal c8..i2; i2
    # bounces NW into h3, the row runs back to the cue ball on b9, which bounces SE into c8:
    # the same hand-over (i2, SE, 1) would repeat, so the momentum is lost.
    line = {"c8": "Y", "d7": "Y", "e6": "Y", "f5": "R", "g4": "Y", "h3": "B", "i2": "R", "a8": "B"}
    st = after(line, "a8NE", side="b")
    expected = dict(line)
    del expected["a8"]
    expected["b9"] = "B"
    assert balls_of(st) == expected
    assert st.scores == (0, 0) and st.to_move == 0
