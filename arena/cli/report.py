"""``arena report NAME``: print a tournament's report and write Markdown and CSV beside it."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from arena.errors import ResultsError
from arena.reports.render import SECTIONS, load, print_tables, write_files

#: File suffix of a tournament's database: ``<results>/<name>.sqlite``.
SUFFIX = ".sqlite"


def find_database(results: Path, name: str) -> Path:
    """The database of tournament ``name`` under ``results``.

    Raises:
        ResultsError: no such tournament; the message lists the tournaments available.
    """
    path = results / f"{name}{SUFFIX}"
    if path.is_file():
        return path
    names = sorted(p.name[: -len(SUFFIX)] for p in results.glob(f"*{SUFFIX}")) if results.is_dir() else []
    available = ", ".join(names) if names else "none"
    raise ResultsError(f"no tournament named {name!r} in {results}; available: {available}")


def report(
    name: str = typer.Argument(..., help="Tournament name (its database is <results>/NAME.sqlite)."),
    results: Path = typer.Option(Path("results"), "--results", help="Folder of the results databases."),
    section: list[str] = typer.Option(
        None, "--section", "-s", help=f"Print only these sections (repeatable): {', '.join(SECTIONS)}."),
    write: bool = typer.Option(True, "--write/--no-write", help="Also write NAME.report.md and NAME.<table>.csv beside the database."),
) -> None:
    """Print a tournament's ratings and statistics; write them as Markdown and CSV files."""
    data = load(find_database(results, name))
    console = Console()
    print_tables(data, console, section or None)
    if write:
        paths = write_files(data, results)
        console.print(f"[dim]wrote {paths[0]} and {len(paths) - 1} CSV files[/]")


def register(app: typer.Typer) -> None:
    app.command("report")(report)
