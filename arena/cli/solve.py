"""``arena solve``: solve Ricochet Robots puzzles (``spec/ricochet.md`` "Puzzle mode").

One puzzle as an argument, or ``--file`` with one puzzle a line (blank lines and ``#``
comments skipped). ``--json`` prints one JSON object per puzzle: ``puzzle``, ``solution``
(moves separated by spaces, ``""`` for 0 moves, ``null`` when none found), ``moves``,
``nodes``, ``seconds``, ``optimal``; a bad line gives ``{"puzzle", "error"}``, the command
goes on and exits 2 at the end.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from arena.numbers import check_number
from arena.errors import ArenaError, ConfigError, one_line
from bots.base import Limits
from bots.registry import make


def _record(bot, text: str, limits: Limits) -> dict:
    from arena.games.ricochet.puzzle import Puzzle  # imported on use: `arena --help` starts fast

    puzzle = Puzzle.parse(text)
    result = bot.solve_puzzle(puzzle, limits)
    sol = result.solution
    return {"puzzle": str(puzzle), "solution": None if sol is None else str(sol),
            "moves": None if sol is None else len(sol), "nodes": int(result.nodes),
            "seconds": round(result.seconds, 6), "optimal": bool(result.optimal)}


def _line(rec: dict) -> str:
    if "error" in rec:
        return f"{rec['puzzle']}  error: {rec['error']}"
    if rec["solution"] is None:
        return f"{rec['puzzle']}  no solution found  ({rec['nodes']} nodes, {rec['seconds']:.3f} s)"
    tag = "optimal" if rec["optimal"] else "not proven optimal"
    return (f"{rec['puzzle']}  {rec['moves']} moves: {rec['solution'] or '(none needed)'}  "
            f"[{tag}, {rec['nodes']} nodes, {rec['seconds']:.3f} s]")


def solve(
    puzzle: Optional[str] = typer.Argument(None, help="'<board> <robots> <target>', e.g. '1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC'"),
    file: Optional[Path] = typer.Option(None, "--file", help="file with one puzzle a line"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object per puzzle"),
    bot: str = typer.Option("ricochet-optimal", "--bot", help="solver bot spec"),
    time_limit: Optional[str] = typer.Option(None, "--time-limit", metavar="SECONDS", help="seconds per puzzle (default: none)"),
) -> None:
    """Solve Ricochet Robots puzzles: the fewest moves, with nodes, seconds and proof of optimality."""
    time_limit = check_number("time_limit", time_limit)
    if (puzzle is None) == (file is None):
        raise ConfigError("give one puzzle or --file FILE (one puzzle a line)")
    solver = make(bot)
    if not hasattr(solver, "solve_puzzle"):
        raise ConfigError(f"bot {bot!r} is not a Ricochet solver; accepted: ricochet-optimal, ricochet-greedy")
    solver.reset(None, 0, 0)  # loads the search kernel before any timing
    limits = Limits(time=time_limit)
    if puzzle is not None:
        rec = _record(solver, puzzle, limits)  # ArenaError -> one-line error, exit 2
        typer.echo(json.dumps(rec) if as_json else _line(rec))
        return
    try:
        lines = file.read_text().splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read puzzle file {str(file)!r}: {exc.strerror}") from None
    failed = False
    for raw in lines:
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            rec = _record(solver, text, limits)
        except ArenaError as exc:
            rec, failed = {"puzzle": text, "error": one_line(exc)}, True
        typer.echo(json.dumps(rec) if as_json else _line(rec))
    if failed:
        raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    app.command("solve")(solve)
