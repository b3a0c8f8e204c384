"""Start-up figures: how soon the command line answers ``--help`` and refuses bad input.

Each case runs ``python -m arena ARGS`` in a fresh process (this interpreter, in an empty
temporary folder), once untimed (it warms the disk cache and writes the bytecode an installed
arena has; ``PYTHONDONTWRITEBYTECODE`` is left out of the children's environment for that),
then ``REPEAT`` times (``--quick``: ``QUICK_REPEAT``); the figure is the median wall-clock
time, seconds, goal ≤ ``GOAL`` s on a quiet machine. The note gives the CPU time (user +
system) of the fastest run, which other load on the machine inflates less than the wall clock,
the exit code, and the heavy packages the command imported (``HEAVY``, read from one more run
under ``python -X importtime``): a refused value must be told before any of them loads.

What no change in the arena removes is in the note of the first figure: the interpreter's own
start (``python -c pass``) and typer's (``import typer``, which in typer 0.29 also imports
pydantic for the options' values, about 0.1 s).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from arena.bench import Figure

#: the goal of every figure, seconds (docs/speed.md)
GOAL = 0.5
REPEAT, QUICK_REPEAT = 7, 3
#: packages a refused option must not wait for (``arena.tournament.runner``: the runner itself)
HEAVY = ("numpy", "pandas", "scipy", "numba", "pyarrow", "plotly", "trueskill", "dask", "arena.tournament.runner",
         "arena.reports.render")


@dataclass(frozen=True)
class Case:
    """One command line: ``name`` (the figure's), ``args`` after ``arena``, the exit code it
    must end with (0: help; 2: refused)."""

    name: str
    args: tuple[str, ...]
    code: int


CASES = (
    Case("arena --help", ("--help",), 0),
    Case("arena run --help", ("run", "--help"), 0),
    Case("arena run: a bad option (--bogus)", ("run", "--bogus"), 2),
    Case("arena run: a bad bot spec (--bot nosuch)", ("run", "--bot", "nosuch"), 2),
    Case("arena run: a bad bot option value (--bot alphabeta:depth=x)", ("run", "--bot", "alphabeta:depth=x"), 2),
    Case("arena run: a bad game (--game nosuch)", ("run", "--game", "nosuch"), 2),
    Case("arena run: a bad value (--games x)", ("run", "--games", "x"), 2),
)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("COLUMNS", "100")
    return env


def timed(argv: list[str], cwd: str) -> tuple[float, float, int]:
    """``(wall seconds, CPU seconds, exit code)`` of one run of ``python ARGV`` in ``cwd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *argv], cwd=cwd, env=_env(), stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, check=False, timeout=120)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, done.returncode


def heavy_imports(args: tuple[str, ...], cwd: str) -> list[str]:
    """The packages of ``HEAVY`` that ``arena ARGS`` imports (``-X importtime``), sorted."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "arena", *args], cwd=cwd, env=_env(),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False, timeout=120)
    loaded = {line.rpartition("|")[2].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    return sorted(h for h in HEAVY if h in loaded)


def measure(case: Case, repeat: int, cwd: str) -> Figure:
    """The figure of one case: the median wall time of ``repeat`` runs after a warm-up run."""
    argv = ["-m", "arena", *case.args]
    timed(argv, cwd)  # warm-up: disk cache, bytecode
    runs = [timed(argv, cwd) for _ in range(repeat)]
    codes = sorted({code for _, _, code in runs})
    heavy = heavy_imports(case.args, cwd)
    note = (f"CPU {min(cpu for _, cpu, _ in runs):.2f} s (fastest run); exit code {', '.join(map(str, codes))}"
            + ("" if codes == [case.code] else f" (expected {case.code})")
            + f"; heavy imports: {', '.join(heavy) or 'none'}; median of {repeat}")
    return Figure("startup", case.name, statistics.median(wall for wall, _, _ in runs), "s", f"≤ {GOAL:g}", note)


def run(quick: bool) -> list[Figure]:
    repeat = QUICK_REPEAT if quick else REPEAT
    with tempfile.TemporaryDirectory(prefix="arena-startup-") as cwd:
        base = statistics.median(timed(["-c", "pass"], cwd)[0] for _ in range(repeat))
        typer_start = statistics.median(timed(["-c", "import typer._adapters"], cwd)[0] for _ in range(repeat))
        figures = [measure(case, repeat, cwd) for case in CASES]
    first = figures[0]
    floor = f"; floor outside the arena: python -c pass {base:.2f} s, import typer (with pydantic) {typer_start:.2f} s"
    return [Figure(first.area, first.name, first.value, first.unit, first.goal, first.note + floor), *figures[1:]]
