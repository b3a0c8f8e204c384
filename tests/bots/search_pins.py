"""What the search bots answer on a fixed set of positions at fixed depth, node and playout
budgets: the chosen move, the nodes (playouts) and the root value, plus a few whole seeded
games. ``search_pins.json`` holds these figures as recorded with the code *before* the speed
work of issue 18 (alpha-beta leaf path, Sandpile evaluation data in the state, MCTS playout
path); ``test_search_pins.py`` checks the current code gives the same, so the speed-ups change
no node count, no move and no game result.

Regenerate (only when a change of strength is intended): ``python -m tests.bots.search_pins``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import arena.games
from arena.bench import sandpile as sandpile_bench
from arena.bench import search as search_bench
from bots.base import Limits
from bots.registry import make

PINS = Path(__file__).with_name("search_pins.json")

#: (game, bot spec, positions): every bot chooses once in each position with seed 7
CASES = (
    ("interaction", "alphabeta:depth=1", "interaction"),
    ("interaction", "alphabeta:depth=2", "interaction"),
    ("interaction", "alphabeta:depth=4", "interaction"),
    ("interaction", "mcts:playouts=150", "interaction"),
    ("sandpile", "paranoid:depth=2", "sandpile"),
    ("sandpile", "paranoid:depth=3", "sandpile"),
    ("sandpile", "brs:depth=2", "sandpile"),
    ("sandpile", "brs:depth=3,tt=false", "sandpile"),
    ("sandpile", "maxn:depth=2", "sandpile"),
    ("sandpile", "mcts:playouts=150", "sandpile"),
)
#: (game, seat specs, seed): whole games played by ``play``
GAMES = (
    ("sandpile", ("paranoid:depth=1", "brs:depth=1", "maxn:depth=1", "mcts:playouts=30"), 3),
    ("sandpile", ("mcts:playouts=20", "paranoid:depth=2", "random", "brs:depth=2"), 4),
    ("interaction", ("alphabeta:depth=2", "mcts:playouts=40"), 5),
)


def positions(kind: str) -> list:
    """The fixed positions: 10 seeded Interaction positions, 8 seeded Sandpile ones."""
    if kind == "interaction":
        return search_bench.positions(10, seed=1812)
    return sandpile_bench.positions(8)


def _value(v) -> float | None:
    return None if v is None else round(float(v), 6)


def choices(game_name: str, spec: str, kind: str) -> list[list]:
    """Per position ``[move text, nodes, depth, root value]`` of a fresh bot seeded 7."""
    game = arena.games.make(game_name)
    out = []
    for state in positions(kind):
        bot = make(spec)
        bot.reset(game, state.to_move, 7)
        move = bot.choose(state, Limits())
        s = bot.last_stats
        out.append([str(move), s.nodes, s.depth, _value(s.evaluation)])
    return out


def play(game_name: str, specs: tuple[str, ...], seed: int) -> dict:
    """One seeded game, bot ``i`` in seat ``i`` (seeded ``seed + i``): moves and outcome."""
    game = arena.games.make(game_name)
    bots = [make(spec) for spec in specs]
    for seat, bot in enumerate(bots):
        bot.reset(game, seat, seed + seat)
    state = game.initial_state(seed)
    moves = []
    rng = random.Random(seed)
    while not state.is_terminal():
        bot = bots[state.to_move]
        move = bot.choose(state, Limits()) if bot.name != "random" else rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.play(move)
    out = state.outcome()
    return {"moves": " ".join(moves), "scores": list(out.scores), "ranks": list(out.ranks)}


def record() -> dict:
    """Every pinned figure of the current code."""
    return {
        "choices": {f"{g} {spec}": choices(g, spec, kind) for g, spec, kind in CASES},
        "games": {f"{g} {' '.join(specs)} seed {seed}": play(g, specs, seed) for g, specs, seed in GAMES},
    }


if __name__ == "__main__":
    PINS.write_text(json.dumps(record(), indent=1) + "\n")
    print(f"wrote {PINS}")
