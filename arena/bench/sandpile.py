"""Sandpile figures: random-playout speed and paranoid search speed (one core)."""

from __future__ import annotations

import random
import time

import arena.games
from arena.bench import Figure

#: seeded start positions for the search figure: random plies played from the empty board
POSITION_SEEDS = range(8)


def playouts(seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Uniformly random games for about ``seconds``: (plies, games, elapsed seconds)."""
    game = arena.games.make("sandpile")
    rng = random.Random(seed)
    plies = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.initial_state()
        while not state.is_terminal():
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
            plies += 1
        games += 1
    return plies, games, time.perf_counter() - start


def positions(count: int) -> list:
    """``count`` seeded mid-game positions (placing, bonus offers and toppling mixed)."""
    game = arena.games.make("sandpile")
    out = []
    for seed in POSITION_SEEDS[:count]:
        rng = random.Random(seed)
        state = game.initial_state()
        for _ in range(10 + 7 * seed):
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
        out.append(state)
    return out


def search_speed(kind: str, depth: int, count: int) -> tuple[int, float]:
    """(nodes, seconds) of ``kind:depth=N`` choosing a move in ``count`` seeded positions."""
    from bots.base import Limits
    from bots.registry import make

    game = arena.games.make("sandpile")
    nodes, seconds = 0, 0.0
    for state in positions(count):
        bot = make(f"{kind}:depth={depth}")
        bot.reset(game, state.to_move, 0)
        bot.choose(state, Limits())
        nodes += bot.last_stats.nodes
        seconds += bot.last_stats.seconds
    return nodes, seconds


def run(quick: bool) -> list[Figure]:
    plies, games, secs = playouts(1.0 if quick else 5.0)
    depth = 3 if quick else 4
    nodes, search_secs = search_speed("paranoid", depth, len(POSITION_SEEDS))
    return [
        Figure("sandpile", "random playouts", plies / secs, "plies/s", note=f"{games} games in {secs:.1f}s"),
        Figure("sandpile", "random playouts", games / secs, "games/s"),
        Figure("sandpile", f"paranoid depth {depth}", nodes / search_secs, "nodes/s",
               note=f"{nodes} nodes, seeded positions"),
    ]
