"""Runner figures: the arena's overhead per game, and the speed-up of 2 workers over 1.

Overhead: the same games (same seeds, same openings) played by ``run_tournament`` on one
worker (fork, pipe, SQLite commit per game, everything but the progress bar) and by a plain
``play_game`` loop in this process; the difference per game is the arena's cost (goal
<= 2 ms wall clock, ``docs/arena.md`` "Quality bars"; <= 0.5 ms of CPU, every process
counted: ``docs/speed.md`` "Runner overhead"). Random bots on Interaction keep the games
cheap so the overhead is not lost in the noise.

Integrity costs (issue 11), on the same games: the private copies each bot is handed
(``arena.referee.private``: one game copy per seat per game, one state copy per ply), which
the plain loop pays too (it calls ``play_game``), so they are added to the overhead figure;
and the runner's replay of a record before it is stored (``referee_check``), which the arena
pays only for games with a bot whose own code runs in the worker (``worker.trusted``): not for
the built-in bots of this figure.

Speed-up: a CPU-bound field (alpha-beta against MCTS on Interaction) on 1 then 2 workers;
wall-clock ratio (goal >= 1.9 on two free cores), printed beside the ratio of two bare forked
loops on the same games: on a machine shared with other work both drop, and the gap between
them is the arena's own loss.

Replacement: a bot kills its worker on every game, with and without log records sent just
before the kill; the ratio is what the per-worker log queue (``arena.tournament.logs``) costs
when workers are replaced all the time.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import tempfile
import time
from collections.abc import Callable
from typing import Any

import arena.games
from arena.bench import Figure
from arena.referee import GameHooks, GameSettings, Private, play_game, referee_check
from arena.tournament import build, plan, run_tournament
from arena.results.store import Store
from arena.tournament.worker import bot_factories, trusted

GAME = "interaction"


def _cpu_split() -> tuple[float, float]:
    """CPU seconds of this process, and of its reaped children (the workers, the run's watchdog)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


def _cpu() -> float:
    """CPU seconds of this process and its reaped children (the workers)."""
    return sum(_cpu_split())


def _recorder(seen: list[tuple[int, Any]]) -> Callable[[int, Any, Any], None]:
    """An ``on_move`` callback appending ``(seat, state)`` to ``seen``."""
    return lambda seat, state, allowed: seen.append((seat, state))


def worker_settings(game, task, specs) -> GameSettings:
    """The settings of ``task`` as a worker plays it (no limits: the plain loop): a game of
    built-in bots is ``trusted`` there (no private copies: ``worker.trusted``), and here too."""
    return GameSettings(game, task.seed, labels=task.seats, opening=task.opening, seeds=task.seeds, start=task.start,
                        trusted=all(trusted(specs[label]) for label in task.seats))


def loop_seconds(cfg) -> tuple[float, float]:
    """(wall, CPU) seconds of the tournament's games in a plain ``play_game`` loop (the
    schedule, i.e. the seeded openings, included: a loop needs them too)."""
    start, cpu = time.perf_counter(), _cpu()
    p = plan(cfg)
    game = arena.games.make(cfg.game, **cfg.params)
    factories = bot_factories(p.specs)
    for task in p.tasks:
        play_game(worker_settings(game, task, p.specs), [factories[label]() for label in task.seats])
    return time.perf_counter() - start, _cpu() - cpu


def arena_seconds(cfg) -> tuple[float, float]:
    """(wall, CPU) seconds of ``run_tournament`` into a fresh results directory."""
    wall, runner, children = _arena_split(cfg)
    return wall, runner + children


def _arena_split(cfg) -> tuple[float, float, float]:
    """(wall, runner CPU, children's CPU) seconds of ``run_tournament`` into a fresh results
    directory (children: the workers, the run's watchdog, the bots' check)."""
    wall, own, kids, _ = _arena_parts(cfg)
    return wall, own, kids


def _arena_parts(cfg) -> tuple[float, float, float, float]:
    """``_arena_split`` and the runner's CPU seconds in ``Store.add_games`` (the games' rows
    inserted and committed, those that came together in one transaction): the store's part,
    measured apart."""
    spent = [0.0]
    add = Store.add_games

    def timed(self, *args, **kwargs):
        t0 = time.process_time()
        try:
            return add(self, *args, **kwargs)
        finally:
            spent[0] += time.process_time() - t0
    Store.add_games = timed  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            start, (own, kids) = time.perf_counter(), _cpu_split()
            summary = run_tournament(build({**_values(cfg), "results": tmp}))
            after = _cpu_split()
            elapsed = time.perf_counter() - start, after[0] - own, after[1] - kids, spent[0]
            assert summary.played == summary.total
    finally:
        Store.add_games = add  # type: ignore[method-assign]
    return elapsed


def _values(cfg) -> dict:
    return {"game": cfg.game, "params": cfg.params, "bots": list(cfg.bots), "games": cfg.games,
            "workers": cfg.workers, "opening_plies": cfg.opening_plies, "seed": cfg.seed}


def _integrity_ms(cfg) -> tuple[float, float, float]:
    """(µs per ply of private state copies, ms per game of them, ms per game of the runner's
    referee check) on the tournament's games, best of 3."""
    p = plan(cfg)
    game = arena.games.make(cfg.game, **cfg.params)
    factories = bot_factories(p.specs)
    records, positions = [], []
    for task in p.tasks:
        seen: list[tuple[int, Any]] = []
        rec = play_game(worker_settings(game, task, p.specs), [factories[label]() for label in task.seats],
                        GameHooks(on_move=_recorder(seen)))
        records.append(rec)
        positions.append(seen)
    copies, checks = [], []
    for _ in range(3):
        start = time.perf_counter()
        for seen in positions:
            views = [Private(game) for _ in range(game.num_players)]
            for seat, state in seen:
                views[seat].state(state)
        copies.append(time.perf_counter() - start)
        start = time.perf_counter()
        for rec, task in zip(records, p.tasks):
            referee_check(game, rec, task.start)
        checks.append(time.perf_counter() - start)
    plies, n = sum(map(len, positions)), len(records)
    return min(copies) / max(plies, 1) * 1e6, min(copies) / n * 1000, min(checks) / n * 1000


def overhead(games: int) -> list[Figure]:
    """ms per game that ``run_tournament`` (1 worker) adds over a plain loop: wall clock, and
    CPU (runner + worker, less the loop's) which a loaded machine disturbs less."""
    cfg = build({"game": GAME, "bots": ["random", "r2=random"], "games": games, "workers": 1,
                 "opening_plies": 2, "results": tempfile.gettempdir()})
    loops, parts = [], []
    for _ in range(3):  # interleaved: other load on the machine slows both alike
        loops.append(loop_seconds(cfg))
        parts.append(_arena_parts(cfg))
    splits = [(w, runner, kids) for w, runner, kids, _ in parts]
    tours = [(w, runner + kids) for w, runner, kids in splits]
    # the run of least CPU, and the store's insert in it
    best = min(parts, key=lambda t: t[1] + t[2])
    store = best[3]
    loop, tour = min(w for w, _ in loops), min(w for w, _ in tours)
    loop_cpu, tour_cpu = min(c for _, c in loops), min(c for _, c in tours)
    runner_cpu = min(runner for _, runner, _ in splits)
    n = cfg.games  # one pairing
    load = os.getloadavg()[0]
    per_ply, private, check = _integrity_ms(cfg)
    return [
        Figure("runner", "private state copies per ply (arena.referee.private)", per_ply, "µs/ply", "",
               f"{private:.3f} ms/game: one game copy per seat per game and one state copy per move"),
        Figure("runner", "referee check per game (runner replays the record before storing it)", check,
               "ms/game", "", "paid for games with a bot whose own code runs in the worker, not for these "
                              "built-in bots (arena.tournament.worker.trusted)"),
        Figure("runner", "arena overhead per game with private states (wall clock + private copies)",
               (tour - loop) / n * 1000 + private, "ms/game", "≤ 2",
               "the plain loop calls play_game, which pays the private copies too: they are added back"),
        Figure("runner", "arena overhead per game, wall clock (random vs random, 1 worker)",
               (tour - loop) / n * 1000, "ms/game", "≤ 2",
               f"{n} games, best of 3: plain loop {loop / n * 1000:.2f} ms/game, arena {tour / n * 1000:.2f} "
               f"ms/game; load average {load:.1f}"),
        Figure("runner", "arena overhead per game, CPU (runner + worker)", (tour_cpu - loop_cpu) / n * 1000,
               "ms/game", "≤ 0.3", f"plain loop {loop_cpu / n * 1000:.2f} ms CPU/game, arena {tour_cpu / n * 1000:.2f} "
                                   f"(runner {runner_cpu / n * 1000:.2f}, of it the store's insert "
                                   f"{store / n * 1000:.2f}; the rest in the worker and the watchdog)"),
        Figure("runner", "arena overhead per game, CPU, less the store's insert (Store.add_games)",
               (tour_cpu - loop_cpu - store) / n * 1000, "ms/game", "",
               f"the store's insert and commit {store / n * 1000:.3f} ms CPU/game in the run of least CPU"),
    ]


def plain_parallel(cfg) -> tuple[float, float]:
    """(1 process, 2 processes) wall seconds of ``cfg`` 's games in bare forked loops (each
    process takes the next game not yet taken, as a pool does): the ceiling this machine
    offers right now, to read a pool's or a cluster's ratio against."""
    p = plan(cfg)
    game = arena.games.make(cfg.game, **cfg.params)
    factories = bot_factories(p.specs)
    ctx = multiprocessing.get_context("fork")
    taken = ctx.Value("i", 0)

    def work() -> None:
        while True:
            with taken.get_lock():
                i = taken.value
                taken.value += 1
            if i >= len(p.tasks):
                return
            t = p.tasks[i]
            play_game(worker_settings(game, t, p.specs), [factories[label]() for label in t.seats])

    start = time.perf_counter()
    work()
    one = time.perf_counter() - start
    taken.value = 0
    start = time.perf_counter()
    procs = [ctx.Process(target=work) for _ in range(2)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join()
    return one, time.perf_counter() - start


def speedup(games: int) -> list[Figure]:
    """Wall-clock ratio of 1 worker to 2 workers on a CPU-bound field, beside the ratio of bare
    forked loops on the same games (what the machine allows at the moment)."""
    values = {"game": GAME, "bots": ["alphabeta:depth=4", "mcts:playouts=200"], "games": games,
              "opening_plies": 2, "results": tempfile.gettempdir()}
    ones, twos = [], []
    for _ in range(2):  # interleaved, best of 2: other load on the machine only slows a run down
        ones.append(arena_seconds(build({**values, "workers": 1}))[0])
        twos.append(arena_seconds(build({**values, "workers": 2}))[0])
    one, two = min(ones), min(twos)
    bare_one, bare_two = plain_parallel(build({**values, "workers": 1}))
    load = os.getloadavg()[0]
    return [
        Figure("runner", "speed-up of 2 workers over 1 (CPU-bound field)", one / two, "×", "≥ 1.9",
               f"{games} games, best of 2: 1 worker {one:.1f}s, 2 workers {two:.1f}s; load average {load:.1f}"),
        Figure("runner", "same games, 2 bare forked loops over 1 (machine ceiling now)", bare_one / bare_two, "×", "",
               f"1 process {bare_one:.1f}s, 2 processes {bare_two:.1f}s: on a loaded machine both ratios drop"),
    ]


class KillWorker:
    """Bench bot: logs ``records`` records of ``size`` bytes to ``arena.worker`` (through its
    worker's log queue, ``arena.tournament.logs``), then kills its own worker (SIGKILL)."""

    def __init__(self, records: str = "0", size: str = "200") -> None:
        self.records, self.size = int(records), int(size)

    def choose(self, state, limits):
        import logging
        import signal

        log = logging.getLogger("arena.worker")
        for i in range(self.records):
            log.info("record %d %s", i, "x" * self.size)
        os.kill(os.getpid(), signal.SIGKILL)


def replacement(games: int) -> list[Figure]:
    """Wall clock of a run whose bot kills its worker on every game (``retries`` 0: one worker
    replaced per game), with and without log records sent just before each kill: the cost of
    one ``multiprocessing-logging`` queue and receiving thread per worker."""
    killer = "kill=arena.bench.runner.KillWorker"
    values = {"game": GAME, "games": games, "workers": 2, "retries": 0, "opening_plies": 2,
              "results": tempfile.gettempdir()}
    quiet_runs: list[float] = []
    logging_runs: list[float] = []
    for _ in range(2):  # interleaved, best of 2
        for runs, spec in ((quiet_runs, killer), (logging_runs, f"{killer}:records=50,size=1000")):
            with tempfile.TemporaryDirectory() as tmp:
                start = time.perf_counter()
                summary = run_tournament(build({**values, "bots": ["random", spec], "results": tmp}))
                runs.append(time.perf_counter() - start)
                assert summary.played == summary.total and summary.workers_replaced == summary.total
    quiet, logged = min(quiet_runs), min(logging_runs)
    load = os.getloadavg()[0]
    return [Figure("runner", f"{summary.total} workers killed and replaced, 50 log records of 1 KB before each kill "
                   "vs none: wall-clock ratio", logged / quiet, "×", "≤ 1.10",
                   f"best of 2: with records {logged:.1f}s, without {quiet:.1f}s; load average {load:.1f}")]


def run(quick: bool) -> list[Figure]:
    return [*overhead(200 if quick else 1000), *speedup(4 if quick else 16), *replacement(30 if quick else 200)]
