"""Cluster figures (``arena run --cluster``): the speed-up of 2 Dask workers over 1, and the
cost per game of a Dask task over the local pool.

The clusters are ``LocalCluster`` s set up as ``local:N`` sets them up, started before the
clock runs (their start-up, seconds of imports, is paid once per run, not per game), and
reached by address as a cluster of one's own would be, and warmed by a first short run (a
fresh worker imports the bots and loads their compiled code once): the times are
``run_tournament``'s (connect, ship, play, store every game).

- Speed-up: a CPU-bound field (alpha-beta against MCTS on Interaction), 1 worker then 2;
  wall-clock ratio (goal >= 1.8 on two idle cores; a machine shared with other work lowers it).
- Overhead: random against random (cheap games) on ``--workers 1`` and on a 1-worker cluster;
  the difference in wall clock per game is what the cluster adds (goal <= 5 ms a game).
"""

from __future__ import annotations

import logging
import os
import tempfile
import time

from arena.bench import Figure
from arena.tournament import build, run_tournament

GAME = "interaction"


def _cluster(n: int):
    import dask
    import distributed
    from arena.tournament.cluster import LOCAL_CONFIG
    with dask.config.set(LOCAL_CONFIG):
        return distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                                        memory_limit=0, silence_logs=logging.ERROR)


def _seconds(values: dict, **where) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        summary = run_tournament(build({**values, **where, "results": tmp}), progress=False)
        elapsed = time.perf_counter() - start
    assert summary.played == summary.total
    return elapsed


def run(quick: bool) -> list[Figure]:
    heavy = {"game": GAME, "bots": ["alphabeta:depth=4", "mcts:playouts=200"], "games": 8 if quick else 16,
             "opening_plies": 2}
    cheap = {"game": GAME, "bots": ["random", "r2=random"], "games": 100 if quick else 400, "opening_plies": 2}
    one, two = _cluster(1), _cluster(2)
    try:
        for cluster in (one, two):  # imports and compiled code warm in every worker, as after a run's first games
            _seconds({**heavy, "games": 2}, cluster=cluster.scheduler_address)
        ones, twos, locals_, clusters = [], [], [], []
        for _ in range(2):  # interleaved, best of 2: other load on the machine only slows a run down
            ones.append(_seconds(heavy, cluster=one.scheduler_address))
            twos.append(_seconds(heavy, cluster=two.scheduler_address))
            locals_.append(_seconds(cheap, workers=1))
            clusters.append(_seconds(cheap, cluster=one.scheduler_address))
    finally:
        one.close()
        two.close()
    n_heavy, n_cheap = heavy["games"], cheap["games"]
    t1, t2, local, remote = min(ones), min(twos), min(locals_), min(clusters)
    load = os.getloadavg()[0]
    return [
        Figure("cluster", "games/s, 2 Dask workers over 1 (CPU-bound field)", t1 / t2, "×", "≥ 1.8",
               f"{n_heavy} games, best of 2: 1 worker {n_heavy / t1:.2f} games/s, 2 workers {n_heavy / t2:.2f} "
               f"games/s; load average {load:.1f}"),
        Figure("cluster", "cluster cost per game over the local pool (random vs random, 1 worker)",
               (remote - local) / n_cheap * 1000, "ms/game", "≤ 5",
               f"{n_cheap} games, best of 2: --workers 1 {local / n_cheap * 1000:.2f} ms/game, 1-worker cluster "
               f"{remote / n_cheap * 1000:.2f} ms/game; load average {load:.1f}"),
    ]
