"""Reading a tournament's results database (``docs/arena.md`` "Storage"): read-only
connections and the loaders of settings, moves and single games. ``arena.results.store`` writes the
database and re-exports these names; ``arena.results.aggregates`` reads the games in bulk.
"""

from __future__ import annotations

import json
import os
import sqlite3
from typing import TYPE_CHECKING, Any

from arena.errors import ResultsError, one_line
from arena.openings import series_start
from arena.results.settings import Settings
from arena.results.base import APPLICATION_ID, SCHEMA_VERSION, _fail  # noqa: F401 (re-exported)
from arena.results.connect import (  # noqa: F401 (re-exported: readers import them from here)
    TABLES,
    _check_arena_db,
    _conn,
    _query,
    _read_errors,
    _read_only_folder,
    _reading,
    _relative,
    connect_readonly,
    damage,
    unreadable,
)
from arena.results.versions import recorded, stretches

if TYPE_CHECKING:
    import pandas as pd


def load_sprt(db: Any) -> dict | None:
    """The stored SPRT state, or None when the tournament ran without ``--sprt``.

    Raises:
        ResultsError: unreadable database.
    """
    row = _state_row(db, "sprt")
    return json.loads(row[0]) if row else None


def load_ending(db: Any) -> dict | None:
    """How the last run ended (``arena.results.store.save_ending``), or None in a store whose runs
    predate the record.

    Raises:
        ResultsError: unreadable database.
    """
    row = _state_row(db, "ending")
    return _decoded(row[0], db) if row else None


def _state_row(db: Any, table: str) -> tuple[Any, ...] | None:
    """The ``state`` of row 1 of a table of one stored state (``sprt``, ``ending``), as a
    one-column row; None where the table (a store that predates it) or the row is missing."""
    with _reading(db) as conn:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (table,)).fetchone():
            return None
        return conn.execute(f"SELECT state FROM {table} WHERE id = 1").fetchone()  # table: one of ours, never input


def load_series_start(db: Any, series: int) -> str | None:
    """The position text series ``series`` (0-based) started from, or ``None`` for the game's
    seeded initial state. Read from the ``series`` table; a store written before it existed (or
    a series stored without its start) gets it computed from the stored settings
    (``arena.openings.series_start``): the one place that falls back.

    Raises:
        ResultsError: unreadable database, or no tournament recorded.
    """
    with _reading(db) as conn:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='series'").fetchone():
            row = conn.execute("SELECT start FROM series WHERE series = ?", (int(series),)).fetchone()
            if row is not None:
                return str(row[0])
        tournament = conn.execute("SELECT settings, seed FROM tournament").fetchone()
    if tournament is None:
        raise ResultsError("results database has no tournament recorded")
    settings = Settings.from_stored(_decoded(tournament[0], db))
    return series_start(settings.openings, settings.openings_order, int(tournament[1]), int(series))


MOVE_COLUMNS = ["game_id", "ply", "seat", "label", "move", "seconds", "nodes", "depth", "evaluation", "status",
                "clock"]


