"""Interaction rules against ``docs/rules/interaction.md``: worked examples 1-9, legality, the end."""

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


@pytest.mark.parametrize("balls, move, why", [
    ({"d4": "R", "c4": "B"}, "d4W", "momentum 0"),  # example 9: a move of momentum zero
    ({"a2": "R", "e9": "Y"}, "a2SE", "never meets"),  # a path that never meets a ball
])
def test_illegal_moves_are_not_legal_and_refused_with_why(balls, move, why):
    st = game().parse_state(position(balls))
    assert Move.parse(move) not in st.legal_moves()
    with pytest.raises(IllegalMoveError, match=why):
        st.play(move)


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


# -- setup and notation ----------------------------------------------------------------------

SPEC_DEFAULT = "#.......#/........./.Y.YYY.Y./R.......B/........./B.......R/.Y.YYY.Y./........./#.......# r 0 0 0"


def test_default_setup_text():
    st = game().initial_state()
    assert DEFAULT_SETUP == SPEC_DEFAULT == st.to_text()
    assert st.to_move == 0 and st.scores == (0, 0) and st.ply == 0
    assert st.balls(1) == (35, 45) and st.balls(2) == (27, 53) and len(st.balls(3)) == 10


def test_move_notation_case_insensitive_and_canonical():
    assert str(Move.parse("E1n")) == "e1N"
    assert str(Move.parse("h6nw")) == "h6NW"
    assert Move.parse(" PASS ") is PASS and str(PASS) == "pass"
    assert eval(repr(Move.parse("c8S")), {"Move": Move}) == Move.parse("c8S")


@pytest.mark.parametrize("text", ["", "e1", "e1X", "j1N", "e0N", "e10N", "a1N", "i9SW", "e1 N"])
def test_bad_move_text(text):
    with pytest.raises(MoveSyntaxError) as info:
        Move.parse(text)
    assert isinstance(info.value, ArenaError)
    assert "corner" in str(info.value) or "expected" in str(info.value)


def test_position_round_trip():
    g = game()
    text = position({"e1": "R", "e4": "Y", "i5": "B"}, side="b", scores=(3, 4), ply=17)
    st = g.parse_state(text)
    assert st.to_text() == text and st.side == 1 and st.scores == (3, 4) and st.ply == 17
    assert g.parse_state(text.replace("Y", "y").replace(" b ", " B ")).to_text() == text


@pytest.mark.parametrize("text, words", [
    ("", "5 fields"),
    ("#.......#/........./ r 0 0 0", "board"),
    (SPEC_DEFAULT.replace("#", ".", 1), "corner a9"),
    (SPEC_DEFAULT.replace("R", "#", 1), "'#' only on the corners"),
    (SPEC_DEFAULT.replace("/........./B", "/....Y..../B"), "neutral on pocket e5"),
    (SPEC_DEFAULT.replace(" r ", " x "), "side to move"),
    (SPEC_DEFAULT.replace(" 0 0 0", " -1 0 0"), "Red score"),
    (SPEC_DEFAULT.replace(" 0 0 0", " 0 0 z"), "ply count"),
    (SPEC_DEFAULT.replace("R", "Q", 1), "'Q'"),
])
def test_bad_position_text(text, words):
    with pytest.raises(PositionSyntaxError, match=words):
        game().parse_state(text)


@pytest.mark.parametrize("balls, scores, ply, words", [
    ({}, (0, 0), 0, "0 red balls"),
    ({"a6": "R", "b6": "R", "c6": "R", "d6": "R", "e4": "Y"}, (0, 0), 0, "4 red balls"),
    ({"a6": "R", "e4": "Y"}, (0, 0), 0, "0 blue balls"),
    ({"a6": "R", "i6": "B"}, (0, 0), 0, "no neutral ball"),
    ({"a6": "R", "i6": "B", "e4": "Y"}, (9, 0), 0, "already won"),
    ({"a6": "R", "i6": "B", "e4": "Y"}, (0, 0), 999999, "already over"),
    ({"a6": "R", "i6": "B", "e4": "Y", "e3": "Y", "e2": "Y"}, (4, 4), 0, "3 neutrals on the board and 8 pocketed"),
])
def test_setup_refuses_what_the_setup_rules_exclude(balls, scores, ply, words):
    with pytest.raises(ConfigError, match=words) as info:
        game(setup=position(balls, scores=scores, ply=ply))
    assert "accepted: 1 or 2 red" in str(info.value) and "\n" not in str(info.value)


def test_parse_state_still_reads_positions_beyond_the_setup_rules():
    # mid-game texts (openings files, replays, finished games) are read as they are
    for text in (position({"e1": "R"}), position({"a6": "R", "i6": "B", "e4": "Y"}, scores=(5, 3), ply=200)):
        assert game().parse_state(text).to_text() == text
    assert game(setup=position({"a6": "R", "i6": "B", "e4": "Y"}, scores=(4, 0), ply=7)).initial_state()


