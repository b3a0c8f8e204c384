"""A game's plies in one packed column (``games.packed``, ``docs/storage.md`` "The packed column").

A store of layout 3 keeps no row per move: each game row holds its move list (the JSON text
``arena export`` gives) and the figures of each ply (seat, seconds, nodes, depth, evaluation,
status, clock...) in one BLOB. Byte 0 is the packing's version (``PACKING``); the rest is a raw
DEFLATE stream (``zlib``, no header) of::

    header   <IIB>  rows n, length of the move text in bytes, columns present (``BIT_*`` bits)
    moves    the JSON text of the game's move list (UTF-8; ``moves_hash`` is taken of it)
    seat     int8[n]                            0-based; -1 an opening ply, -3 a chance ply
    ply      int32[n]          if BIT_PLY        else 0, 1, ..., n-1
    seconds  float64[n]        if BIT_SECONDS    NaN: NULL
    nodes    int64[n]          if BIT_NODES      INT64_MIN: NULL
    depth    int64[n]          if BIT_DEPTH      INT64_MIN: NULL
    evaluation float64[n]      if BIT_EVALUATION NaN: NULL
    clock    float64[n]        if BIT_CLOCK      NaN: NULL
    status   <I> + JSON list   if BIT_STATUS     one text or null a row
    own      <I> + JSON list   if BIT_OWN        a row's move text where it is not moves[ply]
                                                 (a seat's answer at a simultaneous round), else null

Arrays are little-endian and stored byte plane by byte plane (every value's first byte, then
every second byte...), which DEFLATE packs about a fifth tighter than the values one after the
other. ``unpack_many`` reads many games' rows at once with numpy (one decompression a game, no
Python step a move); ``register`` gives a connection the SQL functions the ``moves`` view reads.
"""

from __future__ import annotations

import functools
import json
import struct
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from arena.referee import MoveRecord

#: the version of the packing (byte 0 of ``games.packed``)
PACKING = 1
BIT_PLY, BIT_SECONDS, BIT_NODES, BIT_DEPTH, BIT_EVALUATION, BIT_CLOCK, BIT_STATUS, BIT_OWN = (1 << i for i in range(8))
#: the numeric columns after ``seat``, in order: (name, bit, dtype)
NUMERIC = (("ply", BIT_PLY, np.int32), ("seconds", BIT_SECONDS, np.float64), ("nodes", BIT_NODES, np.int64),
           ("depth", BIT_DEPTH, np.int64), ("evaluation", BIT_EVALUATION, np.float64),
           ("clock", BIT_CLOCK, np.float64))
_HEADER = struct.Struct("<IIB")
_LENGTH = struct.Struct("<I")
#: an integer column's NULL
NULL_INT = np.iinfo(np.int64).min


def _planes(values: np.ndarray) -> bytes:
    """The little-endian bytes of ``values``, byte plane by byte plane."""
    return values.astype(values.dtype.newbyteorder("<")).view(np.uint8).reshape(len(values), -1).T.tobytes()


def pack(moves_json: str, moves: Sequence[str], stats: Sequence[MoveRecord]) -> bytes:
    """The packed column of one game: its move list (``moves_json``, the JSON text of ``moves``)
    and its ``MoveRecord`` rows, stored in (ply, seat) order (the key of layout 2's rows)."""
    stats = sorted(stats, key=_key)
    n = len(stats)
    text = moves_json.encode()
    seat = np.fromiter((m.seat for m in stats), np.int8, n)
    ply = np.fromiter((m.ply for m in stats), np.int64, n)
    mask, parts = 0, [b"", text, seat.tobytes()]
    if not np.array_equal(ply, np.arange(n)):
        mask |= BIT_PLY
        parts.append(_planes(ply.astype(np.int32)))
    floats = {"seconds": [m.seconds for m in stats], "evaluation": [m.evaluation for m in stats],
              "clock": [m.clock for m in stats]}
    ints = {"nodes": [m.nodes for m in stats], "depth": [m.depth for m in stats]}
    for name, bit, dtype in NUMERIC[1:]:
        values = floats[name] if name in floats else ints[name]
        if all(v is None for v in values):
            continue
        mask |= bit
        if dtype is np.float64:
            parts.append(_planes(np.array([np.nan if v is None else float(v) for v in values], np.float64)))
        else:
            parts.append(_planes(np.array([NULL_INT if v is None else int(v) for v in values], np.int64)))
    status = [m.status for m in stats]
    if any(s is not None for s in status):
        mask |= BIT_STATUS
        parts.append(_texts(status))
    own = [None if m.ply < len(moves) and moves[m.ply] == m.move else m.move for m in stats]
    if any(o is not None for o in own):
        mask |= BIT_OWN
        parts.append(_texts(own))
    parts[0] = _HEADER.pack(n, len(text), mask)
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    return bytes([PACKING]) + deflate.compress(b"".join(parts)) + deflate.flush()


