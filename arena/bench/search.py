"""Search speed: Interaction alpha-beta nodes/s and MCTS playouts/s; random playouts of every
sequential game. One core, in this process.

Alpha-beta is timed at a fixed depth (4 plies) on a fixed set of seeded Interaction positions
(random plies from the start), each searched by a fresh bot (an empty transposition table), in
CPU seconds of this process (less sensitive to other processes than wall-clock time), best of
3 runs. The quality bar (``docs/arena.md`` "Quality bars") is at least 50,000 nodes/s.
"""

from __future__ import annotations

import random
import time

import arena.games
import bots
from arena.bench import Figure
from arena.games import State

GAME = "interaction"


def positions(count: int, seed: int = 2024, game_name: str = GAME) -> list[State]:
    """``count`` live positions: each 4 to 40 seeded random plies from the start."""
    game = arena.games.make(game_name)
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        state = game.initial_state(rng.randrange(1 << 30))
        for _ in range(rng.randrange(4, 41)):
            moves = state.legal_moves()
            nxt = state.play(moves[rng.randrange(len(moves))])
            if nxt.is_terminal():
                break
            state = nxt
        out.append(state)
    return out


def search_speed(spec: str, states: list[State], game_name: str = GAME, repeats: int = 1) -> tuple[int, float]:
    """(nodes, CPU seconds) summed over one fresh ``spec`` bot's choice in each of ``states``;
    with ``repeats`` > 1 the fastest of that many identical runs (timeit-style)."""
    game = arena.games.make(game_name)
    best = None
    for _ in range(repeats):
        players = [bots.make(spec) for _ in states]  # made outside the timed region
        nodes, seconds = 0, 0.0
        for i, (bot, state) in enumerate(zip(players, states)):
            bot.reset(game, state.to_move, i)
            t0 = time.process_time()
            bot.choose(state, bots.Limits())
            seconds += time.process_time() - t0
            nodes += bot.last_stats.nodes
        if best is None or seconds < best[1]:
            best = (nodes, seconds)
    assert best is not None  # repeats >= 1
    return best


def random_playouts(game_name: str, seconds: float) -> tuple[int, int, float] | None:
    """(games, plies, seconds) of uniformly random games from the start for about ``seconds``;
    ``None`` when the game starts with a simultaneous node (no sequential playouts)."""
    game = arena.games.make(game_name)
    rng = random.Random(1)
    games = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        state = game.initial_state(games)
        while not state.is_terminal():
            if state.to_move < 0:
                return None
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
            plies += 1
        games += 1
    return games, plies, time.perf_counter() - start


def run(quick: bool) -> list[Figure]:
    figures: list[Figure] = []
    states = positions(4 if quick else 24)
    depth, repeats = 4, (1 if quick else 3)
    nodes, secs = search_speed(f"alphabeta:depth={depth}", states, repeats=repeats)
    figures.append(Figure("search", f"interaction alpha-beta depth {depth}", nodes / secs, "nodes/s",
                          "≥ 50000", f"{nodes} nodes, {len(states)} positions, {secs:.2f} CPU s, best of {repeats}"))
    playouts = 100 if quick else 400
    n, secs = search_speed(f"mcts:playouts={playouts}", states[:2 if quick else 6])
    figures.append(Figure("search", f"interaction mcts, {playouts} playouts a move", n / secs,
                          "playouts/s", "", f"{n} playouts in {secs:.2f} CPU s"))
    for name in arena.games.names():
        found = random_playouts(name, 0.5 if quick else 2.0)
        if found is None:
            continue
        games, plies, secs = found
        figures.append(Figure("playouts", f"{name} random games", games / secs, "games/s", "",
                              f"{plies / secs:,.0f} plies/s, {plies / games:.0f} plies a game"))
    return figures
