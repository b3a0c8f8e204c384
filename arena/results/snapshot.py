"""The ratings a report reads (``current``): the stored rating state
(``arena.results.rating_state``) with the games beyond its prefix, as a ``RatingSnapshot``; a
rebuilt or extended state is stored when no run holds the store (``_Saving``), so the next
report rates nothing again."""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import trueskill

from arena.results.aggregates import give_back, merge_sums, search_sums
from arena.results.files import still_locked
from arena.results.rating_history import History
from arena.results.rating_state import Rater, ensure_tables, read, write, write_rows
from arena.results.records import RatingSnapshot

log = logging.getLogger("arena.results.ratings")


class _Saving:
    """A write transaction on the database at ``path`` under its run lock, for ``current``:
    ``open`` takes the lock ``<name>.lock`` beside it at once and begins; ``rows`` adds history
    rows; ``finish`` stores the state and commits; ``close`` lets go (rolling back what was not
    committed). Nothing is written when the lock is held (a run keeps the state itself), the file
    is not writable, or the stored state is no longer the one read (``expect``: its prefix;
    ``None``: a rebuild, which replaces the tables)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.db = Path(path)
        self.fd = -1
        self.conn: sqlite3.Connection | None = None

    def open(self, expect: int | None) -> bool:
        """Take the lock and begin; returns whether writing may go on."""
        lock = self.db.with_suffix(".lock")
        try:
            self.fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # a run is writing this tournament (or no lock can be made here)
        if not still_locked(self.fd, lock):
            return False  # a refused run removed the lock file meanwhile: another run may hold a new one
        try:
            self.conn = sqlite3.connect(self.db, timeout=5)
            self.conn.isolation_level = None
            self.conn.execute("BEGIN IMMEDIATE")
            if expect is None:  # a rebuild: tables of another layout go too
                self.conn.execute("DROP TABLE IF EXISTS rating_state")
                self.conn.execute("DROP TABLE IF EXISTS rating_history")
            elif _stored_prefix(self.conn) != expect:
                return False  # a run stored more meanwhile: its state is as current
            ensure_tables(self.conn)
        except sqlite3.Error:
            return False
        return True

    def rows(self, rater: Rater, rows: Sequence[tuple] | History) -> None:
        """Add ``rater``'s history rows (``rating_state.write_rows``; raises ``sqlite3.Error``)."""
        assert self.conn is not None
        write_rows(self.conn, rater, rows)

    def finish(self, rater: Rater) -> None:
        """Store the rater's state and commit (raises ``sqlite3.Error``)."""
        assert self.conn is not None
        write(self.conn, rater, ())
        self.conn.execute("COMMIT")

    def close(self) -> None:
        try:
            if self.conn is not None:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                self.conn.close()
        except sqlite3.Error:
            pass
        finally:
            self.conn = None
            if self.fd >= 0:
                os.close(self.fd)
                self.fd = -1


def _stored_prefix(conn: sqlite3.Connection) -> int | None:
    """The prefix of the stored state (``None``: no state)."""
    try:
        row = conn.execute("SELECT prefix FROM rating_state WHERE id = 1").fetchone()
    except sqlite3.OperationalError:
        return None
    return None if row is None else int(row[0])


def current(conn: sqlite3.Connection, path: str | os.PathLike | None, env: trueskill.TrueSkill,
            games: Iterable[tuple[int, Sequence[str], Sequence[int]]] | Callable[[int], Columns],
            labels: Sequence[str] = (), seats: int = 2) -> RatingSnapshot:
    """Ratings and search sums after every stored game: the stored state, plus the games
    beyond its prefix. ``games``: ``(game_id, seats, ranks)`` of the stored games in id order,
    or a function of a game id returning those of the games above it as three sequences
    (``Columns``: ids, seat lists, rank lists; only the games beyond the prefix are read);
    ``seats``: seats per game. A missing or stale state is rebuilt from
    ``games``; the games that continue the prefix (ids without a gap: games copied into the
    store, a run's games stored after its last save) join it, their moves summed in SQL by key
    range. A rebuilt or extended state is stored, with its history, when
    ``path`` is given and no run holds the store (``_Saving``); the next report reads it and
    rates nothing again.

    Returns:
        the ratings after all games, the search sums of every game, the prefix whose history
        is stored (``read_history(conn, prefix)``; 0 when nothing is stored) and the history
        rows of the games beyond it.

    Raises:
        ResultsError: unreadable database.
    """
    found = read(conn, env, labels)
    saving = _Saving(path) if path is not None else None
    try:
        try:
            return _current(conn, env, games, labels, seats, found, saving)
        except sqlite3.Error as exc:  # the write failed (a full disk...): rate again without storing
            log.warning("rating state not stored: %s", exc)
            if saving is None or saving.conn is None:
                raise
    finally:
        if saving is not None:
            saving.close()
    return current(conn, None, env, games, labels, seats)


def _current(conn: sqlite3.Connection, env: trueskill.TrueSkill, games: Any, labels: Sequence[str], seats: int,
             found: Rater | None, saving: _Saving | None) -> RatingSnapshot:
    """``current`` with the stored state ``found`` read, storing through ``saving`` (raises
    ``sqlite3.Error`` when a write fails)."""
    rater = Rater(env, labels) if found is None else found
    start = rater.prefix
    ids, seated, ranks = _columns(games, start)
    run = _joining(ids, start)  # the games continuing the prefix without a gap
    expect = None if found is None else start
    writing = saving is not None and (found is None or run > 0) and saving.open(expect)  # a rebuild: even empty
    history = rater.rate_many(ids[:run], seated[:run], ranks[:run])
    rater.prefix = start + run
    extra: list[tuple] = []
    if writing:
        assert saving is not None
        saving.rows(rater, history)  # written now: the history is not held while the moves are summed
    else:
        extra = history.rows(list(rater.ratings))
    del history
    if found is None:
        rater.search = search_sums(conn, seats, upto=rater.prefix)
    elif rater.prefix > start:
        merge_sums(rater.search, search_sums(conn, seats, after=start, upto=rater.prefix))
    saved_prefix = 0 if found is None else start
    if writing:
        assert saving is not None
        saving.finish(rater)
        saved_prefix = rater.prefix
    for game_id, seats_, ranks_ in zip(np.asarray(ids[run:]).tolist(), seated[run:], ranks[run:]):
        extra += rater.rate(game_id, seats_, ranks_)
    merge_sums(rater.search, search_sums(conn, seats, after=rater.prefix))
    give_back()  # what rating and summing a million games freed
    return RatingSnapshot(rater.ratings, rater.counts, rater.search, saved_prefix, tuple(extra))


#: ``(game ids, seat lists, rank lists)`` of games in id order (sequences or numpy arrays)
Columns = tuple[Any, Any, Any]


def _columns(games: Any, start: int) -> Columns:
    """``current``'s ``games`` above ``start`` as ``Columns``."""
    if callable(games):
        return games(start)
    rows = [g for g in games if g[0] > start]
    return [g[0] for g in rows], [g[1] for g in rows], [g[2] for g in rows]


def _joining(ids: Sequence[int], start: int) -> int:
    """How many of ``ids`` (ascending) continue ``start`` without a gap: ``start + 1``, ``start + 2``..."""
    at = np.asarray(ids, np.int64) - np.arange(start + 1, start + 1 + len(ids), dtype=np.int64)
    gaps = np.flatnonzero(at != 0)
    return int(gaps[0]) if len(gaps) else len(ids)
