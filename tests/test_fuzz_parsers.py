"""Fuzzing every parser: random text (and valid text with random edits, hostile numbers and
Unicode look-alikes) never raises anything but the documented ``ArenaError`` subclasses
(``docs/arena.md`` "Contracts / Python API"; issue 29): every game's ``parse_state`` and
``parse_move``, puzzle text (``arena solve``), openings lines, the TOML config (``load_toml`` and
``build``) and bot specs (``parse_spec``, ``make``).

Each property runs twice: in the quick loop with ``QUICK`` examples and in the slow suite
(``-m slow``) with ``SLOW`` (``SIZES``)."""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Callable
from importlib.util import find_spec
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arena.games
import bots
from arena.errors import ArenaError
from arena.games import CHANCE
from arena.games.interaction.solo import InteractionSoloGame
from arena.games.ricochet.board import Board
from arena.games.ricochet.puzzle import Puzzle, Solution
from arena.numbers import parse_params
from arena.results.files import db_path
from arena.tournament.config import build, field_specs
from arena.tournament.config_file import load_toml
from arena.tournament.series import read_openings
from bots.registry import parse_spec

QUICK, SLOW = 60, 1000
SIZES = [pytest.param(QUICK, id="quick"), pytest.param(SLOW, id="slow", marks=pytest.mark.slow)]
#: the registered games, and one of OpenSpiel's when it is installed (its games share one
#: parser: backgammon has chance plies and moves whose OpenSpiel strings have spaces)
GAMES = arena.games.names() + (["openspiel:backgammon"] if find_spec("pyspiel") else [])

# characters that matter to our notations, plus anything
ALPHABET = st.one_of(st.sampled_from(list("abcdefghijklmnopqrstuvwxyzRGBYKNESWV0123456789 ,;:/=#.+-x\t\n")),
                     st.characters())
TEXT = st.text(ALPHABET, max_size=120)
#: what a number field may hold in hostile text: beyond int64, beyond Python's int-to-text
#: limit (4,300 digits), signs, exponents, and digits to ``str.isdigit`` that ``int`` refuses
NUMBER = st.one_of(st.integers(-2**70, 2**70).map(str), st.just("9" * 5000), st.just("1" * 19),
                   st.sampled_from(["²", "٣", "１", "-0", "+1", "1e9", "00", "1_000", "nan", "inf", "0x1f", ""]))
#: characters whose lower or upper case is not one character, or folds onto ASCII letters
LOOKALIKES = "İıſKÅﬀß"
#: an answer of each race game's first round (its moves separated by spaces)
ANSWERS = {"ricochet": "RN GE RS", "interaction-solo-race": "e1N d3SW"}


def fuzz(examples: int, strategy: st.SearchStrategy, check: Callable[[Any], None]) -> None:
    """Run ``check`` on ``examples`` values of ``strategy`` (hypothesis, shrinking a failure)."""
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(strategy)
    def run(value):
        check(value)
    run()


def only_arena_errors(call: Callable[..., Any], *args: Any) -> Any:
    try:
        return call(*args)
    except ArenaError:
        return None


def mutate(text: str, rng: random.Random) -> str:
    """``text`` with a few random deletions, insertions and replacements."""
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(chars) + 1)
        op = rng.randrange(3)
        if op == 0 and i < len(chars):
            del chars[i]
        elif op == 1:
            chars.insert(i, rng.choice("abcdefghipRGBYK0123456789 ,;/:=#.+-x" + LOOKALIKES))
        elif i < len(chars):
            chars[i] = rng.choice("abcdefghipRGBYK0123456789 ,;/:=#.+-x" + LOOKALIKES)
    return "".join(chars)


_SAMPLES: dict[str, tuple[list[Any], list[str], list[str]]] = {}