def test_setup_parameter():
    board = position({"e1": "R", "e4": "Y", "e9": "B"}).split()[0]
    g = game(setup=board)
    assert g.initial_state().to_text() == f"{board} r 0 0 0"
    with pytest.raises(ConfigError, match="setup.*pocket"):
        game(setup=position({"e1": "R", "e5": "Y"}))
    with pytest.raises(ConfigError, match="target"):
        game(target="x")
    with pytest.raises(ConfigError, match="pocketing"):
        game(pocketing="bounce")


# -- legality and the end of the game ---------------------------------------------------------

def test_first_turn_rule():
    g = game()
    st = g.initial_state().play("i4N")  # blue i6 is pushed to i7
    assert st.ply == 1
    moves = {str(m) for m in st.legal_moves()}
    assert "i7NE" not in moves and "i7NW" not in moves
    with pytest.raises(IllegalMoveError, match="first turn"):
        st.play("i7NE")
    later = g.parse_state(st.to_text().replace(" 0 0 1", " 0 0 2"))
    assert {"i7NE", "i7NW"} <= {str(m) for m in later.legal_moves()}
    assert later.play("i7NE").scores == (0, 1)


def test_threefold_repetition_is_a_draw():
    st = game().initial_state()
    for move in ("a6E", "i6W", "a6E"):
        st = st.play(move)
        assert not st.is_terminal()
    st = st.play("i6W")  # the start position, Red to move, for the third time
    assert st.is_terminal() and st.legal_moves() == []
    out = st.outcome()
    assert out.termination == "repetition" and out.ranks == (1, 1) and out.scores == (0, 0)
    assert game().parse_state(st.to_text()).is_terminal() is False  # history is not in the text


def test_both_passed_in_a_row():
    for cap, ranks in (("score", (1, 2)), ("draw", (1, 1))):
        g = game(cap_result=cap)
        st = g.parse_state(position({"a2": "R"}, scores=(2, 1)))
        st = st.play("pass")
        assert not st.is_terminal() and st.legal_moves() == [PASS]
        st = st.play(PASS)
        assert st.outcome().termination == "passes" and st.outcome().ranks == ranks


def test_max_plies_with_cap_result():
    for cap, ranks in (("score", (2, 1)), ("draw", (1, 1))):
        g = game(max_plies=12, cap_result=cap)
        st = g.parse_state(position({"d3": "R", "a3": "Y", "b3": "Y", "e8": "B"}, scores=(1, 2), ply=11))
        st = st.play("d3W")
        out = st.outcome()
        assert st.ply == 12 and out.termination == "max_plies" and out.ranks == ranks
        with pytest.raises(IllegalMoveError, match="over"):
            st.play("e8S")


def test_target_wins_before_the_ply_limit():
    g = game(target=3, max_plies=11)
    st = g.parse_state(position({"e1": "R", "e4": "Y", "e8": "B"}, scores=(2, 2), ply=10))
    st = st.play("e1N")
    out = st.outcome()
    assert out.termination == "target" and out.scores == (3, 2) and out.ranks == (1, 2)


def test_stop_rule_pockets_a_ball_blocked_on_a_pocket():
    st = after({"e1": "R", "e4": "Y", "e6": "Y"}, "e1N", pocketing="stop")
    assert balls_of(st) == {"e3": "R", "e6": "Y"} and st.scores == (1, 0)


def test_play_accepts_notation_and_rejects_non_moves():
    st = game().initial_state()
    assert st.play("A6e").to_text() == st.play(Move.parse("a6E")).to_text()
    with pytest.raises(IllegalMoveError, match="not an Interaction move"):
        st.play(42)
    with pytest.raises(IllegalMoveError, match="does not hold a Red ball"):
        st.play("i6W")


def test_successors_match_legal_moves_and_play():
    g = game()
    st = g.initial_state().play("i4N").play("a4N")
    succ = st.successors()
    assert [m for m, _ in succ] == st.legal_moves()
    for move, child in succ:
        again = st.play(move)
        assert again.to_text() == child.to_text() and again.key() == child.key()
        assert child.key() == g.parse_state(child.to_text()).key()


def test_a_rolling_ball_does_not_block_itself():
    # d4NE: e5, f6 (m = 2), strikes g7; g7 rolls to h8 (1), the diagonal aimed at the clipped
    # corner i9 reverses, and it rolls back into its own, now empty, cell g7 (2).
    st = after({"d4": "R", "g7": "Y"}, "d4NE")
    assert balls_of(st) == {"f6": "R", "g7": "Y"}
