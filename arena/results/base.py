"""What every module of the store shares and that imports none of them: the file's marks
(``APPLICATION_ID``, ``SCHEMA_VERSION``), the one-line error of a failed database call
(``_fail``), the one-transaction helper (``transaction``) and ``moves_hash``.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path
from typing import Any, Literal

from arena.errors import ResultsError

APPLICATION_ID = 0x41524E41  # "ARNA": marks an arena results database
#: the store's layout (``PRAGMA user_version``; ``arena.results.migrations``)
SCHEMA_VERSION = 4


def _fail(path: Path, exc: BaseException, doing: str) -> ResultsError:
    text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return ResultsError(f"cannot {doing} {str(path)!r}: {text}")


def moves_hash(moves_json: str) -> int:
    """The stored ``moves_hash`` of a game: the first 8 bytes of the BLAKE2b digest of its
    move list's JSON text, as a signed 64-bit integer (an SQLite INTEGER); copy
    detection groups on it (``arena.results.aggregates.load_copies``)."""
    return int.from_bytes(hashlib.blake2b(moves_json.encode(), digest_size=8).digest(), "big", signed=True)


class transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error; sqlite errors -> ResultsError."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn, self.path = conn, path

    def __enter__(self) -> None:
        try:
            if not self.conn.in_transaction:
                self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _fail(self.path, exc, "write results database") from None

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> Literal[False]:
        if kind is None:
            try:
                self.conn.execute("COMMIT")
                return False
            except sqlite3.Error as err:
                exc = err
        if self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
        if isinstance(exc, sqlite3.Error):
            raise _fail(self.path, exc, "write results database") from None
        return False
