"""Ricochet solver figures (``docs/rules/ricochet.md`` "Speed"): solve times of
``ricochet-optimal`` over 200 seeded random puzzles on random boards, nodes per second, the
same with ``diagonals=2`` coloured barriers per quadrant beside the plain board's, and the
25-move puzzle's time and peak memory (measured in a subprocess; skipped when ``quick``).

Solve times are per fresh puzzle, its per-board tables (slide, barrier and lower-bound tables)
built as ``arena solve --file`` builds them; each puzzle is then solved again at once with
those tables cached, and the ratio of the two medians (fresh / cached, goal <= 2: issue 18)
shows what the per-board work adds.

Against Fogleman's C solver (issue 35; only when ``ARENA_RICOCHET_C`` names a build of it,
``arena.bench.ricochet_c``): 300 random first-edition puzzles it can take (``c_puzzles``:
one goal robot, 1-15 moves), each solved fresh by the arena and by the C solver in turn, the
order swapped from one round to the next (two rounds, one with ``quick``); the ratios of the
medians and of the totals (goals <= 2 and <= 1.2), and the 25-move puzzle's time in a child
process of each (goal <= 0.8; skipped when ``quick``). Both answers must have the same length.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time

from arena.bench import Figure, ricochet_c
from arena.errors import ConfigError
from arena.games.ricochet.board import CELLS, CENTRE, Board, place_diagonals
from arena.games.ricochet.puzzle import Puzzle

HARD = "2B,4B,3B,1B R:c2,G:a13,B:l14,Y:c15 BT"

_CHILD = """
import json, sys
from arena.bench.ricochet_c import peak_kib
from arena.games.ricochet.puzzle import Puzzle
from bots.ricochet import solve_optimal
solve_optimal(Puzzle.parse('1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC'))  # load the compiled kernel
r = solve_optimal(Puzzle.parse(sys.argv[1]))
print(json.dumps({"seconds": r.seconds, "moves": len(r.solution) if r.solution is not None else None,
                  "nodes": r.nodes, "maxrss_kib": peak_kib()}))
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


def c_puzzles(count: int, seed: int = 2026) -> list[Puzzle]:
    """The first ``count`` of ``random_puzzles(seed=seed)`` that Fogleman's C solver can take
    (``ricochet_c.fits``: the vortex ones left out)."""
    drawn = count
    while True:
        out = [p for p in random_puzzles(drawn, seed) if ricochet_c.fits(p)]
        if len(out) >= count:
            return out[:count]
        drawn += count // 8 + 1


def _fresh(puzzle: Puzzle):
    """(seconds, result) of ``solve_optimal`` on ``puzzle`` with the per-board tables cleared,
    as ``arena solve --file`` meets a new board."""
    from bots.ricochet import _arrays, _bounds, _paths, solve_optimal

    _bounds.cache_clear()
    _arrays.cache_clear()
    _paths.cache_clear()
    t = time.perf_counter()
    r = solve_optimal(puzzle)
    return time.perf_counter() - t, r


def versus_c(c: ricochet_c.CSolver, puzzles: list[Puzzle], rounds: int):
    """(per round (the arena's seconds, the C solver's seconds) per puzzle, the optimal
    lengths): each puzzle solved fresh by both in turn, the arena first in even rounds.

    Raises:
        RuntimeError: the two solvers disagree on a puzzle's optimal length.
    """
    games = [c.game(p) for p in puzzles]
    out, lengths = [], []
    for k in range(rounds):
        ours, theirs = [], []
        for p, g in zip(puzzles, games):
            if k % 2:
                moves, tc = c.solve(g)
                ta, r = _fresh(p)
            else:
                ta, r = _fresh(p)
                moves, tc = c.solve(g)
            if r.solution is None or len(r.solution) != moves:
                raise RuntimeError(f"the C solver found {moves} moves, the arena {r.solution!r}: {p}")
            ours.append(ta)
            theirs.append(tc)
            lengths.append(moves)
        out.append((ours, theirs))
    return out, lengths


