"""The store's layouts and the ordered migrations between them (``PRAGMA user_version``;
``docs/storage.md`` "Layouts and migrations").

- layout 1: every store written before layouts were counted (``user_version`` 1). Its shape
  grew column by column (``moves_hash``, ``series``, ``bots.id_name`` and version columns,
  ``moves.clock``, ``games.adjudication``), so step 1 -> 2 looks for what is missing.
- layout 2: the last store with a row per move (table ``moves``) and the move list as JSON
  text in ``games.moves``; its ``user_version`` is 1 too, and ``_shape`` tells it by its columns.
- layout 3: the plies of a game in one packed column, ``games.packed`` (``arena.results.packed``);
  ``moves`` is a view over it.
- layout 4: network players' move logs in ``games.log`` and the void games in table ``voids``
  (``arena.results.logs.to_layout_4``).

``migrate`` takes a store through every step it needs in one transaction and says so in one
line. It runs when a run opens the store (under the run lock) and when a reader opens one and
no run holds it (``current``); a store that a run holds, or that cannot be written, is read
through a migrated copy in memory, and the file is left as it is.
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from arena.results.logs import to_layout_4
from arena.results.packed import VIEW, pack, register
from arena.results.base import SCHEMA_VERSION, _fail, moves_hash, transaction

log = logging.getLogger("arena.results.migrations")

#: games whose move rows are packed per statement (step 2 -> 3)
CHUNK = 2000


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() is not None


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def _to_2(conn: sqlite3.Connection) -> None:
    """Layout 1 -> 2: what the store lacks of ``moves_hash`` (column, values, index), the
    ``series`` table, the ``bots`` columns ``id_name``, ``bot``, ``version``, ``digest``,
    ``code`` (``NULL`` until a run gives its bots their first version), ``moves.clock`` and
    ``games.adjudication``."""
    if "moves_hash" not in _columns(conn, "games"):
        conn.create_function("arena_moves_hash", 1, moves_hash, deterministic=True)
        conn.execute("ALTER TABLE games ADD COLUMN moves_hash INTEGER")
        conn.execute("UPDATE games SET moves_hash = arena_moves_hash(moves)")
    conn.execute("CREATE INDEX IF NOT EXISTS games_series_hash ON games (series, moves_hash)")
    conn.execute("CREATE TABLE IF NOT EXISTS series (series INTEGER PRIMARY KEY, start TEXT NOT NULL)")
    added = {"bots": (("id_name", "TEXT"), ("bot", "TEXT"), ("version", "INTEGER"), ("digest", "TEXT"),
                      ("code", "TEXT")),
             "moves": (("clock", "REAL"),), "games": (("adjudication", "TEXT"),)}
    for table, columns in added.items():
        have = _columns(conn, table)
        for name, kind in columns:
            if name not in have:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")


#: what a layout-1 store must have to be of layout 2's shape: table -> columns
LAYOUT_2 = {"games": {"moves_hash", "adjudication"}, "moves": {"clock"},
            "bots": {"id_name", "bot", "version", "digest", "code"}, "series": {"start"}}


def _shape(conn: sqlite3.Connection) -> int:
    """The layout a store of ``user_version`` 1 has: 2 when it has every column of layout 2
    (written by the last arena before layouts were counted), else 1."""
    return 2 if all(columns <= _columns(conn, table) for table, columns in LAYOUT_2.items()) else 1


def _to_3(conn: sqlite3.Connection) -> None:
    """Layout 2 -> 3: each game's move rows and move list into ``games.packed``; the table
    ``moves`` and the column ``games.moves`` dropped, the view ``moves`` made."""
    from arena.referee.records import MoveRecord

    conn.execute("ALTER TABLE games ADD COLUMN packed BLOB")
    ids = [g for (g,) in conn.execute("SELECT game_id FROM games ORDER BY game_id")]
    for lo in range(0, len(ids), CHUNK):
        first, last = ids[lo], ids[min(lo + CHUNK, len(ids)) - 1]
        rows: dict[int, list[MoveRecord]] = {}
        for g, *values in conn.execute(
                "SELECT game_id, ply, seat, move, seconds, nodes, depth, evaluation, status, clock FROM moves "
                "WHERE game_id BETWEEN ? AND ? ORDER BY game_id, ply, seat", (first, last)):
            rows.setdefault(g, []).append(MoveRecord(*values))
        games = conn.execute("SELECT game_id, moves FROM games WHERE game_id BETWEEN ? AND ?",
                             (first, last)).fetchall()
        conn.executemany("UPDATE games SET packed = ? WHERE game_id = ?",
                         [(_packed(text, rows.get(g, [])), g) for g, text in games])
    conn.execute("DROP TABLE moves")
    conn.execute("ALTER TABLE games DROP COLUMN moves")
    conn.execute(VIEW)


def _packed(text: str, rows: list) -> bytes:
    import json

    return pack(text, json.loads(text), rows)


#: step from layout ``i + 1`` to ``i + 2``
STEPS: tuple[Callable[[sqlite3.Connection], None], ...] = (_to_2, _to_3, to_layout_4)
assert len(STEPS) == SCHEMA_VERSION - 1


def layout(conn: sqlite3.Connection) -> int:
    """The store's layout (``PRAGMA user_version``)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, path: Path, told: str = "") -> tuple[int, int] | None:
    """Take the store of ``conn`` (opened for writing, no transaction open) to layout
    ``SCHEMA_VERSION`` in one transaction, and say so in one line (a warning of the
    ``arena.results.migrations`` logger: ``results/x.sqlite: migrated the store from layout 1
    to 3``, ``told`` added). Returns (from, to), or ``None`` when it was current.

    Raises:
        ResultsError: the write failed (nothing changed).
    """
    register(conn)
    if layout(conn) >= SCHEMA_VERSION:
        return None
    with transaction(conn, path):
        start = layout(conn)  # under the write lock: another process may have migrated it meanwhile
        if start >= SCHEMA_VERSION:
            return None
        start = _shape(conn) if start <= 1 else start
        for step in STEPS[max(start, 1) - 1:]:
            step(conn)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    said = (_shown(path), start, told)
    if not told or said not in _SAID:  # a store migrated in memory is migrated at each opening: said once a process
        _SAID.add(said)
        log.warning("%s: migrated the store from layout %d to %d%s", *said[:2], SCHEMA_VERSION, told)
    return start, SCHEMA_VERSION


