"""Search speed against the bare loops of the same games, measured side by side in one run.

Each figure is a ratio (bot speed / bare-loop speed), so the load of a shared machine cancels
out; the note gives both speeds. CPU seconds of this process (``time.process_time``): in
each position the bot chooses, then the loop runs for as much CPU time, walking the positions
in turn from that one (``paired``; not one position over and over, which reads faster than
real work: the first figure, the bare loop timed as if it were a bot, shows what is left of
the method's own bias); the figure is the median over ``repeats`` such runs of each run's own
ratio.
The ratio is taken within a run, never across runs: this VM's speed changes by up to 2x from
one run to the next (the bare loop measured 115k-200k nodes/s in the same minute), so the best
bot run and the best loop run of separate runs (timeit's rule, each alone) came from different
speeds, and the same code read 0.50-0.68 on Sandpile paranoid in four runs.

- **bare move-generation loop**: a perft walk to depth 2 from each position
  (``legal_moves()`` then ``play()`` of every move, at the root and at each child); nodes/s =
  moves played per second. Alpha-beta and paranoid/BRS count positions visited (leaves
  included) per second against it.
- **plain random playouts**: from each position, ``MCTSBot.DEFAULT_HORIZON``
  random plies (``legal_moves()`` + ``play()``, a seeded ``random.Random``) then the game's
  ``evaluate_all`` of the last position, as an MCTS playout does without the tree;
  MCTS playouts/s against it, both on the positions where MCTS searches (``searched``).
- **Ricochet cold start**: wall seconds of a one-puzzle ``arena solve`` process after a
  first run (best of 3): the puzzle is solved by the plain-Python build of the kernels, numba
  not imported (``bots/ricochet.py`` "Cold start"); beside it a bare ``python -c "import
  numba"`` process in the same run (the floor of a process that loads the compiled kernels,
  before their first cached call).

Goals: issue 18 ("Search speed").
"""

from __future__ import annotations

import os
import random
import resource
import subprocess
import sys
import time
from functools import partial

import arena.games
import bots
from arena.bench import Figure
from arena.bench import sandpile as sandpile_bench
from arena.bench import search as search_bench

PUZZLE = "1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC"


def perft(state) -> int:
    """Moves played by a depth-2 ``legal_moves`` + ``play`` walk from a fresh copy of
    ``state`` (a text round trip where the game caches moves in its states)."""
    if hasattr(state, "game"):
        state = state.game.parse_state(state.to_text())
    nodes = 0
    for move in state.legal_moves():
        child = state.play(move)
        nodes += 1
        if child.to_move >= 0:
            for m in child.legal_moves():
                child.play(m)
                nodes += 1
    return nodes


def random_playouts(state, count: int, evaluate_all, rng: random.Random) -> int:
    """``count`` random playouts from ``state``: ``MCTSBot.DEFAULT_HORIZON`` random plies
    (``legal_moves`` + ``play``) then ``evaluate_all`` of the position reached; returns ``count``."""
    from bots.mcts import MCTSBot

    rnd = rng.random
    for _ in range(count):
        s = state
        for _ in range(MCTSBot.DEFAULT_HORIZON):
            if s.to_move < 0:
                break
            moves = s.legal_moves()
            s = s.play(moves[int(rnd() * len(moves))])
        if s.to_move >= 0:
            evaluate_all(s)
    return count


def searched(states: list) -> list:
    """The states where MCTS searches: more than one legal move and none ending the game (a
    decisive or only move is played without playouts)."""
    out = []
    for state in states:
        moves = state.legal_moves()
        if len(moves) > 1 and not any(state.play(m).is_terminal() for m in moves):
            out.append(state)
    return out


def paired(game_name: str, spec: str, states: list, loop) -> tuple[int, float, int, float]:
    """(bot nodes, bot CPU seconds, loop units, loop CPU seconds): in each state a fresh
    ``spec`` bot chooses a move, then the loop runs for as much CPU time (at least once): bot
    and loop alternate within milliseconds, so both meet the same load of a shared machine.

    The loop walks the positions in turn (``loop(states[j])``, ``j`` from the bot's position
    on, round the list), never one position over and over: a loop that repeats the same
    position reads faster than the same work on changing positions (the machine learns its
    branches), which a search never gets. Timed as if it were the bot (``self_check``), the
    bare loop read 0.96-0.99x of itself when it repeated the bot's position, 0.99-1.02x
    walking the positions in turn."""
    game = arena.games.make(game_name)

    def prepare(i: int, state):
        bot = bots.make(spec)
        bot.reset(game, state.to_move, i)

        def choose() -> int:
            bot.choose(state, bots.Limits())
            return bot.last_stats.nodes
        return choose

    return _paired(prepare, states, loop)


def _paired(prepare, states: list, loop) -> tuple[int, float, int, float]:
    """``paired`` for any timed work: ``prepare(i, state)`` (not timed) gives the call that
    does the work on ``state`` and returns its units."""
    bot_n = loop_n = 0
    bot_s = loop_s = 0.0
    for i, state in enumerate(states):
        work = prepare(i, state)
        t0 = time.process_time()
        bot_n += work()
        spent = time.process_time() - t0
        bot_s += spent
        used, j = 0.0, i
        while used <= spent:
            t0 = time.process_time()
            loop_n += loop(states[j % len(states)])
            used += time.process_time() - t0
            j += 1
        loop_s += used
    return bot_n, bot_s, loop_n, loop_s


