"""Sandpile rules against docs/rules/sandpile.md: worked examples, notation, offers, scoring, errors."""

from __future__ import annotations

import pytest

import arena.games
from arena.errors import ConfigError, IllegalMoveError, MoveSyntaxError, PositionSyntaxError
from arena.games import TERMINAL
from arena.games.sandpile import PASS, SandpileMove, SandpileState, rules_for

START = ".,.,.,.,.,./.,.,.,.,.,./.,.,.,.,.,./.,.,.,.,.,./.,.,.,.,.,./.,.,.,.,.,. 1 place A 0 ABCD 0,0,0,0 -"


def board_text(stacks: dict[str, str], size: int = 6) -> str:
    rows = []
    for rank in range(size, 0, -1):
        rows.append(",".join(stacks.get(f"{chr(96 + f)}{rank}", ".") for f in range(1, size + 1)))
    return "/".join(rows)


def position(stacks: dict[str, str], rest: str = "1 topple A 0 ABCD", scores: str = "-", size: int = 6) -> str:
    placed = ",".join(str(sum(s.count(c) for s in stacks.values())) for c in "ABCD")
    return f"{board_text(stacks, size)} {rest} {placed} {scores}"


def stacks_of(state) -> dict[str, str]:
    names = state.rules.names
    return {names[i]: s for i, s in enumerate(state.board) if s}


@pytest.fixture
def game():
    return arena.games.make("sandpile")


def test_start_text_and_round_trip(game):
    start = game.initial_state()
    assert start.to_text() == START
    assert game.parse_state(START).to_text() == START
    text = position({"c3": "BACDA", "a6": "ABCD"}, "2 topple C 0 AD", "3,2,4,1")
    assert game.parse_state(text).to_text() == text


def test_example_1_south_topples(game):
    state = game.parse_state(position({"c3": "BACDA"}))
    after = state.play(game.parse_move(state, "xc3"))
    assert stacks_of(after) == {"c3": "B", "c4": "A", "d3": "D", "c2": "C", "b3": "A"}


def test_example_2_north_topples(game):
    state = game.parse_state(position({"c3": "BACDA"}, "1 topple C 0 ABCD"))
    after = state.play("xc3")
    assert stacks_of(after) == {"c3": "B", "c2": "A", "b3": "D", "c4": "C", "d3": "A"}


@pytest.mark.parametrize("wrap, expected", [
    ("torus", {"b6": "D", "a5": "C", "f6": "B", "a1": "A"}),
    ("mirror", {"b6": "D", "a5": "C", "f1": "BA"}),
])
def test_example_3_west_topples_with_wrapping(wrap, expected):
    game = arena.games.make("sandpile", wrap=wrap)
    state = game.parse_state(position({"a6": "ABCD"}, "1 topple B 0 ABCD"))
    assert stacks_of(state.play("xa6")) == expected


def test_mirror_wrap_cells_of_the_spec():
    rules = rules_for(6, "mirror", 4, 4, True)
    north, east = 0, 1  # A topples N first, E second
    assert rules.names[rules.dest[0][rules.index["c6"]][north]] == "d1"
    assert rules.names[rules.dest[0][rules.index["f2"]][east]] == "a5"
    torus = rules_for(6, "torus", 4, 4, True)
    assert torus.names[torus.dest[0][torus.index["c6"]][north]] == "c1"


def test_example_4_placement_rules(game):
    state = game.initial_state()
    assert len(state.legal_moves()) == 36  # the first piece may go anywhere
    for move in ["c3", "pass", "c4", "pass", "c5", "pass", "c6", "pass"]:
        state = state.play(move)
    legal = {str(m) for m in state.legal_moves()}
    assert state.to_move == 0 and "c3" not in legal  # topped by A's own colour
    assert "c4" in legal and "b3" in legal  # another colour's stack; an empty neighbour
    assert "a1" not in legal  # empty, no occupied side-neighbour
    with pytest.raises(IllegalMoveError, match="own colour"):
        state.play("c3")
    with pytest.raises(IllegalMoveError, match="no occupied neighbour"):
        state.play("a1")


def test_placement_adjacency_does_not_wrap(game):
    state = game.parse_state(position({"a1": "B"}, "1 place A 0 ABCD"))
    legal = {str(m) for m in state.legal_moves()}
    assert legal == {"a1", "b1", "a2"}  # f1 and a6 are not neighbours for placing


def test_bonus_offer_sequence_round_1(game):
    state = game.initial_state()
    seen = []
    cells = iter(["c3", "c4", "d3", "d4", "c2", "b3", "e3", "d2", "b2", "e2", "b4", "e4", "c5", "d5", "a3", "f3"])
    while state.round == 1 and not state.is_terminal():
        seen.append((state.phase, "ABCD"[state.to_move], state.step))
        state = state.play(next(cells) if state.phase == "place" else PASS)
    offers = [(p, s) for ph, p, s in seen if ph == "bonus"]
    assert offers == [("ABCD"[k % 4], k) for k in range(16)]  # after each own placement
    assert [(p, s) for ph, p, s in seen if ph == "endbonus"] == [("A", 0), ("B", 1), ("C", 2), ("D", 3)]
    assert seen[-6:-4] == [("place", "D", 15), ("bonus", "D", 15)]  # D, last placer, asked twice


