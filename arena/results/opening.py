"""Opening a tournament's database for a run: the run lock taken (``lock_run``), then the
schema made in a new file or an earlier layout migrated (``prepare``); ``Store.open`` does
both. Beside them, the one-row states a run saves (``save_ending``, ``save_sprt``).
"""

from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.errors import ResultsError, RunLockedError
from arena.results.files import Made, missing_dirs, open_lock, remove_db, remove_dirs, remove_empty, still_locked
from arena.results.migrations import migrate
from arena.results.packed import register
from arena.results.reading import APPLICATION_ID, SCHEMA_VERSION, _check_arena_db, _fail
from arena.results.writing import SCHEMA, transaction

log = logging.getLogger("arena.results.store")


def lock_run(root: Path, name: str) -> tuple[int, Made]:
    """Take the run lock ``<root>/<name>.lock`` (made with the folders if missing), without
    waiting. Returns the lock's fd and what was made for it (removed again on a refusal).

    Raises:
        ResultsError: ``root`` is a file or cannot be written.
        RunLockedError: another process runs ``name`` (holds its lock) now.
    """
    if root.exists() and not root.is_dir():
        raise ResultsError(f"results path {str(root)!r} is a file, not a directory; give --results DIR")
    lock = root / f"{name}.lock"
    folders = missing_dirs(root)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        remove_dirs(folders)
        raise _fail(root, exc, "write results to") from None
    while True:
        try:
            lock_fd, lock_made = open_lock(lock)
        except OSError as exc:  # the folder is there: name what failed in it (the lock file, or the folder)
            remove_dirs(folders)
            if os.path.lexists(lock):
                raise _fail(lock, exc, "open the run lock file") from None
            raise _fail(root, exc, "write results to") from None
        try:
            fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(lock_fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise RunLockedError(f"tournament {name!r} is already being run by another process (lock "
                                   f"{str(root / (name + '.lock'))!r}); wait for it or choose another --name"
                                   ) from None
            raise _fail(root, exc, "lock") from None
        if still_locked(lock_fd, lock):
            break
        os.close(lock_fd)  # a refused run removed the file while this one waited: lock the new one
    return lock_fd, Made(lock if lock_made else None, tuple(folders))


def prepare(conn: sqlite3.Connection, path: Path) -> None:
    """Give the opened database ``conn`` the schema (a new file) or bring an arena store of an
    earlier layout to this one (``arena.results.migrations.migrate``), in WAL mode.

    Raises:
        ResultsError: a foreign or newer file, or the write failed.
    """
    if not _check_arena_db(conn, path):
        conn.execute("PRAGMA journal_mode=WAL")
        try:
            register(conn)
            conn.executescript(f"BEGIN IMMEDIATE; {SCHEMA} PRAGMA application_id={APPLICATION_ID}; "
                               f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise _fail(path, exc, "create results database") from None
    else:
        conn.execute("PRAGMA journal_mode=WAL")
        migrate(conn, path)


def remove_if_empty(conn: sqlite3.Connection, path: Path, created: bool, beside: Sequence[Path]) -> bool:
    """``Store.abandon``'s files: close ``conn``; if ``created`` and no game is stored, remove
    the database (still under the run lock: no other run has it open) and the empty files of
    ``beside``. Returns whether it was removed. Never raises (logged instead)."""
    try:
        empty = created and not conn.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        empty = False
    try:
        conn.close()
        if empty:
            remove_db(path)
    except (OSError, sqlite3.Error) as exc:
        log.warning("could not remove the empty results database %s of a refused run: %s", path, exc)
        empty = False
    if empty:
        for extra in beside:
            remove_empty(extra)
    return empty


SPRT_TABLE = "CREATE TABLE IF NOT EXISTS sprt (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL)"


ENDING_TABLE = "CREATE TABLE IF NOT EXISTS ending (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL)"


def save_ending(store: Any, state: dict) -> None:
    """Store how the last run ended (``arena.tournament.runner``: ``finished``, whether its
    schedule was done, so a run its own rule stopped early, an SPRT verdict or a settled
    ranking, is told apart from an interrupted one; ``games`` stored then; ``stopped``, the
    rule's short word or ``None``), replacing the previous one (table ``ending``, one JSON row;
    created on first use).

    Raises:
        ResultsError: the write failed.
    """
    with transaction(store.conn, store.path):
        store.conn.execute(ENDING_TABLE)
        store.conn.execute("INSERT OR REPLACE INTO ending VALUES (1, ?)", (json.dumps(state),))


def save_sprt(store: Any, state: dict) -> None:
    """Store the SPRT's state (``arena.stats.sprt.SprtTally.state``) with the tournament, replacing
    the previous one (table ``sprt``, one JSON row; created on first use).

    Raises:
        ResultsError: the write failed.
    """
    with transaction(store.conn, store.path):
        store.conn.execute(SPRT_TABLE)
        store.conn.execute("INSERT OR REPLACE INTO sprt VALUES (1, ?)", (json.dumps(state),))