def _child(code: str, *args: str) -> dict:
    """The last JSON line a child Python process prints (``{"error": ...}`` when it fails)."""
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _c_figures(c: ricochet_c.CSolver, quick: bool) -> list[Figure]:
    """The arena against the C solver: median and total over ``c_puzzles(300)``."""
    area = "ricochet"
    puzzles = c_puzzles(300)
    load = os.getloadavg()[0]
    rounds, lengths = versus_c(c, puzzles, 1 if quick else 2)
    ours = [t for a, _ in rounds for t in a]
    theirs = [t for _, b in rounds for t in b]

    def span(values, scale=1.0, digits=3):
        return "–".join(f"{scale * v:.{digits}f}" for v in (min(values), max(values)))

    medians = [(statistics.median(a), statistics.median(b)) for a, b in rounds]
    totals = [(sum(a), sum(b)) for a, b in rounds]
    how = (f"{len(rounds)} round(s) of {len(puzzles)} puzzles of {min(lengths)}–{max(lengths)} moves, each "
           f"solved fresh by both in turn; load average {load:.1f}")
    return [
        Figure(area, "optimal solve / C solver, median of 300 first-edition puzzles",
               statistics.median(ours) / statistics.median(theirs), "×", "≤ 2",
               note=f"arena {span([m for m, _ in medians], 1000)} ms, C {span([m for _, m in medians], 1000)} ms "
                    f"(per round: {', '.join(f'{a / b:.2f}×' for a, b in medians)}); {how}"),
        Figure(area, "optimal solve / C solver, total of 300 first-edition puzzles", sum(ours) / sum(theirs), "×",
               "≤ 1.2", note=f"arena {span([a for a, _ in totals], 1, 2)} s, C {span([b for _, b in totals], 1, 2)} s "
                             f"(per round: {', '.join(f'{a / b:.2f}×' for a, b in totals)})"),
    ]


def _hard_figures(c: ricochet_c.CSolver | None) -> list[Figure]:
    """The 25-move puzzle's time and peak memory in a child process, and its time with the C
    solver (``c``) in another."""
    area = "ricochet"
    data = _child(_CHILD, HARD)
    if "error" in data:
        return [Figure(area, "25-move puzzle, time", float("nan"), "s", "< 60", note="failed: " + data["error"])]
    figs = [Figure(area, "25-move puzzle, time", data["seconds"], "s", "< 60",
                   note=f"{data['moves']} moves, {data['nodes']} nodes"),
            Figure(area, "25-move puzzle, peak memory (maxrss)", data["maxrss_kib"] / 1024, "MiB", "≤ 200")]
    theirs = _child(ricochet_c.CHILD, c.path, HARD) if c is not None else None
    if theirs is not None:
        figs.append(Figure(area, "25-move puzzle / C solver, time",
                           data["seconds"] / theirs["seconds"] if "error" not in theirs else float("nan"), "×", "≤ 0.8",
                           note=f"failed: {theirs['error']}" if "error" in theirs else
                           f"arena {data['seconds']:.1f} s, C {theirs['seconds']:.1f} s ({theirs['moves']} moves; C "
                           f"peak memory {theirs['maxrss_kib'] / 1024:.0f} MiB, with its Python caller)"))
    return figs


def run(quick: bool) -> list[Figure]:
    from bots.ricochet import WARM_UP, solve_optimal

    def solve_all(puzzles):
        """Per puzzle (fresh seconds, cached seconds, result): solved first with the per-board
        tables cleared (as ``arena solve --file`` meets a new board), then again at once with
        them cached, so the two medians come from the same run."""
        out = []
        for p in puzzles:
            fresh, r = _fresh(p)
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
    try:
        c = ricochet_c.from_env()
        if c is not None:
            figs += _c_figures(c, quick)
    except (ConfigError, RuntimeError) as exc:  # no such library, or the two disagree: say so, keep the rest
        c = None
        figs.append(Figure(area, "optimal solve / C solver", float("nan"), "×", "≤ 2", note=f"failed: {exc}"))
    if not quick:
        figs += _hard_figures(c)
    return figs
