"""Ricochet Robots search: the IDA* kernel and its driver (``ida_star``).

Cells and directions as in ``arena.games.ricochet.board`` (cell = (rank-1)*16 + file,
N E S W = 0 1 2 3). One source, two builds (``bots.kernels``): imported as usual the kernels
are compiled by numba (cached on disk at first use); ``bots.kernels.plain`` loads this file
again as plain Python on lists, which ``bots.ricochet`` runs first when the compiled build
is not loaded yet (the cold start). Without numba the usual import is plain Python too.

Pruning (``docs/rules/ricochet.md`` "Puzzle mode"): a per-cell lower bound on the goal robot's
moves (``bots.ricochet_bounds.lower_bounds``, compiled as well); only goal robots move
when the bound equals the remaining depth (so only they make the last move); no robot moves
straight back; two consecutive moves of different robots that commute (each ends the same in
either order) are searched only in robot order (R before G...): the other order reaches the
same position at the same depth; a transposition table keyed by the robot cells (goal robot
first, the others sorted) stores the remaining depth searched, so a position is not searched
again with the same or a smaller remaining depth. The table is one int64 array of
``key << 6 | depth`` entries in buckets of four (one cache line); a full bucket drops its
shallowest entry. It grows with the search up to 2**22 entries (32 MiB): the 25-move puzzle
of ``arena bench`` then peaks under 200 MiB (a warmed-up solver process holds about 160 MiB
before its table, mostly numba and LLVM) and searches no more nodes than with 2**24 or 2**26
entries (47.7 M against 50.0 M: deeper entries are kept, replacement drops the shallow ones).

The table's memory is kept from one search to the next (``_table``, per thread; a grown table
is freed after its search): an entry holds the number of the search that wrote it above its
key, another search's entry counts as empty, so a search starts with nothing to clear. While
a search has filled few buckets (under ``SMALL / 2``) they lie side by side at the array's end
(``few``), found by their bucket number: a small search touches at most 40 KiB, not random
lines of 512 KiB; past that each goes to its own place (``spread``). A bucket holds the same
entries in the same order either way: the search is that of a fresh zeroed table, node for
node. On a plain board a slide finds its blocker in the bits of the robots on its rank or file
(``lines``, kept as robots move; ``stop_on``): no branch to mispredict. Helpers taking arrays
are written into the move loop, as numba kept their arrays' reference counts (atomic adds on
every call); helpers on integers take none. ``docs/speed.md`` ("Ricochet search speed") has
the figures.

Coloured diagonal barriers (``docs/rules/ricochet.md`` "Second edition"): a board with
barriers passes ``paths`` (``path_table``), each robot's free path per (cell, direction) with
its deflections (a plain board passes ``None`` and compiles apart: ``ida_iteration`` says
why); a robot stops on the last cell before the first robot on it, and a path that loops
with no robot on it is no move. The no-straight-back pruning is off there (a robot
sent back can end elsewhere: barriers deflect it on the way back and a barrier on its start
cell turns it), and the lower bound lets a slide stop on any cell of its deflected path.
"""

from __future__ import annotations

import contextlib
import threading
import time

from typing import TYPE_CHECKING

from bots.kernels import PlainNumpy, backend, is_compiled, sibling
from bots.ricochet_layout import INF

#: the kernel modules whose kernels the search calls (``bots.kernels.sibling``: of its own build)
MOVES, TABLE = "bots.ricochet_moves", "bots.ricochet_table"
kernel, np, objmode = backend(__name__, uses=(MOVES, TABLE))
_moves, _table_kernels = sibling(MOVES, __name__), sibling(TABLE, __name__)
slide, slide_paths, apart, stop_on = _moves.slide, _moves.slide_paths, _moves.apart, _moves.stop_on
table_key, bucket, spread = _table_kernels.table_key, _table_kernels.bucket, _table_kernels.spread
GEN_BITS, KEY_BITS, FIRST_BITS = _table_kernels.GEN_BITS, _table_kernels.KEY_BITS, _table_kernels.FIRST_BITS
SMALL, BUCKET_BITS = _table_kernels.SMALL, _table_kernels.BUCKET_BITS

if TYPE_CHECKING:
    from numpy import ndarray

