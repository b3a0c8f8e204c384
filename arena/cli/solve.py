"""``arena solve``: solve Ricochet Robots puzzles (``docs/rules/ricochet.md`` "Puzzle mode")
or Solo Interaction positions (``--game interaction-solo``, ``docs/rules/interaction.md``
"Solo Interaction").

One puzzle as an argument, or ``--file`` with one puzzle a line (blank lines and ``#``
comments skipped: for Ricochet any line starting with ``#``; for Solo Interaction, whose
positions start with ``#`` (the clipped corner a9), a ``#`` followed by a space or nothing).
``--json`` prints one JSON object per puzzle. Ricochet: ``puzzle``,
``solution`` (moves separated by spaces, ``""`` for 0 moves, ``null`` when none found),
``moves``, ``nodes``, ``seconds``, ``optimal``, ``lower_bound`` (the fewest moves any solution
can have, as proven: a proven optimal solution's length, or one more than the moves every
solution was ruled out up to before a limit ran out; ``null`` when nothing is proven). Solo
Interaction (a position text, a board alone, or ``layout=N``): ``position``, ``moves`` (one
minimal solution, moves separated by spaces, ``null`` when none), ``length`` (moves),
``solutions`` (distinct minimal solutions), ``optimal``, ``nodes``, ``seconds``. A bad line
gives ``{"puzzle", "error"}``, the command goes on and exits 2 at the end.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from arena.numbers import check_number
from arena.errors import ArenaError, BotSpecError, ConfigError, one_line

if TYPE_CHECKING:
    from bots.base import Limits


def _record(bot, text: str, limits: Limits) -> tuple[dict, str]:
    """The JSON record of one Ricochet puzzle and its line's note (``_note``)."""
    from arena.games.ricochet.puzzle import Puzzle  # imported on use: `arena --help` starts fast

    puzzle = Puzzle.parse(text)
    result = bot.solve_puzzle(puzzle, limits)
    sol = result.solution
    rec = {"puzzle": str(puzzle), "solution": None if sol is None else str(sol),
           "moves": None if sol is None else len(sol), "nodes": int(result.nodes),
           "seconds": round(result.seconds, 6), "optimal": bool(result.optimal)}
    depth = getattr(result, "depth", 0)  # SolveResult.depth: the deepest bound searched through, moves
    if sol is not None and depth >= len(sol):
        depth = 0  # a greedy answer's own length, not a bound searched through
    rec["lower_bound"] = _lower_bound(rec["moves"] if rec["optimal"] else None, depth)
    return rec, _note(bot, limits, result, sol is None, depth, "the target cannot be reached, proven")


def _lower_bound(optimal_moves: int | None, depth: int) -> int | None:
    """The fewest moves any solution can have, as proven (the JSON ``lower_bound``): the
    length of a proven optimal solution; else one more than ``depth``, the bound the search
    ruled out every solution up to; ``None`` when nothing is proven (a heuristic's answer, a
    target proven unreachable)."""
    if optimal_moves is not None:
        return optimal_moves
    return depth + 1 if depth > 0 else None


def _solo_record(bot, text: str, limits: Limits) -> tuple[dict, str]:
    """The JSON record of one Solo Interaction position and its line's note (``_note``)."""
    from arena.games.interaction.solo import InteractionSoloGame  # imported on use

    t = text.strip()
    if t.lower().startswith("layout="):
        state = InteractionSoloGame(layout=t[7:]).initial_state()
    else:
        state = InteractionSoloGame().parse_state(t)
    result = bot.solve_position(state, limits)
    moves = result.moves
    rec = {"position": state.to_text(), "moves": None if moves is None else " ".join(map(str, moves)),
           "length": result.length, "solutions": int(result.solutions), "optimal": bool(result.optimal),
           "nodes": int(result.nodes), "seconds": round(result.seconds, 6)}
    left = max(0, state.game.max_plies - state.ply)  # the proof's bound (bots/solo_search.count_solutions)
    return rec, _note(bot, limits, result, moves is None, left if result.optimal else 0, "no moves are left, proven")


