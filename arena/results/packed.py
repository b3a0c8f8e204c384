"""A game's plies in one packed column (``games.packed``, ``docs/storage.md`` "The packed column").

A store of layout 3 keeps no row per move: each game row holds its move list (the JSON text
``arena export`` gives) and the figures of each ply (seat, seconds, nodes, depth, evaluation,
status, clock...) in one BLOB. Byte 0 is the packing's version (``PACKING``); the rest is a raw
DEFLATE stream (``zlib``, no header) of::

    header   <IIH>  rows n, length of the move text in bytes, columns present (``BIT_*`` bits)
    moves    the move list, UTF-8: its moves joined by the unit separator (0x1F), or with
             BIT_JSON its JSON text (a move holding 0x1F or empty, or a text ``json.dumps``
             would not give back); the JSON text of the list is what ``arena export`` writes
             and what ``moves_hash`` is taken of
    seat     int8[n]                  0-based; -1 an opening ply, -3 a chance ply
    ply      column   if BIT_PLY       else 0, 1, ..., n-1
    seconds  column   if BIT_SECONDS
    nodes    column   if BIT_NODES
    depth    column   if BIT_DEPTH
    evaluation column if BIT_EVALUATION
    clock    column   if BIT_CLOCK
    status   <I> + JSON list   if BIT_STATUS     one text or null a row
    own      <I> + JSON list   if BIT_OWN        a row's move text where it is not moves[ply]
                                                 (a seat's answer at a simultaneous round), else null

A column absent from the bits is NULL in every row. A numeric column is a format byte, its
kind | the width w of its values in bytes (1, 2, 4 or 8), then its n values:

    FLOAT   (0x00 | 8)  float64 values; NaN: NULL
    SCALED  (0x10 | w)  <h> q, then w-byte integers k: the value is k * 2**q, exactly (every
                        value finite, none NULL: a time measured by a clock of fixed
                        resolution takes 3 or 4 bytes instead of 8)
    INTEGER (0x20 | w)  w-byte integers; the least w-byte value: NULL

Values are little-endian and stored byte plane by byte plane (every value's first byte, then
every second byte...), which DEFLATE packs about a fifth tighter than the values one after the
other. ``unpack_many`` reads many games' rows at once with numpy (one decompression a game, no
Python step a move); ``register`` gives a connection the SQL functions the ``moves`` view reads.
"""

from __future__ import annotations

import functools
import json
import math
import struct
import sys
import zlib
from array import array
from collections.abc import Sequence
from itertools import repeat
from operator import itemgetter, not_
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from arena.referee import MoveRecord

#: the version of the packing (byte 0 of ``games.packed``)
PACKING = 1
BIT_PLY, BIT_SECONDS, BIT_NODES, BIT_DEPTH, BIT_EVALUATION, BIT_CLOCK, BIT_STATUS, BIT_OWN, BIT_JSON = (
    1 << i for i in range(9))
#: the DEFLATE level (9 packs these few hundred bytes no tighter than 6, and takes longer)
LEVEL = 6
#: the fields of a ``MoveRecord``, in order
ROW_FIELDS = ("ply", "seat", "move", "seconds", "nodes", "depth", "evaluation", "status", "clock")
#: the separator of the moves in the packed move text
SEPARATOR = "\x1f"
#: the numeric columns after ``seat``, in order: (name, bit, dtype)
NUMERIC = (("ply", BIT_PLY, np.int32), ("seconds", BIT_SECONDS, np.float64), ("nodes", BIT_NODES, np.int64),
           ("depth", BIT_DEPTH, np.int64), ("evaluation", BIT_EVALUATION, np.float64),
           ("clock", BIT_CLOCK, np.float64))
_HEADER = struct.Struct("<IIH")
#: a numeric column's format byte: its kind (high bits) | the width of its values in bytes
FLOAT, SCALED, INTEGER = 0x00, 0x10, 0x20
_Q = struct.Struct("<h")
_LENGTH = struct.Struct("<I")
#: ``array`` type codes of signed integers by width in bytes
_CODES = {1: "b", 2: "h", 4: "i", 8: "q"}


