"""Property tests of Interaction (Hypothesis): free paths, conservation, text round trips."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.interaction import PASS, Move
from arena.games.interaction.geometry import CELLS, NEXT, NUM_CELLS, PATH_CELLS, POCKET, RAW
from arena.games.interaction.mechanics import legal_strikes, occupancy, strike, strikes
from arena.errors import PositionSyntaxError
from arena.games.interaction.notation import _parse_position_checked, format_position, parse_position
from tests.games.interaction_util import game

GAME = game()


@st.composite
def boards(draw):
    """A random legal board: some balls of each kind, no neutral on a pocket."""
    cells = draw(st.lists(st.sampled_from(CELLS), min_size=2, max_size=30, unique=True))
    board = bytearray(NUM_CELLS)
    for k, cell in enumerate(cells):
        piece = draw(st.sampled_from((1, 2, 3))) if k >= 2 else k + 1
        if piece == 3 and POCKET[cell]:
            piece = 1 + k % 2
        board[cell] = piece
    return bytes(board)


def first_ball_on_free_path(board, cell, direction):
    """Reference walker: (momentum, met a ball?) by stepping NEXT with a visited set."""
    s = cell * 8 + direction
    seen = {s}
    m = 0
    while True:
        s = NEXT[s]
        if board[s >> 3] and s >> 3 != cell:
            return m, True
        if s in seen:
            return m, False
        seen.add(s)
        m += 1


def test_every_free_path_is_eventually_periodic():
    for s in range(NUM_CELLS * 8):
        if NEXT[s] < 0:
            continue
        path = PATH_CELLS[s]
        assert 1 <= len(path) <= 77 * 8
        # the state after the last one recorded is the start or one already on the path
        t, states = s, [s]
        for _ in path:
            t = NEXT[t]
            states.append(t)
        assert NEXT[t] in states


@given(boards(), st.integers(0, 1))
@settings(max_examples=150)
def test_legal_moves_are_exactly_the_strikes_with_momentum(board, side):
    state = GAME.parse_state(format_position(board, side, (0, 0), 10))
    legal = set(map(str, state.legal_moves()))
    expected = set()
    for cell in range(NUM_CELLS):
        if board[cell] != side + 1:
            continue
        for d in range(8):
            m, met = first_ball_on_free_path(board, cell, d)
            if met and m >= 1:
                expected.add(str(Move(cell, d)))
    assert legal == (expected or {"pass"})


@given(boards(), st.integers(0, 1))
@settings(max_examples=150)
def test_legal_strikes_are_the_strikes_in_their_order_and_strike_finds_each_momentum_or_0(board, side):
    occ = occupancy(board)
    found = strikes(board, occ, side)
    assert legal_strikes(board, occ, side) == list(found)
    own = [c for c in range(NUM_CELLS) if board[c] == side + 1]
    assert ([strike(occ, c * 8 + d) for c in own for d in range(8)]
            == [found.get(c * 8 + d, 0) for c in own for d in range(8)])


# An independent, cell-by-cell oracle of one move, written for clarity rather than speed.
def reference_move(board, cell, direction, stop_rule=False):
    """(board after, neutrals pocketed) or None when illegal (m = 0, or never meets a ball)."""
    b = bytearray(board)
    piece = b[cell]
    b[cell] = 0
    s = cell * 8 + direction
    seen = {s}
    m = 0
    while True:
        t = NEXT[s]
        if b[t >> 3]:
            break
        if t in seen:
            return None
        seen.add(t)
        s = t
        m += 1
    if m == 0:
        return None
    b[s >> 3] = piece
    r = m
    state = t  # struck cell and the direction of the blow
    handovers = set()
    while True:
        cur, d = state >> 3, state & 7
        while RAW[cur * 8 + d] >= 0 and b[RAW[cur * 8 + d]]:
            cur = RAW[cur * 8 + d]
        if (cur, d, r) in handovers:
            return bytes(b), 0
        handovers.add((cur, d, r))
        piece = b[cur]
        b[cur] = 0
        s = cur * 8 + d
        steps = 0  # cells travelled: one unit of momentum each, up to the next ball
        while steps < r and not b[NEXT[s] >> 3]:
            s = NEXT[s]
            steps += 1
            if piece == 3 and not stop_rule and POCKET[s >> 3]:
                return bytes(b), 1
        b[s >> 3] = piece
        r -= steps
        if steps:
            handovers = set()
        if stop_rule and steps and piece == 3 and POCKET[s >> 3]:
            b[s >> 3] = 0
            return bytes(b), 1
        if not r:
            return bytes(b), 0
        state = NEXT[s]  # the ball met takes the rest of the momentum, in the same direction


@given(boards(), st.integers(0, 1), st.sampled_from(("enter", "stop")))
@settings(max_examples=150)
def test_every_move_matches_the_cell_by_cell_oracle(board, side, pocketing):
    g = game(pocketing=pocketing)
    state = g.parse_state(format_position(board, side, (0, 0), 10))
    legal = {str(m) for m in state.legal_moves()}
    for cell in range(NUM_CELLS):
        if board[cell] != side + 1:
            continue
        for d in range(8):
            expected = reference_move(board, cell, d, pocketing == "stop")
            move = Move(cell, d)
            assert (str(move) in legal) == (expected is not None)
            if expected is not None:
                after = state.play(move)
                assert (after.board, sum(after.scores)) == expected
                read = g.parse_state(after.to_text())
                assert (after.key(), after.occ, after.nmask) == (read.key(), read.occ, read.nmask)


def random_walk(state, seed, plies=80):
    rng = random.Random(seed)
    out = [state]
    for _ in range(plies):
        if state.is_terminal():
            break
        moves = state.legal_moves()
        state = state.play(moves[rng.randrange(len(moves))])
        out.append(state)
    return out


@given(boards(), st.integers(0, 2**32))
@settings(max_examples=60)
def test_balls_plus_pocketed_constant_and_scores_only_grow(board, seed):
    start = GAME.parse_state(format_position(board, 0, (0, 0), 2))
    total = sum(1 for p in board if p)
    coloured = sorted(p for p in board if p in (1, 2))
    prev = (0, 0)
    for state in random_walk(start, seed):
        assert sum(1 for p in state.board if p) + sum(state.scores) == total
        assert sorted(p for p in state.board if p in (1, 2)) == coloured
        assert all(POCKET[c] == 0 for c, p in enumerate(state.board) if p == 3)
        assert state.scores[0] >= prev[0] and state.scores[1] >= prev[1]
        assert sum(state.scores) - sum(prev) <= 1
        prev = state.scores


@given(st.integers(0, 2**32))
@settings(max_examples=40)
def test_legal_moves_do_not_depend_on_the_history(seed):
    for state in random_walk(GAME.initial_state(), seed, plies=60):
        again = GAME.parse_state(state.to_text())
        assert again.key() == state.key() and again.to_text() == state.to_text()
        if not state.is_terminal():
            assert again.legal_moves() == state.legal_moves()
            for move, child in again.successors():
                assert state.play(move).to_text() == child.to_text()


@given(boards())
@settings(max_examples=60)
def test_a_lone_path_never_meeting_a_ball_makes_no_move(board):
    for side in (0, 1):
        state = GAME.parse_state(format_position(board, side, (0, 0), 10))
        moves = state.legal_moves()
        for cell in range(NUM_CELLS):
            if board[cell] == side + 1:
                for d in range(8):
                    _, met = first_ball_on_free_path(board, cell, d)
                    if not met:
                        assert Move(cell, d) not in moves
        assert moves == [PASS] or PASS not in moves


@given(boards(), st.integers(0, 2**32))
@settings(max_examples=60)
def test_threefold_repetition_matches_a_naive_history_count(board, seed):
    g = game(max_plies=400)
    start = g.parse_state(format_position(board, 0, (0, 0), 2))
    seen: dict = {}
    for state in random_walk(start, seed, plies=300):
        position = (state.board, state.scores, state.side)
        seen[position] = seen.get(position, 0) + 1
        assert (state.termination == "repetition") == (seen[position] >= 3)


def _read(parse, *args):
    """(result, None) or (None, the PositionSyntaxError's message) of a parse."""
    try:
        return parse(*args), None
    except PositionSyntaxError as exc:
        return None, str(exc)


#: characters an edit writes: board letters, separators, digits, non-ASCII look-alikes
EDIT_CHARS = list("#.RBYrbyxX/ 0-²١é\t")


@st.composite
def edited_positions(draw):
    """Position text, maybe lower-cased, with up to 3 edits: a character overwritten, or one
    removed and another inserted elsewhere (ranks of unequal length, same total), or a
    neutral put on a pocket (rank 5: characters 40..48)."""
    board, side = draw(boards()), draw(st.integers(0, 1))
    scores, ply = (draw(st.integers(0, 9)), draw(st.integers(0, 9))), draw(st.integers(0, 300))
    text = format_position(board, side, scores, ply)
    lowered = draw(st.booleans())
    if lowered:
        text = text.lower()
    edits = draw(st.lists(st.tuples(st.sampled_from(("set", "move", "pocket")), st.integers(0, 100),
                                    st.integers(0, 100), st.sampled_from(EDIT_CHARS)), max_size=3))
    for kind, i, j, ch in edits:
        if kind == "set":
            text = text[:i] + ch + text[i + 1:]
        elif kind == "move":
            text = text[:i] + text[i + 1:]
            text = text[:j] + ch + text[j:]
        else:
            text = text[:40 + i % 9] + "Y" + text[41 + i % 9:]
    return text, (board, side, scores, ply) if not edits and not lowered else None


@given(edited_positions())
@settings(max_examples=500)
def test_fast_position_reading_agrees_with_the_cell_by_cell_reading(case):
    """``parse_position``'s whole-text fast path accepts exactly what the checked reading
    accepts, with the same result, and a bad text gets the checked reading's message."""
    text, expected = case
    fast, fast_error = _read(parse_position, text)
    checked, checked_error = _read(_parse_position_checked, text.split(), text)
    assert (fast, fast_error) == (checked, checked_error)
    if expected is not None:
        assert fast == expected
        assert format_position(*fast) == text
