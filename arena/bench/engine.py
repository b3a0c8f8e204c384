"""Engine-protocol figures (``docs/engine-protocol.md``): the cost of a ply played through the
protocol, and games/s of random vs random through it.

The same games (same seeds) are played by ``play_game`` with two in-process ``random`` bots,
then with both seats served by ``python -m arena.engine random`` processes (the code of
``arena engine``, started once before timing, as a worker keeps them). The difference per ply
is the protocol's round trip: the ``position``/``legal``/``go`` lines written, the server
parsing the position, the ``info``/``bestmove`` lines read back and parsed (goal ≤ 150 µs on one
core: the client and the server take turns, never both busy). Both runs play with a move
time (10 s, far more than a random bot needs), so the client waits for each answer with its
deadline as under ``--move-time``.

Beside the wall-clock figures the note gives the CPU time per ply of this process (the
referee and the client side) and of the two engine processes (from ``/proc``, Linux): on a
shared machine the wall-clock difference also holds the time the processes wait for a core
after each wake-up, which the CPU figures do not.
"""

from __future__ import annotations

import os
import sys
import time

import arena.games
from arena.bench import Figure
from arena.engine.client import close_all, engine_class
from arena.referee import play_game
from bots.base import Limits
from bots.registry import make

GAME = "interaction"


#: the move time of both runs (seconds): the client waits with a deadline, as under --move-time
MOVE_TIME = Limits(time=10.0)


def _engine_cpu(bots: list) -> float:
    """CPU seconds (user + system) of the engine processes of ``bots`` so far; 0 where
    ``/proc`` is not there."""
    total = 0.0
    for bot in bots:
        try:
            with open(f"/proc/{bot.engine.proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, AttributeError):
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _games(bots: list, seeds: range) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of this process, plies) of one game per seed."""
    game = arena.games.make(GAME)
    plies, start, cpu = 0, time.perf_counter(), time.process_time()
    for seed in seeds:
        plies += play_game(game, bots, seed, labels=["a", "b"], limits=MOVE_TIME).plies
    return time.perf_counter() - start, time.process_time() - cpu, plies


def round_trip(games: int) -> list[Figure]:
    """µs per ply through the protocol vs in-process; games/s through the protocol."""
    seeds = range(1, games + 1)
    local = [make("random"), make("r2=random")]
    cls = engine_class(f"{sys.executable} -m arena.engine random")
    remote = [cls(), cls()]
    remote[0].label, remote[1].label = "a", "b"
    _games(remote, range(1, 3))  # start the engines (and warm both sides up)
    best_local = best_remote = (float("inf"), 0.0, 0.0)  # (wall, own CPU, engines' CPU) seconds
    try:
        for _ in range(3):  # interleaved, best of 3: other load only slows a run down
            secs, cpu, plies = _games(local, seeds)
            best_local = min(best_local, (secs, cpu, 0.0))
            engines = _engine_cpu(remote)
            secs, cpu, remote_plies = _games(remote, seeds)
            best_remote = min(best_remote, (secs, cpu, _engine_cpu(remote) - engines))
    finally:
        close_all()
    (local_secs, local_cpu, _), (remote_secs, remote_cpu, engines_cpu) = best_local, best_remote
    per_local, per_remote = local_secs / plies * 1e6, remote_secs / remote_plies * 1e6
    load = os.getloadavg()[0]
    cpu = (f"CPU per ply: this process {remote_cpu / remote_plies * 1e6:.0f} µs (in-process "
           f"{local_cpu / plies * 1e6:.0f}), the engines {engines_cpu / remote_plies * 1e6:.0f} µs")
    return [
        Figure("engine", "protocol round trip per ply (arena engine minus in-process, random)",
               per_remote - per_local, "µs/ply", "≤ 150",
               f"{games} games, {plies} plies, best of 3: in-process {per_local:.0f} µs/ply, "
               f"through the protocol {per_remote:.0f} µs/ply; {cpu}; load average {load:.1f}"),
        Figure("engine", "random vs random through the protocol (both seats engines)", games / remote_secs,
               "games/s", "", f"in-process {games / local_secs:.0f} games/s"),
    ]


def ping(rounds: int) -> list[Figure]:
    """µs per ``isready``/``readyok`` exchange with an ``arena engine`` process: the pipes and
    the two process switches alone, the floor under any ply's round trip."""
    cls = engine_class(f"{sys.executable} -m arena.engine random")
    bot = cls()
    bot.label = "ping"
    bot.reset(arena.games.make(GAME), 0, 1)
    best = float("inf")
    try:
        for _ in range(3):
            start = time.perf_counter()
            for _ in range(rounds):
                bot.engine.sync(10.0)
            best = min(best, time.perf_counter() - start)
    finally:
        close_all()
    return [Figure("engine", "isready/readyok round trip (pipes and process switches only)", best / rounds * 1e6,
                   "µs", "", f"{rounds} exchanges, best of 3; load average {os.getloadavg()[0]:.1f}")]


def run(quick: bool) -> list[Figure]:
    return [*ping(200 if quick else 2000), *round_trip(20 if quick else 200)]
