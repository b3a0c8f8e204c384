"""What network players leave in the store (issue 44): each game's move logs, and void games.

- ``games.log``: the ``last_log`` of every move that had one (``bots.base.Player``: a language
  model's tokens, latency, attempts, cost and transcript), as the referee's JSON text
  (``GameRecord.log``) compressed with zlib; ``NULL`` for a game where no bot logged.
- ``voids``: one row per game a provider's failure voided (``Termination.VOID``): the game
  (``game_id``, ``series``, ``seed``, ``seats``) the run plays again, the 0-based ``seat``
  whose provider failed, how far it got (``plies``), why (``detail``), its log, when. Void
  games are kept here, never in ``games``: ratings, standings and pairs never see them, and a
  resumed run plays their games again.

``to_layout_4`` is the migration step that adds both to a store of layout 3
(``arena.results.migrations``); the schema of a new store has them (``SCHEMA_PART``).
"""

from __future__ import annotations

import json
import re
import sqlite3
import zlib
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.referee import GameRecord

#: the ``voids`` table (a new store's, and the migration's)
VOIDS_TABLE = """CREATE TABLE IF NOT EXISTS voids (
    void_id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, series INTEGER NOT NULL, seed INTEGER NOT NULL,
    seats TEXT NOT NULL, seat INTEGER, plies INTEGER NOT NULL, detail TEXT, seconds REAL NOT NULL,
    finished TEXT NOT NULL, log BLOB);"""
#: what a new store's schema adds for network players (``arena.results.writing.SCHEMA``)
SCHEMA_PART = VOIDS_TABLE
#: the insert of one void game (``void_row``'s keys)
VOID_INSERT = ("INSERT INTO voids (game_id, series, seed, seats, seat, plies, detail, seconds, finished, log) "
               "VALUES (:game_id, :series, :seed, :seats, :seat, :plies, :detail, :seconds, :finished, :log)")
#: how a void game's detail names the seat whose provider failed (``arena.referee.play``)
_SEAT = re.compile(r"seat (\d+) ")


def to_layout_4(conn: sqlite3.Connection) -> None:
    """Layout 3 -> 4: the column ``games.log`` (``NULL`` for every stored game) and the table
    ``voids`` (empty). Self-contained: it reads nothing of the store but its columns."""
    if "log" not in {row[1] for row in conn.execute("PRAGMA table_info(games)")}:
        conn.execute("ALTER TABLE games ADD COLUMN log BLOB")
    conn.execute(VOIDS_TABLE)


def packed_log(text: str | None) -> bytes | None:
    """A game's log text (``GameRecord.log``) as stored: zlib-compressed UTF-8, ``None`` for none."""
    return None if text is None else zlib.compress(text.encode("utf-8"), 6)


def unpacked_log(blob: bytes | None) -> list[dict[str, Any]] | None:
    """The move logs of a stored ``log`` value: one ``{"ply", "seat", "log"}`` per logged move
    (``ply`` and ``seat`` 0-based), or ``None``.

    Raises:
        ValueError: a damaged value (not zlib, not JSON).
    """
    if blob is None:
        return None
    try:
        return json.loads(zlib.decompress(blob).decode("utf-8"))
    except zlib.error as exc:
        raise ValueError(f"damaged move log: {exc}") from None


def void_row(game_id: int, series: int, record: GameRecord, finished: str) -> dict[str, Any]:
    """The ``voids`` row of a game a provider's failure voided."""
    said = _SEAT.match(record.fault_detail or "")
    seat = int(said.group(1)) if said and int(said.group(1)) < len(record.seats) else None
    return dict(game_id=game_id, series=series, seed=record.seed, seats=json.dumps(list(record.seats)), seat=seat,
                plies=record.plies, detail=record.fault_detail, seconds=float(record.seconds), finished=finished,
                log=packed_log(record.log))


def add_voids(conn: sqlite3.Connection, rows: Sequence[dict[str, Any]]) -> None:
    """Insert ``void_row`` s (the caller holds the transaction)."""
    if rows:
        conn.executemany(VOID_INSERT, rows)


def has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone() is not None


def void_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """Void games stored per bot label: the bot whose provider failed (a game of an unknown seat
    counts for each of its seats' bots); ``{}`` for a store without the table."""
    if not has_table(conn, "voids"):
        return {}
    counts: dict[str, int] = {}
    for seats, seat in conn.execute("SELECT seats, seat FROM voids"):
        labels = json.loads(seats)
        for label in {labels[seat]} if seat is not None and 0 <= seat < len(labels) else set(labels):
            counts[label] = counts.get(label, 0) + 1
    return counts


def game_logs(conn: sqlite3.Connection, game_ids: Iterable[int] | None = None
              ) -> dict[int, list[dict[str, Any]]]:
    """game id -> its move logs (``unpacked_log``), for the games that have one (all, or those
    of ``game_ids``); ``{}`` for a store without the column.

    Raises:
        ValueError: a damaged log.
    """
    if "log" not in {row[1] for row in conn.execute("PRAGMA table_info(games)")}:
        return {}
    sql = "SELECT game_id, log FROM games WHERE log IS NOT NULL"
    if game_ids is None:
        rows = conn.execute(sql + " ORDER BY game_id").fetchall()
    else:
        ids = sorted(set(game_ids))
        rows = [r for lo in range(0, len(ids), 500) for r in conn.execute(
            sql + f" AND game_id IN ({','.join('?' * len(ids[lo:lo + 500]))})", ids[lo:lo + 500])]
    return {int(g): unpacked_log(blob) or [] for g, blob in rows}


def void_logs(conn: sqlite3.Connection) -> list[tuple[list[str], list[dict[str, Any]]]]:
    """(seats, move logs) of every stored void game that has a log; ``[]`` without the table."""
    if not has_table(conn, "voids"):
        return []
    return [(json.loads(seats), unpacked_log(blob) or [])
            for seats, blob in conn.execute("SELECT seats, log FROM voids WHERE log IS NOT NULL ORDER BY void_id")]


def logged_games(conn: sqlite3.Connection) -> list[tuple[list[str], list[dict[str, Any]]]]:
    """(seats, move logs) of every stored game that has a log, in game-id order; ``[]`` for a
    store without the column.

    Raises:
        ValueError: a damaged log.
    """
    if "log" not in {row[1] for row in conn.execute("PRAGMA table_info(games)")}:
        return []
    return [(json.loads(seats), unpacked_log(blob) or []) for seats, blob in conn.execute(
        "SELECT seats, log FROM games WHERE log IS NOT NULL ORDER BY game_id")]
