"""Ricochet Robots searches in plain Python: greedy best-first and the breadth-first reference
(``docs/rules/ricochet.md`` "Puzzle mode"). Cells and directions as in
``arena.games.ricochet.board``; a ``slide(robots, r, d)`` function gives the rule with
diagonal barriers, straight slides on ``stops`` otherwise.
"""

from __future__ import annotations

import heapq
import time

STEP = (16, 1, -16, -1)


def _slide_py(stops, robots, r, d):
    s = robots[r]
    stop = stops[d][s]
    step = STEP[d]
    same = (lambda o: o & 15 == s & 15) if d in (0, 2) else (lambda o: o >> 4 == s >> 4)
    for j, o in enumerate(robots):
        if j != r and same(o):
            if step > 0 and s < o <= stop:
                stop = o - step
            elif step < 0 and stop <= o < s:
                stop = o - step
    return stop


def greedy(stops, h, robots, goal_robots, target, max_nodes=20000, max_moves=30, deadline=None, slide=None):
    """Greedy best-first search on (lower bound of the goal robots, moves so far).

    ``slide(robots, r, d)``: where robot ``r`` stops (default: straight slides on ``stops``).
    Returns (moves or None, nodes). Fast, not optimal.
    """
    move = slide or (lambda cur, r, d: _slide_py(stops, cur, r, d))
    start = tuple(robots)
    if any(start[r] == target for r in goal_robots):
        return [], 0
    seen = {start: None}
    heap = [(min(h[start[r]] for r in goal_robots), 0, 0, start)]
    nodes, tie = 0, 0
    while heap and nodes < max_nodes:
        _, g, _, cur = heapq.heappop(heap)
        nodes += 1
        if g >= max_moves or (deadline and nodes & 255 == 0 and time.perf_counter() > deadline):
            if g >= max_moves:
                continue
            break
        for r in range(len(cur)):
            for d in range(4):
                to = move(cur, r, d)
                if to == cur[r]:
                    continue
                child = cur[:r] + (to,) + cur[r + 1:]
                if child in seen:
                    continue
                seen[child] = (cur, r, d)
                if to == target and r in goal_robots:
                    return _trace(seen, child), nodes
                tie += 1
                heapq.heappush(heap, (min(h[child[q]] for q in goal_robots), g + 1, tie, child))
    return None, nodes


def _trace(seen, state):
    moves = []
    while seen[state] is not None:
        state, r, d = seen[state]
        moves.append((r, d))
    return moves[::-1]


def breadth_first(stops, robots, goal_robots, target, max_depth=8, slide=None):
    """Plain breadth-first search over every robot move (reference for tests); ``slide`` as
    in ``greedy``.

    Returns the moves of a shortest solution, or ``None`` within ``max_depth``.
    """
    move = slide or (lambda cur, r, d: _slide_py(stops, cur, r, d))
    start = tuple(robots)
    if any(start[r] == target for r in goal_robots):
        return []
    seen = {start: None}
    frontier = [start]
    for _ in range(max_depth):
        nxt = []
        for cur in frontier:
            for r in range(len(cur)):
                for d in range(4):
                    to = move(cur, r, d)
                    child = cur[:r] + (to,) + cur[r + 1:]
                    if to == cur[r] or child in seen:
                        continue
                    seen[child] = (cur, r, d)
                    if to == target and r in goal_robots:
                        return _trace(seen, child)
                    nxt.append(child)
        frontier = nxt
    return None


__all__ = ["greedy", "breadth_first"]
