"""max^n search for sequential n-player games (``maxn``): the driver (limits, iterative
deepening, node counting, move ordering, transposition table) is ``bots.multiplayer``'s,
and so are the leaf values (its module docstring: terminal positions by place points over
``n(n-1)/2``, other leaves the evaluator's ``evaluate_all`` as shares summing to 1)."""

from __future__ import annotations

from arena.games import State
from bots.multiplayer import INF, _player, _Search, shares, terminal_shares


class MaxNBot(_Search):
    """max^n (Luckhardt & Irani 1986): every seat maximises its own component of a value
    vector, with Korf's (1991) shallow pruning.

    Shallow pruning needs a lower bound on each component and an upper bound on their sum:
    leaf vectors are shares, each >= 0 and summing to 1 (see the module docstring). At a node
    of seat p whose parent seat q (q != p) already has ``bound`` for its own component,
    once p's best component exceeds ``1 - bound`` q gets less than ``bound`` here and will not
    choose this node: the rest is pruned (strict inequality with a 1e-9 margin, so the
    first-found best of equal vectors is kept as without pruning). Deep pruning is unsound
    for max^n and not done. The transposition table stores only vectors of nodes that were
    not pruned (exact values). Ties in the mover's component go to the move listed first by
    ``legal_moves()``, whatever the search order, so values match plain max^n.
    """

    name = "maxn"
    summary = "max^n with shallow pruning for n-player games (depth/nodes/time)"
    EPS = 1e-9

    def _root(self, state, moves, depth):
        p, best, vec, rank = self.root, None, None, self._ranks(state.legal_moves())
        play = _player(state)
        for move in moves:
            value, _ = self._search(play(move), depth - 1, None if vec is None else vec[p], p)
            if vec is None or value[p] > vec[p] or (value[p] == vec[p] and rank[move] < rank[best]):
                best, vec = move, value
                self.partial = move
        return best, vec[p]

    @staticmethod
    def _ranks(moves: list) -> dict:
        return {m: k for k, m in enumerate(moves)}

    def _leaf(self, state: State) -> tuple[float, ...]:
        if state.is_terminal():
            return terminal_shares(state)
        self.cuts += 1
        if self._eval_all is None:
            return tuple(1.0 / self.players for _ in range(self.players))
        return shares(tuple(self._eval_all(state)))

    def _search(self, state: State, depth: int, bound: float | None, parent: int):
        """(value vector, exact) of ``state``; ``bound``: the parent seat's best so far."""
        self._tick()
        if depth <= 0 or state.to_move < 0:
            return self._leaf(state), True
        key = tt_move = None
        if self.use_tt:
            key = state.key()
            entry = self.tt.get(key)
            if entry is not None:
                edepth, vec, tt_move, complete = entry
                if edepth >= depth:
                    if not complete:
                        self.cuts += 1
                    return vec, True
        p, cuts0 = state.to_move, self.cuts
        limit = INF if bound is None or parent == p else 1.0 - bound + self.EPS
        moves = state.legal_moves()
        rank = self._ranks(moves) if self.history or tt_move is not None else None
        best, best_move, best_k = None, None, -1
        play = _player(state)
        for k, move in enumerate(self._order(moves, tt_move)):
            value, _ = self._search(play(move), depth - 1, None if best is None else best[p], p)
            k = rank[move] if rank else k
            if best is None or value[p] > best[p] or (value[p] == best[p] and k < best_k):
                best, best_move, best_k = value, move, k
            if best[p] > limit:
                self._reward(move, depth)
                return best, False
        if key is not None:
            self.tt[key] = (depth, best, best_move, self.cuts == cuts0)
        return best, True
