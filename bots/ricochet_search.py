"""Ricochet Robots search: lower bounds, IDA* kernel (numba), greedy best-first, plain BFS.

Cells and directions as in ``arena.games.ricochet.board`` (cell = (rank-1)*16 + file,
N E S W = 0 1 2 3). The IDA* kernel is compiled by numba when it is installed (``kernel``:
cached on disk at first use) and runs as plain Python otherwise (same code, far slower).

Pruning (``docs/rules/ricochet.md`` "Puzzle mode"): a per-cell lower bound on the goal robot's
moves (``bots.ricochet_bounds.lower_bounds``, compiled as well); only goal robots move
when the bound equals the remaining depth (so only they make the last move); no robot moves
straight back; two consecutive moves of different robots that commute (each ends the same in
either order) are searched only in robot order (R before G...): the other order reaches the
same position at the same depth; a transposition table keyed by the robot cells (goal robot first, the others
sorted) stores the remaining depth searched, so a position is not searched again with the
same or a smaller remaining depth. The table is one int64 array of ``key << 6 | depth``
entries in buckets of four (one cache line); a full bucket drops its shallowest entry. It
grows with the search up to 2**22 entries (32 MiB): the 25-move puzzle of ``arena bench``
then peaks under 200 MiB (a warmed-up solver process holds about 160 MiB before its table,
mostly numba and LLVM) and searches no more nodes than
with 2**24 or 2**26 entries (47.7 M against 50.0 M: deeper entries are kept, replacement
drops the shallow ones).

Coloured diagonal barriers (``docs/rules/ricochet.md`` "Second edition"): a board with
barriers passes ``paths`` (``path_table``), each robot's free path per (cell, direction) with
its deflections; a robot stops on the last cell before the first robot on it, and a path
that loops with no robot on it is no move. The no-straight-back pruning is off there (a robot
sent back can end elsewhere: barriers deflect it on the way back and a barrier on its start
cell turns it), and the lower bound lets a slide stop on any cell of its deflected path.
"""

from __future__ import annotations

import importlib
import sys
import threading
import time

import numpy as np

