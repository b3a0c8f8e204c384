"""``arena report NAME``: print a tournament's report and write Markdown and CSV beside it;
``--html [FILE]`` writes the self-contained HTML report too."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer
from arena.cli.console import make_console
from arena.cli.options import Anchor, ResultsFolder, Wide
from arena.errors import ConfigError
from arena.reports import SECTIONS


def report(
    name: Optional[str] = typer.Argument(
        None, help="Tournament name (its database is <results>/NAME.sqlite) or a database path; or --across."),
    results: ResultsFolder = Path("results"),
    section: list[str] = typer.Option(
        None, "--section", "-s",
        help=f"Print only these sections (repeatable, or comma-separated): {', '.join(SECTIONS)}."),
    write: Optional[bool] = typer.Option(
        None, "--write/--no-write",
        help="Also write NAME.report.md and NAME.<table>.csv beside the database (default: yes, "
             "except with --section, which builds only the sections it prints)."),
    json_out: bool = typer.Option(
        False, "--json",
        help="Print every table as JSON (an object of tables, each a list of row objects; NaN as null) instead; "
             "writes nothing."),
    html: bool = typer.Option(
        False, "--html", help="Also write the self-contained HTML report (plots, game replays) to FILE "
                              "(default: off; FILE defaults to <results>/NAME.html; - for stdout)."),
    file: Optional[Path] = typer.Argument(
        None, metavar="FILE", help="Where --html writes (default <results>/NAME.html; - for stdout, the tables "
                                   "then printed on stderr)."),
    bots: Optional[str] = typer.Option(
        None, "--bots", metavar="A,B,...",
        help="Report only the games among these bots (comma-separated labels; a bot's name stands for all its "
             "versions, NAME@N for one; default: every stored game)."),
    anchor: Anchor = None,
    no_adjudicated: bool = typer.Option(
        False, "--no-adjudicated",
        help="leave the games ended by --adjudicate (adjudicated, adjudicated_draw) out of the first-move table "
             "(default: every game)"),
    games: Optional[str] = typer.Option(
        None, "--games", metavar="IDS",
        help="Games to embed in the HTML report's replay viewer, e.g. 1-500,777; implies --html "
             "(default: the first, last, longest and fault games)."),
    wide: Wide = False,
    across: Optional[str] = typer.Option(
        None, "--across", metavar="A,B,...",
        help="One rating table over these tournaments (names or database paths, comma-separated), of one game or "
             "several: a bot is the same across them by its spec and code; instead of NAME's report."),
    weights: Optional[str] = typer.Option(
        None, "--weights", metavar="equal|games",
        help="With --across: equal (each tournament weighs the same, default) or games (each game weighs one)."),
) -> None:
    """Print a tournament's ratings and statistics; write them as Markdown and CSV files.

    `--across A,B,...` prints one field table over several tournaments instead (docs/how-to/across.md)."""
    from arena.reports.output import print_tables, report_json, write_files
    from arena.reports.render import load  # pandas, scipy: imported on use
    from arena.numbers import parse_anchor
    from arena.results.files import resolve

    if across is not None or weights is not None:
        given = {"NAME": name is not None, "--section": bool(section), "--write/--no-write": write is not None,
                 "--html": html, "FILE": file is not None, "--bots": bots is not None,
                 "--no-adjudicated": no_adjudicated, "--games": games is not None}
        _across(across, weights, results, json_out, anchor, wide, [k for k, v in given.items() if v])
        return
    if name is None:
        raise ConfigError("arena report needs a tournament: arena report NAME (`arena list` lists them), or "
                          "arena report --across A,B,...")
    if file is not None and not html:
        raise ConfigError(f"unexpected argument {str(file)!r}: a file name goes with --html "
                          "(arena report NAME --html FILE)")
    if bots is not None and (html or games is not None) and file is None:
        raise ConfigError("--bots with --html needs the page's FILE (arena report NAME --bots a,b --html FILE): "
                          "NAME.html covers every stored game")
    path = resolve(name, results)
    field = None if bots is None else [b.strip() for b in bots.split(",") if b.strip()]
    if field is not None and not field:
        raise ConfigError("--bots needs at least one bot label, e.g. --bots me,greedy")
    pinned = parse_anchor(anchor)
    data = load(path, bots=field, anchor=pinned)
    data.no_adjudicated = no_adjudicated
    if games is not None and not json_out:  # a bad selection stops before anything is printed or written
        from arena.reports.html import check_stored, parse_game_ids

        check_stored(parse_game_ids(games), data)
    if json_out:
        typer.echo(report_json(data, section or None))
        return
    if html or games is not None:  # a page that cannot be written stops before anything is printed
        from arena.reports.html import check_target

        check_target(file if file is not None else path.parent / f"{data.name}.html")
    console = make_console(stderr=file is not None and str(file) == "-")  # stdout carries the page
    print_tables(data, console, section or None, wide=wide)
    if write is None:
        write = not section
        if write and field is None and not os.access(path.parent, os.W_OK):  # a read-only folder, media or mount
            console.print(f"{path.parent} cannot be written: no report files (NAME.report.md, CSV) written "
                          "(--no-write: this note goes; --write: an error)", style="dim")
            write = False
    if write and field is not None:
        console.print("--bots: no files written (NAME.report.md and the CSV files cover every stored game)",
                      style="dim")
    elif write:
        paths = write_files(data, path.parent)
        console.print(f"wrote {paths[0]} and {len(paths) - 1} CSV files", style="dim")
    if html or games is not None:
        from arena.reports.html import write_html  # plotly, jinja2: imported on use

        page = write_html(path, file, games, data)
        console.print("wrote the HTML report to stdout" if str(page) == "-" else f"wrote {page}", style="dim")


def _across(across: str | None, weights: str | None, results: Path, json_out: bool, anchor: str | None,
            wide: bool, others: list[str]) -> None:
    """``arena report --across A,B,... [--weights W]``: print one table (text, or ``--json``).

    Raises:
        ConfigError: --weights without --across, an option of one tournament's report beside
            --across, a bad --weights or --anchor.
        ResultsError: a tournament that does not exist or cannot be read.
    """
    from arena.numbers import parse_anchor
    from arena.reports import across as ac

    if across is None:
        raise ConfigError("--weights goes with --across: arena report --across A,B --weights equal|games")
    if others:
        raise ConfigError(f"--across prints one table over several tournaments; {', '.join(others)}: options of "
                          "one tournament's report (arena report NAME)")
    table, lines, sources = ac.across_report([n.strip() for n in across.split(",") if n.strip()], results,
                                             weights or "equal", parse_anchor(anchor))
    if json_out:
        typer.echo(ac.to_json(table, lines, sources, weights or "equal"))
        return
    from arena.reports.fit import dropped_note, fit_columns, needed_width
    from arena.reports.long import RowsTable

    console = make_console()
    cells, right = ac.shown(table)
    cells, right, dropped = fit_columns(cells, right, None if wide else console.width, "ratings")
    columns = [(str(c), r, needed_width(c, cells[c].astype(str).tolist(), r)) for c, r in zip(cells.columns, right)]
    rows = [list(r) for r in zip(*(cells[c].astype(str).tolist() for c in cells.columns))]
    console.print(RowsTable(f"Field table across {', '.join(s.name for s in sources)}: Elo with 95% bootstrap "
                            "intervals, CFS to the next entry", dropped_note(dropped, console.width), columns, rows,
                            wide=wide))
    for line in lines:
        console.print(line, style="dim", highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    app.command("report")(report)