def load_moves(db: Any, game_id: int | None = None, where: str | None = None) -> pd.DataFrame:
    """Stored plies in (game_id, ply, seat) order: every game's, or one game's (``game_id``),
    or those matching the SQL condition ``where`` (on ``m``, the ``moves`` view's columns).
    Read from the packed column of each game (``arena.results.packed.unpack_many``: one
    decompression a game, the rows made column by column with numpy); a ``where`` that names
    only game columns (``m.game_id IN (...)``) picks the games in SQL, any other is applied
    to the unpacked rows.

    Returns:
        columns ``game_id``, ``ply`` (0-based, opening included), ``seat`` (0-based; -1 for an
        opening ply, -3 for a chance ply), ``label`` (the bot, ``None`` for opening plies), ``move`` (notation),
        ``seconds``, ``nodes``, ``depth``, ``evaluation`` (float or NaN), ``status`` (verdict at
        a simultaneous round, else ``None``), ``clock`` (seconds left on the mover's game clock
        after the move, NaN without a clock or in a store written before clocks).

    Raises:
        ResultsError: unreadable, corrupt or foreign database.
    """
    import pandas as pd

    cond = [] if game_id is None else [f"m.game_id = {int(game_id)}"]
    rows_where = None
    with _reading(db) as conn:
        if where is not None:
            try:  # a condition on the game (its id): the games are picked in SQL
                conn.execute(f"SELECT 1 FROM games AS m WHERE ({where}) LIMIT 0")
                cond.append(f"({where})")
            except sqlite3.OperationalError:
                rows_where = where
        read = conn.execute("SELECT game_id, seats, packed FROM games AS m "
                            + (f"WHERE {' AND '.join(cond)} " if cond else "") + "ORDER BY game_id").fetchall()
    df = _plies(read, db)
    if rows_where is not None:
        mem = sqlite3.connect(":memory:")
        try:
            df.to_sql("moves", mem, index=False)
            keep = pd.read_sql_query(f"SELECT rowid - 1 AS i FROM moves AS m WHERE ({rows_where})", mem)["i"]
        except (sqlite3.Error, pd.errors.DatabaseError) as exc:
            raise unreadable(mem, exc, getattr(db, "path", None)) from None
        finally:
            mem.close()
        df = df.iloc[keep.to_numpy()].reset_index(drop=True)
    return df


def _plies(read: list[tuple], db: Any) -> pd.DataFrame:
    """The ``load_moves`` frame of games read as (game_id, seats, packed) rows."""
    import numpy as np
    import pandas as pd

    from arena.results.packed import unpack_many

    ids = np.array([r[0] for r in read], np.int64)
    try:
        cols = unpack_many([r[2] for r in read])
    except ValueError as exc:
        path = getattr(db, "path", None) or (db if isinstance(db, (str, os.PathLike)) else "results database")
        raise ResultsError(f"cannot read results database {str(path)!r}: {exc}") from None
    game, seat = cols["game"], cols["seat"]
    seat_lists = [json.loads(s) for s in dict.fromkeys(r[1] for r in read)]
    code = {json.dumps(v): i for i, v in enumerate(seat_lists)}
    width = max((len(v) for v in seat_lists), default=0)
    table = np.full((len(seat_lists), width + 1), None, dtype=object)  # the last column: no seat
    for i, v in enumerate(seat_lists):
        table[i, : len(v)] = v
    which = np.array([code[json.dumps(json.loads(r[1]))] for r in read], np.int64)
    inside = (seat >= 0) & (seat < width)
    label = table[which[game], np.where(inside, seat, width)] if len(game) else np.zeros(0, dtype=object)
    df = pd.DataFrame({"game_id": ids[game], "ply": cols["ply"].astype(np.int64), "seat": seat, "label": label,
                       "move": cols["move"], "seconds": cols["seconds"]})
    for name in ("nodes", "depth"):
        values = cols[name]
        df[name] = values.astype(np.int64) if not np.isnan(values).any() else values
    df["evaluation"] = cols["evaluation"].astype(float)
    df["status"] = cols["status"]
    df["clock"] = cols["clock"].astype(float)
    return df.sort_values(["game_id", "ply", "seat"], kind="stable", ignore_index=True)


