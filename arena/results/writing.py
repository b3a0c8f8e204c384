"""Writing a tournament's results database (``docs/arena.md`` "Storage"): the schema, the
rows of one game and the one-transaction helper (``arena.results.migrations`` brings a store
written by an earlier arena up to this schema). ``arena.results.store.Store`` uses them;
``arena.results.reading`` reads what they write.

Tables: ``tournament`` (one row), ``bots`` (one row per bot version: ``label`` as its games
store it, ``bot`` and ``version``, the ``digest`` and ``code`` of ``arena.tournament.members``;
an engine's ``id name`` in ``id_name``), ``games``
(one row per finished game, with ``moves_hash`` and its plies in ``packed``: ``arena.results.packed``;
its network players' move logs in ``log``), ``voids`` (games a provider's failure voided:
``arena.results.logs``),
the view ``moves`` (one row per ply and seat, read from ``packed``),
``series`` (the position text a series started from, for a series of an openings file only;
stores written before it existed have no such table, and ``arena.results.reading.load_series_start``
computes the start from the settings), ``sprt`` (created by ``arena.results.store.save_sprt``).

Files beside it (exports, reports, openings files) are written by ``atomic_path``: to a temporary
file in the same folder, renamed into place once complete (a killed writer's is removed by the
next writer of that file: ``arena.results.temps``); ``-`` for standard output; never over a
results database or its files (``check_output``).
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ResultsError
from arena.results.logs import SCHEMA_PART, packed_log
from arena.results import temps
from arena.results.packed import VIEW, pack
from arena.results.base import _fail, moves_hash, transaction  # noqa: F401 (re-exported)

if TYPE_CHECKING:
    from arena.referee import GameRecord

SCHEMA = """
CREATE TABLE tournament (
    id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL, game TEXT NOT NULL,
    params TEXT NOT NULL, num_players INTEGER NOT NULL, seed INTEGER NOT NULL,
    settings TEXT NOT NULL, total_games INTEGER NOT NULL, created TEXT NOT NULL);
CREATE TABLE bots (position INTEGER NOT NULL, label TEXT PRIMARY KEY, spec TEXT NOT NULL, id_name TEXT,
    bot TEXT, version INTEGER, digest TEXT, code TEXT);
CREATE TABLE games (
    game_id INTEGER PRIMARY KEY, series INTEGER NOT NULL, seed INTEGER NOT NULL,
    seats TEXT NOT NULL, opening TEXT NOT NULL, opening_plies INTEGER NOT NULL,
    scores TEXT NOT NULL, ranks TEXT NOT NULL, termination TEXT NOT NULL,
    fault_seat INTEGER, fault_detail TEXT, plies INTEGER NOT NULL, seconds REAL NOT NULL,
    attempts INTEGER NOT NULL, finished TEXT NOT NULL, moves_hash INTEGER, adjudication TEXT,
    packed BLOB NOT NULL, log BLOB);
CREATE INDEX games_series_hash ON games (series, moves_hash);
CREATE TABLE series (series INTEGER PRIMARY KEY, start TEXT NOT NULL);
""" + SCHEMA_PART + VIEW
#: Insert a series' start; the first one written stays.
SERIES_INSERT = "INSERT OR IGNORE INTO series (series, start) VALUES (?, ?)"

#: a parameter that binds as SQL ``NULL``: SQLite stores a NaN as NULL, and the ``sqlite3``
#: module binds a float at once, where each ``None`` costs it an adapter look-up (``None`` is
#: not among the types it binds directly): about 3 µs a value, more than half of a move row's
#: insert. The rows written are the same.
NULL = math.nan


@functools.lru_cache(maxsize=4096)
def _labels_json(labels: tuple[str, ...]) -> str:
    """``json.dumps`` of a game's seats (a few pairings repeat game after game)."""
    return json.dumps(list(labels))


@functools.lru_cache(maxsize=4096)
def _ranks_json(ranks: tuple[int, ...]) -> str:
    """``json.dumps`` of a game's ranks as ``int`` (a few outcomes repeat)."""
    return json.dumps([int(r) for r in ranks])


