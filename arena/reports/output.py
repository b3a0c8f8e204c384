"""Reports out: rich tables in the terminal, JSON, and Markdown and CSV files beside the database.

``arena.reports.render`` loads a store and computes its tables; the functions here only format
and write them. Files (``docs/arena.md`` "Ratings and reports"): ``<name>.report.md`` and one
``<name>.<table>.csv`` per table, in the database's folder. CSV files hold raw numbers
(fractions as fractions); the terminal and Markdown show percents.
"""

from __future__ import annotations

import json
import math
import numbers
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from rich.console import Console
from rich.text import Text

from arena.errors import ResultsError, one_line
from arena.reports import SECTIONS
from arena.reports.absent import empty_sections
from arena.reports.cycles import cycle_line
from arena.reports.display import format_value
from arena.reports.fit import dropped_note, fit_columns, needed_width
from arena.reports.ladder import fit_line
from arena.reports.long import RowsTable, markdown_table
from arena.reports.payoffs import ranked_by, ranking_line
from arena.reports.render import TITLES, ReportData, bot_notes, load, notes, tables_for, warnings
from arena.stats.sprt import state_line
from arena.results.writing import atomic_path


def _rich_table(data: ReportData, name: str, frame: pd.DataFrame, width: int | None = None,
                wide: bool = False) -> RowsTable:
    """Table ``name`` for the terminal: fitted to ``width`` columns (``fit_columns``), or with
    every column at its natural width whatever the terminal's (``wide``)."""
    shown, right = data.shown(name, frame)
    shown, right, dropped = fit_columns(shown, right, None if wide else width, name)
    cells = [shown[col].astype(str).tolist() for col in shown.columns]
    columns = [(str(col), is_right, needed_width(col, column, is_right))
               for col, column, is_right in zip(shown.columns, cells, right)]
    return RowsTable(TITLES.get(name, name), dropped_note(dropped, width), columns, [list(r) for r in zip(*cells)],
                     wide=wide)


def _seat_test_line(test: pd.DataFrame) -> str:
    row = test.iloc[0]
    ties = (f"; ties for first: {int(row['first_ties'])} games "
            f"({format_value('first_tie_rate', float(row['first_tie_rate']))})" if "first_ties" in row else "")
    return (f"chi-square of equal win shares over {int(row['games'])} games: "
            f"chi2 = {format_value('chi2', float(row['chi2']))} ({int(row['dof'])} dof), "
            f"p = {format_value('p_value', float(row['p_value']))}{ties}")


def sprt_line(state: dict, table: pd.DataFrame) -> str:
    """The SPRT's line (``state_line``) and the median-unbiased Elo of its ``sprt`` table."""
    row = table.iloc[0]
    elo, low, high = (float(row[c]) for c in ("elo_mu", "elo_mu_low", "elo_mu_high"))
    if elo != elo:
        return state_line(state)
    rough = ", rough: the LLR overshot its bound" if row["elo_mu_clamped"] else ""
    return (f"{state_line(state)}; median-unbiased Elo {elo:+.1f} [{low:+.1f}, {high:+.1f}] "
            f"(after the sequential stop{rough})")


def print_tables(data: ReportData, console: Console, sections: Sequence[str] | None = None,
                 leave_out: Sequence[str] = (), wide: bool = False) -> None:
    """Print the report of ``data`` as rich tables (see ``SECTIONS``), without the tables named
    in ``leave_out``. A table wider than the console drops its least useful columns
    (``arena.reports.fit``), or with ``wide`` keeps them all and prints wider lines."""
    tables = {name: frame for name, frame in tables_for(data, sections).items() if name not in leave_out}
    console.print(Text.assemble((data.name, "bold"), f": {len(data.games)} games of "
                                f"{data.tournament.get('game', '?')} ({data.num_players} players)"))
    for line in warnings(data):
        console.print(Text(line, style="yellow"))
    if (ranking := ranking_line(data)) is not None:
        console.print(ranking, markup=False, highlight=False)
    for name, frame in tables.items():
        if name in ("faults", "fault_summary"):
            continue
        if name == "seat_test":
            console.print(_seat_test_line(frame))
            continue
        if name == "sprt":
            assert data.sprt is not None, "the sprt table comes of a stored SPRT state"
            console.print(sprt_line(data.sprt, frame))
            continue
        if name == "ladder_fit":
            console.print(fit_line(frame))
            continue
        if name == "cycles":
            console.print(cycle_line(frame), markup=False, highlight=False)
            if frame.empty:
                continue
        if frame.empty:
            console.print(Text(f"{TITLES.get(name, name)}: none", style="dim"))
            continue
        console.print(_rich_table(data, name, frame, console.width, wide), crop=not wide)
        for line in notes(data, name, frame):
            console.print(Text(line, style="dim"))
    if "fault_summary" in tables:
        print_faults(tables["fault_summary"], tables["faults"], console)
    for line in empty_sections(data, sections, tables).values():
        console.print(line, markup=False, highlight=False)


