"""Ricochet Robots search: the moves of the robots, for the IDA* kernel (``bots.ricochet_search``,
whose docstring gives the board's numbering and the search): a robot's slide on a plain board
(``slide``; ``stop_on`` from the bits of the robots on its rank or file, ``low_bit`` /
``high_bit``) and on a board with diagonal barriers (``slide_paths``), and whether two moves
commute (``apart``). A kernel module (``bots.kernels``: compiled, or plain Python for the cold
start), split from the search; helpers taking arrays stay in the search's move loop.
"""

from __future__ import annotations

from bots.kernels import backend
from bots.ricochet_layout import NBAR, ORIENT

kernel, np, objmode = backend(__name__)

STEP = (16, 1, -16, -1)
WALL_BIT = (1, 2, 4, 8)


@kernel
def slide(stops, pos, n, r, d):
    """Where robot ``r`` stops moving ``d`` on a plain board (its own cell: no move)."""
    s = pos[r]
    stop = stops[(d << 8) | s]
    if stop != s:
        for j in range(n):
            stop = blocked(stop, s, d, pos[j])
    return stop


@kernel
def blocked(stop, s, d, o):
    """Where a slide from ``s`` towards ``d`` that would stop on ``stop`` stops with a robot
    on ``o`` (``o`` is ``s`` itself for the sliding robot, which blocks nothing)."""
    if d == 0:
        return o - 16 if ((o ^ s) & 15) == 0 and s < o <= stop else stop
    if d == 1:
        return o - 1 if (o >> 4) == (s >> 4) and s < o <= stop else stop
    if d == 2:
        return o + 16 if ((o ^ s) & 15) == 0 and stop <= o < s else stop
    return o + 1 if (o >> 4) == (s >> 4) and stop <= o < s else stop


@kernel
def slide_paths(stops, paths, pos, n, r, d):
    """Where robot ``r`` stops moving ``d`` on a board with barriers (``paths``; its own
    cell: no move; a plain board slides by ``slide``). It runs
    straight from barrier to barrier; a run's first robot stops it on the cell before; more
    barrier entries than (barriers x 4 directions) means a repeated entry: an endless loop
    with no robot on it, which is no move.

    Written with one exit from its loop and one return: with a ``return`` (or a ``break``) at
    each way of stopping numba kept the three arrays' reference counts (atomic adds), and
    boards with barriers searched at half the speed (``docs/speed.md``)."""
    s = pos[r]
    cell = s
    limit = 4 * paths[NBAR]
    entries = 0
    out = -1  # not stopped yet: the loop has one exit and the kernel one return (docstring)
    while out < 0:
        hit = paths[r * 1024 + d * 256 + cell]
        end = hit if hit >= 0 else stops[d * 256 + cell]
        if end == cell:
            out = cell
            continue
        step = 16 if d == 0 else 1 if d == 1 else -16 if d == 2 else -1
        best = end + step
        for j in range(n):
            if j == r:
                continue
            o = pos[j]
            if d == 0 or d == 2:
                if (o & 15) != (cell & 15):
                    continue
            elif (o >> 4) != (cell >> 4):
                continue
            if (o - cell) * step > 0 and (best - o) * step > 0:
                best = o
        entries += 1
        if best != end + step:
            out = best - step
        elif hit < 0:
            out = end
        elif entries > limit:
            out = s
        else:
            cell = hit
            if paths[ORIENT + hit] == 1:
                d = d ^ 1
            else:
                d = 3 - d
    return out


@kernel
def apart(a, b, c, to, d, d1):
    """True when a move from ``c`` to ``to`` (direction ``d``) and another robot's move from
    ``a`` to ``b`` (``d1``) miss each other's lines: they commute on a plain board."""
    if d & 1:
        if (a >> 4) == (c >> 4) or (b >> 4) == (c >> 4):
            return False
    elif ((a ^ c) & 15) == 0 or ((b ^ c) & 15) == 0:
        return False
    if d1 & 1:
        return (c >> 4) != (a >> 4) and (to >> 4) != (a >> 4)
    return ((c ^ a) & 15) != 0 and ((to ^ a) & 15) != 0


#: de Bruijn's table: bit ``k`` alone times ``0x077CB531`` has ``k``'s place in its top 5 bits
_DEBRUIJN = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8, 31, 27, 13, 23, 21, 19, 16, 7,
                      26, 12, 18, 6, 11, 5, 10, 9], np.int64)


@kernel
def low_bit(m):
    """The place of the lowest bit set in ``m`` (0 < m < 2**32)."""
    return _DEBRUIJN[(((m & -m) * 0x077CB531) & 0xFFFFFFFF) >> 27]


@kernel
def high_bit(m):
    """The place of the highest bit set in ``m`` (0 < m < 2**16)."""
    m |= m >> 1
    m |= m >> 2
    m |= m >> 4
    m |= m >> 8
    return low_bit((m >> 1) + 1)


@kernel
def stop_on(c, s, d, line):
    """Where a slide from ``c`` towards ``d`` that walls stop on ``s`` stops, ``line`` the
    robots on its rank (E, W: bit = file) or file (N, S: bit = rank)."""
    if d == 1:
        f = c & 15
        m = (line >> (f + 1)) & ((1 << ((s & 15) - f)) - 1)
        return s if m == 0 else c + low_bit(m)
    if d == 3:
        m = (line & ((1 << (c & 15)) - 1)) >> (s & 15)
        return s if m == 0 else s + high_bit(m) + 1
    if d == 0:
        rk = c >> 4
        m = (line >> (rk + 1)) & ((1 << ((s >> 4) - rk)) - 1)
        return s if m == 0 else c + 16 * low_bit(m)
    m = (line & ((1 << (c >> 4)) - 1)) >> (s >> 4)
    return s if m == 0 else s + 16 * (high_bit(m) + 1)
