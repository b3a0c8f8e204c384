"""Sandpile properties over random games and random positions (docs/rules/sandpile.md)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import arena.games
from arena.games.sandpile import LETTERS, SandpileState

WRAPS = st.sampled_from(["torus", "mirror"])


def random_game(wrap: str, seed: int):
    game = arena.games.make("sandpile", wrap=wrap)
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    while not state.is_terminal():
        moves = state.legal_moves()
        state = state.play(moves[rng.randrange(len(moves))])
        states.append(state)
    return states


def colour_counts(state) -> list[int]:
    return [sum(s.count(c) for s in state.board) for c in LETTERS]


@settings(max_examples=25)
@given(WRAPS, st.integers(0, 2**32))
def test_random_games_conserve_pieces_and_score_visible_tops(wrap, seed):
    states = random_game(wrap, seed)
    for before, state in zip(states, states[1:]):
        assert colour_counts(state) == list(state.placed)  # nothing created or lost
        assert all(n <= 17 for n in state.placed)
        if len(state.scores) > len(before.scores):  # a round was just scored
            assert list(state.scores[-1]) == state.tops()
            assert not state.unstable()
    final = states[-1]
    assert final.outcome().scores == tuple(sum(r[p] for r in final.scores) for p in range(4))
    assert all(n == 16 + (not final.holds_bonus(p)) for p, n in enumerate(final.placed))


def random_topple_position(game, rng: random.Random) -> SandpileState:
    """Up to 68 pieces (17 per colour) heaped on a few cells, toppling phase."""
    cells = game.rules.cells
    board = [""] * cells
    hot = rng.sample(range(cells), rng.randint(1, 12))
    for colour in LETTERS:
        for _ in range(rng.randint(0, 17)):
            i = rng.choice(hot) if rng.random() < 0.8 else rng.randrange(cells)
            board[i] += colour
    if not any(len(s) > 3 for s in board):
        board[hot[0]] += "ABCD"
    placed = tuple(sum(s.count(c) for s in board) for c in LETTERS)
    return SandpileState(game.rules, tuple(board), 1, "topple", rng.randrange(4), 0, 0, placed, ())


def settle(state, rng: random.Random, limit: int = 20_000) -> tuple[SandpileState, int]:
    for n in range(limit):
        if state.phase != "topple":
            return state, n
        moves = state.legal_moves()
        state = state.play(moves[rng.randrange(len(moves))])
    raise AssertionError(f"toppling phase did not end within {limit} topples")


def test_every_toppling_phase_ends_on_thousands_of_random_positions():
    for wrap in ("torus", "mirror"):
        game = arena.games.make("sandpile", wrap=wrap)
        rng = random.Random(wrap)
        for _ in range(1500):
            start = random_topple_position(game, rng)
            end, _ = settle(start, rng)
            assert colour_counts(end) == list(start.placed)
            assert max(len(s) for s in end.board) <= 3


@settings(max_examples=60)
@given(WRAPS, st.integers(0, 2**32))
def test_heights_after_toppling_do_not_depend_on_the_order(wrap, seed):
    """Chip-firing is abelian: whatever stacks the players pick, the final heights agree."""
    game = arena.games.make("sandpile", wrap=wrap)
    start = random_topple_position(game, random.Random(seed))
    a, _ = settle(start, random.Random(seed + 1))
    b, _ = settle(start, random.Random(seed + 2))
    assert [len(s) for s in a.board] == [len(s) for s in b.board]


@settings(max_examples=40)
@given(WRAPS, st.integers(0, 2**32), st.integers(0, 200))
def test_text_round_trip_anywhere(wrap, seed, ply):
    game = arena.games.make("sandpile", wrap=wrap)
    states = random_game(wrap, seed)
    state = states[min(ply, len(states) - 1)]
    again = game.parse_state(state.to_text())
    assert again.to_text() == state.to_text() and again.key() == state.key()
    assert [str(m) for m in again.legal_moves()] == [str(m) for m in state.legal_moves()]


@settings(max_examples=20)
@given(st.sampled_from([
    {"bonus": False}, {"size": 5, "rounds": 2, "bonus": False}, {"size": 4, "rounds": 1, "pieces_per_round": 3},
    {"size": 8, "rounds": 6, "pieces_per_round": 5, "wrap": "mirror"},
]), st.integers(0, 2**32))
def test_other_parameters_play_to_the_end(params, seed):
    game = arena.games.make("sandpile", **params)
    rules, rng = game.rules, random.Random(seed)
    state, phases = game.initial_state(), set()
    while not state.is_terminal():
        phases.add(state.phase)
        moves = state.legal_moves()
        state = state.play(moves[rng.randrange(len(moves))])
        assert game.parse_state(state.to_text()).to_text() == state.to_text()
    assert len(state.scores) == rules.rounds
    per_player = rules.rounds * rules.pieces_per_round
    assert all(per_player <= n <= per_player + rules.bonus for n in state.placed)
    if not rules.bonus:
        assert not phases & {"bonus", "endbonus"} and state.to_text().split()[5] == "-"
