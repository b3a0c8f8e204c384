"""Aggregates read from a tournament's database without loading every row into Python
objects (issue 14: reports at a million games).

- ``load_game_frame``: the games frame of ``arena.results.store.load_games``, read in chunks; the list
  columns (``seats``, ``ranks``, ``scores``) hold one shared list per distinct JSON text (a
  tournament has a few), with their integer codes beside them (``seats_code``,
  ``ranks_code``, ``scores_code``) for the tables to group on.
- ``load_copies``: games repeating an earlier game of their series, found by ``GROUP BY series,
  moves_hash`` (the hash stored with each game, ``moves_hash``), confirmed on the move lists.
- ``search_sums`` / ``merge_sums`` / ``game_sums``: per-bot search statistics as sums, in SQL.
"""

from __future__ import annotations

import json
import os
from functools import reduce
from operator import add
from typing import TYPE_CHECKING, Any

from arena.errors import ResultsError
from arena.results.reading import _reading, unreadable

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd


def has_hashes(conn: Any) -> bool:
    """Whether every stored game has its ``moves_hash`` (stores written before it was added
    and not yet opened for a run have none)."""
    columns = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    if "moves_hash" not in columns:
        return False
    return conn.execute("SELECT 1 FROM games WHERE moves_hash IS NULL LIMIT 1").fetchone() is None


def load_copies(db: Any) -> list[int]:
    """Ids of the stored games that repeat the move list of an earlier game (lower id) of the
    same series and pairing: copies, counted once in seat statistics (``docs/statistics.md``
    "Games must be distinct").

    Candidates are the games sharing (series, ``moves_hash``) with another (an index scan of
    ``games_series_hash``; every store has the hashes since layout 2), then compared on their
    move lists (the packed column's text) and pairings, so a hash collision never makes a copy.

    Raises:
        ResultsError: unreadable database.
    """
    import pandas as pd

    from arena.results.packed import moves_text

    with _reading(db) as conn:
        df = pd.read_sql_query(
            "SELECT game_id, series, seats, packed FROM games WHERE (series, moves_hash) IN "
            "(SELECT series, moves_hash FROM games GROUP BY series, moves_hash HAVING count(*) > 1) ORDER BY game_id",
            conn)
    seats = [",".join(sorted(json.loads(s))) for s in df["seats"]]
    moves = [moves_text(b) for b in df["packed"]]
    dup = pd.DataFrame({"s": df["series"], "k": seats, "m": moves}).duplicated()
    return [int(g) for g in df.loc[dup, "game_id"]]


_NUMBERS = ["game_id", "series", "seed", "plies", "opening_plies", "fault_seat"]
_LISTS = ["seats", "ranks", "scores"]
#: Game ids read per query by ``load_game_frame`` (each column comes back as one text).
SPAN = 65_536