def print_faults(summary: pd.DataFrame, listed: pd.DataFrame, console: Console) -> None:
    """Which bot failed how (``exception``, ``illegal_move``, ``bad_move``, ``timeout``,
    ``crash``...), how often, with the first game's detail, so a user knows what to fix."""
    if summary.empty:
        console.print(Text("No faults: every game ended by the rules.", style="green"))
        return
    console.print(Text.assemble((TITLES["faults"], "bold red"), " (the bot named lost those games)"))
    for row in summary.itertuples(index=False):
        first = listed[listed["game_id"] == row.example].iloc[0]
        detail = f": {first['detail']}" if first["detail"] else ""
        console.print(Text.assemble("  ", (str(row.bot), "bold"), f" {row.termination} in {row.games} game(s), "
                                    f"e.g. game {row.example} (seat {first['seat']}, after {first['plies']} plies)"
                                    f"{detail}"))


def print_report(db_path: str | Path, console: Console, sections: Sequence[str] | None = None) -> None:
    """Load the database at ``db_path`` and print its report.

    Raises:
        ResultsError: unreadable database. ConfigError: unknown section.
    """
    print_tables(load(db_path), console, sections)


def print_summary(source: ReportData | str | Path, console: Console, wide: bool = False) -> None:
    """The end of ``arena run``: the field table (with the LOS matrix and, two players, the
    significant cycles; Nash averaging and α-Rank are in the full report), the leaderboard,
    then first-move (two players) or seat advantage (three or more), then the faults if any.
    ``source``: frames or a database path; ``wide``: every column, whatever the console's width.

    Raises:
        ResultsError: unreadable database.
    """
    data = source if isinstance(source, ReportData) else load(source)
    print_tables(data, console, ["ratings", "cycles", "leaderboard", "standings", "pairs", "first_move",
                                 "seat_advantage", "ricochet", "solo", "sprt", "faults"],
                 leave_out=("nash", "alpharank"), wide=wide)


def print_termination_summary(data: ReportData, console: Console) -> None:
    """The end of ``arena run``, as cutechess-cli ends a tournament: each bot's games counted by
    result and termination, one ``"Result: termination": N`` line each under ``Player: BOT``
    (``tables.terminations_by_bot``; time losses and adjudications included)."""
    table = tables_for(data, ["terminations"]).get("terminations_by_bot")
    if table is None or table.empty:
        return
    console.print(Text("Terminations by bot", style="bold"))
    for bot, rows in table.groupby("bot", sort=False):
        console.print(f"Player: {bot}", markup=False, highlight=False)
        for result, termination, n in zip(rows["result"], rows["termination"], rows["games"]):
            console.print(f'   "{result.capitalize()}: {termination}": {n}', markup=False, highlight=False)


