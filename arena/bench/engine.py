"""Engine-protocol figures (``docs/engine-protocol.md``): the cost of a ply played through the
protocol, and games/s of random vs random through it.

The same games (same seeds) are played by ``play_game`` with two in-process ``random`` bots,
then with both seats served by ``python -m arena.engine random`` processes (the code of
``arena engine``, started once before timing, as a worker keeps them). The difference per ply
is the protocol's round trip: the ``position``/``legal``/``go`` lines written, the server
parsing the position, the ``info``/``bestmove`` lines read back and parsed. Both runs play
with a move time (10 s, far more than a random bot needs), so the client waits for each answer
with its deadline as under ``--move-time``.

The goal (≤ 150 µs per ply) is "on one core": the figure is measured with this process and
the engines it starts pinned to one CPU (``os.sched_setaffinity``; the children inherit the
mask; the old mask is restored afterwards), so the client and the server take turns on the
same core. The same measurement unpinned is in the note: there the scheduler may wake the
engine on the other core, and on a virtual machine each wake-up of an idle core costs about
100 µs per exchange (the ``isready`` ping shows it alone), which is the machine's cost, not
the protocol's.

Beside the wall-clock figures the note gives the CPU time per ply of this process (the
referee and the client side) and of the two engine processes (from ``/proc``, Linux): on a
shared machine the wall-clock difference also holds the time the processes wait for a core
after each wake-up, which the CPU figures do not.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator

import arena.games
from arena.bench import Figure
from arena.engine.client import close_all, engine_class
from arena.referee import GameSettings, play_game
from bots.base import Limits
from bots.registry import make

GAME = "interaction"
#: the move time of both runs (seconds): the client waits with a deadline, as under --move-time
MOVE_TIME = Limits(time=10.0)
#: runs of each kind; the best is kept (other load only slows a run down)
BEST_OF = 3


@contextlib.contextmanager
def one_cpu(pin: bool = True) -> Iterator[str]:
    """Run the body with this thread (and the processes it starts) on one CPU, the first of its
    current mask; the old mask is restored after. Yields a description ("CPU 0", "unpinned")."""
    if not pin or not hasattr(os, "sched_setaffinity"):
        yield "unpinned"
        return
    old = os.sched_getaffinity(0)
    cpu = min(old)
    os.sched_setaffinity(0, {cpu})
    try:
        yield f"CPU {cpu}"
    finally:
        os.sched_setaffinity(0, old)


def _engine_cpu(bots: list) -> float:
    """CPU seconds of the engine processes of ``bots`` so far: the scheduler's nanosecond count
    (``/proc/PID/schedstat``), else user + system time in clock ticks (``/proc/PID/stat``); 0
    where ``/proc`` is not there."""
    total = 0.0
    for bot in bots:
        pid = getattr(getattr(bot.engine, "proc", None), "pid", None)
        try:
            with open(f"/proc/{pid}/schedstat") as f:
                total += int(f.read().split()[0]) / 1e9
            continue
        except (OSError, ValueError, IndexError):
            pass
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _games(bots: list, seeds: range) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of this process, plies) of one game per seed."""
    game = arena.games.make(GAME)
    plies, start, cpu = 0, time.perf_counter(), time.process_time()
    for seed in seeds:
        plies += play_game(GameSettings(game, seed, labels=("a", "b"), limits=MOVE_TIME), bots).plies
    return time.perf_counter() - start, time.process_time() - cpu, plies


def _engines() -> list:
    """Two ``random`` bots served by ``python -m arena.engine`` (labelled a and b)."""
    cls = engine_class(f"{sys.executable} -m arena.engine random")
    remote = [cls(), cls()]
    remote[0].label, remote[1].label = "a", "b"
    return remote