def load_game_frame(db: Any, codes: bool = True, seconds: bool = True) -> pd.DataFrame:
    """``arena.results.store.load_games`` (same columns, types and values), plus (``codes``)
    ``seats_code``, ``ranks_code`` and ``scores_code`` (int32: equal codes, equal lists; the
    report's tables group on them, ``arena.reports.coded``). The JSON of each distinct list is
    parsed once and the rows share that list: read-only. Without ``seconds`` the frame has no
    ``seconds`` column (no report table reads a game's duration; the report skips it).

    No row reaches Python as a tuple: per span of ``SPAN`` game ids, one query returns each
    numeric column as one comma-separated text (``group_concat``; times with 17 significant
    digits, so they round-trip exactly) parsed by ``numpy.fromstring``, and the seats, ranks,
    scores and termination of each game as one key, factorised (``pandas.factorize``).

    Raises:
        ResultsError: unreadable, corrupt or foreign database.
    """
    import numpy as np
    import pandas as pd

    cols = ", ".join(f"group_concat({c})" for c in _NUMBERS[:-1])
    times = "group_concat(printf('%!.17g', seconds))" if seconds else "NULL"
    sql = (f"SELECT {cols}, group_concat(coalesce(fault_seat, -1)), {times}, "
           "group_concat(seats || char(31) || ranks || char(31) || scores || char(31) || termination, char(30)), "
           "count(*) FROM games WHERE game_id BETWEEN ? AND ?")
    numbers: list[list[np.ndarray]] = [[] for _ in _NUMBERS]
    durations: list[np.ndarray] = []
    keys: list[np.ndarray] = []
    known: dict[str, int] = {}
    with _reading(db) as conn:
        lo, hi = conn.execute("SELECT min(game_id), max(game_id) FROM games").fetchone()
        for start in range(lo or 0, (hi or -1) + 1, SPAN):
            *row, count = conn.execute(sql, (start, start + SPAN - 1)).fetchone()
            if not count:
                continue
            span = [_parsed(text, np.int64, count, conn, db) for text in row[:len(_NUMBERS)]]
            for part, values in zip(numbers, span):
                part.append(values)
            if seconds:
                durations.append(_parsed(row[len(_NUMBERS)], float, count, conn, db))
            texts = row[-1].split("\x1e") if row[-1] is not None else []
            if len(texts) != count:
                raise _damaged(conn, db, "a game without its seats, ranks, scores or termination")
            code, uniques = pd.factorize(np.array(texts, dtype=object))
            glob = np.array([known.setdefault(u, len(known)) for u in uniques], dtype=np.int64)
            keys.append(glob[code])
    num = {c: np.concatenate(p) if p else np.zeros(0, np.int64) for c, p in zip(_NUMBERS, numbers)}
    key = np.concatenate(keys) if keys else np.zeros(0, np.int64)
    ids = num["game_id"]
    # rows come in key order already: then the columns are taken as they are (no copy of each)
    order: Any = slice(None) if bool(np.all(ids[1:] > ids[:-1])) else np.argsort(ids, kind="stable")
    df = pd.DataFrame({c: num[c][order] for c in _NUMBERS[:-1]})
    key = key[order]
    parts = [text.split("\x1f") for text in known]  # seats, ranks, scores, termination of each distinct key
    code = {}
    for i, col in enumerate([*_LISTS, "termination"]):
        texts = {text: j for j, text in enumerate(dict.fromkeys(p[i] for p in parts))}
        code[col] = np.array([texts[p[i]] for p in parts], dtype=np.int32)[key] if len(key) else np.zeros(0, np.int32)
        values = np.empty(len(texts), dtype=object)
        values[:] = [json.loads(t) if col != "termination" else t for t in texts]
        if col == "scores":
            values[:] = [[float(x) for x in v] for v in values]
        df[col] = values[code[col]] if len(key) else pd.Series([], dtype=object)
    fault = pd.array(num["fault_seat"][order], dtype="Int64")
    fault[num["fault_seat"][order] < 0] = pd.NA
    df["fault_seat"] = fault
    if seconds:
        df["seconds"] = np.concatenate(durations)[order] if durations else np.zeros(0)
    df = df[["game_id", "series", "seed", "seats", "ranks", "scores", "termination", "fault_seat", "plies",
             "opening_plies", *(["seconds"] if seconds else [])]]
    if codes:
        for col in _LISTS:
            df[f"{col}_code"] = code[col]
    give_back()
    return df


def give_back() -> None:
    """Return the C heap's free pages to the system (glibc's ``malloc_trim``; elsewhere nothing).
    The spans' texts and arrays of a million games are freed into the heap, which glibc keeps
    (about 100 MiB of a report's peak, measured); a report's later tables would reuse only part
    of it."""
    import ctypes
    import ctypes.util

    global _TRIM
    if _TRIM is None:
        try:
            _TRIM = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
        except (OSError, AttributeError):
            _TRIM = False
    if _TRIM:
        _TRIM(0)


_TRIM: Any = None


def _parsed(text: str | None, dtype: Any, count: int, conn: Any, db: Any) -> np.ndarray:
    """One ``group_concat`` column of a span parsed into ``count`` numbers.

    Raises:
        ResultsError: a damaged row (a missing value, which ``group_concat`` skips, or a
            value that is not a number) leaves another count.
    """
    import warnings

    import numpy as np

    with warnings.catch_warnings():  # a text that stops parsing early warns, then comes out short
        warnings.simplefilter("ignore", DeprecationWarning)
        values = np.fromstring(text or "", dtype=dtype, sep=",")
    if len(values) != count:
        raise _damaged(conn, db, f"{count} games but {len(values)} values in a column")
    return values


def _damaged(conn: Any, db: Any, why: str) -> ResultsError:
    """``cannot read results database '...': a damaged game row (why)``, as ``arena export``
    and ``arena run`` say it."""
    path = getattr(db, "path", None) or (db if isinstance(db, (str, os.PathLike)) else None)
    return unreadable(conn, f"a damaged game row ({why})", path)