def test_bonus_used_once_and_end_offers_skip_non_holders(game):
    # round 2 (starter B), last turn: A places; A holds no bonus, so the end offers follow
    text = position({"c3": "BACD", "c4": "AB", "d4": "C"}, "2 place A 15 BD", "1,1,1,1")
    state = game.parse_state(text).play("d4")
    assert (state.phase, state.step, "ABCD"[state.to_move]) == ("endbonus", 0, "B")
    after = state.play("+c2")
    assert not after.holds_bonus(1) and after.placed[1] == state.placed[1] + 1
    assert (after.phase, after.step, "ABCD"[after.to_move]) == ("endbonus", 2, "D")  # C skipped
    topple = after.play(PASS)
    assert topple.phase == "topple" and "ABCD"[topple.to_move] == "B"  # the round's starter


def test_bonus_offer_placement_checked_after_first_piece(game):
    state = game.initial_state().play("c3")
    assert state.phase == "bonus"
    legal = {str(m) for m in state.legal_moves()}
    assert "pass" in legal and "+c3" not in legal and "+c4" in legal and len(legal) == 5
    after = state.play("+c4")
    assert after.holders == 0b1110 and after.placed == (2, 0, 0, 0) and after.to_move == 1


def test_forced_pass_has_no_bonus_offer():
    # Unreachable under make()'s bound (a player would need size^2 pieces), so the state
    # is built directly on a 2x2 board entirely topped by A.
    rules = rules_for(2, "torus", 4, 4, True)
    state = SandpileState(rules, ("A", "A", "A", "A"), 1, "place", 0, 0, 0b1111, (4, 0, 0, 0), ())
    assert state.legal_moves() == [PASS]
    after = state.play(PASS)
    assert (after.phase, after.to_move, after.step, after.holders) == ("place", 1, 1, 0b1111)
    offer = SandpileState(rules, ("A", "A", "A", "A"), 1, "bonus", 0, 0, 0b1111, (4, 0, 0, 0), ())
    assert offer.legal_moves() == [PASS]


def test_cannot_pass_while_placement_possible_or_stack_unstable(game):
    with pytest.raises(IllegalMoveError, match="no legal placement"):
        game.initial_state().play(PASS)
    with pytest.raises(IllegalMoveError, match="cannot pass"):
        game.parse_state(position({"c3": "BACDA"})).play(PASS)


def test_topple_turns_rotate_and_tall_stack_stays_unstable(game):
    # decision: a stack of 8+ stays unstable and is toppled again on a later turn
    state = game.parse_state(position({"c3": "AABBCCDD", "f6": "ABCD"}, "1 topple A 0 ABCD"))
    state = state.play("xc3")
    assert stacks_of(state)["c3"] == "AABB" and "ABCD"[state.to_move] == "B"
    assert {str(m) for m in state.legal_moves()} == {"xc3", "xf6"}


def test_scoring_after_topple_counts_visible_tops(game):
    state = game.parse_state(position({"c3": "BACDA", "e5": "DC"}))
    after = state.play("xc3")
    assert after.scores == ((2, 1, 2, 1),)  # tops: c3 B, c4 A, d3 D, c2 C, b3 A, e5 C
    assert (after.round, after.phase, "ABCD"[after.to_move], after.step) == (2, "place", "B", 0)


def test_no_unstable_stack_scores_at_once(game):
    # decision: a toppling phase with nothing to topple is empty; the round is scored at once
    state = game.parse_state(position({"c3": "BAC", "c4": "D"}, "1 endbonus D 3 D"))
    after = state.play(PASS)
    assert after.scores == ((0, 0, 1, 1),) and after.round == 2 and after.phase == "place"


def test_final_ranks_with_ties_and_over_text(game):
    stacks = {"a1": "AB", "b1": "CD", "c1": "A", "d1": "C"}
    text = position(stacks, "4 endbonus D 0 D", "3,2,4,1;2,5,1,3;4,1,2,2")
    final = game.parse_state(text).play(PASS)
    assert final.is_terminal() and final.to_move == TERMINAL and final.legal_moves() == []
    assert final.scores[-1] == (1, 1, 1, 1)
    out = final.outcome()
    assert out.scores == (10, 9, 8, 7) and out.ranks == (1, 2, 3, 4) and out.termination == "rounds"
    assert final.to_text().split()[1:5] == ["4", "over", "A", "0"]  # decision: over is written with A
    tied = position(stacks, "4 endbonus D 0 D", "3,2,4,1;2,5,1,6;4,1,2,2")
    assert game.parse_state(tied).play(PASS).outcome().ranks == (1, 3, 4, 1)  # competition ranking
    with pytest.raises(IllegalMoveError):
        final.play(PASS)