def samples(name: str) -> tuple[list[Any], list[str], list[str]]:
    """(states, their position texts, moves played) along a seeded random game of ``name``."""
    if name not in _SAMPLES:
        game = arena.games.make(name)
        state, rng = game.initial_state(3), random.Random(3)
        states, texts, moves = [], [], []
        for _ in range(40):
            states.append(state)
            texts.append(state.to_text())
            if state.is_terminal() or (state.to_move < 0 and state.to_move != CHANCE):
                break
            legal = [m for m, _ in state.chance_outcomes()] if state.to_move == CHANCE else state.legal_moves()
            move = legal[rng.randrange(len(legal))]
            moves.append(str(move))
            state = state.play(move)
        _SAMPLES[name] = states, texts, moves
    return _SAMPLES[name]


def with_numbers(text: str, numbers: list[str], rng: random.Random) -> str:
    """``text`` with some of its runs of digits replaced by ``numbers``."""
    runs = list(re.finditer(r"\d+", text))
    if not runs:
        return text + " " + numbers[0]
    for m, number in sorted(zip(rng.sample(runs, min(len(runs), len(numbers))), numbers),
                            key=lambda p: -p[0].start()):
        text = text[:m.start()] + number + text[m.end():]
    return text


def usable(state: Any) -> None:
    """Whatever parses is a usable position."""
    state.to_text()
    if state.to_move >= 0 and not state.is_terminal():
        for move in state.legal_moves()[:5]:
            state.play(move)


# -- every game's parse_state and parse_move -------------------------------------------------

@pytest.fixture
def game(name):
    """The game ``name`` (the test's parameter) with its default parameters."""
    return arena.games.make(name)


def each_game_and_size(test):
    """``test`` for every game of ``GAMES`` and every number of examples of ``SIZES``."""
    return pytest.mark.parametrize("examples", SIZES)(pytest.mark.parametrize("name", GAMES)(test))


@each_game_and_size
def test_position_and_move_text_random(game, name, examples):
    states = samples(name)[0]

    def check(args):
        text, i = args
        only_arena_errors(game.parse_state, text)
        only_arena_errors(game.parse_move, states[i % len(states)], text)
    fuzz(examples, st.tuples(TEXT, st.integers(0, 100)), check)


@each_game_and_size
def test_position_text_with_random_edits_and_hostile_numbers(game, name, examples):
    texts = samples(name)[1]

    def check(args):
        seed, numbers = args
        rng = random.Random(seed)
        for text in (mutate(rng.choice(texts), rng), with_numbers(rng.choice(texts), numbers, rng)):
            state = only_arena_errors(game.parse_state, text)
            if state is not None:
                usable(state)
    fuzz(examples, st.tuples(st.integers(0, 2**32), st.lists(NUMBER, min_size=1, max_size=4)), check)


@each_game_and_size
def test_move_text_with_edits_and_lookalikes(game, name, examples):
    states, _, moves = samples(name)
    moves = moves or [ANSWERS[name]]  # a race's sample stops at its first simultaneous round

    def check(seed):
        rng = random.Random(seed)
        i = rng.randrange(len(moves))
        only_arena_errors(game.parse_move, states[i], mutate(moves[i], rng))
        only_arena_errors(game.parse_move, states[i], with_numbers(moves[i], ["9" * 5000], rng))
    fuzz(examples, st.integers(0, 2**32), check)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", ["9" * 5000, "²", "1" * 19, "٣"])
def test_reported_numbers_in_position_text(game, name, bad):
    """The fuzz crashes of issue 29 (4,300+ digits, a superscript digit) in every field."""
    for text in samples(name)[1][:3]:
        for m in re.finditer(r"\d+", text):
            only_arena_errors(game.parse_state, text[:m.start()] + bad + text[m.end():])


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("move", ["İ9E", "ı1N", "a１N", "K5S", "ſ9e", "b²n"])
def test_reported_lookalike_moves(game, name, move):
    for state in samples(name)[0][:3]:
        only_arena_errors(game.parse_move, state, move)


# -- puzzle text: arena solve -----------------------------------------------------------------

