"""``arena report NAME``: print a tournament's report and write Markdown and CSV beside it."""

from __future__ import annotations

from pathlib import Path

import typer
from arena.cli.console import make_console
from arena.reports import SECTIONS


def report(
    name: str = typer.Argument(..., help="Tournament name (its database is <results>/NAME.sqlite) or a database path."),
    results: Path = typer.Option(Path("results"), "--results", help="Folder of the results databases."),
    section: list[str] = typer.Option(
        None, "--section", "-s", help=f"Print only these sections (repeatable): {', '.join(SECTIONS)}."),
    write: bool = typer.Option(True, "--write/--no-write", help="Also write NAME.report.md and NAME.<table>.csv beside the database."),
    json_out: bool = typer.Option(False, "--json", help="Print every table as JSON (an object of tables, each a list of row objects; NaN as null) instead; writes nothing."),
) -> None:
    """Print a tournament's ratings and statistics; write them as Markdown and CSV files."""
    from arena import store  # pandas, scipy: imported on use
    from arena.reports.render import load, print_tables, report_json, write_files

    path = store.resolve(name, results)
    data = load(path)
    if json_out:
        typer.echo(report_json(data, section or None))
        return
    console = make_console()
    print_tables(data, console, section or None)
    if write:
        paths = write_files(data, path.parent)
        console.print(f"[dim]wrote {paths[0]} and {len(paths) - 1} CSV files[/]")


def register(app: typer.Typer) -> None:
    app.command("report")(report)