def _key(m: MoveRecord) -> tuple[int, int]:
    return m.ply, m.seat


def _texts(values: list[str | None]) -> bytes:
    data = json.dumps(values).encode()
    return _LENGTH.pack(len(data)) + data


def payload(blob: bytes) -> bytes:
    """The decompressed payload of a packed column.

    Raises:
        ValueError: a packing of another version, or damaged.
    """
    if not blob or blob[0] != PACKING:
        raise ValueError(f"packed moves of version {blob[0] if blob else None}, expected {PACKING}")
    try:
        return zlib.decompress(blob[1:], -15)
    except zlib.error as exc:
        raise ValueError(f"damaged packed moves ({exc})") from None


def moves_text(blob: bytes) -> str:
    """The JSON text of a game's move list, from its packed column.

    Raises:
        ValueError: damaged or of another version.
    """
    data = payload(blob)
    _, size, _ = _HEADER.unpack_from(data)
    return data[_HEADER.size: _HEADER.size + size].decode()


ROW_COLUMNS = ("ply", "seat", "move", "seconds", "nodes", "depth", "evaluation", "status", "clock")


def unpack_many(blobs: Sequence[bytes], moves: bool = True) -> dict[str, Any]:
    """The ply rows of many games, column by column (numpy arrays, one entry a row, games in
    the order given, each game's rows in its stored order).

    Returns:
        ``game`` (int64: the index into ``blobs`` of the row's game), ``ply`` (int64), ``seat``
        (int64), ``seconds``, ``evaluation``, ``clock`` (float64, NaN for NULL), ``nodes``,
        ``depth`` (float64, NaN for NULL), ``status`` (object: text or ``None``) and, with
        ``moves``, ``move`` (object: the move text) and ``lists`` (each game's move list).

    Raises:
        ValueError: a packed column damaged or of another version.
    """
    datas = [payload(b) for b in blobs]
    g = len(datas)
    head = np.frombuffer(b"".join(d[:_HEADER.size] for d in datas), dtype=np.dtype([("n", "<u4"), ("t", "<u4"),
                                                                                   ("m", "u1")]), count=g)
    n, mask = head["n"].astype(np.int64), head["m"].astype(np.int64)
    base = np.zeros(g, np.int64)
    if g:
        base[1:] = np.cumsum([len(d) for d in datas])[:-1]
    buf = np.frombuffer(b"".join(datas), np.uint8)
    total = int(n.sum())
    game = np.repeat(np.arange(g, dtype=np.int64), n)
    first = np.zeros(g, np.int64)
    if g:
        first[1:] = np.cumsum(n)[:-1]
    index = np.arange(total, dtype=np.int64) - first[game]  # a row's 0-based index in its game
    at = base + _HEADER.size + head["t"].astype(np.int64)  # each game's next section
    out: dict[str, Any] = {"game": game, "seat": buf[at[game] + index].view(np.int8).astype(np.int64)}
    at = at + n
    for name, bit, dtype in NUMERIC:
        size = np.dtype(dtype).itemsize
        has = (mask & bit) != 0
        col = np.full(total, np.nan) if name != "ply" else index.copy()
        rows = has[game]
        if rows.any():
            r0 = at[game[rows]] + index[rows]
            planes = buf[r0[:, None] + np.arange(size)[None, :] * n[game[rows]][:, None]]
            values = planes.copy().view(np.dtype(dtype).newbyteorder("<")).ravel()
            if name == "ply":
                col[rows] = values
            elif dtype is np.int64:
                col[rows] = np.where(values == NULL_INT, np.nan, values.astype(np.float64))
            else:
                col[rows] = values
        out[name] = col
        at = at + np.where(has, n * size, 0)
    out["status"] = np.full(total, None, dtype=object)
    own = np.full(total, None, dtype=object)
    for i in np.flatnonzero((mask & (BIT_STATUS | BIT_OWN)) != 0):  # rounds only: a loop a game
        pos, rows = int(at[i] - base[i]), slice(int(first[i]), int(first[i] + n[i]))
        for bit, target in ((BIT_STATUS, out["status"]), (BIT_OWN, own)):
            if mask[i] & bit:
                (size,) = _LENGTH.unpack_from(datas[i], pos)
                target[rows] = json.loads(datas[i][pos + _LENGTH.size: pos + _LENGTH.size + size])
                pos += _LENGTH.size + size
    if moves:
        lists = [json.loads(d[_HEADER.size: _HEADER.size + t]) for d, t in zip(datas, head["t"].tolist())]
        flat = np.empty(sum(map(len, lists)) + 1, dtype=object)
        flat[:-1] = [m for lst in lists for m in lst]
        start = np.zeros(g, np.int64)
        if g:
            start[1:] = np.cumsum([len(lst) for lst in lists])[:-1]
        size = np.array([len(lst) for lst in lists], np.int64)
        ply = out["ply"]
        inside = ply < size[game] if total else np.zeros(0, bool)
        move = np.where(inside, start[game] + ply, len(flat) - 1) if total else np.zeros(0, np.int64)
        text = flat[move]
        mine = own != None  # noqa: E711 (element-wise)
        text[mine] = own[mine]
        out["move"], out["lists"] = text, lists
    return out