def game_row(game_id: int, series: int, record: GameRecord, attempts: int, finished: str) -> dict[str, Any]:
    """The ``games`` row of one finished game, by column name (``None`` bound as ``NULL``)."""
    o = record.outcome
    moves = json.dumps(list(record.moves))
    fault_seat, detail, rule = record.fault_seat, record.fault_detail, record.adjudication
    return dict(
        game_id=game_id, series=series, seed=record.seed, seats=_labels_json(tuple(record.seats)),
        opening=json.dumps(list(record.moves[: record.opening_plies])), opening_plies=record.opening_plies,
        scores=json.dumps([float(s) for s in o.scores]),
        ranks=_ranks_json(tuple(map(int, o.ranks))), termination=str(o.termination),
        fault_seat=NULL if fault_seat is None else fault_seat, fault_detail=NULL if detail is None else detail,
        plies=record.plies, seconds=float(record.seconds), attempts=attempts, finished=finished,
        moves_hash=moves_hash(moves), adjudication=NULL if rule is None else rule,
        packed=pack(moves, record.moves, record.move_stats),
        log=NULL if record.log is None else packed_log(record.log),  # network players' logs (arena.results.logs)
    )


#: (the second, its ISO text) last written as a game's ``finished`` time
_finished: tuple[int, str] = (-1, "")


def finished_now() -> str:
    """The current UTC time to the second in ISO form (``games.finished``), made once a second."""
    global _finished
    second = int(time.time())
    if second != _finished[0]:
        _finished = (second, datetime.fromtimestamp(second, timezone.utc).isoformat(timespec="seconds"))
    return _finished[1]




def insert_sql(table: str, row: dict[str, Any]) -> str:
    """``INSERT INTO table (col, ...) VALUES (:col, ...)`` for the keys of ``row``: rows are
    written by column name, never by position."""
    return _insert_sql(table, tuple(row))


@functools.cache
def _insert_sql(table: str, columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(':' + k for k in columns)})"


#: bytes the ``-wal`` file is cut back to once a checkpoint has copied it all into the database
#: (``PRAGMA journal_size_limit``): above SQLite's own cycle (``wal_autocheckpoint``, 1000
#: pages, about 4 MiB), so a run alone with its store never cuts and grows it again
WAL_LIMIT = 8 * 2**20
#: commits between two attempts of ``shrink_wal`` while the ``-wal`` file is over ``WAL_LIMIT``
CHECKPOINT_EVERY = 16


def limit_wal(conn: sqlite3.Connection) -> None:
    """Make the writer's ``conn`` keep its ``-wal`` file under ``WAL_LIMIT`` bytes once no reader
    holds it back (``PRAGMA journal_size_limit``). While another connection holds a read
    snapshot, no checkpoint can copy the frames written since into the database, and the file
    grows (about 27 kB a game); without a limit it then stays at that peak until the last
    connection closes."""
    conn.execute(f"PRAGMA journal_size_limit = {WAL_LIMIT}")


def shrink_wal(conn: sqlite3.Connection, path: Path) -> bool:
    """When the ``-wal`` file of the database at ``path`` is over ``WAL_LIMIT`` bytes (a reader
    held a snapshot while games were written), copy it into the database and cut it to 0 bytes
    (``wal_checkpoint(TRUNCATE)``), without waiting for readers: a reader still holding a
    snapshot leaves it for a later call (SQLite's own checkpoints and ``limit_wal`` then cut it
    after the commits that follow the reader's release). Returns whether it was cut. Never
    raises: a checkpoint is housekeeping, the games are committed."""
    try:
        if os.path.getsize(f"{path}-wal") <= WAL_LIMIT:
            return False
    except OSError:
        return False
    timeout = None
    try:
        timeout = conn.execute("PRAGMA busy_timeout").fetchone()[0]
        conn.execute("PRAGMA busy_timeout = 0")  # a reader in the way: try again later, never wait
        busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        return not busy
    except sqlite3.Error:
        return False
    finally:
        if timeout is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.execute(f"PRAGMA busy_timeout = {int(timeout)}")


