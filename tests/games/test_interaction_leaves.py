"""``InteractionState.leaves``: the light positions of search leaves agree with ``play``."""

from __future__ import annotations

import random

import pytest

import arena.games
from arena.errors import IllegalMoveError
from arena.games.interaction.state import LeafPosition, neutral_mask, occupancy


def walk(game, seed, plies, fresh=False):
    """The positions of one seeded random game (history kept: repetitions can occur); with
    ``fresh``, each a twin made by the same ``play`` whose moves were never generated."""
    rng = random.Random(seed)
    state = twin = game.initial_state()
    out = []
    while state.to_move >= 0 and len(out) < plies:
        out.append(twin if fresh else state)
        move = rng.choice(state.legal_moves())
        state, twin = state.play(move), state.play(move)
    return out


@pytest.mark.parametrize("params", [{}, {"pocketing": "stop", "target": 2}, {"max_plies": 12}])
def test_leaves_agree_with_play(params):
    game = arena.games.make("interaction", **params)
    light = pocketing = 0
    for seed in range(6):
        for state in walk(game, seed, 60, fresh=True):
            pairs = list(state.leaves())  # moves generated one cue ball at a time from ply 2
            moves = state.legal_moves()
            assert [m for m, _ in pairs] == moves
            for move, leaf in pairs:
                full = state.play(move)
                assert (leaf.board, leaf.scores, leaf.side, leaf.ply, leaf.to_move) == \
                       (full.board, full.scores, full.side, full.ply, full.to_move)
                assert leaf.occ == full.occ == occupancy(full.board)
                assert leaf.nmask == full.nmask == neutral_mask(full.board)  # kept move by move
                whole = state.expand(leaf)  # made whole without simulating again
                assert (whole.board, whole.scores, whole.to_move, whole.key(), whole.outcome()) == \
                       (full.board, full.scores, full.to_move, full.key(), full.outcome())
                assert [whole.play(m).key() for m in whole.legal_moves()] == [full.play(m).key() for m in full.legal_moves()]
                if isinstance(leaf, LeafPosition):
                    light += 1
                    pocketing += leaf.scores != state.scores  # a pocketing short of the target
                    assert not full.is_terminal() and not leaf.is_terminal()
                else:
                    assert leaf.outcome() == full.outcome() and leaf.key() == full.key()
    assert light > 100  # the light path is taken
    assert pocketing > 0


def test_a_position_repeated_twice_before_is_a_full_terminal_leaf():
    game = arena.games.make("interaction")
    state = game.initial_state()
    first = state.legal_moves()
    # shuffle two balls back and forth until the third occurrence is one move away
    for seed in range(200):
        rng = random.Random(seed)
        s = state
        for _ in range(40):
            pairs = list(s.leaves())
            ends = [leaf for _, leaf in pairs if not isinstance(leaf, LeafPosition) and leaf.is_terminal()
                    and leaf.termination == "repetition"]
            if ends:
                assert all(leaf.outcome().termination == "repetition" for leaf in ends)
                return
            s = s.play(rng.choice(s.legal_moves()))
            if s.is_terminal():
                break
    raise AssertionError(f"no repetition reached from {len(first)} first moves in 200 seeded games")


@pytest.mark.parametrize("params", [{}, {"max_plies": 12}])
def test_skipped_moves_and_a_search_cut_off(params):
    """``leaves(skip)`` yields the other moves in order, reading ``skip`` when first asked; a
    generator left after its first leaf keeps no partial moves: ``legal_moves`` is whole."""
    game = arena.games.make("interaction", **params)
    checked = 0
    for seed in range(4):
        walks = (walk(game, seed, 40, fresh=True) for _ in range(3))
        for state, twin, cut_twin in zip(*walks):
            moves = state.legal_moves()
            skip: list = []
            pairs = twin.leaves(skip)
            skip.extend(moves[::3])  # filled after the call, before the first leaf (as alpha-beta does)
            assert [m for m, _ in pairs] == [m for i, m in enumerate(moves) if i % 3]
            cut = cut_twin.leaves()
            next(cut, None)
            del cut  # a cut-off after one leaf
            assert cut_twin.legal_moves() == moves
            checked += 1
    assert checked >= 48