@pytest.mark.parametrize("examples", SIZES)
def test_puzzles_and_solutions_with_random_edits(examples):
    def check(args):
        seed, numbers = args
        rng = random.Random(seed)
        text = mutate("1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC", rng)
        only_arena_errors(Puzzle.parse, text)
        only_arena_errors(Puzzle.parse, with_numbers(text, numbers, rng))
        only_arena_errors(Solution.parse, mutate("RN GE RS", rng))
        only_arena_errors(Board.parse, mutate("1A,2B,4A,3B", rng))
    fuzz(examples, st.tuples(st.integers(0, 2**32), st.lists(NUMBER, min_size=1, max_size=3)), check)


@pytest.mark.parametrize("examples", SIZES)
def test_puzzle_and_solo_solve_inputs_random(examples):
    def check(text):
        only_arena_errors(Puzzle.parse, text)
        only_arena_errors(Solution.parse, text)
        if text.strip().lower().startswith("layout="):  # as arena solve --game interaction-solo reads it
            only_arena_errors(lambda: InteractionSoloGame(layout=text.strip()[7:]).initial_state())
        only_arena_errors(InteractionSoloGame().parse_state, text)
    fuzz(examples, st.one_of(TEXT, NUMBER.map(lambda n: "layout=" + n)), check)


# -- openings lines -----------------------------------------------------------------------------

@each_game_and_size
def test_openings_lines(game, tmp_path, name, examples):
    texts = samples(name)[1]
    path = tmp_path / "openings.txt"

    def check(args):
        seed, numbers, noise = args
        rng = random.Random(seed)
        lines = [rng.choice(texts), mutate(rng.choice(texts), rng), with_numbers(rng.choice(texts), numbers, rng),
                 noise, "# " + noise]
        rng.shuffle(lines)
        path.write_text("\n".join(lines[:rng.randint(1, len(lines))]), encoding="utf-8", errors="replace")
        only_arena_errors(read_openings, path, game)
    fuzz(examples, st.tuples(st.integers(0, 2**32), st.lists(NUMBER, min_size=1, max_size=3), TEXT), check)


# -- the TOML config --------------------------------------------------------------------------

KEYS = ["game", "params", "bots", "bot", "format", "games", "seed", "opening-plies", "move_time", "move-nodes",
        "game_time", "time-margin", "memory_limit", "seat_rotation", "fill", "openings", "openings_order", "sprt",
        "tau", "workers", "name", "retries", "isolation", "engine", "nonsense", "results", "each", "adjudicate", "tc",
        "until-ranked", "cluster", "trace_engines", "allow-version-change", "rounds", "seeds"]
SCALAR = st.one_of(st.integers(-2**80, 2**80), NUMBER, st.floats(allow_nan=True, allow_infinity=True),
                   st.booleans(), TEXT, st.sampled_from(GAMES + ["random", "alphabeta:depth=1", "round-robin"]))
VALUE = st.recursive(SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(st.sampled_from(["target", "label", "command",
                                                                                       "x", "players"]),
                                                                      inner, max_size=3)), max_leaves=6)


