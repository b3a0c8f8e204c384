"""``arena solve``: solve Ricochet Robots puzzles (``docs/rules/ricochet.md`` "Puzzle mode")
or Solo Interaction positions (``--game interaction-solo``, ``docs/rules/interaction.md``
"Solo Interaction").

One puzzle as an argument, or ``--file`` with one puzzle a line (blank lines and ``#``
comments skipped: for Ricochet any line starting with ``#``; for Solo Interaction, whose
positions start with ``#`` (the clipped corner a9), a ``#`` followed by a space or nothing).
``--json`` prints one JSON object per puzzle. Ricochet: ``puzzle``,
``solution`` (moves separated by spaces, ``""`` for 0 moves, ``null`` when none found),
``moves``, ``nodes``, ``seconds``, ``optimal``. Solo Interaction (a position text, a board
alone, or ``layout=N``): ``position``, ``moves`` (one minimal solution, moves separated by
spaces, ``null`` when none), ``length`` (moves), ``solutions`` (distinct minimal solutions),
``optimal``, ``nodes``, ``seconds``. A bad line gives ``{"puzzle", "error"}``, the command
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


def _solo_record(bot, text: str, limits: Limits) -> dict:
    from arena.games.interaction.solo import InteractionSoloGame  # imported on use

    t = text.strip()
    if t.lower().startswith("layout="):
        state = InteractionSoloGame(layout=t[7:]).initial_state()
    else:
        state = InteractionSoloGame().parse_state(t)
    result = bot.solve_position(state, limits)
    moves = result.moves
    return {"position": state.to_text(), "moves": None if moves is None else " ".join(map(str, moves)),
            "length": result.length, "solutions": int(result.solutions), "optimal": bool(result.optimal),
            "nodes": int(result.nodes), "seconds": round(result.seconds, 6)}


def _line(rec: dict) -> str:
    if "error" in rec:
        return f"{rec['puzzle']}  error: {rec['error']}"
    if "position" in rec:
        if rec["moves"] is None:
            return f"{rec['position']}  no solution found  ({rec['nodes']} nodes, {rec['seconds']:.3f} s)"
        tag = "optimal" if rec["optimal"] else "not proven optimal"
        count = rec["solutions"]  # counted only by a search that proves the minimum
        counted = f", {count} minimal solution{'s' if count != 1 else ''}" if rec["optimal"] else ""
        return (f"{rec['position']}  {rec['length']} moves{counted}: "
                f"{rec['moves'] or '(none needed)'}  [{tag}, {rec['nodes']} nodes, {rec['seconds']:.3f} s]")
    if rec["solution"] is None:
        return f"{rec['puzzle']}  no solution found  ({rec['nodes']} nodes, {rec['seconds']:.3f} s)"
    tag = "optimal" if rec["optimal"] else "not proven optimal"
    return (f"{rec['puzzle']}  {rec['moves']} moves: {rec['solution'] or '(none needed)'}  "
            f"[{tag}, {rec['nodes']} nodes, {rec['seconds']:.3f} s]")


def solve(
    puzzle: Optional[str] = typer.Argument(None, help="'<board> <robots> <target>', e.g. '1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC'"),
    file: Optional[Path] = typer.Option(None, "--file", help="file with one puzzle a line"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object per puzzle"),
    game: str = typer.Option("ricochet", "--game", help="ricochet or interaction-solo"),
    bot: Optional[str] = typer.Option(None, "--bot", help="solver bot spec (default: the game's optimal solver)"),
    time_limit: Optional[str] = typer.Option(None, "--time-limit", metavar="SECONDS", help="seconds per puzzle (default: none)"),
) -> None:
    """Solve Ricochet Robots puzzles or Solo Interaction positions: the fewest moves, with nodes,
    seconds and proof of optimality (Solo Interaction: also the number of minimal solutions)."""
    time_limit = check_number("time_limit", time_limit)
    if game not in _SOLVERS:
        raise ConfigError(f"arena solve: unknown --game {game!r}; accepted: {', '.join(_SOLVERS)}")
    method, kinds, record = _SOLVERS[game]
    if (puzzle is None) == (file is None):
        raise ConfigError("give one puzzle or --file FILE (one puzzle a line)")
    bot = bot or kinds[0]
    solver = make(bot)
    if not hasattr(solver, method):
        raise ConfigError(f"bot {bot!r} is not {'an' if game[0] in 'aeiou' else 'a'} {game} solver; accepted: {', '.join(kinds)}")
    solver.reset(None, 0, 0)  # a lone puzzle: the Ricochet solver starts cold (bots/ricochet.py)
    if file is not None and hasattr(solver, "warm_up"):
        solver.warm_up()  # many puzzles: load the compiled search before any timing
    limits = Limits(time=time_limit)
    if puzzle is not None:
        rec = record(solver, puzzle, limits)  # ArenaError -> one-line error, exit 2
        typer.echo(json.dumps(rec) if as_json else _line(rec))
        return
    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read puzzle file {str(file)!r}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"puzzle file {str(file)!r} is not UTF-8 text ({exc.reason} at byte {exc.start}); "
                          "accepted: one puzzle a line") from None
    failed = False
    for raw in lines:
        text = raw.strip()
        if not text or (text.startswith("#") and (game == "ricochet" or text[1:2] in ("", " ", "\t"))):
            continue
        try:
            rec = record(solver, text, limits)
        except ArenaError as exc:
            rec, failed = {"puzzle": text, "error": one_line(exc)}, True
        typer.echo(json.dumps(rec) if as_json else _line(rec))
    if failed:
        raise typer.Exit(2)


#: game -> (the solver bots' method, accepted bot kinds (default first), record function)
_SOLVERS = {
    "ricochet": ("solve_puzzle", ("ricochet-optimal", "ricochet-greedy"), _record),
    "interaction-solo": ("solve_position", ("interaction-solo-optimal", "interaction-solo-greedy"), _solo_record),
}


def register(app: typer.Typer) -> None:
    app.command("solve")(solve)