def _planes(values: array, width: int) -> bytes:
    """The little-endian bytes of ``values`` (``width`` bytes each), byte plane by byte plane."""
    if sys.byteorder == "big":
        values = array(values.typecode, values)
        values.byteswap()
    raw = values.tobytes()
    return b"".join(raw[i::width] for i in range(width)) if width > 1 else raw


def pack(moves_json: str, moves: Sequence[str], stats: Sequence[MoveRecord]) -> bytes:
    """The packed column of one game: its move list (``moves_json``, the JSON text of ``moves``)
    and its ``MoveRecord`` rows, stored in (ply, seat) order (the key of layout 2's rows). Plain
    Python and ``array`` (no numpy: a few tens of µs a game, written as each game is stored)."""
    n = len(stats)
    cols = list(zip(*stats)) or [()] * len(ROW_FIELDS)
    counted = list(cols[0]) == list(range(n))  # plies 0, 1, ...: in (ply, seat) order already
    if not counted and list(zip(cols[0], cols[1])) != sorted(zip(cols[0], cols[1])):
        stats = sorted(stats, key=_key)
        cols = list(zip(*stats))
        counted = list(cols[0]) == list(range(n))
    ply, seat, move, seconds, nodes, depth, evaluation, status, clock = cols
    plain = all(moves) and SEPARATOR not in "".join(moves) and json.dumps(list(moves)) == moves_json
    text = (SEPARATOR.join(moves) if plain else moves_json).encode()
    mask, parts = 0 if plain else BIT_JSON, [b"", text, array("b", seat).tobytes()]
    if not counted:
        mask |= BIT_PLY
        parts.append(_int_section(ply))
    for values, bit, floating in ((seconds, BIT_SECONDS, True), (nodes, BIT_NODES, False),
                                  (depth, BIT_DEPTH, False), (evaluation, BIT_EVALUATION, True),
                                  (clock, BIT_CLOCK, True)):
        if values.count(None) != n:
            mask |= bit
            parts.append(_float_section(values) if floating else _int_section(values))
    if status.count(None) != n:
        mask |= BIT_STATUS
        parts.append(_texts(list(status)))
    size = len(moves)
    own: list[str | None] = ([None] * n if counted and n <= size and list(move) == list(moves[:n])  # the usual
                             else [None if p < size and moves[p] == m else m for p, m in zip(ply, move)])
    if own.count(None) != n:
        mask |= BIT_OWN
        parts.append(_texts(own))
    parts[0] = _HEADER.pack(n, len(text), mask)
    deflate = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    return bytes([PACKING]) + deflate.compress(b"".join(parts)) + deflate.flush()


def _width(low: int, high: int) -> int:
    """The fewest bytes (1, 2, 4 or 8) of a signed integer holding ``low`` to ``high`` and, below
    them, its NULL (the type's least value)."""
    for width in (1, 2, 4, 8):
        bound = 1 << (8 * width - 1)
        if -bound < low and high < bound:
            return width
    raise OverflowError(f"{low}..{high} is beyond 64 bits")


def _int_section(values: Sequence[Any]) -> bytes:
    """An integer column: its format byte (``INTEGER`` | width) and the values in that width
    (NULL: the width's least value)."""
    known = [int(v) for v in values if v is not None] if None in values else list(map(int, values))
    width = _width(min(known, default=0), max(known, default=0))
    null = -(1 << (8 * width - 1))
    ints = known if len(known) == len(values) else [null if v is None else int(v) for v in values]
    return bytes([INTEGER | width]) + _planes(array(_CODES[width], ints), width)