FOUND, EXHAUSTED, ABORTED, GROW = 1, 0, -1, 2
#: a table of more entries (a grown one, 2 MiB and more) is freed after its search
KEEP = (1 << FIRST_BITS) + 5 * SMALL


@kernel
def ida_iteration(stops, paths, h, pos, goals, first, target, n, bound, tt, bits, gen, used, max_nodes,
                  deadline, path, tt_from=3, every=0xFFFF):
    """One depth-first iteration with ``bound`` moves; returns (status, nodes, moves found).

    ``status``: 1 found (the moves are in ``path``, ``robot * 4 + direction`` each, as many as
    the third value), 0 none within ``bound``, -1 stopped by ``max_nodes`` or ``deadline``
    (``time.perf_counter`` seconds; <= 0: none), checked when the node count is a multiple of
    ``every + 1`` (a power of two); the fourth value is the few buckets in use (``used``
    given, -1 once spread). ``goals``: bit ``r`` set for each goal robot ``r``; ``first``: the
    goal robot when there is one, else -1 (the vortex). ``tt``: the table, of which the first
    ``2**bits`` entries are used, and the few buckets at its end; ``gen``: the search's number
    (``_table``).
    The table is probed only ``tt_from`` or more moves from the bound: nearer the leaves
    mostly the goal robot moves alone, transpositions are rare and a probe (a cache miss)
    costs more than it saves.

    ``paths`` None (a plain board) compiles apart from a barrier table: numba specialises the
    kernel on the argument's type and drops the ``paths is None`` branches that cannot run,
    so a plain board's moves slide in the loop itself and nothing of the barrier walk runs
    (through ``slide_paths`` a plain board's search took twice as long: ``docs/speed.md``).
    """
    mask = (1 << bits) - 1
    few = len(tt) - 5 * SMALL  # the few buckets' place at the table's end (module docstring)
    nxt = np.zeros(bound + 1, np.int64)
    old = np.zeros(bound + 1, np.int64)
    hm = np.zeros(bound + 1, np.int64)
    lines = np.zeros(32, np.int64)  # per rank the robots' files, per file (16 + file) their ranks, as bits
    for j in range(n):
        lines[pos[j] >> 4] |= 1 << (pos[j] & 15)
        lines[16 + (pos[j] & 15)] |= 1 << (pos[j] >> 4)
    nodes = 0
    level = 0
    moves = 4 * n
    while level >= 0:
        rem = bound - level
        i = nxt[level]
        if i == 0:  # entering the node
            nodes += 1
            if (nodes & every) == 0:
                if max_nodes > 0 and nodes >= max_nodes:
                    return ABORTED, nodes, 0, used
                if deadline > 0:
                    with objmode(now="float64"):
                        now = time.perf_counter()
                    if now >= deadline:
                        return ABORTED, nodes, 0, used
            if first >= 0:
                best = h[pos[first]]
            else:
                best = INF
                for j in range(n):
                    if (goals >> j) & 1 and h[pos[j]] < best:
                        best = h[pos[j]]
            prune = best > rem
            if not prune and level > 0 and rem >= tt_from:
                key = table_key(first, n, pos[0], pos[1], pos[2], pos[3], pos[4] if n > 4 else 0)
                base = bucket(key, mask)
                if used >= 0:  # the bucket's place among the few in use (module docstring)
                    want = (gen << BUCKET_BITS) | ((base >> 2) + 1)
                    m = (base >> 2) & (SMALL - 1)
                    v = tt[few + m]
                    while v != want:
                        if (v >> BUCKET_BITS) != gen:  # a free place: the bucket is new
                            if 2 * used >= SMALL:  # half of them in use: each to its own place
                                spread(tt, few, gen)
                                used = -1
                            else:
                                tt[few + m] = want
                                for j in range(4):
                                    tt[few + SMALL + 4 * m + j] = 0
                                used += 1
                            break
                        m = (m + 1) & (SMALL - 1)
                        v = tt[few + m]
                    if used >= 0:
                        base = few + SMALL + 4 * m
                gk = (gen << KEY_BITS) | key
                victim = base
                low = 64  # a new entry replaces the shallowest (another search's: empty)
                for e4 in range(base, base + 4):
                    e = tt[e4]
                    if (e >> 6) == gk:
                        victim = -1
                        if (e & 63) >= rem:
                            prune = True
                        else:
                            tt[e4] = (gk << 6) | rem
                        break
                    depth = e & 63 if (e >> 47) == gen else 0
                    if depth < low:
                        low = depth
                        victim = e4
                if victim >= 0:
                    tt[victim] = (gk << 6) | rem
            if prune:
                i = moves  # no move searched: the node backs up below, as one exhausted
            else:
                hm[level] = best
        tight = hm[level] == rem
        r1 = -1
        rev = -1
        if level > 0:
            r1 = path[level - 1] >> 2
            if paths is None:
                rev = path[level - 1] ^ 2
        child = False
        while i < moves:  # (indices masked to their range: numba then adds no negative-index test)
            r = (i >> 2) & 7
            d = i & 3
            c = pos[r] & 255
            if tight and not ((goals >> r) & 1 and h[c] == rem):
                i = (r + 1) << 2  # none of this robot's moves
                continue
            i += 1
            if i - 1 == rev:
                continue
            if paths is None:
                to = stops[(d << 8) | c] & 255
                if to != c:
                    to = stop_on(c, to, d, lines[c >> 4] if d & 1 else lines[16 + (c & 15)])
            else:
                to = slide_paths(stops, paths, pos, n, r, d)
            if to == c:
                continue
            if (goals >> r) & 1 and to == target:
                pos[r] = to
                old[level] = c
                path[level] = i - 1
                return FOUND, nodes, level + 1, used
            if rem == 1 or (r == first and h[to & 255] >= rem):
                continue  # no solution below: the bound already exceeds what is left
            if r < r1:  # the same two moves in robot order reach the same position?
                d1 = path[level - 1] & 3
                a = old[level - 1]
                b = pos[r1]
                same = paths is None and apart(a, b, c, to, d, d1)
                if not same:
                    pos[r1] = a
                    if paths is None:
                        same = slide(stops, pos, n, r, d) == to
                    else:
                        same = slide_paths(stops, paths, pos, n, r, d) == to
                    if same:
                        pos[r] = to
                        if paths is None:
                            same = slide(stops, pos, n, r1, d1) == b
                        else:
                            same = slide_paths(stops, paths, pos, n, r1, d1) == b
                        pos[r] = c
                    pos[r1] = b
                if same:
                    continue
            pos[r] = to
            lines[c >> 4] ^= 1 << (c & 15)
            lines[16 + (c & 15)] ^= 1 << (c >> 4)
            lines[to >> 4] ^= 1 << (to & 15)
            lines[16 + (to & 15)] ^= 1 << (to >> 4)
            old[level] = c
            path[level] = i - 1
            child = True
            break
        if child:
            nxt[level] = i
            level += 1
            nxt[level] = 0
        else:
            level -= 1
            if level >= 0:
                r = (path[level] >> 2) & 7
                c = pos[r] & 255
                a = old[level] & 255
                lines[c >> 4] ^= 1 << (c & 15)
                lines[16 + (c & 15)] ^= 1 << (c >> 4)
                lines[a >> 4] ^= 1 << (a & 15)
                lines[16 + (a & 15)] ^= 1 << (a >> 4)
                pos[r] = a
    return EXHAUSTED, nodes, 0, used