def _measure(games: int) -> dict[str, float]:
    """Best of ``BEST_OF`` interleaved runs of the same games in-process and through the
    protocol (engines started here, so they share this thread's CPU mask; quit at the end):
    seconds and CPU seconds per ply, plies, wall seconds of each kind."""
    seeds = range(1, games + 1)
    local = [make("random"), make("r2=random")]
    remote = _engines()
    _games(remote, range(1, 3))  # start the engines (and warm both sides up)
    best_local = best_remote = (float("inf"), 0.0, 0.0)  # (wall, own CPU, engines' CPU) seconds
    try:
        for _ in range(BEST_OF):
            secs, cpu, plies = _games(local, seeds)
            best_local = min(best_local, (secs, cpu, 0.0))
            engines = _engine_cpu(remote)
            secs, cpu, remote_plies = _games(remote, seeds)
            best_remote = min(best_remote, (secs, cpu, _engine_cpu(remote) - engines))
    finally:
        close_all()
    return {"local": best_local[0] / plies, "local_cpu": best_local[1] / plies, "remote": best_remote[0] / remote_plies,
            "remote_cpu": best_remote[1] / remote_plies, "engines_cpu": best_remote[2] / remote_plies,
            "plies": plies, "local_secs": best_local[0], "remote_secs": best_remote[0]}


def round_trip(games: int) -> list[Figure]:
    """µs per ply through the protocol vs in-process, pinned to one CPU (unpinned in the note);
    games/s through the protocol (pinned; unpinned and in-process in the note)."""
    with one_cpu(False):
        free = _measure(games)
    with one_cpu() as where:
        pinned = _measure(games)
    us = {k: v * 1e6 for k, v in pinned.items()}
    extra = us["remote_cpu"] + us["engines_cpu"] - us["local_cpu"]
    cpu = (f"CPU per ply: this process {us['remote_cpu']:.0f} µs (in-process {us['local_cpu']:.0f}), "
           f"the engines {us['engines_cpu']:.0f} µs, so {extra:.0f} µs of CPU over in-process play")
    unpinned = (f"unpinned: {(free['remote'] - free['local']) * 1e6:.0f} µs/ply (in-process "
                f"{free['local'] * 1e6:.0f}, through the protocol {free['remote'] * 1e6:.0f})")
    return [
        Figure("engine", "protocol round trip per ply on one core (arena engine minus in-process, random)",
               us["remote"] - us["local"], "µs/ply", "≤ 150",
               f"{games} games, {pinned['plies']:.0f} plies, best of {BEST_OF}, {where}: in-process "
               f"{us['local']:.0f} µs/ply, through the protocol {us['remote']:.0f} µs/ply; {cpu}; {unpinned}; "
               f"load average {os.getloadavg()[0]:.1f}"),
        Figure("engine", "random vs random through the protocol on one core (both seats engines)",
               games / pinned["remote_secs"], "games/s", "",
               f"in-process {games / pinned['local_secs']:.0f} games/s; unpinned {games / free['remote_secs']:.0f} "
               f"games/s (in-process {games / free['local_secs']:.0f})"),
    ]


def _ping(rounds: int) -> float:
    """Seconds per ``isready``/``readyok`` exchange, best of ``BEST_OF`` runs of ``rounds``."""
    bot = _engines()[0]
    bot.reset(arena.games.make(GAME), 0, 1)
    best = float("inf")
    try:
        for _ in range(BEST_OF):
            start = time.perf_counter()
            for _ in range(rounds):
                bot.engine.sync(10.0)
            best = min(best, time.perf_counter() - start)
    finally:
        close_all()
    return best / rounds


def ping(rounds: int) -> list[Figure]:
    """µs per ``isready``/``readyok`` exchange with an ``arena engine`` process on one CPU
    (unpinned in the note): the pipes and the two process switches alone, the floor under any
    ply's round trip."""
    with one_cpu(False):
        free = _ping(rounds)
    with one_cpu() as where:
        pinned = _ping(rounds)
    return [Figure("engine", "isready/readyok round trip on one core (pipes and process switches only)",
                   pinned * 1e6, "µs", "", f"{rounds} exchanges, best of {BEST_OF}, {where}; unpinned "
                   f"{free * 1e6:.0f} µs (a wake-up across cores); load average {os.getloadavg()[0]:.1f}")]


def run(quick: bool) -> list[Figure]:
    return [*ping(200 if quick else 2000), *round_trip(20 if quick else 200)]