def _rows(db: Any, sql: str, args: tuple = ()) -> list[tuple]:
    with _reading(db) as conn:
        return conn.execute(sql, args).fetchall()


#: Sums per bot of ``search_sums``, in order.
SEARCH_SUMS = ["moves", "nodes_n", "nodes_sum", "depth_n", "depth_sum", "seconds_n", "seconds_sum", "seconds_max",
               "nodes_sq"]
#: The indices of ``SEARCH_SUMS`` that add (all but ``seconds_max``, which is the larger).
_ADDED = (0, 1, 2, 3, 4, 5, 6, 8)


def _empty() -> list:
    return [0, 0, None, 0, None, 0, None, None, None]


def merge_sums(total: dict[str, list], part: dict[str, list]) -> dict[str, list]:
    """Add the per-bot sums ``part`` (``search_sums``) into ``total`` (changed and returned):
    counts and sums add (a ``None`` sum is no report), the largest time is the larger."""
    for label, values in part.items():
        acc = total.setdefault(label, _empty())
        for i in _ADDED:
            if values[i] is not None:
                acc[i] = values[i] if acc[i] is None else acc[i] + values[i]
        if values[7] is not None:
            acc[7] = values[7] if acc[7] is None else max(acc[7], values[7])
    return total


def game_sums(seats: Any, move_stats: Any) -> dict[str, list]:
    """The ``search_sums`` of one game from its ``MoveRecord``s (what the runner adds up as
    games are stored): plies with a seat (opening plies and rounds excluded). A seat's sums
    are taken by list comprehensions (the runner does this once a game)."""
    out: dict[str, list] = {}
    for seat, label in enumerate(seats):
        mine = [m for m in move_stats if m.seat == seat]
        if not mine:
            continue
        nodes = [m.nodes for m in mine if m.nodes is not None]
        depth = [m.depth for m in mine if m.depth is not None]
        secs = [m.seconds for m in mine if m.seconds is not None]
        sums = [len(mine), len(nodes), _total(nodes), len(depth), _total(depth), len(secs), _total(secs),
                max(secs) if secs else None,
                _total([float(n) ** 2 for n in nodes])]  # floats, as SQL sums them: no integer overflow
        if label in out:  # one bot in two seats
            merge_sums(out, {label: sums})
        else:
            out[label] = sums
    return out


def _total(values: list) -> Any:
    """The sum of ``values`` added one by one from the first, as SQLite sums (``search_sums``; no
    compensated float sum), ``None`` when empty."""
    return reduce(add, values) if values else None