# SQL access: the ``moves`` view (``VIEW``) calls these, registered on a connection by ``register``.

@functools.lru_cache(maxsize=64)
def _rows(blob: bytes) -> list[tuple]:
    """One game's rows as the ``moves`` view gives them (``ROW_COLUMNS``; ``None`` for NULL)."""
    data = payload(blob)
    n, size, mask = _HEADER.unpack_from(data)
    moves = json.loads(data[_HEADER.size: _HEADER.size + size])
    at = _HEADER.size + size
    cols: dict[str, list] = {"seat": list(struct.unpack_from(f"{n}b", data, at))}
    at += n
    for name, bit, dtype in NUMERIC:
        if not mask & bit:
            cols[name] = list(range(n)) if name == "ply" else [None] * n
            continue
        width = np.dtype(dtype).itemsize
        values = np.frombuffer(data, np.uint8, n * width, at).reshape(width, n).T.copy()
        values = values.view(np.dtype(dtype).newbyteorder("<")).ravel()
        null = np.isnan(values) if dtype is np.float64 else values == NULL_INT
        cols[name] = [None if z else v for v, z in zip(values.tolist(), null.tolist())]
        at += n * width
    for name, bit in (("status", BIT_STATUS), ("own", BIT_OWN)):
        cols[name] = [None] * n
        if mask & bit:
            (length,) = _LENGTH.unpack_from(data, at)
            cols[name] = json.loads(data[at + _LENGTH.size: at + _LENGTH.size + length])
            at += _LENGTH.size + length
    cols["move"] = [own if own is not None else moves[ply] if ply < len(moves) else None
                    for own, ply in zip(cols["own"], cols["ply"])]
    return list(zip(*(cols[c] for c in ROW_COLUMNS)))


def _count(blob: bytes | None) -> int:
    return 0 if blob is None else len(_rows(bytes(blob)))


def _field(blob: bytes | None, row: int, name: str) -> Any:
    if blob is None:
        return None
    return _rows(bytes(blob))[int(row)][ROW_COLUMNS.index(name)]


def _moves_json(blob: bytes | None) -> str | None:
    return None if blob is None else moves_text(bytes(blob))


def register(conn: Any) -> None:
    """Give ``conn`` the SQL functions of the packed column: ``arena_move_count(packed)`` (rows),
    ``arena_move(packed, row, column)`` (one figure of the 0-based row: a name of ``ROW_COLUMNS``)
    and ``arena_moves(packed)`` (the JSON text of the move list); the ``moves`` view needs them."""
    conn.create_function("arena_move_count", 1, _count, deterministic=True)
    conn.create_function("arena_move", 3, _field, deterministic=True)
    conn.create_function("arena_moves", 1, _moves_json, deterministic=True)


#: the per-move rows of layout 2 as a view over ``games.packed`` (one row a ply and seat, in
#: (game_id, row) order); reading it needs ``register``'s functions on the connection
VIEW = """CREATE VIEW moves AS
WITH RECURSIVE r(game_id, i, n) AS (
    SELECT game_id, 0, arena_move_count(packed) FROM games WHERE arena_move_count(packed) > 0
    UNION ALL SELECT game_id, i + 1, n FROM r WHERE i + 1 < n ORDER BY 1, 2),
p(game_id, i, packed) AS (SELECT game_id, i, (SELECT packed FROM games g WHERE g.game_id = r.game_id) FROM r)
SELECT game_id, """ + ", ".join(f"arena_move(packed, i, '{c}') AS {c}" for c in ROW_COLUMNS) + """ FROM p;
"""
