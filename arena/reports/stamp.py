"""The report files of ``arena run``, rewritten only when what they show changed.

At its end ``arena run`` writes ``<name>.report.md``, the CSV tables and ``<name>.html`` beside
the database. Writing them costs seconds (the HTML page alone is about 5 MB), which a run that
played nothing (a resume of a finished tournament) would spend to write the same files again. So
a small stamp beside them, ``<name>.report-stamp.json``, records what they were made from
(``report_key``: the arena's version, the field table's anchor, the stored settings and bot
versions, the number of stored games and the last game id, the SPRT state) and each file's
modification time; a run whose key is the stamp's, with every file still there and unchanged
since (no ``arena report`` wrote it again with other options), keeps them. The report on the
terminal is printed either way.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import arena
from arena.errors import ResultsError, one_line
from arena.results.writing import atomic_path

if TYPE_CHECKING:
    from arena.reports.render import ReportData

#: the stamp's file name beside the database: ``<name>`` + this
STAMP_SUFFIX = ".report-stamp.json"


def report_key(db: Path, anchor: tuple[str, float] | None = None) -> str:
    """SHA-256 (hex) of what the report files of the tournament in database ``db`` are made
    from: the arena's version, the field table's ``anchor``, the stored settings and bot
    versions, the stored games' count and last id (games are only ever added), the SPRT state,
    a league's membership changes.
    Read with SQL alone (no pandas: a run that keeps its files starts no report code).

    Raises:
        ResultsError: unreadable database.
    """
    from arena.results.membership import league_events
    from arena.results.reader import game_count
    from arena.results.reading import connect_readonly, load_sprt, load_tournament

    conn = connect_readonly(db)
    try:
        count, last = game_count(conn)
        what = {"arena": arena.__version__, "anchor": list(anchor) if anchor else None,
                "tournament": load_tournament(conn), "sprt": load_sprt(conn), "games": count, "last": last}
        league = league_events(conn)  # a league's retirements and candidates (shown apart in the field table)
        if league:
            what["league"] = [(e.bot, e.event) for e in league]
    finally:
        conn.close()
    return hashlib.sha256(json.dumps(what, sort_keys=True, default=str).encode()).hexdigest()


def _stamp_path(db: Path) -> Path:
    """The stamp beside database ``db`` (``<name>.sqlite``)."""
    return db.with_name(db.stem + STAMP_SUFFIX)


def _mtimes(paths: list[Path]) -> dict[str, int] | None:
    """Each file's modification time (ns) by its name, or ``None`` when one is missing."""
    try:
        return {p.name: os.stat(p).st_mtime_ns for p in paths}
    except OSError:
        return None


def kept_files(db: Path, anchor: tuple[str, float] | None = None) -> list[Path] | None:
    """The report files written beside database ``db`` (the Markdown report first, then the
    CSV files, then the HTML page) when the stamp there says they show what ``db`` holds now
    (with ``anchor``) and none was changed since; else ``None``.

    Raises:
        ResultsError: unreadable database.
    """
    if not _stamp_path(db).is_file():  # none, or a named pipe...: never read (it would wait)
        return None
    try:
        stamp = json.loads(_stamp_path(db).read_text(encoding="utf-8"))
        files = [db.parent / name for name in stamp["files"]]
        key = stamp["key"]
        same = bool(files) and _mtimes(files) == stamp["files"]
    except (OSError, ValueError, KeyError, TypeError):  # no stamp, or one this code cannot read
        return None
    return files if same and key == report_key(db, anchor) else None


def stamp_files(db: Path, files: list[Path], anchor: tuple[str, float] | None = None) -> None:
    """Record that ``files`` (beside database ``db``) were just written from it (with ``anchor``).

    Raises:
        ResultsError: the stamp cannot be written, or the database read.
    """
    mtimes = _mtimes(files)
    if mtimes is None:
        return
    target = _stamp_path(db)
    try:
        with atomic_path(target) as tmp:
            tmp.write_text(json.dumps({"key": report_key(db, anchor), "files": mtimes}, indent=1), encoding="utf-8")
    except OSError as exc:
        raise ResultsError(f"cannot write {str(target)!r}: {one_line(exc)}") from exc


def write_report_files(data: ReportData) -> tuple[list[Path], Path]:
    """Write the Markdown report and CSV files (``output.write_files``) and the HTML page
    (``html.write_html``) of ``data``'s tournament (loaded from its database, every game)
    beside its database, and stamp them (``stamp_files``). Returns the Markdown and CSV files,
    and the page.

    Raises:
        ResultsError: a file cannot be written.
    """
    from arena.reports.html import write_html  # plotly, jinja2: imported on use
    from arena.reports.output import write_files

    assert data.path is not None, "a report loaded from its database"
    written = write_files(data, data.path.parent)
    page = write_html(data.path, data=data)
    stamp_files(data.path, [*written, page], data.anchor)
    return written, page
