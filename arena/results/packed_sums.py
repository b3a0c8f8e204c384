"""Each game's search sums by seat straight from its packed column (``arena.results.packed``),
for ``arena.results.aggregates.search_sums`` over many games: a compiled loop reads the seat,
seconds, nodes and depth sections of the decompressed payloads and adds them up, game by game
in row order, without making a row array (a million games: about 2.5 s of decompression, the
sums a few tenths, where ``unpack_many`` and numpy's grouping took 7 s and some hundred MiB).

The sums are ``aggregates._game_sums``'s to the bit (``tests/results/test_packed_sums.py``):
each sum starts at 0.0 and adds the game's values in row order, as ``numpy.add.at`` does there.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from arena.results.packed import BIT_DEPTH, BIT_NODES, BIT_PLY, BIT_SECONDS, FLOAT, SCALED, _HEADER, payload

#: games in one call from which ``aggregates.search_sums`` uses the compiled loop
LOOP_GAMES = 8_192


def game_sums(blobs: Sequence[bytes], k: int) -> np.ndarray:
    """Each game's sums by seat: games x ``k`` x 9 (``aggregates.SEARCH_SUMS``; NaN: no value),
    of the packed columns ``blobs``.

    Raises:
        ValueError: a packed column damaged or of another version.
    """
    datas = [payload(b) for b in blobs]
    g = len(datas)
    head = np.frombuffer(b"".join(d[:_HEADER.size] for d in datas),
                         dtype=np.dtype([("n", "<u4"), ("t", "<u4"), ("m", "<u2")]), count=g)
    sizes = np.fromiter(map(len, datas), np.int64, g)
    base = np.zeros(g, np.int64)
    base[1:] = np.cumsum(sizes)[:-1]
    buf = np.frombuffer(b"".join(datas), np.uint8)
    del datas
    n = head["n"].astype(np.int64)
    seats_at = base + _HEADER.size + head["t"].astype(np.int64)
    out = np.full((g, k, 9), np.nan)
    out[:, :, [0, 1, 3, 5]] = 0
    _compiled()(buf, seats_at, n, head["m"].astype(np.int64), base + sizes, int(k), out)
    return out


def _sums(buf, seats_at, n, mask, end, k, out):  # pragma: no cover - compiled by numba
    """``game_sums``' loop over the games (numba's subset of Python): each game's seconds,
    nodes and depth sections decoded into ``values``, then its rows added in order."""
    raw = np.empty(8, np.uint8)
    as_float = raw.view(np.float64)
    values = np.empty((3, 1), np.float64)
    for i in range(len(n)):
        rows = n[i]
        if values.shape[1] < rows:
            values = np.empty((3, rows), np.float64)
        at = seats_at[i] + rows
        have = np.zeros(3, np.bool_)
        for bit in (BIT_PLY, BIT_SECONDS, BIT_NODES, BIT_DEPTH):
            if not mask[i] & bit:
                continue
            if at >= end[i]:
                raise ValueError("damaged packed moves")
            fmt = np.int64(buf[at])
            width = fmt & 0x0F
            at += 1
            q = np.int64(0)
            if fmt & 0xF0 == SCALED:
                q = np.int64(buf[at]) | (np.int64(buf[at + 1]) << 8)
                q -= (q & 0x8000) << 1
                at += 2
            if width == 0 or at + rows * width > end[i]:
                raise ValueError("damaged packed moves")
            if bit != BIT_PLY:
                col = 0 if bit == BIT_SECONDS else 1 if bit == BIT_NODES else 2
                have[col] = True
                null = -(np.int64(1) << (8 * width - 1))
                for r in range(rows):
                    if fmt & 0xF0 == FLOAT:
                        for j in range(8):
                            raw[j] = buf[at + j * rows + r]
                        values[col, r] = as_float[0]
                        continue
                    u = np.int64(0)
                    for j in range(width):
                        u |= np.int64(buf[at + j * rows + r]) << (8 * j)
                    if width < 8 and u >= (np.int64(1) << (8 * width - 1)):
                        u -= np.int64(1) << (8 * width)
                    if fmt & 0xF0 == SCALED:
                        values[col, r] = math.ldexp(float(u), q)
                    elif u == null:
                        values[col, r] = np.nan
                    else:
                        values[col, r] = float(u)
            at += rows * width
        game = out[i]
        for r in range(rows):
            seat = np.int64(buf[seats_at[i] + r])
            seat = seat - 256 if seat >= 128 else seat
            if seat < 0 or seat >= k:
                continue
            row = game[seat]
            row[0] += 1
            for col in range(3):
                if not have[col]:
                    continue
                v = values[col, r]
                if np.isnan(v):
                    continue
                count, total = (5, 6) if col == 0 else (1, 2) if col == 1 else (3, 4)
                row[count] += 1
                row[total] = (0.0 + v) if row[count] == 1 else row[total] + v
                if col == 0:
                    row[7] = v if row[count] == 1 else max(row[7], v)
                elif col == 1:
                    row[8] = (0.0 + v * v) if row[count] == 1 else row[8] + v * v


@functools.cache
def _compiled() -> Any:
    """The compiled loop (cached on disk where numba can write, else compiled in the process)."""
    from numba import njit

    try:
        return njit(cache=True)(_sums)
    except RuntimeError:  # no writable cache location
        return njit(_sums)
