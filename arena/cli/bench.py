"""``arena bench``: run the benchmark modules of ``arena.bench.MODULES`` and print their figures.

A module that fails is printed as one row naming the error; the other modules still run.
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import typer

from arena.bench import MODULES, Figure
from arena.cli.console import make_console
from arena.errors import ConfigError

if TYPE_CHECKING:
    from rich.console import JustifyMethod


#: Modules whose ``run`` takes a store size (``--games``).
SIZED = ("report", "coverage")
#: optional packages a module may need -> how to install them (that module is then skipped)
OPTIONAL = {"dask": "pip install -e '.[cluster]'", "distributed": "pip install -e '.[cluster]'",
            "pyspiel": "pip install -e '.[openspiel]'", "openai": "pip install -e '.[llm]'",
            "tests": "a checkout of the repository (the bench's local server is tests/llm/server.py)"}


def run_modules(quick: bool, only: str | None = None,
                progress: Callable[[str], None] | None = None,
                games: int | None = None) -> list[tuple[str, list[Figure] | None, str | None]]:
    """``(module, figures, error)`` per selected module of ``MODULES``; ``error`` is one line.
    ``progress`` is called with a line as each module starts and with each figure it measured.
    ``games``: the store size of the modules in ``SIZED`` (``--games``).

    Raises:
        ConfigError: ``only`` names no module of ``MODULES``; ``games`` without ``--only`` of
            a sized module, or below 2.
    """
    selected = [m for m in MODULES if only is None or m == only.strip().lower()]
    if not selected:
        raise ConfigError(f"unknown bench area {only!r}; accepted: {', '.join(MODULES) or 'none'}")
    if games is not None and (selected != [m for m in selected if m in SIZED] or len(selected) != 1):
        raise ConfigError(f"--games goes with --only {' or '.join(SIZED)}; accepted: --only report --games N")
    if games is not None and games < 2:
        raise ConfigError(f"bad --games {games}; accepted: a whole number of games >= 2")
    out: list[tuple[str, list[Figure] | None, str | None]] = []
    say = progress or (lambda line: None)
    for i, name in enumerate(selected, 1):
        say(f"bench {i}/{len(selected)}: {name} ...")
        try:
            module = importlib.import_module(f"arena.bench.{name}")
            figures = list(module.run(quick, games) if games is not None else module.run(quick))
        except ModuleNotFoundError as exc:
            package = (exc.name or "").split(".")[0]
            if package not in OPTIONAL:
                raise
            out.append((name, None, f"skipped: needs {exc.name} ({OPTIONAL[package]})"))
            say(f"  {name}: {out[-1][2]}")
        except Exception as exc:  # a broken benchmark is a row of the report, not a crash
            out.append((name, None, f"{type(exc).__name__}: {' '.join(str(exc).split())}"))
            say(f"  {name}: failed: {out[-1][2]}")
        else:
            out.append((name, figures, None))
            for f in figures:  # no value (NaN: no interval to count): none, and the note says why
                say(f"  {f.area}: {f.name} = " + (f"{_value(f.value)} {f.unit}" if not math.isnan(f.value)
                                                  else "none" + (f" ({f.note})" if f.note else "")))
    return out


def _value(value: float) -> str:
    """A figure's value as the table and the progress lines show it (``none`` for NaN)."""
    if math.isnan(value):
        return "none"
    if value >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def bench(
    quick: bool = typer.Option(False, "--quick", help="smaller samples: rough figures in seconds (the goals are "
                                                     "for the full run)"),
    only: str = typer.Option(None, "--only", metavar="AREA", help=f"run one module only: {', '.join(MODULES)}"),
    games: str = typer.Option(None, "--games", metavar="N",
                              help="with --only report: games in the synthetic store (default 100000, --quick 10000); "
                                   "with --only coverage: tournaments per setup (default 400, --quick 40)"),
) -> None:
    """Measure the speed figures (one core unless a figure says otherwise); figures are noisy
    on a loaded machine: compare ratios measured in one run."""
    from rich.table import Table  # imported on use: other commands start without rich
    from rich.text import Text

    start = time.perf_counter()
    table = Table(title="arena bench" + (" (quick: rough figures; the goals are judged in the full run)"
                                         if quick else ""))
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("area", "left"), ("figure", "left"), ("value", "right"), ("unit", "left"), ("goal", "left"),
        ("met", "center"), ("note", "left"))
    marks: dict[bool | None, Text | str] = {True: Text("yes", style="green"), False: Text("no", style="red"),
                                            None: ""}
    for col, justify in columns:
        table.add_column(col, justify=justify)
    progress = make_console(stderr=True)
    size = _games(games)
    for name, figures, error in run_modules(
            quick, only, lambda line: progress.print(line, markup=False, highlight=False), size):
        if error is not None:
            skipped = error.startswith("skipped")
            table.add_row(name, Text("skipped" if skipped else "failed", style="yellow" if skipped else "red"),
                          "-", "", "", "", Text(error))
            continue
        for f in figures or ():
            mark: Text | str = "" if quick else marks[f.met]
            table.add_row(f.area, f.name, _value(f.value), f.unit, f.goal, mark, Text(f.note))
    console = make_console()
    console.print(table)
    console.print(f"{time.perf_counter() - start:.1f} s")


def _games(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return int(str(text).replace("_", "").replace(",", ""))
    except ValueError:
        raise ConfigError(f"bad --games {text!r}; accepted: a whole number of games >= 2, e.g. 1000000") from None


def register(app: typer.Typer) -> None:
    app.command("bench")(bench)
