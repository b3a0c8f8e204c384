"""Opening a tournament's results database for reading (``docs/storage.md``): read-only
connections (migrated in memory when a run holds an older store, immutable in a folder the
reader cannot write), the damage check and the one-line errors of an unreadable file. The
loaders are in ``arena.results.reading``.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ResultsError, as_line, one_line
from arena.results.base import APPLICATION_ID, SCHEMA_VERSION, _fail
from arena.results.files import not_regular

if TYPE_CHECKING:
    import pandas as pd


TABLES = {"tournament", "bots", "games"}


def _check_arena_db(conn: sqlite3.Connection, path: Path) -> bool:
    """True if the database is an arena one, False if empty; else ResultsError."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise _fail(path, exc, "read results database") from None
    if app_id == 0 and not tables:
        return False
    if app_id != APPLICATION_ID or not TABLES <= tables:
        raise ResultsError(f"{str(path)!r} is not an arena results database (foreign SQLite file); "
                           "choose another --name or --results")
    if version > SCHEMA_VERSION:
        raise ResultsError(f"{str(path)!r} was written by a newer arena (schema {version} > {SCHEMA_VERSION})")
    return True


#: set by ``never_write``: readers of this process never change a store (``arena serve``)
_NEVER_WRITE = False


def never_write() -> None:
    """Make every later ``connect_readonly`` of this process leave the file as it is: an
    earlier arena's store is migrated in a copy in memory, never in place (``arena serve``
    only reads, and never takes a run's lock)."""
    global _NEVER_WRITE
    _NEVER_WRITE = True


def connect_readonly(path: str | os.PathLike) -> sqlite3.Connection:
    """A read-only connection to an arena database.

    Raises:
        ResultsError: missing, no regular file (a directory, a named pipe...), unreadable,
            corrupt or foreign file.
    """
    p = Path(path)
    what = not_regular(p)
    if what is not None:  # a named pipe would be waited on for ever
        raise ResultsError(f"{str(p)!r} is {what}, not a results database")
    if not p.is_file():
        raise ResultsError(f"no results database {str(p)!r}")
    try:
        conn = sqlite3.connect(f"{p.resolve().as_uri()}?mode=ro", uri=True)
        found = _check_arena_db(conn, p)
    except (sqlite3.Error, ResultsError) as exc:
        if os.access(p.parent, os.W_OK):  # SQLite could make its files there: the error is the database's
            raise exc if isinstance(exc, ResultsError) else _fail(p, exc, "open results database") from None
        conn, found = _read_only_folder(p)
    if not found:
        conn.close()
        raise ResultsError(f"{str(p)!r} is an empty database, not arena results")
    from arena.results import migrations, packed

    if migrations.layout(conn) < SCHEMA_VERSION:  # an earlier arena's store: migrated once
        return migrations.current(p, conn, in_place=not _NEVER_WRITE)
    packed.register(conn)
    return conn


def _read_only_folder(p: Path) -> tuple[sqlite3.Connection, bool]:
    """The store ``p`` in a folder this process cannot write (read-only media or mount, a
    folder without write permission), where SQLite cannot make the ``-shm`` file a WAL
    database's readers share. No run can hold such a store (a run writes its lock and journal
    beside it), so the file is opened immutable; a store with a ``-wal`` journal left beside it
    (games not yet copied into the file) is read from a copy of both in a temporary folder,
    backed up into memory. Returns the connection and ``_check_arena_db``'s answer.

    Raises:
        ResultsError: it still cannot be read (the message names the read-only folder).
    """
    import shutil
    import tempfile

    wal = p.with_name(p.name + "-wal")
    try:
        if not (wal.is_file() and wal.stat().st_size):
            conn = sqlite3.connect(f"{p.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
            return conn, _check_arena_db(conn, p)
        with tempfile.TemporaryDirectory(prefix="arena-read-") as tmp:
            shutil.copyfile(p, Path(tmp) / p.name)
            shutil.copyfile(wal, Path(tmp) / wal.name)
            copy = sqlite3.connect(Path(tmp) / p.name)
            conn = sqlite3.connect(":memory:")
            try:
                copy.backup(conn)
            finally:
                copy.close()
        return conn, _check_arena_db(conn, p)
    except (OSError, sqlite3.Error) as exc:
        raise ResultsError(f"cannot read results database {str(p)!r}: {one_line(exc)} (read in the "
                           f"read-only folder {str(p.parent)!r})") from None


def damage(conn: sqlite3.Connection) -> str | None:
    """What SQLite's quick check (``PRAGMA quick_check``: every page and record, no index
    comparison) finds wrong with the database: its first finding or the error it stops at;
    None when the database is sound."""
    try:
        row = conn.execute("PRAGMA quick_check(1)").fetchone()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return None if row is not None and row[0] == "ok" else as_line(str(row[0] if row else "no answer"))


def _conn(db: Any) -> tuple[sqlite3.Connection, bool]:
    if isinstance(getattr(db, "conn", None), sqlite3.Connection):  # an open ``arena.results.store.Store``
        return db.conn, False
    if isinstance(db, sqlite3.Connection):
        return db, False
    return connect_readonly(db), True


def unreadable(conn: sqlite3.Connection, exc: BaseException | str, path: Any = None) -> ResultsError:
    """``cannot read results database 'results/x.sqlite': <why>``: the file named (``path``,
    or the connection's main database file) as ``arena run`` names it."""
    if path is None:
        try:
            path = next((row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main"), None)
        except sqlite3.Error:
            path = None
    where = f" {_relative(path)!r}" if path else ""
    return ResultsError(f"cannot read results database{where}: {exc}")


def _relative(path: Any) -> str:
    """``path`` relative to the current folder when under it (as the user gave it), else as is."""
    try:
        return os.path.relpath(path) if Path(path).is_absolute() and Path(path).resolve().is_relative_to(Path.cwd()) \
            else str(path)
    except (OSError, ValueError):
        return str(path)


@contextmanager
def _reading(db: Any) -> Iterator[sqlite3.Connection]:
    """A connection to read ``db`` (a ``Store``, a connection, or a path opened read-only and
    closed after); a database error inside becomes one ``ResultsError``.

    Raises:
        ResultsError: the database cannot be read.
    """
    conn, owned = _conn(db)
    try:
        yield conn
    except _read_errors() as exc:
        path = getattr(db, "path", None) or (db if isinstance(db, (str, os.PathLike)) else None)
        raise unreadable(conn, exc, path) from None
    finally:
        if owned:
            conn.close()


def _read_errors() -> tuple[type[BaseException], ...]:
    """sqlite3's errors, and pandas' database error once pandas is loaded (only a pandas
    reader raises it)."""
    pandas = sys.modules.get("pandas")
    return (sqlite3.Error, pandas.errors.DatabaseError) if pandas is not None else (sqlite3.Error,)


def _query(db: Any, sql: str) -> pd.DataFrame:
    import pandas as pd

    with _reading(db) as conn:
        return pd.read_sql_query(sql, conn)
