"""``arena ladder``: one bot at several budgets, each rung against its neighbours in
seat-rotated series; prints Elo per rung, per step and per doubling of the budget, and the
first-move advantage at each step with its trend test (``docs/studies.md``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

import typer
from arena.cli.console import make_console, styled
from arena.cli.options import AllowVersionChange, OpeningsOrder, Results, Seed, Workers

#: games per step (each pair of neighbouring rungs) when ``--games`` is not given
DEFAULT_GAMES = 100


def ladder(
    bot: str = typer.Option(
        ..., "--bot", metavar="SPEC",
        help="one bot spec with one {...} group as an option's value: 'mcts:playouts={50,100,200,400,800}' or "
             "'alphabeta:depth={1..5}' (quote it for the shell); LABEL= names the rungs LABEL<value>"),
    game: Optional[str] = typer.Option(None, "--game", help="a 2-player game (see `arena games`); default interaction"),
    games: Optional[str] = typer.Option(
        None, "--games", metavar="N", help=f"games per step of neighbouring rungs (default {DEFAULT_GAMES})"),
    workers: Workers = None,
    name: Optional[str] = typer.Option(
        None, "--name", help="tournament name (default: <game>-ladder-<settings hash>; the same command resumes)"),
    seed: Seed = None,
    results: Results = None,
    opening_plies: Optional[str] = typer.Option(
        None, "--opening-plies", metavar="PLIES", help="seeded random opening plies per series (default 2)"),
    openings: Optional[str] = typer.Option(
        None, "--openings", metavar="FILE",
        help="start positions, one a line (e.g. a book of `arena openings select`); each a series, in turn"),
    openings_order: OpeningsOrder = None,
    param: Optional[list[str]] = typer.Option(None, "-p", "--param", help="game parameter key=value (repeatable)"),
    move_time: Optional[str] = typer.Option(
        None, "--move-time", metavar="SECONDS", help="seconds per move (default: none, the rungs' own budgets)"),
    game_time: Optional[str] = typer.Option(
        None, "--game-time", metavar="SECONDS", help="hard wall-clock seconds per game (default 600)"),
    allow_version_change: AllowVersionChange = False,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
) -> None:
    """Play a strength ladder and print Elo per doubling of the budget and the first-move trend."""
    from arena.cli.run import _progress_observers
    from arena.numbers import parse_params
    from arena.reports.output import print_tables, write_files
    from arena.reports.render import load  # pandas, scipy: imported on use
    from arena.tournament import build, run_tournament
    from arena.tournament.ladder import Ladder, ladder_name, rungs

    field = rungs(bot)
    given = dict(game=game, bots=list(field.specs), games=games or str(DEFAULT_GAMES), workers=workers, name=name,
                 seed=seed, results=results, opening_plies=opening_plies, openings=openings,
                 openings_order=openings_order, move_time=move_time, game_time=game_time,
                 allow_version_change=allow_version_change or None)
    values: dict[str, object] = {k: v for k, v in given.items() if v is not None}
    if param:
        values["params"] = parse_params(param)
    cfg = build(values)
    cfg = replace(cfg, name=ladder_name(cfg))
    console, err = make_console(), make_console(stderr=True)
    summary = run_tournament(cfg, () if quiet else _progress_observers(err), schedule=Ladder)
    console.print(styled((summary.name, "bold"), f": {summary.played} games played in {summary.seconds:.1f}s, "
                         f"{summary.stored}/{summary.total} stored in {summary.path}"))
    if summary.interrupted:
        console.print(styled(("interrupted", "yellow"),
                             ": finished games are stored; re-run the same command to resume"))
        from arena.cli.app import interrupt_code  # the app imports this module: imported on use

        raise typer.Exit(interrupt_code())
    data = load(summary.path)
    print_tables(data, console, ["ladder"])
    write_files(data, summary.path.parent)
    from arena.reports.html import write_html  # plotly, jinja2: imported on use

    console.print(f"full report: arena report {summary.name}; HTML report (plots): "
                  f"{write_html(summary.path, data=data)}")


def register(app: typer.Typer) -> None:
    app.command("ladder")(ladder)