def _float_section(values: Sequence[Any]) -> bytes:
    """A float column: when every value is finite (no NULL) and no zero is negative, each is
    an integer k times 2**q for one q (a time measured by a clock of fixed resolution is):
    ``SCALED`` | width, q (``<h``) and the k in that width; else ``FLOAT`` | 8 and the float64
    values (NaN: NULL). Both give the same floats back, bit for bit."""
    floats = [math.nan if v is None else float(v) for v in values] if None in values else list(map(float, values))
    try:  # (k, 2**-q) in lowest terms, in a C loop; NaN (a NULL) and inf raise
        ratios = list(map(float.as_integer_ratio, floats))
    except (ValueError, OverflowError):
        ratios = []
    # no negative zero (its ratio is 0, 1: it would come back +0.0); the zeros' signs in C loops
    if ratios and (0.0 not in floats or min(map(math.copysign, repeat(1.0), filter(not_, floats))) > 0):
        den = max(map(itemgetter(1), ratios))  # a power of 2: k = v * den is exact as a float product
        q = 1 - den.bit_length()
        try:
            ks = list(map(int, map(float(den).__mul__, floats)))
        except OverflowError:  # den beyond a float (subnormal values), or a product beyond one
            ks = [k * (den // d) for k, d in ratios]
        low, high = min(ks), max(ks)
        if -2 ** 15 <= q and -2 ** 62 < low and high < 2 ** 62:
            width = _width(low, high)
            return bytes([SCALED | width]) + _Q.pack(q) + _planes(array(_CODES[width], ks), width)
    return bytes([FLOAT | 8]) + _planes(array("d", floats), 8)


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


def _section(data: bytes, at: int, n: int) -> tuple[int, int, int, int]:
    """The numeric column of ``n`` rows at ``at``: its format byte, q (0 but for ``SCALED``),
    where its values start and where the next section starts."""
    fmt, q = data[at], 0
    at += 1
    if fmt & 0xF0 == SCALED:
        (q,) = _Q.unpack_from(data, at)
        at += _Q.size
    return fmt, q, at, at + n * (fmt & 0x0F)


def moves_text(blob: bytes) -> str:
    """The JSON text of a game's move list, from its packed column.

    Raises:
        ValueError: damaged or of another version.
    """
    data = payload(blob)
    _, size, mask = _HEADER.unpack_from(data)
    return _json(data[_HEADER.size: _HEADER.size + size].decode(), mask)


def _json(text: str, mask: int) -> str:
    """The JSON text of a move list from its packed text."""
    return text if mask & BIT_JSON else json.dumps(_split(text, mask))


def _split(text: str, mask: int) -> list[str]:
    """The move list from its packed text."""
    if mask & BIT_JSON:
        return json.loads(text)
    return text.split(SEPARATOR) if text else []


def _sections(buf: Any, at: Any, n: Any, mask: Any) -> dict[str, Any]:
    """Where each game's numeric columns lie in ``buf`` (the games' payloads joined), column
    by column over all games at once (``_section``'s reading): ``at``: each game's first
    numeric section, ``n``: its rows, ``mask``: its column bits. Returns name -> games x 3
    (format, -1 when the game has no such column; q; the values' offset in ``buf``) and
    ``"end"``: games x 1, where each game's numeric sections end."""
    found: dict[str, Any] = {}
    pos = at.astype(np.int64)
    last = max(len(buf) - 1, 0)
    for name, bit, _ in NUMERIC:
        has = (mask & bit) != 0
        fmt = np.where(has, buf[np.minimum(pos, last)].astype(np.int64) if len(buf) else 0, -1)
        scaled = has & ((fmt & 0xF0) == SCALED)
        q = np.zeros(len(pos), np.int64)
        if scaled.any():
            lo, hi = buf[pos[scaled] + 1].astype(np.int64), buf[pos[scaled] + 2].astype(np.int64)
            q[scaled] = ((hi << 8) | lo) - ((hi & 0x80) << 9)  # ``_Q``: little-endian int16
        begin = pos + 1 + _Q.size * scaled
        found[name] = np.stack([fmt, q, np.where(has, begin, 0)], axis=1)
        pos = np.where(has, begin + n * (fmt & 0x0F), pos)
    found["end"] = pos[:, None]
    return found


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
                                                                                   ("m", "<u2")]), count=g)
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
    found = _sections(buf, at, n, mask)
    for name, _, _ in NUMERIC:
        kinds, scale, begins = found[name].T
        col = index.astype(np.float64) if name == "ply" else np.full(total, np.nan)
        for kind in np.unique(kinds[kinds >= 0]).tolist():
            rows = (kinds == kind)[game]
            width = kind & 0x0F
            r0 = begins[game[rows]] + index[rows]
            planes = buf[r0[:, None] + np.arange(width)[None, :] * n[game[rows]][:, None]]
            values = planes.copy().view("<f8" if kind & 0xF0 == FLOAT else f"<i{width}").ravel()
            if kind & 0xF0 == FLOAT:
                col[rows] = values
            elif kind & 0xF0 == SCALED:
                col[rows] = np.ldexp(values.astype(np.float64), scale[game[rows]])
            else:
                col[rows] = np.where(values == -(1 << (8 * width - 1)), np.nan, values.astype(np.float64))
        out[name] = col.astype(np.int64) if name == "ply" else col
    at = found.pop("end")[:, 0]
    out["status"] = np.full(total, None, dtype=object)
    own = np.full(total, None, dtype=object)
    for i in np.flatnonzero((mask & (BIT_STATUS | BIT_OWN)) != 0).tolist():  # rounds only: a loop a game
        pos, span = int(at[i] - base[i]), slice(int(first[i]), int(first[i] + n[i]))
        for bit, target in ((BIT_STATUS, out["status"]), (BIT_OWN, own)):
            if mask[i] & bit:
                (length,) = _LENGTH.unpack_from(datas[i], pos)
                target[span] = json.loads(datas[i][pos + _LENGTH.size: pos + _LENGTH.size + length])
                pos += _LENGTH.size + length
    if moves:
        lists = [_split(d[_HEADER.size: _HEADER.size + t].decode(), m)
                 for d, t, m in zip(datas, head["t"].tolist(), mask.tolist())]
        flat = np.empty(sum(map(len, lists)) + 1, dtype=object)
        flat[:-1] = [m for lst in lists for m in lst]
        starts = np.zeros(g, np.int64)
        if g:
            starts[1:] = np.cumsum([len(lst) for lst in lists])[:-1]
        sizes = np.array([len(lst) for lst in lists], np.int64)
        ply = out["ply"]
        inside = ply < sizes[game] if total else np.zeros(0, bool)
        move = np.where(inside, starts[game] + ply, len(flat) - 1) if total else np.zeros(0, np.int64)
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
    moves = _split(data[_HEADER.size: _HEADER.size + size].decode(), mask)
    at = _HEADER.size + size
    cols: dict[str, list] = {"seat": list(struct.unpack_from(f"{n}b", data, at))}
    at += n
    for name, bit, _ in NUMERIC:
        if not mask & bit:
            cols[name] = list(range(n)) if name == "ply" else [None] * n
            continue
        fmt, q, start, at = _section(data, at, n)
        width = fmt & 0x0F
        planes = np.frombuffer(data, np.uint8, n * width, start).reshape(width, n).T.copy()
        values = planes.view("<f8" if fmt & 0xF0 == FLOAT else f"<i{width}").ravel()
        if fmt & 0xF0 == FLOAT:
            cols[name] = [None if v != v else v for v in values.tolist()]
        elif fmt & 0xF0 == SCALED:
            cols[name] = np.ldexp(values.astype(np.float64), q).tolist()
        else:
            null = -(1 << (8 * width - 1))
            cols[name] = [None if v == null else v for v in values.tolist()]
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
    return None if blob is None else _rows(bytes(blob))[int(row)][ROW_COLUMNS.index(name)]


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