#: the first 16 bytes of every SQLite database file
SQLITE_MAGIC = b"SQLite format 3\x00"
#: files SQLite keeps beside a database ``X``: ``X-wal``, ``X-shm``, ``X-journal``
COMPANIONS = ("-wal", "-shm", "-journal")
#: a run's files beside its database ``<name>.sqlite``: the run lock and the log
RUN_FILES = (".lock", ".log")
#: the output path that means standard output
STDOUT = "-"


def is_database(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a file that starts as an SQLite database does (``SQLITE_MAGIC``);
    ``False`` for no regular file (a named pipe or a terminal is never read: it would wait)."""
    try:
        if not os.path.isfile(path):
            return False
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def check_output(target: str | os.PathLike) -> None:
    """Refuse an output path that would replace stored results: an SQLite database (any
    tournament's), the ``-wal``/``-shm``/``-journal`` file of one, or the run lock or log
    (``<name>.lock``, ``<name>.log``) beside a database ``<name>.sqlite``. A symbolic link is
    judged by the file it leads to; ``-`` (standard output) passes.

    Raises:
        ResultsError: one line naming the path and why it is refused.
    """
    if str(target) == STDOUT:
        return
    final = Path(os.path.realpath(target))
    if is_database(final):
        reason = "it is an SQLite results database"
    else:
        name = final.name
        owners = [(final.with_name(name[: -len(end)]), f"the {end[1:]} file of") for end in COMPANIONS
                  if name.endswith(end)]
        owners += [(final.with_suffix(".sqlite"), f"the run {end[1:]} file of") for end in RUN_FILES
                   if final.suffix == end]
        found = next(((db, what) for db, what in owners if is_database(db)), None)
        if found is None:
            return
        reason = f"it is {found[1]} the results database {str(found[0])!r}"
    raise ResultsError(f"refusing to write {str(target)!r}: {reason}, which the output would replace; "
                       "give another file name")


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike) -> Iterator[Path]:
    """A temporary file's path in ``target``'s folder, for a writer to fill; on leaving the
    block it is flushed to disk and renamed to ``target`` (``os.replace``: readers see the
    old file or the whole new one, never part of it). If the block raises anything (a full
    disk's ``OSError``, Ctrl-C's ``KeyboardInterrupt``) the temporary file is removed and an
    existing file at ``target`` is left as it was. The new file gets the mode of the file it
    replaces, else the usual ``0o666`` less the umask. The one way exports (jsonl, csv,
    parquet), reports (md, csv, html) and openings files are written.

    ``target`` ``-`` means standard output: the file is filled in a temporary folder and its
    bytes copied to ``sys.stdout`` once complete. A ``target`` that holds stored results
    (``check_output``) is refused before anything is written.

    Raises:
        ResultsError: ``target`` is a results database or one of its files (``check_output``).
        OSError: the folder cannot be written (or what the block raised, re-raised).
    """
    check_output(target)
    if str(target) == STDOUT:
        with tempfile.TemporaryDirectory(prefix="arena-out.") as folder:
            tmp = Path(folder) / "out"
            tmp.touch()
            yield tmp
            _to_stdout(tmp)
        return
    final = Path(target)
    tmp, held = temps.make(final)  # locked while this writer lives; a killed writer's removed
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.chmod(tmp, _mode_for(final))
        check_output(target)  # a run may have made its database there meanwhile
        os.replace(tmp, final)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        os.close(held)


def _to_stdout(path: Path) -> None:
    """Copy the bytes of the file at ``path`` to standard output (its text stream when it has
    no byte buffer)."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(path.read_text(encoding="utf-8"))
    else:
        with open(path, "rb") as f:
            shutil.copyfileobj(f, buffer)
        buffer.flush()
    sys.stdout.flush()


def _mode_for(final: Path) -> int:
    try:
        return final.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask
