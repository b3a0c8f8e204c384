"""Every registered game must pass these (OpenSpiel-style random simulation over all games)."""

from __future__ import annotations

import random

import pytest

import arena.games
from arena.errors import ArenaError, IllegalMoveError
from arena.games import SIMULTANEOUS, TERMINAL, Answer

GAMES = arena.games.names()
MAX_STEPS = 5000


def random_step(game, state, rng):
    """A random move at a sequential node; at a simultaneous node the state's own random
    answers (``random_answer(rng)``) or no answer from every seat."""
    if state.to_move == SIMULTANEOUS:
        make = getattr(state, "random_answer", None)
        return state.play([Answer(make(rng) if make else None) for _ in range(game.num_players)])
    moves = state.legal_moves()
    assert moves, "a non-terminal sequential node must offer at least one move (pass included)"
    return state.play(moves[rng.randrange(len(moves))])


def random_game(game, seed):
    rng = random.Random(seed)
    state = game.initial_state(seed)
    states = [state]
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            return states
        state = random_step(game, state, rng)
        states.append(state)
    pytest.fail(f"{game.name}: random game {seed} did not end within {MAX_STEPS} steps")


@pytest.mark.parametrize("name", GAMES)
def test_random_games_terminate_with_well_formed_outcome(name):
    game = arena.games.make(name)
    for seed in range(5):
        final = random_game(game, seed)[-1]
        assert final.to_move == TERMINAL
        out = final.outcome()
        assert out is not None and isinstance(out.termination, str) and out.termination
        n = game.num_players
        assert len(out.scores) == n and len(out.ranks) == n
        assert out.ranks == arena.games.competition_ranks(out.scores) or out.termination
        assert min(out.ranks) == 1 and all(1 <= r <= n for r in out.ranks)


@pytest.mark.parametrize("name", GAMES)
def test_text_round_trip_and_moves_playable(name):
    game = arena.games.make(name)
    for state in random_game(game, 11)[:60]:
        text = state.to_text()
        again = game.parse_state(text)
        assert again.to_text() == text
        assert again.to_move == state.to_move
        if state.to_move >= 0:
            moves = state.legal_moves()
            assert [str(m) for m in again.legal_moves()] == [str(m) for m in moves]
            for move in moves:
                state.play(move)  # every legal move is playable
                assert str(game.parse_move(state, str(move))) == str(move)


@pytest.mark.parametrize("name", GAMES)
def test_illegal_moves_raise(name):
    game = arena.games.make(name)
    for state in random_game(game, 3)[:40]:
        if state.to_move < 0:
            continue
        legal = {str(m) for m in state.legal_moves()}
        probes = []
        for other in random_game(game, 4)[:40]:
            if other.to_move >= 0:
                probes += [m for m in other.legal_moves() if str(m) not in legal]
        for move in probes[:20]:
            with pytest.raises(IllegalMoveError):
                state.play(move)
    final = random_game(game, 3)[-1]
    with pytest.raises(IllegalMoveError):
        final.play(None)


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_game(name):
    game = arena.games.make(name)
    a = [s.to_text() for s in random_game(game, 7)]
    b = [s.to_text() for s in random_game(game, 7)]
    assert a == b


@pytest.mark.parametrize("name", GAMES)
def test_bad_text_raises_arena_error(name):
    game = arena.games.make(name)
    for text in ["", "garbage", "x" * 500, "\x00"]:
        with pytest.raises(ArenaError):
            game.parse_state(text)
        with pytest.raises(ArenaError):
            game.parse_move(game.initial_state(0), text)