try:
    from numba import njit, objmode
    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - the plain-Python fallback
    HAVE_NUMBA = False

    def njit(*args, **kwargs):
        return (lambda f: f) if not args or not callable(args[0]) else args[0]

    class objmode:  # noqa: N801 - mirrors numba.objmode
        def __init__(self, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False



#: numba modules imported before the first kernel runs -> the optional library each imports
#: only to offer a feature these kernels do not use
_PROBES = {"numba.np.arraymath": "scipy.linalg", "numba.core.typing.cffi_utils": "cffi"}


def _load_numba_without_probes() -> None:
    """Import numba's implementation modules now, with the libraries they probe for hidden.

    Before the first kernel runs (compiled or loaded from the cache) numba imports all its
    implementation modules (``BaseContext.refresh``). ``numba.np.arraymath`` imports
    ``scipy.linalg`` only to see whether ``np.dot`` may call BLAS (``_check_blas``), and
    ``numba.core.typing.cffi_utils`` builds a ``cffi.FFI()`` (a C parser) to type cffi
    functions: together 0.3-0.5 CPU s of a one-puzzle ``arena solve`` process. These
    kernels use neither. With the import refused (``ImportError``) numba records "no BLAS"
    (``np.correlate`` and ``np.convolve`` then use a plain loop; ``np.dot`` imports scipy when it
    is compiled) and "no cffi"; both libraries import as usual afterwards. A library already
    imported is not hidden, and nothing is hidden while other threads run (one of them could
    be importing the library meanwhile). A numba without these modules is left alone.
    """
    if threading.active_count() > 1:
        return
    for module, library in _PROBES.items():
        if module in sys.modules or library in sys.modules:
            continue
        sys.modules[library] = None  # ``import library`` raises ImportError meanwhile
        try:
            importlib.import_module(module)
        except ImportError:  # another numba version without this module: nothing to skip
            pass
        finally:
            if sys.modules.get(library, 0) is None:
                del sys.modules[library]


if HAVE_NUMBA:
    _load_numba_without_probes()


def kernel(func):
    """``numba.njit(cache=True)``: compiled at first use and cached on disk, so later
    processes load it instead of compiling (about 1.5 s saved per process).

    numba writes the cache beside this module (``bots/__pycache__``), or when that folder is
    read-only in its user-wide cache (``NUMBA_CACHE_DIR`` when set, else the user cache
    folder, e.g. ``~/.cache/numba``). With no writable location numba refuses ``cache=True``
    with a ``RuntimeError``; the kernel is then compiled in each process instead, quietly.
    Plain Python without numba.
    """
    if not HAVE_NUMBA:
        return func
    try:
        return njit(cache=True)(func)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return njit(func)


INF = 99
STEP = (16, 1, -16, -1)
WALL_BIT = (1, 2, 4, 8)
FOUND, EXHAUSTED, ABORTED = 1, 0, -1


@kernel
def _slide(stops, pos, n, r, d):
    s = pos[r]
    stop = stops[d * 256 + s]
    if stop == s:
        return s
    for j in range(n):
        if j == r:
            continue
        o = pos[j]
        if d == 0:
            if (o & 15) == (s & 15) and s < o <= stop:
                stop = o - 16
        elif d == 1:
            if (o >> 4) == (s >> 4) and s < o <= stop:
                stop = o - 1
        elif d == 2:
            if (o & 15) == (s & 15) and stop <= o < s:
                stop = o + 16
        else:
            if (o >> 4) == (s >> 4) and stop <= o < s:
                stop = o + 1
    return stop


#: ``path_table`` layout: ``r * 1024 + d * 256 + cell``: the nearest barrier that turns robot
#: ``r`` on the wall-free run from ``cell`` towards ``d`` (``Board.turning_ahead``), or -1;
#: ``ORIENT + cell``: 1 for a ``/`` barrier, 2 for ``\\``; ``NBAR``: the number of barriers.
ORIENT = 5 * 1024
NBAR = ORIENT + 256


@kernel
def _move(stops, paths, pos, n, r, d):
    """Where robot ``r`` stops moving ``d`` (its own cell: no move). With barriers it runs
    straight from barrier to barrier; a run's first robot stops it on the cell before; more
    barrier entries than (barriers x 4 directions) means a repeated entry: an endless loop
    with no robot on it, which is no move."""
    if paths.shape[0] == 0:
        return _slide(stops, pos, n, r, d)
    s = pos[r]
    cell = s
    limit = 4 * paths[NBAR]
    entries = 0
    while True:
        hit = paths[r * 1024 + d * 256 + cell]
        end = hit if hit >= 0 else stops[d * 256 + cell]
        if end == cell:
            return cell
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
        if best != end + step:
            return best - step
        if hit < 0:
            return end
        entries += 1
        if entries > limit:
            return s
        cell = hit
        if paths[ORIENT + hit] == 1:
            d = d ^ 1
        else:
            d = 3 - d


@kernel
def _key(pos, n, first, tmp):
    """Robot cells packed 8 bits each: robot ``first`` (or none when -1) low, the rest sorted."""
    m = 0
    for j in range(n):
        if j != first:
            v = pos[j]
            i = m
            while i > 0 and tmp[i - 1] > v:
                tmp[i] = tmp[i - 1]
                i -= 1
            tmp[i] = v
            m += 1
    key = 0
    for i in range(m):
        key = (key << 8) | tmp[i]
    if first >= 0:
        key = (key << 8) | pos[first]
    return key + 1


@kernel
def _commutes(stops, paths, pos, n, r, d, c, r1, a, d1):
    """True when robot ``r``'s move ``d`` (from ``c`` to ``pos[r]``), made just after robot
    ``r1``'s move in direction ``d1`` (from ``a`` to ``pos[r1]``), ends the same when made
    first and leaves ``r1``'s move unchanged: the two moves commute."""
    to, b = pos[r], pos[r1]
    pos[r] = c
    pos[r1] = a
    same = _move(stops, paths, pos, n, r, d) == to
    if same:
        pos[r] = to
        same = _move(stops, paths, pos, n, r1, d1) == b
    pos[r] = to
    pos[r1] = b
    return same


@kernel
def ida_iteration(stops, paths, h, pos, isgoal, first, target, n, bound, tt, max_nodes,
                  deadline, path_r, path_d, tt_from=3):
    """One depth-first iteration with ``bound`` moves; returns (status, nodes).

    ``status``: 1 found (the moves are in ``path_r``/``path_d``), 0 none within ``bound``,
    -1 stopped by ``max_nodes`` or ``deadline`` (``time.perf_counter`` seconds; <= 0: none).
    The table is probed only ``tt_from`` or more moves from the bound: nearer the leaves
    mostly the goal robot moves alone, transpositions are rare and a probe (a cache miss)
    costs more than it saves.
    """
    mask = tt.shape[0] - 1
    straight = paths.shape[0] == 0
    tmp = np.empty(n, np.int64)
    nxt = np.zeros(bound + 1, np.int64)
    old = np.zeros(bound + 1, np.int64)
    hm = np.zeros(bound + 1, np.int64)
    nodes = 0
    level = 0
    while level >= 0:
        rem = bound - level
        i = nxt[level]
        if i == 0:  # entering the node
            nodes += 1
            if (nodes & 0xFFFF) == 0:
                if max_nodes > 0 and nodes >= max_nodes:
                    return ABORTED, nodes
                if deadline > 0:
                    with objmode(now="float64"):
                        now = time.perf_counter()
                    if now >= deadline:
                        return ABORTED, nodes
            best = INF
            for j in range(n):
                if isgoal[j] and h[pos[j]] < best:
                    best = h[pos[j]]
            prune = best > rem
            if not prune and level > 0 and rem >= tt_from:
                key = _key(pos, n, first, tmp)
                x = key ^ (key >> 29)
                x = x * 0x5BD1E9955BD1E995
                base = (x ^ (x >> 32)) & mask & ~3  # a bucket of 4 entries: key << 6 | depth
                victim = base
                low = 64
                for s in range(base, base + 4):
                    e = tt[s]
                    if (e >> 6) == key:
                        victim = -1
                        if (e & 63) >= rem:
                            prune = True
                        else:
                            tt[s] = (key << 6) | rem
                        break
                    if (e & 63) < low:
                        low = e & 63
                        victim = s
                if victim >= 0:
                    tt[victim] = (key << 6) | rem
            if prune:
                level -= 1
                if level >= 0:
                    pos[path_r[level]] = old[level]
                continue
            hm[level] = best
        if i >= 4 * n:
            level -= 1
            if level >= 0:
                pos[path_r[level]] = old[level]
            continue
        nxt[level] = i + 1
        r = i >> 2
        d = i & 3
        if straight and level > 0 and r == path_r[level - 1] and d == (path_d[level - 1] ^ 2):
            continue
        if hm[level] == rem and not (isgoal[r] and h[pos[r]] == rem):
            continue
        to = _move(stops, paths, pos, n, r, d)
        if to == pos[r]:
            continue
        old[level] = pos[r]
        pos[r] = to
        path_r[level] = r
        path_d[level] = d
        if isgoal[r] and to == target:
            return FOUND, nodes
        if rem == 1 or (first >= 0 and r == first and h[to] >= rem):
            pos[r] = old[level]  # no solution below: the bound already exceeds what is left
            continue
        if level > 0 and r < path_r[level - 1] and _commutes(stops, paths, pos, n, r, d, old[level],
                                                             path_r[level - 1], old[level - 1],
                                                             path_d[level - 1]):
            pos[r] = old[level]  # the same two moves in robot order reach this position
            continue
        level += 1
        nxt[level] = 0
    return EXHAUSTED, nodes


def ida_star(stops: np.ndarray, h: np.ndarray, robots: tuple[int, ...], goal_robots: tuple[int, ...],
             target: int, deadline: float | None = None, max_nodes: int | None = None,
             max_depth: int = 60, table_bits: int = 22, paths: np.ndarray | None = None):
    """Iterative deepening A*: returns (moves or None, nodes, depth reached, proven).

    ``paths``: the board's ``path_table`` when it has barriers (``None``: plain slides).

    ``moves`` is a list of (robot, direction); ``proven`` is True when the answer is optimal
    (or when it is proven that no solution of at most ``max_depth`` moves exists).
    """
    n = len(robots)
    paths = np.zeros(0, np.int64) if paths is None else paths
    isgoal = np.array([1 if r in goal_robots else 0 for r in range(n)], np.int64)
    first = goal_robots[0] if len(goal_robots) == 1 else -1
    if any(robots[r] == target for r in goal_robots):
        return [], 0, 0, True
    bound = max(1, min(int(h[robots[r]]) for r in goal_robots))
    if bound >= INF:
        return None, 0, 0, True
    bits = 16
    tt = np.zeros(1 << bits, np.int64)
    total = 0
    while bound <= max_depth:
        budget = 0 if max_nodes is None else max(1, max_nodes - total)
        pos = np.array(robots, np.int64)
        path_r = np.zeros(bound, np.int64)
        path_d = np.zeros(bound, np.int64)
        with np.errstate(over="ignore"):  # the hash wraps around (plain-Python fallback)
            status, nodes = ida_iteration(stops, paths, h, pos, isgoal, first, target, n, bound, tt,
                                          budget, deadline or 0.0, path_r, path_d)
        total += nodes
        if status == FOUND:
            return list(zip(path_r.tolist(), path_d.tolist())), total, bound, True
        if status == ABORTED:
            return None, total, bound - 1, False
        while nodes > (1 << bits) and bits < table_bits:  # grow the table with the search
            bits += 2
            tt = np.zeros(1 << bits, np.int64)
        bound += 1
    return None, total, max_depth, True


from bots.ricochet_greedy import breadth_first, greedy  # noqa: E402  (the Python searches, re-exported)

__all__ = ["HAVE_NUMBA", "breadth_first", "greedy", "ida_star"]