def test_a_pass_is_the_one_leaf_when_no_ball_can_strike():
    from arena.games.interaction.notation import PASS

    game = arena.games.make("interaction")
    text = "#..R....#/........./.Y.Y.Y.Y./...B...../...R...../........./.YBY.Y.Y./........./#.......# b 1 1 13"
    (move, leaf), = game.parse_state(text).leaves()  # found by a seeded random game: Blue is blocked
    assert move is PASS and leaf.to_text() == game.parse_state(text).play(PASS).to_text()
    assert list(game.parse_state(text).leaves([PASS])) == []


@pytest.mark.parametrize("params", [{}, {"pocketing": "stop", "target": 2}, {"max_plies": 12}])
def test_one_move_checked_alone_agrees_with_generation(params):
    """``try_play``/``try_leaf`` (a move checked alone, for a search's hash and killer moves): ``None``
    exactly for the moves not in ``legal_moves``, else what ``play`` / ``leaves`` give."""
    from arena.games.interaction.notation import MOVES, PASS

    game = arena.games.make("interaction", **params)
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.initial_state()
        while state.to_move >= 0 and state.ply < 40:
            alone = [(move, state.try_play(move), state.try_leaf(move)) for move in (*MOVES, PASS)]  # before generating
            legal = state.legal_moves()
            for move, child, leaf in alone:
                assert (child is None) == (leaf is None) == (move not in legal), (state.to_text(), move)
                if child is not None:
                    full = state.play(move)
                    assert (child.board, child.scores, child.to_move, child.key()) == \
                           (full.board, full.scores, full.to_move, full.key())
                    assert (leaf.board, leaf.occ, leaf.scores, leaf.to_move) == \
                           (full.board, full.occ, full.scores, full.to_move)
                    checked += 1
            state = state.play(rng.choice(legal))
    assert checked > 200


@pytest.mark.parametrize("fresh", [False, True], ids=["generated", "fresh"])
@pytest.mark.parametrize("params", [{}, {"pocketing": "stop", "target": 2}])
def test_random_child_plays_the_move_picked_from_legal_moves(params, fresh):
    """With the moves generated (a tree node) and without (a playout's own positions: from
    ply 2 on only their legality is tested, ``legal_strikes``)."""
    game = arena.games.make("interaction", **params)
    checked = 0
    us = (0.0, 0.37, 0.5, 0.999999)
    for seed in range(4):
        for state in walk(game, seed, 50, fresh):  # from the start: plies 0 and 1 keep their simulations
            gots = [state.random_child(u) for u in us]  # before legal_moves, on a fresh twin
            moves = state.legal_moves()
            for u, got in zip(us, gots):
                want = state.play(moves[int(u * len(moves))])
                assert (got.board, got.occ, got.nmask, got.scores, got.side, got.ply, got.to_move, got.key()) == \
                       (want.board, want.occ, want.nmask, want.scores, want.side, want.ply, want.to_move, want.key())
                assert got.outcome() == want.outcome()
                checked += 1
    assert checked > 300


def test_child_of_a_move_that_a_wrong_legal_line_listed_is_refused_as_play_refuses_it():
    """``given_legal`` takes any well-formed move texts (an engine's ``legal`` line is not
    checked, to save generating the moves); ``child`` of one that is not a legal strike here
    raises ``IllegalMoveError`` like ``play``, not a ``KeyError``."""
    game = arena.games.make("interaction")
    state = game.parse_state(game.initial_state().to_text())
    state.given_legal(["a5N"])
    with pytest.raises(IllegalMoveError):
        state.child(state.legal_moves()[0])
