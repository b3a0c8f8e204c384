"""The typed reader of a stored tournament: what the reports, ``arena list`` and the report
stamp read, as the frozen values of ``arena.results.records`` (SQL stays in ``arena.results``).

- ``read_tournament``: the tournament, its settings typed (``Settings``);
- ``game_count``, ``last_finished``: counts without loading a game;
- ``series_starts``, ``game_openings``, ``fault_details``: what single tables need;
- ``Results``: a store opened on demand for what a report reads late (the rating history, the
  plies of a sample of games), so the report's data holds no connection.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.results.reading import _reading, connect_readonly, load_moves, load_series_start, load_tournament, \
    unreadable
from arena.results.records import Tournament
from arena.results.settings import Settings

if TYPE_CHECKING:
    import pandas as pd


def read_tournament(db: Any) -> Tournament:
    """The stored tournament (``arena.results.reading.load_tournament``), typed.

    Raises:
        ResultsError: unreadable, corrupt, foreign or empty database, or a damaged setting.
    """
    raw = load_tournament(db)
    return Tournament(**{**raw, "settings": Settings.from_stored(raw["settings"])})


def game_count(db: Any) -> tuple[int, int | None]:
    """``(games stored, the last game id)`` (``None`` when none is stored).

    Raises:
        ResultsError: unreadable database.
    """
    with _reading(db) as conn:
        count, last = conn.execute("SELECT count(*), max(game_id) FROM games").fetchone()
    return int(count), None if last is None else int(last)


def last_finished(db: Any) -> str | None:
    """When the last stored game (the highest id) finished, ISO 8601 UTC, or ``None``.

    Raises:
        ResultsError: unreadable database.
    """
    with _reading(db) as conn:
        row = conn.execute("SELECT finished FROM games ORDER BY game_id DESC LIMIT 1").fetchone()
    return row[0] if row else None


def series_starts(db: Any, series: Iterable[int]) -> dict[int, str | None]:
    """The position text each of ``series`` (0-based) started from (``None``: the game's seeded
    initial state): the ``series`` table, else computed from the settings
    (``arena.results.reading.load_series_start``).

    Raises:
        ResultsError: unreadable database.
    """
    wanted = sorted({int(s) for s in series})
    with _reading(db) as conn:
        has_table = conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='series'").fetchone()
        stored = dict(conn.execute("SELECT series, start FROM series").fetchall()) if has_table else {}
        return {s: stored[s] if s in stored else load_series_start(conn, s) for s in wanted}


def game_openings(db: Any) -> list[tuple[int, int, str]]:
    """``(game_id, seed, opening)`` of every stored game (``opening``: its opening plies, JSON text).

    Raises:
        ResultsError: unreadable database.
    """
    with _reading(db) as conn:
        return conn.execute("SELECT game_id, seed, opening FROM games").fetchall()


def fault_details(db: Any) -> dict[int, str | None]:
    """game id -> the fault's detail text, for the games lost by a fault.

    Raises:
        ResultsError: unreadable database.
    """
    with _reading(db) as conn:
        return dict(conn.execute("SELECT game_id, fault_detail FROM games WHERE fault_seat IS NOT NULL"))


class Results:
    """A stored tournament read on demand: each call opens the database read-only and closes it.

    Raises (every method):
        ResultsError: missing, unreadable, corrupt or foreign database.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)

    def history(self, upto: int, steps: dict[str, tuple[int, int]] | None = None) -> list[tuple]:
        """The stored rating history of games ``1..upto`` (``arena.results.rating_state.read_history``)."""
        from arena.results import rating_state

        conn = connect_readonly(self.path)
        try:
            return rating_state.read_history(conn, upto, steps)
        finally:
            conn.close()

    def sample(self, ids: list[int], series: Iterable[int]) -> tuple[pd.DataFrame, dict[int, str]]:
        """The stored plies of the games ``ids`` (``load_moves`` columns) and the start position
        of each of ``series`` (series -> text; absent: the seeded initial state)."""
        conn = connect_readonly(self.path)
        try:
            where = f"m.game_id IN ({','.join(str(int(i)) for i in ids)})" if ids else "0"
            moves = load_moves(conn, where=where)
            starts = {s: text for s, text in series_starts(conn, series).items() if text is not None}
        except sqlite3.Error as exc:
            raise unreadable(conn, exc, self.path) from None
        finally:
            conn.close()
        return moves, starts

    def series_starts(self, series: Iterable[int]) -> dict[int, str | None]:
        """``series_starts`` of this store."""
        return series_starts(self.path, series)

    def game_openings(self) -> list[tuple[int, int, str]]:
        """``game_openings`` of this store."""
        return game_openings(self.path)