def toml_value(value: Any) -> str:
    """``value`` in TOML (a number field's text kept as a bare token: ``9999...`` or ``²``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return ("nan" if value != value else "inf" if value == math.inf else "-inf" if value == -math.inf
                else repr(value))
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def toml_document(entries: list[tuple[str, Any, bool]]) -> str:
    """``key = value`` lines; ``bare`` number text goes in unquoted (``games = 9999...``)."""
    lines = []
    for key, value, bare in entries:
        lines.append(f"{key} = {value if bare and isinstance(value, str) else toml_value(value)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("examples", SIZES)
def test_toml_configs(tmp_path, examples):
    path = tmp_path / "t.toml"

    def check(entries):
        path.write_text(toml_document(entries), encoding="utf-8", errors="replace")
        values = only_arena_errors(load_toml, path)
        if values is not None:
            values.setdefault("bots", ["random", "random"])
            cfg = only_arena_errors(build, values)
            if cfg is not None:  # what a run does with the settings first: its files, its field
                db_path(cfg.run_name(), cfg.results)
                only_arena_errors(field_specs, cfg, arena.games.make(cfg.game, **cfg.params).num_players)
    entry = st.tuples(st.sampled_from(KEYS), st.one_of(VALUE, NUMBER), st.booleans())
    fuzz(examples, st.lists(entry, max_size=5, unique_by=lambda e: e[0]), check)


@pytest.mark.parametrize("examples", SIZES)
def test_toml_text_and_game_parameters(tmp_path, examples):
    path = tmp_path / "t.toml"

    def check(text):
        path.write_text(text, encoding="utf-8", errors="replace")
        only_arena_errors(load_toml, path)
        only_arena_errors(parse_params, [text])
        only_arena_errors(build, {"game": "interaction", "params": {"setup": text}})
        only_arena_errors(build, {"game": "sandpile", "games": text})
    fuzz(examples, TEXT, check)


# -- bot specs --------------------------------------------------------------------------------

#: spec shapes that reach the file system: file paths (empty names, names past NAME_MAX, NUL),
#: dotted paths; never exec: (it would start whatever program the text names)
PATHS = st.one_of(
    st.sampled_from(["/.", "/", ".", "..", "/tmp/.", "a\x00b.py#X", "/" + "a" * 256 + ".py", "a" * 300,
                     "/" + "b" * 256 + ".py#C", ("x" * 256) + ".B", "/./.py#X"]),
    st.tuples(st.sampled_from(["/", "./", "", "/tmp/"]), st.text(ALPHABET, max_size=300),
              st.sampled_from(["", ".py", ".py#Bot", "#Bot", ".Bot"])).map("".join),
)


@pytest.mark.parametrize("examples", SIZES)
def test_bot_specs(examples):
    def check(text):
        if text.lstrip().partition("=")[2].lstrip().startswith("exec") or text.lstrip().startswith("exec"):
            return
        only_arena_errors(parse_spec, text)
        only_arena_errors(bots.make, text)
    label = st.sampled_from(["", "a=", "x y=", "é="])
    options = st.sampled_from(["", ":depth=2", ":depth=" + "9" * 5000, ":depth=²", ":a=b,a=c", ":=", ":x"])
    fuzz(examples, st.one_of(TEXT, st.tuples(label, PATHS, options).map("".join)), check)


@pytest.mark.parametrize("spec", ["/.", "/" + "a" * 256 + ".py", "/" + "a" * 256 + ".py#A", "a" * 256 + ".B",
                                  "a\x00b.py#A"])
def test_reported_bot_paths(spec):
    with pytest.raises(ArenaError):
        bots.make(spec)


def test_reported_toml_integer_beyond_the_int_text_limit(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(f"game = \"interaction\"\ngames = {'9' * 5000}\n")
    with pytest.raises(ArenaError, match="integer too long"):
        load_toml(path)


INTERACTION_START = "#.......#/........./.Y.YYY.Y./R.......B/........./B.......R/.Y.YYY.Y./........./#.......# r 0 0"


@pytest.mark.parametrize("case", ["bot /.", "bot long .py", "bot long dotted", "toml", "openings", "openings ²"])
def test_reported_inputs_are_one_line_exit_2_at_the_cli(tmp_path, capsys, case):
    from arena.cli.app import main

    args = ["run", "--game", "interaction", "--games", "2", "--results", str(tmp_path / "results")]
    if case.startswith("bot"):
        bot = {"bot /.": "/.", "bot long .py": "/tmp/" + "a" * 256 + ".py", "bot long dotted": "a" * 256 + ".B"}[case]
        args += ["--bot", "r=random", "--bot", bot]
    elif case == "toml":
        (tmp_path / "big.toml").write_text(f"game = \"interaction\"\ngames = {'9' * 5000}\n")
        args += ["--config", str(tmp_path / "big.toml")]
    else:
        ply = "9" * 5000 if case == "openings" else "²"
        (tmp_path / "openings.txt").write_text(f"{INTERACTION_START} {ply}\n")
        args += ["--bot", "r=random", "--bot", "s=random", "--openings", str(tmp_path / "openings.txt")]
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in out + err and len(err) < 1000
