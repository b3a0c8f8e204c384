"""Reports out: rich tables in the terminal, Markdown and CSV files beside the database.

``build_tables`` computes every table of a tournament (``tables``, ``ricochet``); the
functions here only load, format and write. Files (``spec/arena.md`` "Ratings and reports"):
``<name>.report.md`` and one ``<name>.<table>.csv`` per table, in the database's folder. CSV
files hold raw numbers (fractions as fractions); the terminal and Markdown show percents.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from rich.console import Console
from rich.table import Table

from arena.errors import ArenaError, ConfigError, ResultsError, one_line
from arena.ratings import rate_games
from arena.reports import SECTIONS  # defined there for the CLI's lazy imports
from arena.reports import tables as t
from arena.reports.display import display_frame, format_value
from arena.reports.fit import dropped_note, fit_columns, needed_width
from arena.reports.ricochet import ricochet_table

TITLES = {
    "leaderboard": "Leaderboard",
    "crosstable": "Crosstable",
    "first_move": "First-move advantage (seat 0)",
    "seat_advantage": "Seat advantage",
    "seat_test": "Seat advantage: chi-square test of equal win shares",
    "lengths": "Game lengths (plies; Ricochet: rounds)",
    "terminations": "Terminations",
    "faults": "Faults",
    "fault_summary": "Faults by bot",
    "search": "Search statistics per bot",
    "ricochet": "Ricochet races",
}

NOTES = {
    "ricochet": "Length in moves; excess over the round's shortest valid answer (the optimum "
                "when an optimal solver answered). Solve rate = valid answers / rounds; fails "
                "= invalid / no answer / late / crashed answers.",
    "crosstable": "Score % of the row bot against the column bot (k players: 1 for placing "
                  "better, 1/2 for placing equal).",
    "leaderboard": "TrueSkill mu/sigma, conservative = mu - 3 sigma, rated in game-id order. "
                   "W = first place alone, D = first place shared, L = below first; score % "
                   "= mean of (k - place) / (k - 1) with tied places averaged (a draw is half).",
    "first_move": "Seat 0's wins/draws/losses; win share = wins / (wins + losses) with a "
                  "Wilson 95% interval and a two-sided exact binomial test against 1/2.",
    "seat_advantage": "Wins: a first place shared by n seats counts 1/n to each.",
}


@dataclass
class ReportData:
    """The frames of one tournament, as ``arena.store`` loads them."""

    games: pd.DataFrame
    moves: pd.DataFrame
    tournament: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return str(self.tournament.get("name") or "tournament")

    @property
    def order(self) -> list[str]:
        """Bot labels in the tournament's order."""
        return list((self.tournament.get("bots") or {}).keys())

    @property
    def num_players(self) -> int:
        if self.tournament.get("num_players"):
            return int(self.tournament["num_players"])
        sizes = self.games["seats"].map(len) if len(self.games) else pd.Series([2])
        return int(sizes.mode().iloc[0])


def load(db_path: str | Path) -> ReportData:
    """Load a tournament's games (with ``fault_detail``), moves and settings from its SQLite
    database, through one read-only connection.

    Raises:
        ResultsError: the file is missing, corrupt, or not an arena results database.
    """
    from arena import store  # the layer below reports; imported late to keep imports light

    path = Path(db_path)
    conn = store.connect_readonly(path)
    try:
        games = store.load_games(conn)
        moves = store.load_moves(conn)
        tournament = dict(store.load_tournament(conn))
        if "fault_detail" not in games.columns:
            details = pd.read_sql_query(
                "SELECT game_id, fault_detail FROM games WHERE fault_seat IS NOT NULL", conn)
            games = games.merge(details, on="game_id", how="left")
    except ArenaError:
        raise
    except (sqlite3.Error, pd.errors.DatabaseError, KeyError, ValueError, TypeError) as exc:
        raise ResultsError(f"cannot read results database {str(path)!r}: {one_line(exc)}") from exc
    finally:
        conn.close()
    return ReportData(games, moves, tournament)


def build_tables(data: ReportData, sections: Iterable[str] | None = None) -> dict[str, pd.DataFrame]:
    """The report's tables by name (the CSV names), for the sections that apply.

    Raises:
        ConfigError: an unknown section name.
    """
    wanted = _sections(sections)
    games, moves, order = data.games, data.moves, data.order
    k, out = data.num_players, {}
    if "leaderboard" in wanted:
        out["leaderboard"] = t.leaderboard(games, rate_games(games, labels=order), order)
    if "crosstable" in wanted and k >= 2:
        out["crosstable"] = t.crosstable(games, order).reset_index()
    if "first_move" in wanted and k == 2:
        out["first_move"] = t.first_move(games, str(data.tournament.get("game", t.ALL)), order)
    if "seat_advantage" in wanted and k > 2:
        seats = t.seat_advantage(games)
        out["seat_advantage"], out["seat_test"] = seats.table, seats.test_frame()
    if "lengths" in wanted:
        out["lengths"] = t.game_lengths(games, order)
    if "terminations" in wanted:
        out["terminations"] = t.terminations(games)
    if "faults" in wanted:
        out["fault_summary"], out["faults"] = t.fault_summary(games), t.faults(games)
    if "search" in wanted:
        out["search"] = t.search_stats(moves, order)
    if "ricochet" in wanted and data.tournament.get("game") == "ricochet":
        out["ricochet"] = ricochet_table(games, moves, order)
    return out


def _sections(sections: Iterable[str] | None) -> set[str]:
    if sections is None:
        return set(SECTIONS)
    wanted = set(sections)
    unknown = sorted(wanted - set(SECTIONS))
    if unknown:
        raise ConfigError(f"unknown report section(s) {', '.join(unknown)}; "
                           f"choose from {', '.join(SECTIONS)}")
    return wanted


