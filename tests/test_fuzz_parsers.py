"""Fuzzing every parser: random text (and valid text with random edits) never raises anything
but the documented ``ArenaError`` subclasses (``docs/arena.md`` "Contracts / Python API")."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arena.games
import bots
from arena.errors import ArenaError
from arena.games.ricochet.board import Board
from arena.games.ricochet.puzzle import Puzzle, Solution
from arena.numbers import parse_params
from arena.tournament.config import build
from arena.tournament.config_file import load_toml

# characters that matter to our notations, plus anything
ALPHABET = st.one_of(st.sampled_from(list("abcdefghijklmnopqrstuvwxyzRGBYKNESWV0123456789 ,;:/=#.+-x\t\n")),
                     st.characters())
TEXT = st.text(ALPHABET, max_size=120)


def mutate(text: str, rng: random.Random) -> str:
    """``text`` with a few random deletions, insertions and replacements."""
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(chars) + 1)
        op = rng.randrange(3)
        if op == 0 and i < len(chars):
            del chars[i]
        elif op == 1:
            chars.insert(i, rng.choice("abcdefghipRGBYK0123456789 ,;/:=#.+-x"))
        elif i < len(chars):
            chars[i] = rng.choice("abcdefghipRGBYK0123456789 ,;/:=#.+-x")
    return "".join(chars)


def only_arena_errors(call, *args):
    try:
        call(*args)
    except ArenaError:
        pass


def sample_texts(name: str) -> list[str]:
    """Valid position texts of a game along a seeded random game."""
    game = arena.games.make(name)
    state, rng, texts = game.initial_state(3), random.Random(3), []
    for _ in range(40):
        texts.append(state.to_text())
        if state.is_terminal() or state.to_move < 0:
            break
        moves = state.legal_moves()
        state = state.play(moves[rng.randrange(len(moves))])
    return texts


@pytest.mark.parametrize("name", arena.games.names())
@settings(max_examples=150)
@given(text=TEXT)
def test_position_and_move_text_random(name, text):
    game = arena.games.make(name)
    only_arena_errors(game.parse_state, text)
    only_arena_errors(game.parse_move, game.initial_state(0), text)


@pytest.mark.parametrize("name", arena.games.names())
@settings(max_examples=200)
@given(seed=st.integers(0, 2**32))
def test_position_text_with_random_edits(name, seed):
    game = arena.games.make(name)
    rng = random.Random(seed)
    texts = sample_texts(name)
    text = mutate(rng.choice(texts), rng)
    try:
        state = game.parse_state(text)
    except ArenaError:
        return
    # whatever parses is a usable position
    state.to_text()
    if state.to_move >= 0 and not state.is_terminal():
        for move in state.legal_moves()[:5]:
            state.play(move)


@settings(max_examples=300)
@given(text=TEXT)
def test_bot_specs(text):
    only_arena_errors(bots.make, text)


@settings(max_examples=200)
@given(seed=st.integers(0, 2**32))
def test_puzzles_and_solutions_with_random_edits(seed):
    rng = random.Random(seed)
    text = mutate("1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC", rng)
    only_arena_errors(Puzzle.parse, text)
    only_arena_errors(Solution.parse, mutate("RN GE RS", rng))
    only_arena_errors(Board.parse, mutate("1A,2B,4A,3B", rng))


@settings(max_examples=150)
@given(text=TEXT)
def test_toml_configs_and_game_parameters(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("toml") / "t.toml"
    path.write_text(text, encoding="utf-8", errors="replace")
    only_arena_errors(load_toml, path)
    only_arena_errors(parse_params, [text])
    only_arena_errors(build, {"game": "interaction", "params": {"setup": text}})
    only_arena_errors(build, {"game": "sandpile", "games": text})
