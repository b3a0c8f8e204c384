"""Ricochet solver figures (``docs/rules/ricochet.md`` "Speed"): solve times of
``ricochet-optimal`` over 200 seeded random puzzles on random boards, nodes per second, the
same with ``diagonals=2`` coloured barriers per quadrant beside the plain board's, and the
25-move puzzle's time and peak memory (measured in a subprocess; skipped when ``quick``).

Solve times are per fresh puzzle, its per-board tables (slide, barrier and lower-bound tables)
built as ``arena solve --file`` builds them; each puzzle is then solved again at once with
those tables cached, and the ratio of the two medians (fresh / cached, goal <= 2: issue 18)
shows what the per-board work adds.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time

from arena.bench import Figure
from arena.games.ricochet.board import CELLS, CENTRE, Board, place_diagonals
from arena.games.ricochet.puzzle import Puzzle

HARD = "2B,4B,3B,1B R:c2,G:a13,B:l14,Y:c15 BT"

_CHILD = """
import json, resource, sys
from arena.games.ricochet.puzzle import Puzzle
from bots.ricochet import solve_optimal
solve_optimal(Puzzle.parse('1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC'))  # load the compiled kernel
r = solve_optimal(Puzzle.parse(sys.argv[1]))
print(json.dumps({"seconds": r.seconds, "moves": len(r.solution) if r.solution is not None else None,
                  "nodes": r.nodes, "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def random_puzzles(count: int, seed: int = 2026, robots: int = 4, diagonals: int = 0) -> list[Puzzle]:
    """``count`` seeded random puzzles: random assembly, robots on distinct free cells, random
    target; with ``diagonals`` coloured barriers per quadrant (``place_diagonals``, drawn from a
    generator of their own, so the plain puzzles of a seed stay the same)."""
    rng = random.Random(seed)
    bars = random.Random(f"{seed}:diagonals")
    out = []
    for _ in range(count):
        board = Board.random(rng)
        if diagonals:
            board = board.with_diagonals(place_diagonals(board, diagonals, bars))
        free = [c for c in range(CELLS) if c not in CENTRE and c not in board.target_at and c not in board.diagonals]
        out.append(Puzzle(board, tuple(rng.sample(free, robots)), rng.choice(sorted(board.targets))))
    return out


def run(quick: bool) -> list[Figure]:
    from bots.ricochet import WARM_UP, _arrays, _bounds, _paths, solve_optimal

    def solve_all(puzzles):
        """Per puzzle (fresh seconds, cached seconds, result): solved first with the per-board
        tables cleared (as ``arena solve --file`` meets a new board), then again at once with
        them cached, so the two medians come from the same run."""
        out = []
        for p in puzzles:
            _bounds.cache_clear()
            _arrays.cache_clear()
            _paths.cache_clear()
            t = time.perf_counter()
            r = solve_optimal(p)
            fresh = time.perf_counter() - t
            t = time.perf_counter()
            solve_optimal(p)
            out.append((fresh, time.perf_counter() - t, r))
        return out

    solve_optimal(Puzzle.parse(WARM_UP))  # load the compiled kernel before timing
    results = solve_all(random_puzzles(200))
    times = sorted(t for t, _, _ in results)
    cached = statistics.median(c for _, c, _ in results)
    nodes = sum(r.nodes for _, _, r in results)
    barred = solve_all(random_puzzles(200, diagonals=2))
    btimes = sorted(t for t, _, _ in barred)
    bcached = statistics.median(c for _, c, _ in barred)
    area = "ricochet"
    figs = [
        Figure(area, "optimal solve, median of 200 random puzzles", 1000 * statistics.median(times), "ms", "< 20"),
        Figure(area, "optimal solve, p90 of 200", 1000 * times[int(0.9 * len(times)) - 1], "ms"),
        Figure(area, "optimal solve, max of 200", 1000 * times[-1], "ms",
               note=f"longest optimal solution {max(len(r.solution) for _, _, r in results)} moves"),
        Figure(area, "fresh / cached-tables median, 200 random puzzles", statistics.median(times) / cached, "×",
               "≤ 2", note=f"fresh {1000 * statistics.median(times):.3f} ms, per-board tables cached "
                           f"{1000 * cached:.3f} ms (the same puzzles at once again)"),
        Figure(area, "IDA* nodes per second (200 puzzles)", nodes / max(sum(times), 1e-9), "nodes/s"),
        Figure(area, "optimal solve with diagonals=2, median of 200", 1000 * statistics.median(btimes), "ms",
               note=f"plain board: {1000 * statistics.median(times):.1f} ms; tables cached "
                    f"{1000 * bcached:.3f} ms"),
        Figure(area, "optimal solve with diagonals=2, p90 of 200", 1000 * btimes[int(0.9 * len(btimes)) - 1], "ms",
               note=f"plain board: {1000 * times[int(0.9 * len(times)) - 1]:.1f} ms; longest "
                    f"{max(len(r.solution) for _, _, r in barred if r.solution is not None)} moves, "
                    f"{sum(r.solution is None for _, _, r in barred)} unsolvable"),
    ]
    if not quick:
        proc = subprocess.run([sys.executable, "-c", _CHILD, HARD], capture_output=True, text=True, timeout=1800)
        if proc.returncode == 0:
            data = json.loads(proc.stdout.strip().splitlines()[-1])
            figs.append(Figure(area, "25-move puzzle, time", data["seconds"], "s", "< 60",
                               note=f"{data['moves']} moves, {data['nodes']} nodes"))
            figs.append(Figure(area, "25-move puzzle, peak memory (maxrss)", data["maxrss_kib"] / 1024, "MiB", "≤ 200"))
        else:
            figs.append(Figure(area, "25-move puzzle, time", float("nan"), "s", "< 60",
                               note="failed: " + (proc.stderr.strip().splitlines() or ["?"])[-1]))
    return figs