def test_moves_text(game):
    state = game.initial_state()
    assert [str(game.parse_move(state, t)) for t in ["c3", "+c3", "pass", "xc3", "C3", " f6 "]] == \
        ["c3", "+c3", "pass", "xc3", "c3", "f6"]
    assert game.parse_move(state, "xc3") == SandpileMove("topple", "c3")
    for bad in ["", "c", "3c", "c0", "++c3", "x", "passes", "c3x"]:
        with pytest.raises(MoveSyntaxError):
            game.parse_move(state, bad)
    with pytest.raises(IllegalMoveError, match="no cell"):
        state.play("g1")
    with pytest.raises(IllegalMoveError):
        state.play("xc3")
    with pytest.raises(IllegalMoveError):
        state.play("+c3")
    with pytest.raises(IllegalMoveError):
        state.play(None)


@pytest.mark.parametrize("text, why", [
    ("", "8 fields"),
    (START.replace(" 1 place", " 5 place"), "round"),
    (START.replace("place", "placing"), "phase"),
    (START.replace(" A 0 ", " B 0 "), "belongs to"),
    (START.replace(" A 0 ", " E 0 "), "player"),
    (START.replace("ABCD", "BA"), "holders"),
    (START.replace("0,0,0,0", "1,0,0,0"), "pieces on the board"),
    (START.replace("0,0,0,0 -", "0,0,0,0 1,1,1,1"), "rounds of scores"),
    (START.replace(" 0 ABCD", " 16 ABCD"), "step"),
    (START.replace(".,.,.,.,.,./", ".,.,.,.,./", 1), "cells"),
    (START.replace(".,.,.,.,.,./", "", 1), "ranks"),
    (START.replace(".", "E", 1), "stack of letters"),
    (START.replace("place", "topple"), "no unstable"),
    (position({"a1": "A"}, "4 over B 0 ABCD", "1,1,1,1;1,1,1,1;1,1,1,1;1,1,1,1"), "player A"),
])
def test_bad_position_text(game, text, why):
    with pytest.raises(PositionSyntaxError, match=why):
        game.parse_state(text)


def test_make_rejects_parameters_without_guaranteed_stabilisation():
    with pytest.raises(ConfigError, match=r"68 pieces must be below 2 x size\^2 = 32"):
        arena.games.make("sandpile", size=4)
    small = arena.games.make("sandpile", size=4, rounds=1, pieces_per_round=3)
    assert small.initial_state().to_text().startswith(".,.,.,./")
    arena.games.make("sandpile", bonus="false", rounds=8, pieces_per_round="2", wrap="mirror")
    with pytest.raises(ConfigError, match="accepted: torus, mirror"):
        arena.games.make("sandpile", wrap="klein")


def test_accessors_for_evaluation(game):
    state = game.parse_state(position({"c3": "BACDA", "c4": "B"}, "2 place C 1 BC", "1,0,0,0"))
    assert state.tops() == [1, 1, 0, 0] and state.unstable() == [14] and state.totals() == [1, 0, 0, 0]
    assert state.turns_left(2) == 4 + 2 * 4 and state.turns_left(1) == 3 + 2 * 4  # B moved at step 0
    assert state.key() == game.parse_state(state.to_text()).key()
    assert "round 2/4" in state.diagram() and "A5" in state.diagram()


def test_incremental_evaluation_data_matches_a_fresh_parse():
    """``play`` and ``child`` keep the masks, unstable stacks and banked totals of a state
    equal to those computed from its text (which round-trips)."""
    import random

    game = arena.games.make("sandpile")
    fields = ("occ", "tall", "topm", "three", "unstable_stacks", "banked")
    for seed in range(4):
        rng = random.Random(seed)
        state = game.initial_state()
        while not state.is_terminal():
            fresh = game.parse_state(state.to_text())
            assert fresh.to_text() == state.to_text()
            assert [getattr(state, f) for f in fields] == [getattr(fresh, f) for f in fields]
            move = rng.choice(state.legal_moves())
            played, child = state.play(move), state.child(move)
            assert child.to_text() == played.to_text()
            assert [getattr(child, f) for f in fields] == [getattr(played, f) for f in fields]
            state = played if seed % 2 else child


def test_pass_or_first_is_pass_when_legal_else_the_first_legal_move():
    """``pass_or_first`` (a best-reply search's default move, found without generating)."""
    import random

    phases = set()
    for seed in range(8):
        rng = random.Random(seed)
        state = arena.games.make("sandpile").initial_state(seed)
        while state.to_move != TERMINAL:
            moves = state.legal_moves()
            assert state.pass_or_first() == (PASS if PASS in moves else moves[0]), state.to_text()
            phases.add(state.phase)
            state = state.play(PASS if PASS in moves and rng.random() < 0.8 else rng.choice(moves))  # keep bonuses
        assert state.pass_or_first() is None
    assert {"place", "bonus", "endbonus", "topple"} <= phases
