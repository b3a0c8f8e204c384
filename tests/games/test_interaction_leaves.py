"""``InteractionState.leaves`` and ``best_leaf``: the light positions of search leaves agree with ``play``."""

from __future__ import annotations

import math
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
                assert ([whole.play(m).key() for m in whole.legal_moves()]
                        == [full.play(m).key() for m in full.legal_moves()])
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
    kept: dict = {}
    best, best_move, count = game.parse_state(text).best_leaf(lambda pos, seat: 5.0, 1, lambda end: 0.0,
                                                              -math.inf, math.inf, (PASS, None), kept)
    assert (best, best_move, count) == (5.0, PASS, 1) and list(kept) == [PASS]


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


@pytest.mark.parametrize("params", [{}, {"pocketing": "stop", "target": 2}, {"max_plies": 12}])
def test_best_leaf_values_in_order_what_play_gives_and_cuts_off_at_beta(params):
    """``best_leaf`` (a depth-1 node of alpha-beta in one loop): the legal moves of ``first``
    in their order (illegal ones, ``None``, repeats and a pass skipped), then the others in
    generation order; each position as ``play`` makes it, valued by ``evaluate`` or ``final``;
    the best value and its first move; the loop stops at the first value ``>= beta``, and a
    node left early keeps its legal moves whole."""
    from arena.games.interaction.notation import MOVES, PASS
    from bots.eval.interaction import evaluate
    from bots.values import terminal_value

    game = arena.games.make("interaction", **params)
    rng = random.Random(11)
    checked = cuts = 0
    for seed in range(4):
        walks = (walk(game, seed, 40, fresh=True) for _ in range(3))
        for state, twin, cut_twin in zip(*walks):
            seat = state.to_move
            moves = state.legal_moves()
            first = [rng.choice(moves), None, rng.choice(MOVES), rng.choice(moves), PASS, moves[0]]
            order = list(dict.fromkeys(m for m in first if m in moves and m is not PASS))
            order += [m for m in moves if m not in order]

            def final(end, seat=seat):  # called in this iteration only; seat bound for clarity
                return terminal_value(end.outcome(), seat)

            values = []
            for move in order:
                full = state.play(move)
                values.append(final(full) if full.is_terminal() else evaluate(full, seat))
            kept: dict = {}
            calls: list[int] = []
            best, best_move, count = twin.best_leaf(evaluate, seat, final, -math.inf, math.inf, first, kept,
                                                    3, lambda n, calls=calls: calls.append(n) or n + 3)
            assert list(kept) == order and count == len(order)
            assert calls == list(range(3, len(order) + 1, 3))
            assert best == max(values) and best_move == order[values.index(best)]
            for move, pos in kept.items():
                full = state.play(move)
                assert (pos.board, pos.scores, pos.side, pos.ply, pos.to_move) == \
                       (full.board, full.scores, full.side, full.ply, full.to_move)
                assert twin.expand(pos).key() == full.key()
            # a cut-off: beta at a value reached in the middle of the order
            beta = values[rng.randrange(len(values))]
            stop = next(i for i, v in enumerate(values) if v >= beta)
            best, best_move, count = cut_twin.best_leaf(evaluate, seat, final, -math.inf, beta, first)
            assert (best, best_move, count) == (values[stop], order[stop], stop + 1)
            assert best == max(values[:stop + 1])
            cuts += stop + 1 < len(order)
            assert cut_twin.legal_moves() == moves
            checked += 1
    assert checked >= 40 and cuts >= 10
    over = arena.games.make("interaction", max_plies=1).initial_state()
    over = over.play(over.legal_moves()[0])
    assert over.is_terminal()
    assert over.best_leaf(evaluate, 0, lambda end: 0.0, -math.inf, math.inf) == (-math.inf, None, 0)


@pytest.mark.parametrize("params", [{}, {"pocketing": "stop", "target": 2}, {"max_plies": 12}])
def test_best_leaf_valued_from_fields_gives_what_it_gives_with_positions(params):
    """``light`` (``evaluate`` from a leaf's fields, ``bots.eval.interaction.evaluate_fields``):
    without ``kept``, every node gives the same best value, move and count as valuing built
    positions, at every beta; ``evaluate_fields`` of a position's fields is ``evaluate``; with
    ``kept`` the positions are still built and kept."""
    from bots.eval.interaction import evaluate, evaluate_fields
    from bots.values import terminal_value

    game = arena.games.make("interaction", **params)
    rng = random.Random(5)
    checked = 0
    for seed in range(4):
        walks = (walk(game, seed, 40, fresh=True) for _ in range(4))
        for state, twin, light_twin, kept_twin in zip(*walks):
            seat = state.to_move
            moves = state.legal_moves()
            first = [rng.choice(moves), None, rng.choice(moves)]

            def final(end, seat=seat):  # called in this iteration only; seat bound for clarity
                return terminal_value(end.outcome(), seat)

            built: list = []

            def recorded(pos, s, built=built):
                built.append(pos)
                return evaluate(pos, s)

            for pos in (state.play(m) for m in moves):
                if not pos.is_terminal():
                    assert evaluate_fields(pos.nmask, pos.scores, pos.side, seat) == evaluate(pos, seat)
            values = [final(p) if p.is_terminal() else evaluate(p, seat) for p in map(state.play, moves)]
            beta = rng.choice([math.inf, *values])
            want = twin.best_leaf(evaluate, seat, final, -math.inf, beta, first)
            got = light_twin.best_leaf(recorded, seat, final, -math.inf, beta, first, light=evaluate_fields)
            assert got == want
            assert not any(isinstance(p, LeafPosition) for p in built)  # light leaves never built
            kept: dict = {}
            assert kept_twin.best_leaf(evaluate, seat, final, -math.inf, beta, first, kept,
                                       light=evaluate_fields) == want
            assert len(kept) == want[2]
            checked += 1
    assert checked >= 40