def ratio(game_name: str, spec: str, states: list, loop, repeats: int) -> tuple[float, float, float]:
    """(ratio, bot per second, loop per second) of the median run among ``repeats``
    ``paired`` runs, ranked by the ratio within each run (bot and loop side by side in the
    same seconds: the machine's speed of the moment cancels)."""
    return _median_run(lambda: paired(game_name, spec, states, loop), repeats)


def self_check(states: list, repeats: int) -> tuple[float, float, float]:
    """The pairing's own bias, as ``ratio`` gives it: the bare loop (``perft``) timed as if it
    were the bot (one walk of each position) against itself; 1.0 for a fair method."""
    return _median_run(lambda: _paired(lambda i, state: partial(perft, state), states, perft), repeats)


def _median_run(run, repeats: int) -> tuple[float, float, float]:
    """``ratio``'s figure from ``repeats`` calls of ``run`` (each giving ``paired``'s four
    numbers)."""
    runs = []
    for _ in range(repeats):
        bn, bs, ln, ls = run()
        bot, base = bn / max(bs, 1e-9), ln / max(ls, 1e-9)
        runs.append((bot / base, bot, base))
    runs.sort()
    return runs[(len(runs) - 1) // 2]


def _figure(name: str, goal: str, found: tuple[float, float, float], units: str, where: str) -> Figure:
    r, a, b = found
    return Figure("speed", name, r, "×", goal, f"{a:,.0f} {units} vs {b:,.0f}; {where}")


def search_ratios(quick: bool) -> list[Figure]:
    """Alpha-beta, paranoid, BRS and MCTS against their bare loops."""
    from bots.values import heuristic_all

    repeats = 1 if quick else 5
    inter = search_bench.positions(4 if quick else 12)
    sand = sandpile_bench.positions(4 if quick else 8)
    where_i, where_s = f"{len(inter)} Interaction positions", f"{len(sand)} Sandpile positions"
    figs = [
        _figure("bare loop timed as a bot / bare loop (the method's own bias)", "≈ 1",
                self_check(inter, repeats), "nodes/s", where_i),
        _figure("interaction alpha-beta depth 4 / bare loop", "≥ 0.75",
                ratio("interaction", "alphabeta:depth=4", inter, perft, repeats), "nodes/s", where_i),
        _figure("sandpile paranoid depth 3 / bare loop", "≥ 0.5",
                ratio("sandpile", "paranoid:depth=3", sand, perft, repeats), "nodes/s", where_s),
        _figure("sandpile brs depth 2 / bare loop", "≥ 0.5",
                ratio("sandpile", "brs:depth=2", sand, perft, repeats), "nodes/s", where_s),
    ]
    playouts = 100 if quick else 400
    for name, states in (("interaction", searched(inter)), ("sandpile", searched(sand))):
        evaluate_all = heuristic_all(name, arena.games.make(name).num_players)
        rng = random.Random(5)
        found = ratio(name, f"mcts:playouts={playouts}", states,
                      lambda s, evaluate_all=evaluate_all, rng=rng: random_playouts(s, 20, evaluate_all, rng), repeats)
        figs.append(_figure(f"{name} mcts / plain random playouts", "≥ 0.8", found, "playouts/s",
                            f"{len(states)} positions where MCTS searches"))
    return figs


def _seconds(cmd: list[str], runs: int) -> tuple[float, float]:
    """(best wall-clock seconds, best CPU seconds) of ``runs`` runs of ``cmd`` (output discarded)."""
    wall = cpu = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        wall = min(wall, time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall, cpu


def cold_start(runs: int = 3) -> list[Figure]:
    """A one-puzzle ``arena solve`` process after a first run (which writes the numba cache
    when the puzzle needs the compiled kernels): wall seconds (the goal), with its CPU seconds
    and a bare ``import numba`` process beside it (on a loaded machine the wall clock counts
    time spent waiting for a core)."""
    arena_cmd = [sys.executable, "-m", "arena", "solve", PUZZLE]
    where = os.environ.get("NUMBA_CACHE_DIR") or "bots/__pycache__ or numba's user-wide cache"
    _seconds(arena_cmd, 1)  # the first run writes the cache (if it is not there yet)
    wall, cpu = _seconds(arena_cmd, runs)
    floor_wall, floor_cpu = _seconds([sys.executable, "-c", "import numba"], runs)
    return [Figure("speed", "ricochet one-puzzle `arena solve` process, after a first run", wall, "s", "≤ 1.0",
                   f"best of {runs}: {cpu:.2f} CPU s; `python -c 'import numba'` {floor_wall:.2f} s "
                   f"({floor_cpu:.2f} CPU s); load average {os.getloadavg()[0]:.1f}; cache in {where}")]


def run(quick: bool) -> list[Figure]:
    return [*search_ratios(quick), *cold_start(2 if quick else 3)]
