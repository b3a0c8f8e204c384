"""SQLite storage of tournaments (``docs/arena.md`` "Storage"); schema in ``docs/storage.md``.

One database per tournament: ``<results>/<name>.sqlite`` (WAL mode), beside it
``<name>.lock`` (held by the run, one run per name at a time) and ``<name>.log``, all ``PRIVATE_MODE``. Each finished
game is committed at once, its plies packed in its row (``arena.results.packed``): a killed run loses at most the
games in flight, and re-running resumes with the missing games. A reader holding a snapshot
meanwhile makes the ``-wal`` file grow; once it lets go, the writer's checkpoints cut the file
back under ``arena.results.writing.WAL_LIMIT`` bytes (``limit_wal``, ``shrink_wal``), the run going on.

Writing is here (``Store``: ``begin``, ``add_game``, ``add_games``; ``save_sprt``; the schema
and row helpers in ``arena.results.writing``). Reading lives in ``arena.results.reading``
(``connect_readonly``, ``load_moves``, ``load_tournament``, ``load_game``,
``load_series_start``...; re-exported here) and, in bulk, ``arena.results.aggregates`` (``load_games``
is its ``load_game_frame``; per-bot search sums and copies in SQL, never every move row);
``arena.results.files`` names the files (``resolve(name, results)`` finds a tournament's
database) and gives them their mode.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.results.aggregates import (  # noqa: F401 (re-exported: their home before the split)
    SEARCH_SUMS,
    game_sums,
    load_copies,
    load_game_frame,
    merge_sums,
    search_sums,
)
from arena.errors import ResultsError, one_line
from arena.results.reading import (  # noqa: F401 (re-exported: the store's readers, by their old names)
    _decoded,
    APPLICATION_ID,
    MOVE_COLUMNS,
    SCHEMA_VERSION,
    TABLES,
    _check_arena_db,
    _fail,
    _reading,
    connect_readonly,
    load_answers,
    load_game,
    load_moves,
    load_series_start,
    load_ending,
    load_sprt,
    load_tournament,
)
from arena.results.records import Member, StoredGame, StoredTournament  # noqa: F401 (re-exported)
from arena.results.files import (Made, db_path, give_up as _give_up, make_private, unmake as _unmake)
from arena.results.versions import Recorded, recorded
from arena.results.versions import record as record_versions
from arena.results.membership import MemberRows
from arena.results.opening import (ENDING_TABLE, SPRT_TABLE, lock_run, prepare,  # noqa: F401 (re-exported)
                                   remove_if_empty, save_ending, save_sprt)
from arena.results.writing import (CHECKPOINT_EVERY, finished_now, SERIES_INSERT, game_row, insert_sql, limit_wal,
                                   shrink_wal, transaction)

if TYPE_CHECKING:
    import pandas as pd

    from arena.referee import GameRecord

log = logging.getLogger("arena.results.store")


class Store(MemberRows):
    """A tournament's database, opened for a run (holds the run lock until ``close``).

    Raises (``open``):
        ResultsError: results path is a file or not writable, the name is being run by
            another process, the database is corrupt or foreign, or its stored settings
            differ from the new ones. A database file that ``open`` created is removed then.
    """

    def __init__(self, path: Path, conn: sqlite3.Connection, lock_fd: int, created: bool = False,
                 made: Made | None = None) -> None:
        self.path, self.conn, self._lock_fd = path, conn, lock_fd
        #: True when ``open`` created the database file (``abandon`` may remove it)
        self.created = created
        #: what ``open`` created besides the database (``abandon`` removes it with the database)
        self.made = made or Made()
        self._commits = 0  # commits of games (``add_games``): every ``CHECKPOINT_EVERY``-th, ``shrink_wal``

    @classmethod
    def open(cls, results: str | os.PathLike, name: str) -> Store:
        root = Path(results)
        lock_fd, made = lock_run(root, name)
        path = db_path(name, root)
        if path.is_dir():
            _give_up(path, None, lock_fd, False, made)
            raise ResultsError(f"{str(path)!r} is a directory, not a results database; remove it or choose another "
                               "--name")
        created, conn = not path.exists(), None
        try:
            make_private(root, name)
            conn = cls._connect(path)
            conn.isolation_level = None  # explicit transactions
            prepare(conn, path)
            conn.execute("PRAGMA synchronous=NORMAL")
            limit_wal(conn)
        except sqlite3.Error as exc:
            _give_up(path, conn, lock_fd, created, made)
            raise _fail(path, exc, "open results database") from None
        except BaseException:
            _give_up(path, conn, lock_fd, created, made)
            raise
        return cls(path, conn, lock_fd, created, made)

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        try:
            return sqlite3.connect(path, timeout=5)
        except sqlite3.Error as exc:
            raise _fail(path, exc, "open results database") from None

    @property
    def lock_fd(self) -> int:
        """The fd holding the run lock (forked workers close their copy)."""
        return self._lock_fd

    def close(self) -> None:
        try:
            self.conn.close()
        finally:
            if self._lock_fd >= 0:
                os.close(self._lock_fd)
                self._lock_fd = -1

    def abandon(self, beside: Sequence[Path] = ()) -> bool:
        """Close after a refused run (exit code 2), leaving nothing new behind: the database
        if ``open`` created it and it holds no game (a database that existed before is never
        touched) and then the files of ``beside`` (the run's new log) that are empty; the run
        lock file if ``open`` created it; the folders it created, if empty. Returns whether the
        database was removed. Never raises (it runs while the refusal is on its way to the
        user): a file that cannot be removed is logged and left, and ``False`` returned."""
        empty = remove_if_empty(self.conn, self.path, self.created, beside)
        try:
            self._release(self.made)
        except (OSError, sqlite3.Error):
            pass
        return empty

    def _release(self, made: Made) -> None:
        """``close``, first removing the run lock file and folders of ``made`` (``open``'s)."""
        try:
            self.conn.close()
        finally:
            if self._lock_fd >= 0:
                _unmake(made, self._lock_fd)
                self._lock_fd = -1

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def begin(self, name: str, game: str, params: dict, num_players: int, seed: int,
              settings: dict, bots: list[tuple[str, str]], total_games: int, extend: bool = False) -> None:
        """Record a new tournament, or check that a stored one has the same settings; with
        ``extend``, give a stored one these settings and total (``set_settings``: the caller
        checked that they decide the same games). ``bots``: (label, spec) in field order (a run
        stores its bots' versions with ``add_members``).

        Raises:
            ResultsError: the stored settings differ (the message names the first difference),
                or a write failed.
        """
        row = next(iter(self._read("SELECT settings FROM tournament")), None)
        if row is not None and extend:
            self.set_settings(settings, total_games)
            return
        if row is not None:
            stored = json.loads(row[0])
            new = json.loads(json.dumps(settings))
            if stored != new:
                key = next(k for k in sorted(set(stored) | set(new)) if stored.get(k) != new.get(k))
                raise ResultsError(
                    f"tournament {name!r} exists with different settings ({key}: stored "
                    f"{stored.get(key)!r}, now {new.get(key)!r}); use another --name or the same settings"
                )
            return
        with transaction(self.conn, self.path):
            values = dict(id=1, name=name, game=game, params=json.dumps(params), num_players=num_players, seed=seed,
                          settings=json.dumps(settings), total_games=total_games,
                          created=datetime.now(timezone.utc).isoformat(timespec="seconds"))
            self.conn.execute(insert_sql("tournament", values), values)
            rows = [dict(position=i, label=label, spec=spec) for i, (label, spec) in enumerate(bots)]
            if rows:
                self.conn.executemany(insert_sql("bots", rows[0]), rows)

    def set_settings(self, settings: dict, total_games: int) -> None:
        """Give the stored tournament these settings and total (the caller checked that they
        decide the same games: ``arena.tournament.config.settings_difference``).

        Raises:
            ResultsError: the write failed.
        """
        with transaction(self.conn, self.path):
            self.conn.execute("UPDATE tournament SET settings = ?, total_games = ?",
                              (json.dumps(settings), total_games))

    def stored(self) -> StoredTournament | None:
        """The stored tournament's settings and total games, or ``None`` before ``begin``.

        Raises:
            ResultsError: the database cannot be read.
        """
        row = next(iter(self._read("SELECT settings, total_games FROM tournament")), None)
        return None if row is None else StoredTournament(_decoded(row[0], self), int(row[1]))

    def done_ids(self) -> set[int]:
        """Ids of the games already stored.

        Raises:
            ResultsError: the database cannot be read.
        """
        return {r[0] for r in self._read("SELECT game_id FROM games")}

    def results(self) -> list[StoredGame]:
        """Every stored game's outcome, in game-id order (plain rows: no pandas).

        Raises:
            ResultsError: the database cannot be read.
        """
        rows = self._read("SELECT game_id, series, seats, ranks FROM games ORDER BY game_id")
        try:
            return [StoredGame(int(g), int(s), tuple(json.loads(seats)), tuple(int(r) for r in json.loads(ranks)))
                    for g, s, seats, ranks in rows]
        except (TypeError, ValueError) as exc:
            raise ResultsError(f"cannot read results database {str(self.path)!r}: a damaged game row "
                               f"({one_line(exc)})") from None

    def software(self) -> list[Recorded]:
        """The versions the stored games were played under, in the order recorded
        (``arena.results.versions``; none in a store written before they were recorded).

        Raises:
            ResultsError: the database cannot be read.
        """
        return self._reading(recorded)

    def add_game(self, game_id: int, series: int, record: GameRecord, attempts: int = 1,
                 start: str | None = None, software: Sequence[Recorded] = ()) -> None:
        """Commit one finished game (an ``arena.referee.GameRecord``) and its moves, atomically.
        ``start``: the position text its series started from (a series of an openings file;
        ``GameTask.start``), kept once per series; ``None``: the game's seeded initial state.
        ``software``: versions to record with it (``arena.results.versions.check``: a run's first game).

        Raises:
            ResultsError: the write failed (read-only or full disk...); nothing is half-stored.
        """
        self.add_games([(game_id, series, record, attempts)], {} if start is None else {series: start}, software)

    def add_games(self, batch: Iterable[tuple[int, int, GameRecord, int]],
                  starts: Mapping[int, str] | None = None, software: Sequence[Recorded] = ()) -> None:
        """Commit finished games ``(game_id, series, record, attempts)`` with their plies in one
        transaction (one ``executemany``): the bulk path of synthetic stores and imports, the
        same rows as ``add_game`` one at a time. ``starts``: series -> the position text it
        started from (series of an openings file only); a series' first start stays. ``software``:
        versions recorded in the same transaction (``arena.results.versions.record``).

        Raises:
            ResultsError: the write failed; nothing of the batch is stored.
        """
        now = finished_now()
        rows = [game_row(game_id, series, record, attempts, now) for game_id, series, record, attempts in batch]
        if not rows:
            return
        with transaction(self.conn, self.path):
            self.conn.executemany(insert_sql("games", rows[0]), rows)
            if starts:
                self.conn.executemany(SERIES_INSERT, sorted(starts.items()))
            if software:
                record_versions(self.conn, software)
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY == 0:
            shrink_wal(self.conn, self.path)


def load_games(db: Any) -> pd.DataFrame:
    """Stored games in game-id order, one row each.

    Args:
        db: a database path (``resolve``), an open ``Store`` or a ``sqlite3.Connection``.

    Returns:
        columns ``game_id`` (int), ``series`` (int), ``seed`` (int), ``seats`` (list[str],
        labels by 0-based seat), ``ranks`` (list[int]), ``scores`` (list[float]),
        ``termination`` (str), ``fault_seat`` (Int64, <NA> when no fault), ``plies`` (int),
        ``opening_plies`` (int), ``seconds`` (float). The lists are shared by the rows with
        the same value (``arena.results.aggregates.load_game_frame``): read-only.

    Raises:
        ResultsError: unreadable, corrupt or foreign database.
    """
    return load_game_frame(db, codes=False)