@kernel
def ida_run(stops, paths, h, packed, n, goals, target, start, max_depth, tt, bits, table_bits, gen,
            max_nodes, deadline, every, path):
    """Iterations with growing bounds from the goal robots' lower bound (at least 1 and
    ``start``) up to ``max_depth``; returns (status, nodes, moves or bound, bits), the moves
    found in ``path`` (at least ``max_depth`` entries, ``ida_iteration``'s).

    ``packed``: the robots' cells, 8 bits each (robot 0 lowest); ``goals``: bit ``r`` set for
    each goal robot. Status as ``ida_iteration``'s, the third value the solution's length (1),
    or the bound searched when stopped (-1); or 2 (``GROW``): an iteration searched more
    nodes than the table has entries and it may grow: the table should be ``2**bits``
    entries, the next bound to search is the third value.
    """
    pos = np.empty(n, np.int64)
    first = -1
    count = 0
    bound = INF
    for r in range(n):
        pos[r] = (packed >> (8 * r)) & 255
        if (goals >> r) & 1:
            count += 1
            first = r
            if h[pos[r]] < bound:
                bound = h[pos[r]]
    if count > 1:
        first = -1
    bound = max(bound, 1, start)
    total = 0
    used = 0
    while bound <= max_depth:
        budget = 0 if max_nodes <= 0 else max(1, max_nodes - total)
        for r in range(n):
            pos[r] = (packed >> (8 * r)) & 255
        status, nodes, length, used = ida_iteration(stops, paths, h, pos, goals, first, target, n, bound, tt,
                                                    bits, gen, used, budget, deadline, path, 3, every)
        total += nodes
        if status == FOUND:
            return status, total, length, bits
        if status == ABORTED:
            return status, total, bound, bits
        bound += 1
        if nodes > (1 << bits) and bits < table_bits:  # a larger table for the next bound
            while nodes > (1 << bits) and bits < table_bits:
                bits += 2
            return GROW, total, bound, bits
    return EXHAUSTED, total, max_depth, bits