def _note(bot, limits: Limits, result, none: bool, depth: int, out_of_reach: str) -> str:
    """Why an answer is not proven optimal, or why there is none (``""``: a proven optimal
    answer). Proven: no solution of at most ``depth`` moves (``depth`` 0: ``out_of_reach``).
    Else, for no answer or an answer found after the proof stopped at ``depth`` moves (none
    shorter exists), the limit that ran out (``limits`` with the bot's own ``time``/``nodes``;
    a limit counts as run out once ``bots.ricochet.PROOF_SHARE`` of it is spent, the share the
    optimal solvers give their proof)."""
    if result.optimal:
        if not none:
            return ""
        return f"none of at most {depth} move{'s' if depth != 1 else ''} exists, proven" if depth > 0 else out_of_reach
    if not none and depth == 0:
        return ""  # a heuristic's answer (no bound searched through): "not proven optimal" says it all
    from bots.ricochet import PROOF_SHARE

    from bots.base import Limits

    eff = limits.tighter(bot.own_limits() if hasattr(bot, "own_limits") else Limits())
    if eff.time is not None and result.seconds >= PROOF_SHARE * eff.time:
        why = f"the time limit of {eff.time:g} s ran out"
    elif eff.nodes is not None and result.nodes >= PROOF_SHARE * eff.nodes:
        why = f"the node limit of {eff.nodes} ran out"
    else:
        return "the search stopped without a proof" if none else ""
    if depth > 0:
        why += f" after ruling out every solution of up to {depth} move{'s' if depth != 1 else ''}"
    return why


def _line(rec: dict, note: str = "") -> str:
    if "error" in rec:
        return f"{rec['puzzle']}  error: {rec['error']}"
    solo = "position" in rec
    what, found = (rec["position"], rec["moves"]) if solo else (rec["puzzle"], rec["solution"])
    stats = f"{rec['nodes']} nodes, {rec['seconds']:.3f} s"
    if found is None:
        if rec["optimal"]:
            return f"{what}  no solution: {note or 'proven'}  ({stats})"
        return f"{what}  no solution found: {note or 'the search stopped without a proof'}  ({stats})"
    tag = "optimal" if rec["optimal"] else "not proven optimal" + (f": {note}" if note else "")
    if solo:
        count = rec["solutions"]  # counted only by a search that proves the minimum
        counted = f", {count} minimal solution{'s' if count != 1 else ''}" if rec["optimal"] else ""
        return (f"{what}  {_moves(rec['length'])}{counted}: "
                f"{found or '(none needed)'}  [{tag}, {stats}]")
    return f"{what}  {_moves(rec['moves'])}: {found or '(none needed)'}  [{tag}, {stats}]"


def _moves(count: int) -> str:
    return f"{count} move{'' if count == 1 else 's'}"


