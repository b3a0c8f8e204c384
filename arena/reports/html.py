"""The HTML report: one self-contained file (``arena report NAME --html``, and the end of
``arena run``) with the tables, plotly plots and a replay viewer of selected games.

Offline by construction: plotly.js and the page's script and style are inlined; the games'
frames are embedded (gzip + base64 JSON per game, unpacked by the browser's
``DecompressionStream``); the page makes no network request. The page is a Jinja2 template
shipped with the package (``templates/report.html.j2``).

**Embedded games (the limit).** By default the page embeds at most ``1 + 1 + 1 +
MAX_FAULT_GAMES`` games: the first, the last, the longest, and the first game of each (bot,
fault) up to ``MAX_FAULT_GAMES`` — so a store of 100,000 games gives a page of the aggregate
plots plus a handful of replays. ``--games 1-500,777`` embeds the games chosen instead (at most
``MAX_SELECTED``); gzip-packed, a game's frames cost well under 1 kB per ply (a 45-ply
Interaction game: 8 kB), while plotly.js alone is about 4.6 MB.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import re
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import jinja2
import numpy as np
import pandas as pd
from plotly.offline import get_plotlyjs

import arena
import arena.games
from arena.errors import ConfigError, ResultsError, one_line
from arena.reports import figures, ladder_figures
from arena.reports.cycles import cycle_graph
from arena.reports.pairs import first_move_note
from arena.reports.payoffs import ranked_by, ranking_line
from arena.reports.render import NOTES, TITLES, ReportData, bot_notes, load, tables_for
from arena.reports.replay import replay_frames, timing_notes, with_transcripts
from arena.reports.tables import pairing_name
from arena.results.writing import STDOUT, atomic_path, check_output

#: Fault games embedded by default (besides the first, last and longest).
MAX_FAULT_GAMES = 5
#: Games ``--games`` may embed.
MAX_SELECTED = 2000
_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def parse_game_ids(text: str) -> list[int]:
    """Game ids from ``"1-500,777"`` (ranges inclusive), ascending, without repeats.

    Raises:
        ConfigError: not comma-separated ids or ``A-B`` ranges with ``A <= B``, or more than
            ``MAX_SELECTED`` games.
    """
    ids: set[int] = set()
    for part in str(text).split(","):
        m = _RANGE.match(part)
        if not m or (m.group(2) and int(m.group(2)) < int(m.group(1))):
            raise ConfigError(f"--games: bad game selection {part.strip()!r}; accepted: ids and ranges "
                              "separated by commas, e.g. 1-500,777")
        lo = int(m.group(1))
        hi = int(m.group(2) or lo)
        if hi - lo + 1 + len(ids) > MAX_SELECTED:
            raise ConfigError(f"--games: more than {MAX_SELECTED} games selected; accepted: at most {MAX_SELECTED}")
        ids.update(range(lo, hi + 1))
    return sorted(ids)


def default_game_ids(games: pd.DataFrame) -> list[int]:
    """The games embedded by default: first, last, longest (the first of equal length), and
    the first game of each (bot, fault) pair, at most ``MAX_FAULT_GAMES`` of those."""
    if games.empty:
        return []
    ids = [int(games["game_id"].iloc[0]), int(games["game_id"].iloc[-1]),
           int(games.loc[games["plies"].idxmax(), "game_id"])]
    faulty = games[games["fault_seat"].notna()]
    seen: set[tuple[str, str]] = set()
    for g in faulty.itertuples(index=False):
        key = (g.seats[int(g.fault_seat)] if 0 <= int(g.fault_seat) < len(g.seats) else "?", g.termination)
        if key not in seen and len(seen) < MAX_FAULT_GAMES:
            seen.add(key)
            ids.append(int(g.game_id))
    return sorted(set(ids))


def result_text(seats: list[str], ranks: list[int]) -> str:
    """``1-0`` / ``0-1`` / ``½-½`` for two seats; else ``won by X`` or ``shared by X, Y``."""
    if len(seats) == 2:
        return "1-0" if ranks[0] < ranks[1] else "0-1" if ranks[1] < ranks[0] else "½-½"
    first = [s for s, r in zip(seats, ranks) if r == 1]
    if len(seats) == 1:
        return "solo"
    return f"won by {first[0]}" if len(first) == 1 else f"shared by {', '.join(first)}"


def check_stored(ids: list[int], data: ReportData) -> None:
    """Refuse game ids that ``data`` does not store.

    Raises:
        ResultsError: a selected id that is not stored (the message gives the stored range).
    """
    stored = data.games["game_id"].to_numpy()
    missing = [i for i, ok in zip(ids, np.isin(ids, stored)) if not ok]
    if missing:
        lo, hi = (int(stored.min()), int(stored.max())) if len(stored) else (0, 0)
        raise ResultsError(f"--games: game {missing[0]} is not stored; stored ids: {lo} to {hi} ({len(stored)} games)")


def game_entries(path: Path, data: ReportData, ids: list[int]) -> list[dict[str, Any]]:
    """Each selected game's row for the browser and its replay frames (packed).

    Raises:
        ResultsError: a selected id that is not stored (the message gives the stored range).
    """
    from arena.results import store

    check_stored(ids, data)
    game = arena.games.make(data.tournament["game"], **data.tournament.get("params", {}))
    logs = _logs(path, ids)  # network players' move logs (issue 44): the transcript per move
    out = []
    for game_id in ids:
        row = store.load_game(path, game_id)
        moves = store.load_moves(path, game_id)
        answers = _answers(moves)
        start = store.load_series_start(path, row["series"])  # a series of an openings file starts there
        frames, stopped = replay_frames(game, row["seed"], row["moves"], row["seats"], row["opening_plies"], answers,
                                        start, timing_notes(moves))
        frames = with_transcripts(frames, logs.get(game_id))
        packed = json.dumps([f.to_dict() for f in frames], separators=(",", ":")).encode()
        fault = row["fault_seat"]
        out.append({
            "id": game_id, "series": row["series"], "seats": row["seats"],
            "pairing": pairing_name(row["seats"], data.order), "result": result_text(row["seats"], row["ranks"]),
            "termination": row["termination"], "plies": row["plies"], "seconds": round(row["seconds"], 2),
            "fault": "" if fault is None else f"seat {fault} {row['seats'][fault]}: {row['fault_detail'] or ''}",
            "stopped": stopped or "", "frames": len(frames),
            "frames_gz": base64.b64encode(gzip.compress(packed, mtime=0)).decode("ascii"),
        })
    return out


def _logs(path: Path, ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """game id -> its stored move logs (``arena.results.logs.game_logs``), for ``ids``.

    Raises:
        ResultsError: the store cannot be read, or a damaged log.
    """
    from arena.results.logs import game_logs
    from arena.results.store import connect_readonly

    conn = connect_readonly(path)
    try:
        return game_logs(conn, ids)
    except (sqlite3.Error, ValueError) as exc:
        raise ResultsError(f"cannot read results database {str(path)!r}: {exc}") from None
    finally:
        conn.close()


def _answers(moves: pd.DataFrame) -> dict[int, list[str]]:
    """ply -> answer text by seat, at the simultaneous rounds of one game (rows with a status)."""
    rounds = moves[moves["status"].notna() & (moves["seat"] >= 0)]
    out: dict[int, list[str]] = {}
    for ply, rows in rounds.groupby("ply"):
        answers = rows.sort_values("seat")
        out[int(ply)] = [m if s in ("valid", "won") else "-" for m, s in zip(answers["move"], answers["status"])]
    return out


def _tables(data: ReportData, tables: dict[str, pd.DataFrame]) -> list[dict[str, Any]]:
    """Every table as display cells (``display_frame``: the terminal's formats), so columns
    another module adds to a table (Elo, intervals) show up here too."""
    out = []
    for name, frame in tables.items():
        shown, right = data.shown(name, frame)
        out.append({"name": name, "title": TITLES.get(name, name.replace("_", " ").capitalize()),
                    "note": " ".join([NOTES.get(name, ""), *(first_move_note(frame) if name == "first_move" else [])]),
                    "columns": [str(c) for c in shown.columns], "right": right,
                    "rows": shown.astype(str).values.tolist()})
    return out


def _figures(data: ReportData, tables: dict[str, pd.DataFrame]) -> list[dict[str, str]]:
    plots = [
        ("cycles", cycle_graph(tables.get("cycles"), data.order)),
        ("ratings", figures.rating_progression(data.history(figures.MAX_POINTS))),
        ("crosstable", figures.crosstable_heatmap(data.grouped(), tables.get("crosstable"))),
        ("first-move", figures.first_move_bars(tables.get("first_move"), tables.get("seat_advantage"))),
        ("openings", figures.openings_scores(tables.get("openings"))),
        ("ladder", ladder_figures.ladder_elo(tables.get("ladder"), tables.get("ladder_fit"))),
        ("ladder-first-move", ladder_figures.ladder_first_move(tables.get("ladder_steps"), tables.get("ladder"),
                                                               tables.get("ladder_fit"))),
        ("lengths", figures.length_boxes(data.games, data.order)),
        ("terminations", figures.termination_bars(tables.get("terminations"))),
        ("faults", figures.fault_bars(tables.get("fault_summary"))),
        ("search", figures.search_bars(tables.get("search"))),
        ("game-lengths", figures.length_histogram(data.games) if "game" in tables else None),
        ("branching", figures.branching_line(tables.get("branching"))),
    ]
    # nothing that would leave the page: no Chart Studio links
    config = {"displaylogo": False, "responsive": True, "showSendToCloud": False}
    return [{"id": key, "html": figures.page_html(fig, f"plot-{key}", config)} for key, fig in plots if fig is not None]


def lead_table(data: ReportData, tables: dict[str, pd.DataFrame]) -> str:
    """The table the page leads with, above the plots: the payoff field table
    (``payoff_ratings``) of a game ranked by payoff (the text report's first table: payoffs,
    not places), else the ``leaderboard`` (places)."""
    return "payoff_ratings" if ranked_by(data) == "payoff" and "payoff_ratings" in tables else "leaderboard"


def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("arena.reports", "templates"),
                              autoescape=jinja2.select_autoescape(["html", "j2"]),
                              undefined=jinja2.StrictUndefined)


def render_html(path: str | Path, games: str | None = None, data: ReportData | None = None) -> str:
    """The report page of the tournament stored at ``path``.

    Args:
        path: the tournament's SQLite database.
        games: ``--games`` selection text (``"1-500,777"``); ``None``: the default games.
        data: the loaded frames, when the caller has them already.

    Raises:
        ResultsError: unreadable database or a selected game not stored.
        ConfigError: a bad ``games`` selection.
    """
    path = Path(path)
    data = data or load(path)
    tables = tables_for(data)
    ids = parse_game_ids(games) if games else default_game_ids(data.games)
    entries = game_entries(path, data, ids)
    tour = data.tournament
    page = _environment().get_template("report.html.j2").render(
        name=data.name, tournament=tour, total_games=len(data.games), num_players=data.num_players,
        version=arena.__version__, generated=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        bots=[(label, bot_notes(tour, label), spec) for label, spec in (tour.get("bots") or {}).items()],
        tables=_tables(data, tables), lead=lead_table(data, tables), ranking=ranking_line(data),
        figures=_figures(data, tables), games=entries,
        default_selection=games is None, max_fault_games=MAX_FAULT_GAMES, plotly_js=get_plotlyjs(),
    )
    return page


def write_html(path: str | Path, out: str | Path | None = None, games: str | None = None,
               data: ReportData | None = None) -> Path:
    """Write the report page; ``out`` defaults to ``<results>/<name>.html`` beside the database,
    ``-`` writes it to standard output.

    Raises:
        ResultsError: unreadable database, a selected game not stored, or an unwritable file.
        ConfigError: a bad ``games`` selection.
    """
    path = Path(path)
    data = data or load(path)
    target = Path(out) if out else path.parent / f"{data.name}.html"
    check_target(target)
    page = render_html(path, games, data)
    try:
        with atomic_path(target) as tmp:  # a full disk: no truncated page, the old one kept
            tmp.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise ResultsError(f"cannot write the HTML report {str(target)!r}: {exc.strerror or one_line(exc)}") from exc
    return target


def check_target(target: str | Path) -> None:
    """Refuse at once a page path whose folder is missing or not a writable folder, or that
    holds stored results (``arena.results.writing.check_output``), before a report is printed
    and its files written; ``-`` (standard output) passes.

    Raises:
        ResultsError: one line naming the path and the reason.
    """
    check_output(target)
    if str(target) == STDOUT:
        return
    folder = Path(target).parent
    if Path(target).is_dir():
        reason = "it is a folder; give a file name such as report.html"
    elif not folder.exists():
        reason = f"no folder {str(folder)!r}"
    elif not folder.is_dir():
        reason = f"{str(folder)!r} is not a folder"
    elif not os.access(folder, os.W_OK | os.X_OK):
        reason = f"the folder {str(folder)!r} is not writable"
    else:
        return
    raise ResultsError(f"cannot write the HTML report {str(target)!r}: {reason}")