def _rich_table(name: str, frame: pd.DataFrame, width: int | None = None) -> Table:
    shown, right = display_frame(name, frame)
    shown, right, dropped = fit_columns(shown, right, width)
    table = Table(title=TITLES.get(name, name), title_justify="left",
                  caption=dropped_note(dropped, width), caption_justify="left")
    for col, is_right in zip(shown.columns, right):
        table.add_column(str(col), justify="right" if is_right else "left", overflow="fold", no_wrap=is_right,
                         min_width=needed_width(col, shown[col].astype(str).tolist(), is_right))
    for row in shown.itertuples(index=False):
        table.add_row(*row)
    return table


def _seat_test_line(test: pd.DataFrame) -> str:
    row = test.iloc[0]
    return (f"chi-square of equal win shares over {int(row['games'])} games: "
            f"chi2 = {format_value('chi2', float(row['chi2']))} ({int(row['dof'])} dof), "
            f"p = {format_value('p_value', float(row['p_value']))}")


def print_tables(data: ReportData, console: Console, sections: Sequence[str] | None = None) -> None:
    """Print the report of ``data`` as rich tables (see ``SECTIONS``)."""
    tables = build_tables(data, sections)
    console.print(f"[bold]{data.name}[/]: {len(data.games)} games of "
                  f"{data.tournament.get('game', '?')} ({data.num_players} players)")
    for name, frame in tables.items():
        if name in ("faults", "fault_summary"):
            continue
        if name == "seat_test":
            console.print(_seat_test_line(frame))
            continue
        if frame.empty:
            console.print(f"[dim]{TITLES.get(name, name)}: none[/]")
            continue
        console.print(_rich_table(name, frame, console.width))
        if name in NOTES:
            console.print(f"[dim]{NOTES[name]}[/]")
    if "fault_summary" in tables:
        print_faults(tables["fault_summary"], tables["faults"], console)


def print_faults(summary: pd.DataFrame, listed: pd.DataFrame, console: Console) -> None:
    """Which bot failed how (``exception``, ``illegal_move``, ``bad_move``, ``timeout``,
    ``crash``...), how often, with the first game's detail, so a user knows what to fix."""
    if summary.empty:
        console.print("[green]No faults: every game ended by the rules.[/]")
        return
    console.print(f"[bold red]{TITLES['faults']}[/] (the bot named lost those games)")
    for row in summary.itertuples(index=False):
        first = listed[listed["game_id"] == row.example].iloc[0]
        detail = f": {first['detail']}" if first["detail"] else ""
        console.print(f"  [bold]{row.bot}[/] {row.termination} in {row.games} game(s), "
                      f"e.g. game {row.example} (seat {first['seat']}, after {first['plies']} plies)"
                      f"{detail}")


def print_report(db_path: str | Path, console: Console, sections: Sequence[str] | None = None) -> None:
    """Load the database at ``db_path`` and print its report.

    Raises:
        ResultsError: unreadable database. ConfigError: unknown section.
    """
    print_tables(load(db_path), console, sections)


def print_summary(source: ReportData | str | Path, console: Console) -> None:
    """The end of ``arena run``: leaderboard, then first-move (two players) or seat
    advantage (three or more), then the faults if any. ``source``: frames or a database path.

    Raises:
        ResultsError: unreadable database.
    """
    data = source if isinstance(source, ReportData) else load(source)
    print_tables(data, console, ["leaderboard", "first_move", "seat_advantage", "ricochet", "faults"])


# ---- files ------------------------------------------------------------------------------

def markdown(data: ReportData, tables: dict[str, pd.DataFrame]) -> str:
    """The report as Markdown: a title, the tournament's settings, one section per table."""
    tour = data.tournament
    lines = [f"# {data.name}", "",
             f"- game: {tour.get('game', '?')}",
             *[f"- game parameter `{k}={v}`" for k, v in (tour.get("params") or {}).items()],
             f"- players per game: {data.num_players}", f"- games: {len(data.games)}",
             f"- seed: {tour.get('seed', '?')}"]
    lines += [f"- bot `{label}`: `{spec}`" for label, spec in (tour.get("bots") or {}).items()]
    for name, frame in tables.items():
        if name == "seat_test":
            lines += ["", _seat_test_line(frame)]
            continue
        lines += ["", f"## {TITLES.get(name, name)}", ""]
        if name in NOTES:
            lines += [NOTES[name], ""]
        lines.append(_markdown_table(name, frame) if len(frame) else "(none)")
    return "\n".join(lines) + "\n"


def _markdown_table(name: str, frame: pd.DataFrame) -> str:
    shown, right = display_frame(name, frame)
    align = ["right" if r else "left" for r in right]
    return shown.to_markdown(index=False, disable_numparse=True, colalign=align)


def write_files(data: ReportData, directory: str | Path) -> list[Path]:
    """Write ``<name>.report.md`` and ``<name>.<table>.csv`` into ``directory``.

    Raises:
        ResultsError: the folder cannot be written.
    """
    folder = Path(directory)
    tables = build_tables(data)
    paths = [folder / f"{data.name}.report.md"]
    try:
        paths[0].write_text(markdown(data, tables), encoding="utf-8")
        for name, frame in tables.items():
            path = folder / f"{data.name}.{name}.csv"
            frame.to_csv(path, index=False)
            paths.append(path)
    except OSError as exc:
        raise ResultsError(f"cannot write the report into {folder}: {one_line(exc)}") from exc
    return paths


def write_report(db_path: str | Path) -> list[Path]:
    """Write the Markdown and CSV report of the database at ``db_path`` beside it.

    Returns the paths written. Raises: ResultsError (unreadable database, unwritable folder).
    """
    return write_files(load(db_path), Path(db_path).parent)