def report_json(data: ReportData, sections: Sequence[str] | None = None) -> str:
    """Every table of the report as JSON: ``{"tournament": {...}, "warnings": [...], "tables":
    {name: [row objects keyed by column]}}``; NaN and ±inf become ``null`` (a statistic a bot
    does not report is empty, not 0). The SPRT state is the one-row table ``sprt``. With
    ``sections``, ``"empty"`` maps each of them that has no table here to the line saying why
    (``arena.reports.absent``). Without
    ``sections``, every section that applies, also those the terminal shows only on request
    (``openings`` of a tournament from random starts).

    Raises:
        ConfigError: an unknown section.
    """
    tables = tables_for(data, sections or SECTIONS)
    tour = {k: v for k, v in data.tournament.items()}
    tour["games_stored"] = len(data.games)
    tour["ranked_by"] = ranked_by(data)  # "payoff" or "places" (arena.reports.payoffs)
    out = {"tournament": tour, "warnings": warnings(data),
           "tables": {name: json.loads(frame.to_json(orient="records", double_precision=15))
                      for name, frame in tables.items()}}
    if sections:  # the sections asked for that have nothing here, each with its line
        out["empty"] = empty_sections(data, sections, tables)
    return json.dumps(finite(out), indent=1, default=str, allow_nan=False)  # strict JSON: no NaN, no Infinity


def finite(value: Any) -> Any:
    """``value`` (dicts, lists and tuples gone through) with every NaN or ±inf number ``None``:
    the tournament's stored settings as the tables' cells (``DataFrame.to_json`` makes those
    ``null``), so the JSON printed is strict (``Infinity`` and ``NaN`` are no JSON)."""
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(item) for item in value]
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral) and not math.isfinite(value):
        return None
    return value


def markdown(data: ReportData, tables: dict[str, pd.DataFrame]) -> str:
    """The report as Markdown: a title, the tournament's settings, one section per table."""
    tour = data.tournament
    lines = [f"# {data.name}", "",
             f"- game: {tour.get('game', '?')}",
             *[f"- game parameter `{k}={v}`" for k, v in (tour.get("params") or {}).items()],
             f"- players per game: {data.num_players}", f"- games: {len(data.games)}",
             f"- seed: {tour.get('seed', '?')}"]
    lines += [f"- bot `{label}`" + "".join(f" ({part})" for part in bot_notes(tour, label)) + f": `{spec}`"
              for label, spec in (tour.get("bots") or {}).items()]
    lines += ["", *warnings(data)] if warnings(data) else []
    lines += ["", ranking] if (ranking := ranking_line(data)) is not None else []
    for name, frame in tables.items():
        if name == "seat_test":
            lines += ["", _seat_test_line(frame)]
            continue
        if name == "sprt":
            assert data.sprt is not None, "the sprt table comes of a stored SPRT state"
            lines += ["", f"## {TITLES[name]}", "", sprt_line(data.sprt, frame)]
            continue
        if name == "ladder_fit":
            lines += ["", fit_line(frame)]
            continue
        if name == "cycles" and frame.empty:
            lines += ["", f"## {TITLES[name]}", "", cycle_line(frame)]
            continue
        lines += ["", f"## {TITLES.get(name, name)}", ""]
        for line in notes(data, name, frame):
            lines += [line, ""]
        lines.append(_markdown_table(data, name, frame) if len(frame) else "(none)")
    return "\n".join(lines) + "\n"


def _markdown_table(data: ReportData, name: str, frame: pd.DataFrame) -> str:
    shown, right = data.shown(name, frame)
    cells = [shown[col].astype(str).tolist() for col in shown.columns]
    return markdown_table([str(c) for c in shown.columns], [list(r) for r in zip(*cells)], right)


def write_files(data: ReportData, directory: str | Path) -> list[Path]:
    """Write ``<name>.report.md`` and ``<name>.<table>.csv`` into ``directory``.

    Raises:
        ResultsError: the folder cannot be written.
    """
    folder = Path(directory)
    tables = tables_for(data)
    paths = [folder / f"{data.name}.report.md"]
    try:
        with atomic_path(paths[0]) as tmp:
            tmp.write_text(markdown(data, tables), encoding="utf-8")
        for name, frame in tables.items():
            path = folder / f"{data.name}.{name}.csv"
            with atomic_path(path) as tmp:
                frame.to_csv(tmp, index=False)
            paths.append(path)
    except OSError as exc:
        raise ResultsError(f"cannot write the report into {folder}: {one_line(exc)}") from exc
    return paths


def write_report(db_path: str | Path) -> list[Path]:
    """Write the Markdown and CSV report of the database at ``db_path`` beside it.

    Returns the paths written. Raises: ResultsError (unreadable database, unwritable folder).
    """
    return write_files(load(db_path), Path(db_path).parent)
