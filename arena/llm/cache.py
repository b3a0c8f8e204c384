"""The response cache of language-model bots (``arena.llm``): one SQLite file of answers, so a
rerun or a resumed run replays the answers already paid for instead of asking again.

The file is ``$ARENA_LLM_CACHE`` (a path; ``off`` or unset: no cache); the runner sets it to a
file in the results directory. One table::

    answers(key TEXT PRIMARY KEY, answer TEXT, finish_reason TEXT, tokens_in INTEGER,
            tokens_out INTEGER, latency REAL, created TEXT)

``key`` is the SHA-256 (hex) of the request that got the answer: the model, the endpoint, the
sampling parameters, the prompt (every message), the attempt and the sample index
(``arena.llm.bot``). Each answer is committed as soon as it arrives (WAL, ``synchronous=NORMAL``:
a killed process keeps it), so an answer is never paid for twice. Worker processes share the file
(SQLite's locking); the threads of one process share one connection under a lock. No secret is
stored: the key is no part of a request's text.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime, timezone

from arena.errors import ResultsError

#: the environment variable naming the cache file (``off`` or unset: no cache)
CACHE_ENV = "ARENA_LLM_CACHE"
#: seconds a writer waits for another process's lock on the file
BUSY_SECONDS = 60.0

_SCHEMA = ("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, answer TEXT NOT NULL, "
           "finish_reason TEXT, tokens_in INTEGER, tokens_out INTEGER, latency REAL, created TEXT)")


@dataclass(frozen=True)
class Cached:
    """One stored answer.

    Attributes:
        answer: the model's text.
        finish_reason: the server's ``finish_reason`` (``stop``, ``length``...).
        tokens_in, tokens_out: prompt and completion tokens the server counted.
        latency: seconds the request took when it was made.
    """

    answer: str
    finish_reason: str | None
    tokens_in: int
    tokens_out: int
    latency: float


class ResponseCache:
    """The answers of one cache file, shared by the threads of this process.

    Raises (constructor):
        ResultsError: the file cannot be opened or is not a cache (one line naming it).
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            folder = os.path.dirname(os.path.abspath(path))
            os.makedirs(folder, exist_ok=True)
            self._conn = sqlite3.connect(path, timeout=BUSY_SECONDS, check_same_thread=False,
                                         isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute(_SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            raise ResultsError(f"cannot open the language-model cache {path!r} ({CACHE_ENV}): {exc}") from None

    def get(self, key: str) -> Cached | None:
        """The answer stored under ``key``, or ``None``."""
        with self._lock:
            row = self._conn.execute("SELECT answer, finish_reason, tokens_in, tokens_out, latency FROM answers "
                                     "WHERE key = ?", (key,)).fetchone()
        return None if row is None else Cached(row[0], row[1], int(row[2] or 0), int(row[3] or 0),
                                               float(row[4] or 0.0))

    def put(self, key: str, found: Cached) -> None:
        """Store ``found`` under ``key`` and commit at once (a second answer for the same key,
        from another process, keeps the first)."""
        stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with self._lock:
            self._conn.execute("INSERT OR IGNORE INTO answers VALUES (?, ?, ?, ?, ?, ?, ?)",
                               (key, found.answer, found.finish_reason, found.tokens_in, found.tokens_out,
                                found.latency, stamp))

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0])


_OPEN: dict[tuple[int, str], ResponseCache] = {}
_OPEN_LOCK = threading.Lock()


def cache_path() -> str | None:
    """The cache file ``$ARENA_LLM_CACHE`` names, or ``None`` (unset, empty or ``off``)."""
    path = os.environ.get(CACHE_ENV, "").strip()
    return None if not path or path.lower() == "off" else path


def open_cache() -> ResponseCache | None:
    """This process's cache of the file ``$ARENA_LLM_CACHE`` names (one per process and file: a
    forked worker opens its own), or ``None`` without one.

    Raises:
        ResultsError: the file cannot be opened.
    """
    path = cache_path()
    if path is None:
        return None
    key = (os.getpid(), os.path.abspath(path))
    with _OPEN_LOCK:
        found = _OPEN.get(key)
        if found is None:
            found = _OPEN[key] = ResponseCache(path)
        return found