#: The migrations ``migrate`` has told of in this process: (path shown, layout, ``told``).
_SAID: set[tuple[str, int, str]] = set()


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path) if path.resolve().is_relative_to(Path.cwd()) else str(path)
    except (OSError, ValueError):
        return str(path)


def current(path: Path, conn: sqlite3.Connection, in_place: bool = True) -> sqlite3.Connection:
    """A read-only connection to the store at ``path`` in layout ``SCHEMA_VERSION``, for a
    reader whose connection ``conn`` found an earlier layout: when no run holds the store (its
    run lock is free) and ``in_place``, it is migrated in place and opened again read-only;
    otherwise (a run of an earlier arena holds it, the file cannot be written, or not
    ``in_place``) a copy in memory is migrated and returned, the file left as it is. ``conn``
    is closed.

    Raises:
        ResultsError: the store cannot be read or copied.
    """
    if not in_place:
        return _in_memory(path, conn)
    lock = path.with_suffix(".lock")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        fd = -1
    try:
        if fd >= 0:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            writer = sqlite3.connect(path, timeout=5)
            writer.isolation_level = None
            try:
                migrate(writer, path)
            finally:
                writer.close()
            conn.close()
            fresh = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            register(fresh)
            return fresh
    except (OSError, sqlite3.Error, _results_error()):
        pass
    finally:
        if fd >= 0:
            os.close(fd)
    return _in_memory(path, conn)


def _results_error() -> type[Exception]:
    from arena.errors import ResultsError

    return ResultsError


def _in_memory(path: Path, conn: sqlite3.Connection) -> sqlite3.Connection:
    """A migrated copy of the store of ``conn`` in memory (``conn`` closed)."""
    copy = sqlite3.connect(":memory:")
    try:
        conn.backup(copy)
    except sqlite3.Error as exc:
        raise _fail(path, exc, "read results database") from None
    finally:
        conn.close()
    copy.isolation_level = None
    migrate(copy, path, " in memory (the file is held by a run or read-only, and left as it is)")
    return copy
