"""``arena list [--results DIR]``: every stored tournament, its members, games and the command
that resumes it (``arena.tournament.listing``)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from arena.cli.console import make_console, styled
from arena.cli.options import ResultsFolder


def list_tournaments(
    results: ResultsFolder = Path("results"),
    json_out: bool = typer.Option(
        False, "--json", help="Print a JSON list, one object per tournament (name, game, members, field, games, "
                              "total, last_played, created, path, command, finished, stopped; or name, path, "
                              "error)."),
) -> None:
    """List the tournaments stored in a results folder and the command that resumes each."""
    from rich.table import Table
    from rich.text import Text

    from arena.tournament.listing import stored_tournaments

    found = stored_tournaments(results)
    if json_out:
        typer.echo(json.dumps(found, indent=1))
        return
    console = make_console()
    if not found:
        console.print(f"no tournament stored in {results} (arena run --results {results} stores one)")
        return
    table = Table(title=f"Tournaments in {results}")
    for column, justify in (("name", "left"), ("game", "left"), ("bots", "left"), ("games", "right"),
                            ("last played (UTC)", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for t in found:
        if "error" in t:
            table.add_row(t["name"], Text("unreadable", style="red"), t["error"], "", "")
            continue
        last = (t["last_played"] or "-").replace("T", " ").replace("+00:00", "")
        table.add_row(t["name"], t["game"], ", ".join(t["members"]), games_cell(t), last)
    console.print(table)
    for t in found:
        if "command" in t:
            console.print(styled((t["name"], "bold"), f": {t['command']}"), soft_wrap=True)


def games_cell(t: dict) -> str:
    """The games column of one ``stored_tournaments`` entry: ``46`` when its schedule is played
    out, ``46 (SPRT: H1)`` when its own rule stopped it (an SPRT verdict, a ranking settled or
    not), ``2/60`` when fewer are stored than planned and the run did not finish: interrupted."""
    games, total = t["games"], t["total"]
    if t.get("stopped") and t.get("finished"):
        return f"{games} ({t['stopped']})"
    return str(games) if games >= total or t.get("finished") else f"{games}/{total}"


def register(app: typer.Typer) -> None:
    app.command("list")(list_tournaments)