def _columns(db: Any, table: str) -> set[str]:
    """The column names of ``table`` (empty when there is no such table).

    Raises:
        ResultsError: unreadable, corrupt or foreign database.
    """
    with _reading(db) as conn:
        return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def load_tournament(db: Any) -> dict[str, Any]:
    """The tournament's settings: ``name``, ``game``, ``params`` (dict), ``num_players``,
    ``seed``, ``settings`` (dict), ``bots`` (label -> spec, field order), ``id_names``
    (label -> an engine's ``id name``, for the bots that have one; none in a store written
    before the column existed), ``versions`` (label -> ``bot``, the label without version,
    ``version`` (1-based), ``digest`` and ``code`` (``None`` for a bot stored before versions
    and not run since), ``arena.tournament.members``), ``software`` (the versions of the arena
    and of a family's library the stored games were played under, each with its games:
    ``arena.results.versions.stretches``; empty for a store written before they were recorded),
    ``total_games``, ``created``.

    Raises:
        ResultsError: unreadable, corrupt, foreign or empty database.
    """
    with _reading(db) as conn:
        row = conn.execute("SELECT name, game, params, num_players, seed, settings, total_games, created "
                           "FROM tournament").fetchone()
        bots = conn.execute("SELECT label, spec FROM bots ORDER BY position").fetchall()
        columns = {r[1] for r in conn.execute("PRAGMA table_info(bots)")}
        id_names = dict(conn.execute("SELECT label, id_name FROM bots WHERE id_name IS NOT NULL ORDER BY position")
                        .fetchall()) if "id_name" in columns else {}
        versions = {label: {"bot": bot or label, "version": version or 1, "digest": digest,
                            "code": None if code is None else _decoded(code, db)}
                    for label, bot, version, digest, code in conn.execute(
                        "SELECT label, bot, version, digest, code FROM bots ORDER BY position")} \
            if "digest" in columns else {label: {"bot": label, "version": 1, "digest": None, "code": None}
                                         for label, _ in bots}
        played = recorded(conn)
        software = stretches(played, conn.execute("SELECT count(*) FROM games").fetchone()[0]) if played else []
    if row is None:
        raise ResultsError("results database has no tournament recorded")
    name, game, params, k, seed, settings, total, created = row
    return {"name": name, "game": game, "params": _decoded(params, db), "num_players": k, "seed": seed,
            "settings": _decoded(settings, db), "bots": dict(bots), "id_names": id_names, "versions": versions,
            "software": software, "total_games": total, "created": created}


def _decoded(text: Any, db: Any) -> Any:
    """The JSON value a column holds.

    Raises:
        ResultsError: a damaged value (not JSON), naming the database.
    """
    try:
        return json.loads(text)
    except (TypeError, ValueError) as exc:
        path = getattr(db, "path", None) or (db if isinstance(db, (str, os.PathLike)) else "results database")
        raise ResultsError(f"cannot read results database {str(path)!r}: a damaged value ({one_line(exc)})") from None


def load_game(db: Any, game_id: int) -> dict[str, Any]:
    """One stored game as a dict (the games row, JSON columns decoded).

    Raises:
        ResultsError: no such game (the message gives the stored range), or a bad database.
    """
    with _reading(db) as conn:
        conn.row_factory = sqlite3.Row
        try:
            row = conn.execute("SELECT * FROM games WHERE game_id = ?", (int(game_id),)).fetchone()
            lo, hi, n = conn.execute("SELECT min(game_id), max(game_id), count(*) FROM games").fetchone()
        finally:
            conn.row_factory = None
    if row is None:
        raise ResultsError(f"no game {game_id} stored; {n} games stored" + (f", ids {lo} to {hi}" if n else ""))
    out = dict(row)
    from arena.results.packed import moves_text

    try:
        out["moves"] = moves_text(out.pop("packed"))
    except ValueError as exc:
        path = getattr(db, "path", None) or (db if isinstance(db, (str, os.PathLike)) else "results database")
        raise ResultsError(f"cannot read results database {str(path)!r}: a damaged value (game {game_id}: {exc})"
                           ) from None
    for col in ("seats", "opening", "moves", "scores", "ranks"):
        out[col] = _decoded(out[col], db)
    return out


def load_answers(db: Any) -> pd.DataFrame:
    """The rows of ``load_moves`` that have a status (answers at simultaneous rounds: the
    puzzle races), read without the other moves.

    Raises:
        ResultsError: unreadable database.
    """
    return load_moves(db, None, "m.status IS NOT NULL")
