"""Solo Interaction search: the proven minimum and the number of minimal solutions.

``docs/rules/interaction.md`` "Solo Interaction": a move ends when a neutral is pocketed, so
each move pockets at most one neutral and the number of neutrals left is an admissible lower
bound on the moves still needed. ``count_solutions`` is IDA* on that bound: for bounds
``L = neutrals, neutrals + 1, ...`` it counts the move sequences of exactly ``L`` moves that
clear the board, depth first, pruning a node whose neutrals exceed the moves left; the
transposition table maps (board, moves left) to that count, so a position reached by several
move orders is searched once per depth. The first bound with a count > 0 is the minimum and
its count is the number of distinct minimal solutions (sequences of moves in notation: two
moves from one position are distinct even when they lead to the same board).

``breadth_first_count`` is the plain reference: breadth-first search over the game's own
``SoloState.successors`` with path counts per layer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from arena.games.interaction.notation import MOVES, Move
from arena.games.interaction.solo import SoloState
from arena.games.interaction.state import simulate, strikes


class SearchAborted(Exception):
    """The node or time budget ran out before the minimum was proven."""


@dataclass(frozen=True)
class SoloResult:
    """The solver's answer for one position.

    Attributes:
        moves: one minimal solution (``Move`` objects), ``None`` when none exists within
            ``max_depth`` or the budget ran out.
        length: its number of moves (``None`` with ``moves``).
        solutions: the number of distinct minimal solutions (0 when none).
        optimal: True when the minimum (or the absence of a solution) is proven.
        nodes: positions expanded, count.
        seconds: wall-clock time, seconds.
    """

    moves: tuple[Move, ...] | None
    length: int | None
    solutions: int
    optimal: bool
    nodes: int
    seconds: float


class _Counter:
    def __init__(self, max_nodes: int | None, deadline: float | None):
        self.table: dict[tuple[bytes, int], int] = {}
        self.children: dict[tuple[bytes, bool], list] = {}
        self.nodes = 0
        self.max_nodes = max_nodes
        self.deadline = deadline

    def expand(self, board: bytes, occ: int, nmask: int, first: bool) -> list:
        """[(state s, board after, occupancy after, neutral mask after, neutrals after)] of
        the legal moves."""
        got = self.children.get((board, first))
        if got is None:
            got = []
            for s, hit in strikes(board, occ, 0).items():
                after, _, pocketed, occ2, nmask2 = simulate(board, occ, nmask, s, hit, False)
                if first and pocketed:
                    continue  # the first move may not pocket
                got.append((s, after, occ2, nmask2, nmask2.bit_count()))
            if len(self.children) < 2_000_000:
                self.children[(board, first)] = got
        return got

    def count(self, board: bytes, occ: int, nmask: int, neutrals: int, rem: int, first: bool) -> int:
        if neutrals == 0:
            return 1 if rem == 0 else 0
        if neutrals > rem:
            return 0
        key = (board, rem) if not first else (board, -rem)
        got = self.table.get(key)
        if got is not None:
            return got
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchAborted
        if self.deadline is not None and not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise SearchAborted
        total = 0
        for _, after, occ2, nmask2, left in self.expand(board, occ, nmask, first):
            total += self.count(after, occ2, nmask2, left, rem - 1, False)
        self.table[key] = total
        return total

    def path(self, board: bytes, occ: int, nmask: int, neutrals: int, rem: int, first: bool) -> list[Move]:
        """One solution of exactly ``rem`` moves, read back from the table."""
        out = []
        while rem:
            for s, after, occ2, nmask2, left in self.expand(board, occ, nmask, first):
                if self.count(after, occ2, nmask2, left, rem - 1, False):
                    out.append(MOVES[s])
                    board, occ, nmask, rem, first = after, occ2, nmask2, rem - 1, False
                    break
        return out


def count_solutions(state: SoloState, max_depth: int | None = None, max_nodes: int | None = None,
                    deadline: float | None = None) -> SoloResult:
    """The minimum number of moves that clears ``state``, one such solution and how many
    there are (IDA* on the bound "neutrals left" with a transposition table).

    Args:
        state: the position; its ply decides the first-move rule (ply 0 may not pocket).
        max_depth: the longest solution considered, moves (default: the moves left before
            the game's ``max_plies``).
        max_nodes: node budget; deadline: ``time.perf_counter()`` seconds. When either runs
            out the result has ``moves=None`` and ``optimal=False``.
    """
    start = time.perf_counter()
    if max_depth is None:
        max_depth = max(0, state.game.max_plies - state.ply)
    search = _Counter(max_nodes, deadline)
    board, occ, nmask, first = state.board, state.occ, state.nmask, state.ply == 0
    neutrals = state.neutrals
    try:
        for bound in range(neutrals, max_depth + 1):
            n = search.count(board, occ, nmask, neutrals, bound, first)
            if n:
                moves = tuple(search.path(board, occ, nmask, neutrals, bound, first))
                return SoloResult(moves, bound, n, True, search.nodes, time.perf_counter() - start)
    except SearchAborted:
        return SoloResult(None, None, 0, False, search.nodes, time.perf_counter() - start)
    return SoloResult(None, None, 0, True, search.nodes, time.perf_counter() - start)


def greedy_solution(state: SoloState, max_nodes: int = 5000) -> tuple[tuple[Move, ...] | None, int]:
    """A quick solution by greedy best-first search on (neutrals left, moves), not optimal.

    Returns (moves or ``None``, nodes expanded).
    """
    import heapq

    start = state
    heap: list[tuple[int, int, int, SoloState, tuple[Move, ...]]] = [(state.neutrals, 0, 0, state, ())]
    seen = {state.board}
    nodes = tie = 0
    while heap and nodes < max_nodes:
        _, g, _, cur, moves = heapq.heappop(heap)
        nodes += 1
        for move, child in cur.successors():
            if child.termination == "cleared":
                return moves + (move,), nodes
            if child.is_terminal() or child.board in seen:
                continue
            seen.add(child.board)
            tie += 1
            heapq.heappush(heap, (child.neutrals, g + 1, tie, child, moves + (move,)))
    del start
    return None, nodes


def breadth_first_count(state: SoloState, max_depth: int = 12) -> tuple[int | None, int]:
    """(minimum moves, number of minimal solutions) by plain breadth-first search over the
    game's ``successors``, counting paths layer by layer; ``(None, 0)`` when the board is not
    cleared within ``max_depth`` moves. A reference for tests (small layouts only)."""
    if state.termination == "cleared":
        return 0, 1
    layer = {state.board: (state, 1)}  # boards identify positions of one ply
    for depth in range(1, max_depth + 1):
        nxt: dict[bytes, list] = {}
        cleared = 0
        for st, paths in layer.values():
            for _, child in st.successors():
                if child.termination == "cleared":
                    cleared += paths
                elif not child.is_terminal():
                    key = child.board  # ply is the layer: boards identify positions
                    entry = nxt.get(key)
                    if entry is None:
                        nxt[key] = [child, paths]
                    else:
                        entry[1] += paths
        if cleared:
            return depth, cleared
        layer = {k: (v[0], v[1]) for k, v in nxt.items()}
        if not layer:
            break
    return None, 0


__all__ = ["SoloResult", "SearchAborted", "count_solutions", "greedy_solution", "breadth_first_count"]
