"""Cluster figures (``arena run --cluster``): the speed-up of 2 Dask workers over 1, and the
cost per game of the cluster over the local pool.

The clusters are ``LocalCluster`` s set up as ``local:N`` sets them up
(``dask_connect.local_cluster``), started before the clock runs (their start-up, seconds of
imports, is paid once per run, not per game), reached by address as a cluster of one's own
would be, and warmed by a first short run (a fresh worker imports the bots and loads their
compiled code once): the times are ``run_tournament`` 's (connect, ship, play, store every
game). Runs are interleaved and the best of ``REPEATS`` kept: other load on the machine only
slows a run down.

- Speed-up: a CPU-bound field (alpha-beta against MCTS on Interaction, about half a second a
  game on an idle core), 1 worker then 2; wall-clock ratio (goal >= 1.8 on two idle cores),
  printed beside the ratio of two bare forked loops over one on the same games (the ceiling
  the machine offers at the moment, as the runner's figures print it). Enough games that the
  end of the run (one worker finishing its last game alone, about half a game) and the run's
  start (connect, first fork) cost a few percent, not a quarter.
- Overhead: random against random (cheap games, a few ms each) on ``--workers 1`` and on a
  1-worker cluster; the difference in wall clock per game is what the cluster adds (goal <= 5
  ms a game), the run's start included. Its CPU time, all processes of the run together
  (client and scheduler, Dask worker and nanny, game workers), is the cost that does not
  depend on other load: on a machine whose cores are all busy it becomes wall clock.
"""

from __future__ import annotations

import os
import tempfile
import time
from typing import Any

from arena.bench import Figure
from arena.bench.runner import plain_parallel
from arena.tournament import build, run_tournament

GAME = "interaction"
REPEATS = 2


def _cluster(n: int):
    from arena.tournament.dask_connect import local_cluster
    return local_cluster(n)


def _cpu() -> float:
    """CPU seconds of this process and all its descendants, ended ones included."""
    import psutil  # a dependency of distributed
    me = psutil.Process()
    total = 0.0
    for proc in [me, *me.children(recursive=True)]:
        try:
            t = proc.cpu_times()
        except psutil.Error:  # ended meanwhile: its parent's children_* has it, or will
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


def _seconds(values: dict, **where) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run."""
    with tempfile.TemporaryDirectory() as tmp:
        cpu, start = _cpu(), time.perf_counter()
        summary = run_tournament(build({**values, **where, "results": tmp}))
        elapsed = time.perf_counter() - start
        time.sleep(0.2)  # the Dask worker reaps its game worker (closed at the run's end)
        cpu = _cpu() - cpu
    assert summary.played == summary.total
    return elapsed, cpu


def run(quick: bool) -> list[Figure]:
    heavy: dict[str, Any] = {"game": GAME, "bots": ["alphabeta:depth=4", "mcts:playouts=200"],
                             "games": 16 if quick else 32, "opening_plies": 2}
    cheap: dict[str, Any] = {"game": GAME, "bots": ["random", "r2=random"], "games": 200 if quick else 400,
                             "opening_plies": 2}
    one, two = _cluster(1), _cluster(2)
    try:
        for cluster in (one, two):  # imports and compiled code warm in every worker, as after a run's first games
            _seconds({**heavy, "games": 2 * len(cluster.workers)}, cluster=cluster.scheduler_address)
        ones, twos, locals_, clusters = [], [], [], []
        for _ in range(REPEATS):
            ones.append(_seconds(heavy, cluster=one.scheduler_address))
            twos.append(_seconds(heavy, cluster=two.scheduler_address))
            locals_.append(_seconds(cheap, workers=1))
            clusters.append(_seconds(cheap, cluster=one.scheduler_address))
    finally:
        one.close()
        two.close()
    with tempfile.TemporaryDirectory() as tmp:
        bare_one, bare_two = plain_parallel(build({**heavy, "results": tmp}))
    n_heavy, n_cheap = heavy["games"], cheap["games"]
    t1, t2 = min(t for t, _ in ones), min(t for t, _ in twos)
    local, remote = min(locals_), min(clusters)
    cpu_local, cpu_remote = min(c for _, c in locals_), min(c for _, c in clusters)
    load = os.getloadavg()[0]
    ms = 1000 / n_cheap
    return [
        Figure("cluster", "games/s, 2 Dask workers over 1 (CPU-bound field)", t1 / t2, "×", "≥ 1.8",
               f"{n_heavy} games, best of {REPEATS}: 1 worker {n_heavy / t1:.2f} games/s, 2 workers "
               f"{n_heavy / t2:.2f} games/s; load average {load:.1f}"),
        Figure("cluster", "same games, 2 bare forked loops over 1 (machine ceiling now)", bare_one / bare_two, "×", "",
               f"1 process {bare_one:.1f}s, 2 processes {bare_two:.1f}s: on a loaded machine both ratios drop"),
        Figure("cluster", "cluster cost per game over the local pool (random vs random, 1 worker)",
               (remote[0] - local[0]) * ms, "ms/game", "≤ 5",
               f"{n_cheap} games, best of {REPEATS}: --workers 1 {local[0] * ms:.2f} ms/game, 1-worker cluster "
               f"{remote[0] * ms:.2f} ms/game; load average {load:.1f}"),
        Figure("cluster", "CPU per game over the local pool, all processes (random vs random)",
               (cpu_remote - cpu_local) * ms, "ms/game", "",
               f"--workers 1 {cpu_local * ms:.2f} ms CPU/game, 1-worker cluster {cpu_remote * ms:.2f} ms CPU/game; "
               "on busy cores it adds to the wall clock"),
    ]