#: per thread, the search table's memory and the last search number (``_table``)
_LOCAL = threading.local()


def _table(bits: int):
    """(table, search number) for a new search using ``2**bits`` entries and the few buckets'
    place at the array's end (``5 * SMALL`` entries): the memory of the last search, or a
    larger zeroed array; its entries of other searches count as empty (module docstring).
    Every ``2**GEN_BITS - 1`` searches the array is zeroed again."""
    tt = getattr(_LOCAL, "tt", None)
    gen = getattr(_LOCAL, "gen", 0) + 1
    if tt is None or len(tt) < (1 << bits) + 5 * SMALL or gen >= (1 << GEN_BITS):
        tt = _LOCAL.tt = None  # the old array is freed before the new one is made
        _LOCAL.tt = tt = np.zeros((1 << bits) + 5 * SMALL, np.int64)
        gen = 1
    _LOCAL.gen = gen
    return tt, gen


#: the kernels run as plain Python on numpy arrays when numba is missing: the table hash's
#: product then wraps around in numpy scalars, which warn
_QUIET = (lambda: np.errstate(over="ignore")) if np is not PlainNumpy and not is_compiled(kernel) \
    else contextlib.nullcontext


def ida_star(stops: ndarray, h: ndarray, robots: tuple[int, ...], goal_robots: tuple[int, ...],
             target: int, deadline: float | None = None, max_nodes: int | None = None,
             max_depth: int = 60, table_bits: int = 22, paths: ndarray | None = None,
             start: int = 1, every: int = 0xFFFF):
    """Iterative deepening A*: returns (moves or None, nodes, depth reached, proven).

    ``paths``: the board's ``path_table`` when it has barriers (``None``: plain slides).
    ``start``: the first bound searched, moves (a search handed over from the other build,
    ``bots.kernels``, starts at the bound it did not finish: no solution is shorter).
    ``every``: the budget (``deadline``, ``max_nodes``) is checked every ``every + 1`` nodes.

    ``moves`` is a list of (robot, direction); ``proven`` is True when the answer is optimal
    (or when it is proven that no solution of at most ``max_depth`` moves exists).
    """
    packed = goals = 0
    for r, cell in enumerate(robots):
        packed |= cell << (8 * r)
    best = INF
    for r in goal_robots:
        if robots[r] == target:
            return [], 0, 0, True
        goals |= 1 << r
        best = min(best, h[robots[r]])
    if best >= INF:
        return None, 0, 0, True
    bits, total = FIRST_BITS, 0
    path = np.empty(max_depth + 1, np.int64)
    while True:
        tt = None  # a larger table is made with the last one freed
        tt, gen = _table(bits)
        with _QUIET():
            status, nodes, depth, bits = ida_run(
                stops, paths, h, packed, len(robots), goals, target, start, max_depth, tt, bits, table_bits, gen,
                0 if max_nodes is None else max(1, max_nodes - total), deadline or 0.0, every, path)
        total += nodes
        if status != GROW:
            break
        start = depth  # go on at that bound with the larger table
    if len(tt) > KEEP:
        _LOCAL.tt = None  # a grown table is not kept for the next search
    if status == FOUND:
        return [divmod(int(v), 4) for v in path[:depth]], total, depth, True
    if status == ABORTED:
        return None, total, depth - 1, False
    return None, total, max_depth, True


__all__ = ["ida_star"]
