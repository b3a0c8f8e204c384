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
its deflections (a plain board passes ``None`` and compiles apart: ``ida_iteration`` says
why); a robot stops on the last cell before the first robot on it, and a path that loops
with no robot on it is no move. The no-straight-back pruning is off there (a robot
sent back can end elsewhere: barriers deflect it on the way back and a barrier on its start
cell turns it), and the lower bound lets a slide stop on any cell of its deflected path.
"""

from __future__ import annotations

import time

from typing import TYPE_CHECKING

from bots.kernels import backend
from bots.ricochet_layout import INF, NBAR, ORIENT

kernel, np, objmode = backend(__name__)

if TYPE_CHECKING:
    from numpy import ndarray

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


@kernel
def _move(stops, paths, pos, n, r, d):
    """Where robot ``r`` stops moving ``d`` on a board with barriers (``paths``; its own
    cell: no move; a plain board slides by ``_slide``). It runs
    straight from barrier to barrier; a run's first robot stops it on the cell before; more
    barrier entries than (barriers x 4 directions) means a repeated entry: an endless loop
    with no robot on it, which is no move.

    Written with one exit from its loop and one return: with a ``return`` (or a ``break``) at
    each way of stopping, numba kept the reference counts of the three arrays (an
    ``NRT_incref`` call at entry and decrefs at the exits, atomic adds in numba's runtime;
    its refcount pruning removed none), which made boards with barriers search at half the
    speed (2.2M against 4.5M nodes/s on the five largest of ``arena bench``'s 200 puzzles
    with ``diagonals=2``, same nodes)."""
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
    # a plain board (``ida_iteration``: why two paths); the choice is spelled out at each call:
    # one kernel making it (``paths is None`` then ``return _slide`` else ``return _move``) kept
    # numba's reference counts again, and the 25-move puzzle took 18 s against 12 s
    if paths is None:
        same = _slide(stops, pos, n, r, d) == to
    else:
        same = _move(stops, paths, pos, n, r, d) == to
    if same:
        pos[r] = to
        if paths is None:
            same = _slide(stops, pos, n, r1, d1) == b
        else:
            same = _move(stops, paths, pos, n, r1, d1) == b
    pos[r] = to
    pos[r1] = b
    return same


@kernel
def ida_iteration(stops, paths, h, pos, isgoal, first, target, n, bound, tt, max_nodes,
                  deadline, path_r, path_d, tt_from=3, every=0xFFFF):
    """One depth-first iteration with ``bound`` moves; returns (status, nodes).

    ``status``: 1 found (the moves are in ``path_r``/``path_d``), 0 none within ``bound``,
    -1 stopped by ``max_nodes`` or ``deadline`` (``time.perf_counter`` seconds; <= 0: none),
    checked when the node count is a multiple of ``every + 1`` (a power of two).
    The table is probed only ``tt_from`` or more moves from the bound: nearer the leaves
    mostly the goal robot moves alone, transpositions are rare and a probe (a cache miss)
    costs more than it saves.

    ``paths`` None (a plain board) compiles apart from a barrier table: numba specialises the
    kernel on the argument's type and drops the ``paths is None`` branches that cannot run,
    so a plain board's moves call ``_slide`` and nothing of the barrier walk. They went through
    ``_move`` before (commit 589a30a), which forwarded to ``_slide``: a second call per move
    tried, and numba keeps the reference counts of ``_move``'s arrays (three ``NRT_incref``
    calls at entry and decrefs at its exits, atomic adds in numba's runtime; its loop with
    several returns keeps its refcount pruning from removing them, as it does in ``_slide``).
    That made the 25-move puzzle 2x as slow: 23.5 s against 10.5 s, about 3,290 against 2,020
    instructions a node (cachegrind, 734k nodes).
    """
    mask = len(tt) - 1
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
            if (nodes & every) == 0:
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
        if paths is None and level > 0 and r == path_r[level - 1] and d == (path_d[level - 1] ^ 2):
            continue
        if hm[level] == rem and not (isgoal[r] and h[pos[r]] == rem):
            continue
        if paths is None:
            to = _slide(stops, pos, n, r, d)
        else:
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
    n = len(robots)
    isgoal = np.array([1 if r in goal_robots else 0 for r in range(n)], np.int64)
    first = goal_robots[0] if len(goal_robots) == 1 else -1
    if any(robots[r] == target for r in goal_robots):
        return [], 0, 0, True
    bound = max(1, min(int(h[robots[r]]) for r in goal_robots))
    if bound >= INF:
        return None, 0, 0, True
    bound = max(bound, start)
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
                                          budget, deadline or 0.0, path_r, path_d, 3, every)
        total += nodes
        if status == FOUND:
            return [(int(r), int(d)) for r, d in zip(path_r, path_d)], total, bound, True
        if status == ABORTED:
            return None, total, bound - 1, False
        while nodes > (1 << bits) and bits < table_bits:  # grow the table with the search
            bits += 2
            tt = np.zeros(1 << bits, np.int64)
        bound += 1
    return None, total, max_depth, True


__all__ = ["ida_star"]