def search_sums(db: Any, seats: int, after: int | None = None, upto: int | None = None) -> dict[str, list]:
    """Per-bot sums of the moves the bots chose (opening plies excluded), read from the games'
    packed columns (``arena.results.packed.unpack_many``) and added with numpy, in the order
    SQLite added the rows of layout 2: each game's moves in ply order, then the games in id
    order, grouped by their seats (no move row reaches Python).

    Args:
        db: as ``load_games``.
        seats: the tournament's seats per game (``num_players``); seats beyond are ignored.
        after, upto: only games with ``after < game_id <= upto`` (a key range; ``None``: no
            bound).

    Returns:
        label -> ``[moves, nodes_n, nodes_sum, depth_n, depth_sum, seconds_n, seconds_sum,
        seconds_max, nodes_sq]`` (``SEARCH_SUMS``): moves, then per statistic the moves
        reporting it, its sum (``None`` when none did), the largest time (seconds; ``None``
        without time) and the sum of the squared node counts (a float; ``None`` as the sum).
        Labels without a move are absent.

    Raises:
        ResultsError: unreadable database.
    """
    import numpy as np

    from arena.results import packed_sums

    k = int(seats)
    bounds = " AND ".join([*([f"game_id > {int(after)}"] if after is not None else []),
                           *([f"game_id <= {int(upto)}"] if upto is not None else [])])
    groups: dict[str, int] = {}
    totals = np.zeros((0, k, 9))  # per group and seat: SEARCH_SUMS (NaN: no value yet for a sum or max)
    with _reading(db) as conn:
        cursor = conn.execute("SELECT seats, packed FROM games " + (f"WHERE {bounds} " if bounds else "")
                              + "ORDER BY game_id")
        while chunk := cursor.fetchmany(SPAN // 4):
            for text, _ in chunk:
                groups.setdefault(text, len(groups))
            if len(groups) > len(totals):
                grown = np.full((len(groups), k, 9), np.nan)
                grown[:, :, [0, 1, 3, 5]] = 0
                grown[: len(totals)] = totals
                totals = grown
            blobs = [b for _, b in chunk]
            if len(blobs) >= packed_sums.LOOP_GAMES:  # the compiled loop: the same sums, no row arrays
                per_game = packed_sums.game_sums(blobs, k)
            else:
                per_game = _game_sums(blobs, k)
            group = np.array([groups[t] for t, _ in chunk], np.int64)
            _add_games(totals, group, per_game)
    out: dict[str, list] = {}
    for text in sorted(groups):  # SQLite's GROUP BY order: by the seats text
        labels = json.loads(text)
        for s, label in enumerate(labels[:k]):
            row = totals[groups[text], s]
            if row[0]:
                merge_sums(out, {label: _python(row)})
    return out


def _game_sums(blobs: list, k: int) -> Any:
    """Each game's sums by seat (games x k x 9, ``SEARCH_SUMS``; NaN: no value), each
    sum taken over the game's rows in order."""
    import numpy as np

    from arena.results.packed import unpack_many

    cols = unpack_many(blobs, moves=False)
    seat = cols["seat"]
    mine = (seat >= 0) & (seat < k)
    at = (cols["game"] * k + seat)[mine]
    size = len(blobs) * k
    out = np.full((size, 9), np.nan)
    out[:, 0] = np.bincount(at, minlength=size)
    for count, total, values in ((1, 2, cols["nodes"]), (3, 4, cols["depth"]), (5, 6, cols["seconds"])):
        v = values[mine]
        ok = ~np.isnan(v)
        out[:, count] = np.bincount(at[ok], minlength=size)
        acc = np.zeros(size)
        np.add.at(acc, at[ok], v[ok])  # unbuffered: each game's values added in row order
        out[:, total] = np.where(out[:, count] > 0, acc, np.nan)
        if total == 6:
            top = np.full(size, -np.inf)
            np.maximum.at(top, at[ok], v[ok])
            out[:, 7] = np.where(out[:, count] > 0, top, np.nan)
        if total == 2:
            sq = np.zeros(size)
            np.add.at(sq, at[ok], v[ok] * v[ok])
            out[:, 8] = np.where(out[:, count] > 0, sq, np.nan)
    return out.reshape(len(blobs), k, 9)


def _add_games(totals: Any, group: Any, per_game: Any) -> None:
    """Add the games' sums into their groups' ``totals``, game after game (counts add; a sum
    skips a game without values; the time is the larger)."""
    import numpy as np

    for i in (0, 1, 3, 5):
        np.add.at(totals[:, :, i], group, per_game[:, :, i])
    for i in (2, 4, 6, 8):  # a sum starts at 0.0 (0.0 + x is x): the first value as SQLite starts
        for s in range(totals.shape[1]):
            v = per_game[:, s, i]
            ok = ~np.isnan(v)
            col = totals[:, s, i]
            acc = np.where(np.isnan(col), 0.0, col)
            np.add.at(acc, group[ok], v[ok])
            touched = np.zeros(len(col), bool)
            touched[group[ok]] = True
            totals[:, s, i] = np.where(np.isnan(col) & ~touched, np.nan, acc)
    top = per_game[:, :, 7]
    for s in range(totals.shape[1]):
        ok = ~np.isnan(top[:, s])
        col = np.where(np.isnan(totals[:, s, 7]), -np.inf, totals[:, s, 7])
        np.maximum.at(col, group[ok], top[ok, s])
        totals[:, s, 7] = np.where(np.isinf(col), np.nan, col)


def _python(row: Any) -> list:
    """One bot's ``SEARCH_SUMS`` as SQL gave them: counts and integer sums as ``int``, times
    and squares as ``float``, ``None`` where no move reported the statistic."""
    import math

    out: list = []
    for i, v in enumerate(row.tolist()):
        if math.isnan(v):
            out.append(None)
        elif i in (0, 1, 2, 3, 4, 5):
            out.append(int(v))
        else:
            out.append(float(v))
    return out
