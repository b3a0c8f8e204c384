"""Interaction speed figures (one core, wall clock): random playouts, move generation, play.

Every figure starts from the default setup with seeded random games, so runs are comparable;
figures vary with machine load, compare ratios measured in one run.
"""

from __future__ import annotations

import random
import time

import arena.games
from arena.bench import Figure

AREA = "interaction"


def _playouts(game, count: int, seed: int) -> tuple[list[list], int, float]:
    """``count`` seeded random playouts: (move lists, plies, seconds)."""
    games = []
    plies = 0
    start = time.perf_counter()
    for k in range(count):
        rng = random.Random(seed + k)
        state = game.initial_state()
        moves = []
        while state.to_move >= 0:
            legal = state.legal_moves()
            move = legal[rng.randrange(len(legal))]
            state = state.play(move)
            moves.append(move)
        games.append(moves)
        plies += len(moves)
    return games, plies, time.perf_counter() - start


def _expand(game, games: list[list], mode: str) -> tuple[int, float]:
    """Replay ``games``; at every position play every legal move: (moves played, seconds)."""
    count = 0
    start = time.perf_counter()
    for moves in games:
        state = game.initial_state()
        for move in moves:
            if mode == "successors":
                count += len(state.successors())
            else:
                for m in state.legal_moves():
                    state.play(m)
                    count += 1
            state = state.play(move)
    return count, time.perf_counter() - start


def run(quick: bool) -> list[Figure]:
    """Random-playout plies/s; legal_moves + play and successors() children/s."""
    game = arena.games.make("interaction")
    count = 30 if quick else 300
    _playouts(game, 3, 0)  # warm up
    games, plies, secs = _playouts(game, count, 1)
    played, play_secs = _expand(game, games[: count // 3], "play")
    children, succ_secs = _expand(game, games[: count // 3], "successors")
    note = f"{count} seeded games from the default setup, {plies / count:.1f} plies per game"
    return [
        Figure(AREA, "random playouts", plies / secs, "plies/s", "", note),
        Figure(AREA, "random playouts", count / secs, "games/s", "", note),
        Figure(AREA, "legal_moves + play of every move", played / play_secs, "moves/s", "",
               f"every legal move played at each position of {count // 3} games"),
        Figure(AREA, "successors()", children / succ_secs, "children/s", "",
               f"(move, state) pairs at each position of {count // 3} games"),
    ]
