"""Search speed against the bare loops of the same games, measured side by side in one run.

Each figure is a ratio (bot speed / bare-loop speed), so the load of a shared machine cancels
out; the note gives both speeds. CPU seconds of this process (``time.process_time``), the
bot's run and the loop's run interleaved, best of ``repeats`` each (timeit-style: other load
only slows a run down).

- **bare move-generation loop**: a perft walk to depth 2 from each of the same positions
  (``legal_moves()`` then ``play()`` of every move, at the root and at each child); nodes/s =
  moves played per second. Alpha-beta and paranoid/BRS count positions visited (leaves
  included) per second against it.
- **plain random playouts**: from each of the same positions, ``MCTSBot.DEFAULT_HORIZON``
  random plies (``legal_moves()`` + ``play()``, a seeded ``random.Random``) then the game's
  ``evaluate_all`` of the last position, as an MCTS playout does without the tree;
  MCTS playouts/s against it, both on the positions where MCTS searches (``searched``).
- **Ricochet cold start**: wall seconds of a one-puzzle ``arena solve`` process after a
  first run has written the numba cache (best of 3), beside a bare ``python -c "import
  numba"`` process in the same run (the floor a numba-compiled solver starts from).

Goals: issue 18 ("Search speed").
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time

import arena.games
import bots
from arena.bench import Figure
from arena.bench import sandpile as sandpile_bench
from arena.bench import search as search_bench

PUZZLE = "1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC"


def perft(states: list, seconds: float = 0.3) -> tuple[int, float]:
    """(moves played, CPU seconds) of depth-2 ``legal_moves`` + ``play`` walks from each state,
    repeated on fresh copies (``to_text`` round trip: no cached moves) for ``seconds`` at least."""
    nodes = 0
    elapsed = 0.0
    while elapsed < seconds:
        fresh = [s.game.parse_state(s.to_text()) if hasattr(s, "game") else s for s in states]
        t0 = time.process_time()
        for state in fresh:
            for move in state.legal_moves():
                child = state.play(move)
                nodes += 1
                if child.to_move >= 0:
                    for m in child.legal_moves():
                        child.play(m)
                        nodes += 1
        elapsed += time.process_time() - t0
    return nodes, elapsed


def random_playouts(game_name: str, states: list, count: int) -> tuple[int, float]:
    """(playouts, CPU seconds): ``count`` horizon-cut random playouts spread over ``states``."""
    from bots.mcts import MCTSBot
    from bots.values import heuristic_all

    game = arena.games.make(game_name)
    evaluate_all = heuristic_all(game_name, game.num_players)
    rng = random.Random(5)
    rnd = rng.random
    t0 = time.process_time()
    for k in range(count):
        state = states[k % len(states)]
        for _ in range(MCTSBot.DEFAULT_HORIZON):
            if state.to_move < 0:
                break
            moves = state.legal_moves()
            state = state.play(moves[int(rnd() * len(moves))])
        if state.to_move >= 0:
            evaluate_all(state)
    return count, time.process_time() - t0


def searched(states: list) -> list:
    """The states where MCTS searches: more than one legal move and none ending the game (a
    decisive or only move is played without playouts)."""
    out = []
    for state in states:
        moves = state.legal_moves()
        if len(moves) > 1 and not any(state.play(m).is_terminal() for m in moves):
            out.append(state)
    return out


def _bot(game_name: str, spec: str, states: list) -> tuple[int, float]:
    return search_bench.search_speed(spec, states, game_name)


def ratio(bot_run, loop_run, repeats: int) -> tuple[float, float, float]:
    """(ratio, bot per second, loop per second): the best of ``repeats`` interleaved runs."""
    best_bot = best_loop = 0.0
    for _ in range(repeats):
        n, secs = bot_run()
        best_bot = max(best_bot, n / max(secs, 1e-9))
        n, secs = loop_run()
        best_loop = max(best_loop, n / max(secs, 1e-9))
    return best_bot / best_loop, best_bot, best_loop


def _figure(area: str, name: str, goal: str, found: tuple[float, float, float], units: str) -> Figure:
    r, a, b = found
    return Figure(area, name, r, "×", goal, f"{a:,.0f} {units} vs {b:,.0f}")


def search_ratios(quick: bool) -> list[Figure]:
    """Alpha-beta, paranoid, BRS and MCTS against their bare loops."""
    repeats = 1 if quick else 3
    inter = search_bench.positions(4 if quick else 12)
    sand = sandpile_bench.positions(4 if quick else 8)
    figs = [
        _figure("speed", "interaction alpha-beta depth 4 / bare loop", "≥ 0.75",
                ratio(lambda: _bot("interaction", "alphabeta:depth=4", inter), lambda: perft(inter), repeats),
                "nodes/s"),
        _figure("speed", "sandpile paranoid depth 3 / bare loop", "≥ 0.5",
                ratio(lambda: _bot("sandpile", "paranoid:depth=3", sand), lambda: perft(sand), repeats), "nodes/s"),
        _figure("speed", "sandpile brs depth 2 / bare loop", "≥ 0.5",
                ratio(lambda: _bot("sandpile", "brs:depth=2", sand), lambda: perft(sand), repeats), "nodes/s"),
    ]
    playouts = 100 if quick else 400
    for name, states in (("interaction", searched(inter)), ("sandpile", searched(sand))):
        found = ratio(lambda: _bot(name, f"mcts:playouts={playouts}", states),
                      lambda: random_playouts(name, states, playouts * len(states)), repeats)
        figs.append(_figure("speed", f"{name} mcts / plain random playouts", "≥ 0.8", found, "playouts/s"))
    return figs


def _seconds(cmd: list[str], runs: int) -> float:
    """Best wall-clock seconds of ``runs`` runs of ``cmd`` (output discarded)."""
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        best = min(best, time.perf_counter() - t0)
    return best


def cold_start(runs: int = 3) -> list[Figure]:
    """A one-puzzle ``arena solve`` process, the numba cache written by a first run."""
    arena_cmd = [sys.executable, "-m", "arena", "solve", PUZZLE]
    env_cache = os.environ.get("NUMBA_CACHE_DIR") or "the package's __pycache__"
    _seconds(arena_cmd, 1)  # the first run writes the cache (if it is not there yet)
    solve = _seconds(arena_cmd, runs)
    floor = _seconds([sys.executable, "-c", "import numba"], runs)
    exe = shutil.which("arena") or "python -m arena"
    return [Figure("speed", "ricochet one-puzzle `arena solve` process, cached", solve, "s", "≤ 1.0",
                   f"best of {runs}; `python -c 'import numba'` takes {floor:.2f} s here ({exe}; cache in "
                   f"{env_cache})")]


def run(quick: bool) -> list[Figure]:
    return [*search_ratios(quick), *cold_start(2 if quick else 3)]