def solve(
    puzzle: Optional[str] = typer.Argument(
        None, help="'<board> <robots> <target>', e.g. '1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC'"),
    file: Optional[Path] = typer.Option(None, "--file", help="file with one puzzle a line"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object per puzzle"),
    game: str = typer.Option("ricochet", "--game", help="ricochet or interaction-solo"),
    bot: Optional[str] = typer.Option(
        None, "--bot",
        help="solver bot spec: ricochet-optimal (default), ricochet-greedy; interaction-solo-optimal (default), "
             "interaction-solo-greedy; or your class with solve_puzzle(puzzle, limits) (Ricochet) or "
             "solve_position(state, limits) (Solo Interaction) as path/to/file.py#ClassName or "
             "package.module.ClassName"),
    time_limit: Optional[str] = typer.Option(
        None, "--time-limit", metavar="SECONDS", help="seconds per puzzle (default: none)"),
) -> None:
    """Solve Ricochet Robots puzzles or Solo Interaction positions: the fewest moves, with nodes,
    seconds and proof of optimality (Solo Interaction: also the number of minimal solutions)."""
    seconds = check_number("time_limit", time_limit)
    if game not in _SOLVERS:
        raise ConfigError(f"arena solve: unknown --game {game!r}; accepted: {', '.join(_SOLVERS)}")
    method, kinds, record = _SOLVERS[game]
    if (puzzle is None) == (file is None):
        raise ConfigError("give one puzzle or --file FILE (one puzzle a line)")
    spec = bot or kinds[0]
    if spec.partition(":")[0] in kinds:  # only our solver in this process: numba may start lean
        from bots import kernels

        kernels.LEAN_START = True
    solver = _solver(spec, game, method, kinds)
    if callable(getattr(solver, "reset", None)):
        solver.reset(None, 0, 0)  # a lone puzzle: the Ricochet solver starts cold (bots/ricochet.py)
    if file is not None and hasattr(solver, "warm_up"):
        solver.warm_up()  # many puzzles: load the compiled search before any timing
    from bots.base import Limits  # imported on use: `arena --help` and the other commands start without the bots

    limits = Limits(time=seconds)
    if puzzle is not None:
        rec, note = record(solver, puzzle, limits)  # ArenaError -> one-line error, exit 2
        typer.echo(json.dumps(rec) if as_json else _line(rec, note))
        return
    assert file is not None  # exactly one of puzzle and file, checked above
    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read puzzle file {str(file)!r}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"puzzle file {str(file)!r} is not UTF-8 text ({exc.reason} at byte {exc.start}); "
                          "accepted: one puzzle a line") from None
    failed, puzzles = False, 0
    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text or (text.startswith("#") and (game == "ricochet" or text[1:2] in ("", " ", "\t"))):
            continue
        puzzles += 1
        try:
            rec, note = record(solver, text, limits)
        except ArenaError as exc:
            rec, note, failed = {"puzzle": text, "error": f"{file}:{number}: {one_line(exc)}"}, "", True
        typer.echo(json.dumps(rec) if as_json else _line(rec, note))
    if not puzzles:
        raise ConfigError(f"no puzzle in {str(file)!r} (only blank or comment lines); accepted: one puzzle a line")
    if failed:
        raise typer.Exit(2)


def _solver(spec: str, game: str, method: str, kinds: tuple[str, ...]):
    """The solver bot of ``spec``: a kind of ``kinds``, or a class with ``method`` given as
    ``path/to/file.py#ClassName`` or ``package.module.ClassName`` (loaded as ``arena run``
    loads bots, ``bots.registry``).

    Raises:
        BotSpecError: a bad spec, an unknown kind, or a class without ``method`` (the message
            lists what is accepted).
    """
    accepted = (f"accepted: {', '.join(kinds)}, or a class with a {method}{_ARGS[method]} method as "
                f"path/to/file.py#ClassName or package.module.ClassName (e.g. a subclass of {_BASE[method]})")
    from bots.registry import bot_class, make, parse_spec

    kind = parse_spec(spec).kind
    try:
        cls = bot_class(kind)
    except BotSpecError:
        if "#" in kind or "." in kind or ":" in kind:
            raise  # the loader's own message says what is wrong with the file or import path
        raise BotSpecError(f"unknown solver bot {kind!r}; {accepted}") from None
    if not callable(getattr(cls, method, None)):
        article = "an" if game[0] in "aeiou" else "a"
        raise BotSpecError(f"bot {spec!r} is not {article} {game} solver (no {method} method); {accepted}")
    return make(spec, needs=method + _ARGS[method])


#: game -> (the solver bots' method, accepted bot kinds (default first), record function)
_SOLVERS = {
    "ricochet": ("solve_puzzle", ("ricochet-optimal", "ricochet-greedy"), _record),
    "interaction-solo": ("solve_position", ("interaction-solo-optimal", "interaction-solo-greedy"), _solo_record),
}
#: a solver method's arguments, and the built-in class a user's solver may derive from
_ARGS = {"solve_puzzle": "(puzzle, limits)", "solve_position": "(state, limits)"}
_BASE = {"solve_puzzle": "bots.ricochet.OptimalSolver", "solve_position": "bots.interaction_solo.OptimalSoloSolver"}


def register(app: typer.Typer) -> None:
    app.command("solve")(solve)
