"""``alphabeta``: negamax alpha-beta with iterative deepening for two-player sequential games.

- Iterative deepening from depth 1; the move played is the best of the last **completed**
  iteration (the first legal move if not even depth 1 completed).
- Transposition table keyed by ``state.key()`` (a Zobrist hash where the game has one):
  value, bound and best move per position. A stored value is used as a cut-off only at the
  same remaining depth, so the root value at depth ``d`` equals plain minimax at depth ``d``
  (checked by the tests); deeper entries still give their best move for ordering.
- Move ordering: the hash move, then two killer moves per ply, then the history heuristic
  (not at depth-1 nodes, whose moves after the hash move and killers come in generation
  order). A depth-1 node is one call of the state's ``best_leaf`` where it has one
  (Interaction: simulate, value and cut off in one loop; in the last iteration, where no leaf
  is kept, the leaves are valued from their fields by the evaluator's ``evaluate_fields``,
  never built), else ``play`` of every move.
- Each iteration of the deepening searches the tree of the one before plus one ply, so the
  positions of an iteration (children, and leaves completed by the state's ``expand``) are
  kept for the next one instead of being played again: the same tree, about a quarter fewer
  move simulations at depth 4 in Interaction. At most ``KIDS`` interior nodes are kept, none
  in the last iteration; Python's cyclic collector is paused meanwhile
  (``bots.base.collector_paused``), since it would visit every kept position again and again.
- Finished games score beyond any heuristic: ``WIN - ply`` for a win ``ply`` plies from the
  root (faster wins first, slower losses first), 0 for a draw; other leaves are valued by the
  game's evaluator from ``bots.eval`` (0 when the game has none).
- Limits: ``depth`` (plies), ``nodes`` (positions visited, leaves included) and ``time``
  (seconds), the tighter of the bot's own and the runner's (``Limits.tighter``); under a game
  clock, the seat's share of it (``Limits.budgeted``). Without a
  time limit the search is deterministic.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any

from arena.games import Game, Param, State
from bots.base import MAX_DEPTH, Bot, Limits, Plays, SearchStats, collector_paused
from bots.eval import WIN, fields_evaluator
from bots.values import heuristic, terminal_value

EXACT, LOWER, UPPER = 0, 1, 2
INF = float("inf")
#: a value beyond this is a proven result (a finished game), not a heuristic
PROVEN = WIN / 2


#: ordering priorities above any history score
_HASH, _KILLER1, _KILLER2 = 1 << 62, 1 << 61, 1 << 60


class _History(dict):
    """History heuristic: move -> sum of depth squared over the cut-offs it caused."""

    def scores(self, moves: list) -> dict:
        """``{move: history score}`` (0 for a move without one) of ``moves``: a sort key looked
        up at C speed (``scores.__getitem__``), not a Python call per move."""
        get = self.get
        return {m: get(m, 0) for m in moves}


def _steps(cls: type[State]) -> tuple:
    """(``expand``, ``child`` or else ``play``, ``try_play``) of a state class, as functions of
    (state, argument); ``None`` for the optional ones it lacks (``_children`` looks them up
    once per class, not three times a node)."""
    return getattr(cls, "expand", None), getattr(cls, "child", None) or cls.play, getattr(cls, "try_play", None)


class _Stop(Exception):
    """Raised inside the search when a node or time limit runs out."""


class AlphaBetaBot(Bot):
    """Negamax alpha-beta, iterative deepening, transposition table, killer/history ordering.

    ``last_stats``: ``nodes`` = positions visited in this choice (root and leaves included),
    ``depth`` = last completed iteration (plies), ``evaluation`` = its root value for the seat
    to move (``bots.eval.WIN - plies`` = a forced win).
    """

    name = "alphabeta"
    #: negamax: two players, alternating or not (use mcts, paranoid, maxn or brs for more),
    #: no chance nodes (expectimax is not done: use mcts)
    PLAYS = Plays(2, 2, chance_nodes=False)
    summary = "negamax alpha-beta, iterative deepening, transposition table (two players)"
    PARAMS = {
        "depth": Param(None, "deepest iteration, plies (default 4; 64, the most, when a time or node "
                             "limit is set)", kind=int, minimum=1, maximum=MAX_DEPTH),
        "nodes": Param(None, "nodes (positions visited) per move", kind=int, minimum=1),
        "time": Param(None, "seconds per move", kind=float, minimum=0),
        "tt": Param(200_000, "transposition table entries kept between moves (cleared when full)", minimum=1),
    }
    DEFAULT_DEPTH = 4
    #: nodes between two clock readings
    CHECK_EVERY = 256
    #: interior nodes whose children are kept between iterations (about 16 children each)
    KIDS = 4096
    #: journal entries before it is compacted (``_compact``)
    JOURNAL = 1 << 16

    def reset(self, game: Game, seat: int, seed: int) -> None:
        super().reset(game, seat, seed)
        self._evaluate = heuristic(game.name)
        self._light = fields_evaluator(game.name)
        self._tt: dict[Any, tuple] = {}
        self._tt_cap = self.options["tt"]
        self._history = _History()

    # ------------------------------------------------------------------ driver
    def choose(self, state: State, limits: Limits | None = None) -> Any:
        start = time.perf_counter()
        if self.no_answer(state, start):
            return None
        lim = self.move_limits(limits)
        max_depth = lim.plies(self.DEFAULT_DEPTH)
        self._deadline = lim.deadline(start)
        self._node_cap = lim.nodes if lim.nodes is not None else float("inf")
        self.nodes = 0
        self._next_check = self._stop_at()
        self._killers = [[None, None] for _ in range(max_depth + 1)]
        self._journal: list = []  # (move, history score before) per history update, in order
        self._marks: list[int] = []  # the journal's length as each waiting node began (_children)
        self._compact_at = self.JOURNAL
        self._kids: dict[int, tuple[State, dict]] = {}  # id(state) -> (state, {move: child})
        moves = state.legal_moves()
        best, value, reached = moves[0], None, 0
        self._leafy = hasattr(state, "best_leaf")
        self._steps: dict[type, tuple] = {}
        final = self._final
        game = self.game
        assert game is not None  # reset() gave the game
        self._finals = [[partial(final, me=seat, ply=ply + 1) for ply in range(max_depth + 1)]
                        for seat in range(game.num_players)]
        with collector_paused():
            for depth in range(1, max_depth + 1):
                self._keep: bool = depth < max_depth
                try:
                    v = self._search(state, depth, -INF, INF, 0)
                except _Stop:
                    break
                best, value, reached = self._root_move, v, depth
                if abs(v) >= PROVEN:
                    break  # a proven result: a deeper search finds no faster win nor slower loss
                if self._deadline is not None and lim.time is not None and time.perf_counter() - start > 0.5 * lim.time:
                    break  # the next iteration would not finish
            self._kids = {}
        self.last_stats = SearchStats(self.nodes, reached, time.perf_counter() - start, value)
        return best

    def _stop_at(self) -> float:
        """The node count at which to next look at the limits."""
        if self._deadline is None:
            return self._node_cap
        return min(self._node_cap, self.nodes + self.CHECK_EVERY)

    def _check(self) -> None:
        if self.nodes >= self._node_cap:
            raise _Stop
        if self._deadline is not None and time.perf_counter() >= self._deadline:
            raise _Stop
        self._next_check = self._stop_at()

    # ------------------------------------------------------------------ search
    def _ordered(self, moves: list, hash_move: Any, ply: int, history: bool = True) -> list:
        """Hash move, killers, then the rest by history score (a stable sort: deterministic).

        Two dictionary look-ups per move and no list scans: moves may have slow ``__eq__``.
        """
        k1, k2 = self._killers[ply]
        if hash_move is None and k1 is None:
            if not history or not self._history:
                return moves
            return sorted(moves, key=self._history.scores(moves).__getitem__, reverse=True)
        score = self._history.scores(moves) if history else dict.fromkeys(moves, 0)
        for move, bonus in ((k2, _KILLER2), (k1, _KILLER1), (hash_move, _HASH)):
            if move in score:  # None never is
                score[move] = bonus
        return sorted(moves, key=score.__getitem__, reverse=True)

    def _search(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Negamax value of a non-terminal ``state`` for its side to move, ``depth`` >= 1."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check()
        tt = self._tt
        key = state.key()
        entry = tt.get(key)
        hash_move = None
        if entry is not None:
            edepth, flag, evalue, hash_move = entry
            if edepth == depth:
                if evalue > PROVEN:
                    evalue -= ply
                elif evalue < -PROVEN:
                    evalue += ply
                if flag == EXACT or (flag == LOWER and evalue >= beta) or (flag == UPPER and evalue <= alpha):
                    if ply == 0:
                        self._root_move = hash_move
                    return evalue
        me = state.to_move
        alpha0 = alpha
        best, best_move = -INF, None
        if depth == 1:
            if self._leafy:  # the hot spot: the whole depth-1 node in one call of the state's
                base = self._base = self.nodes
                killers = self._killers[ply]
                best, best_move, count = state.best_leaf(  # type: ignore[attr-defined]  # self._leafy: it has one
                    self._evaluate, me, self._finals[me][ply], alpha, beta, (hash_move, killers[0], killers[1]),
                    self._kids_of(state) if self._keep else None, self._next_check - base, self._leaf_check,
                    self._light)
                self.nodes = base + count
                if best >= beta:
                    self._cutoff(best_move, hash_move, 1, ply)
            else:
                best, best_move = self._frontier(state, me, alpha, beta, ply, hash_move)
        else:
            for move, child in self._children(state, hash_move, ply):
                if child.to_move < 0:
                    self.nodes += 1
                    v = self._final(child, me, ply + 1)
                elif child.to_move == me:
                    v = self._search(child, depth - 1, alpha, beta, ply + 1)
                else:
                    v = -self._search(child, depth - 1, -beta, -alpha, ply + 1)
                if v > best:
                    best, best_move = v, move
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            self._cutoff(move, hash_move, depth, ply)
                            break
        if best_move is None:  # no legal move in a live position: value it as it stands
            return self._evaluate(state, me)
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        stored = best + ply if best > PROVEN else best - ply if best < -PROVEN else best
        if len(tt) >= self._tt_cap:
            tt.clear()
        tt[key] = (depth, flag, stored, best_move)
        if ply == 0:
            self._root_move = best_move
        return best

    def _children(self, state: State, hash_move: Any, ply: int):
        """``(move, state after move)`` of an interior node, lazily, in ``_ordered`` order.

        Staged: where the state can check one move alone (``state.try_play``), the hash move and
        killers come first and the other moves are generated only when none of them cut off;
        the rest is then ordered by the history scores as they were when the node began (the
        journal undoes the updates made below the moves tried first), so the search tree is
        the one of generating all moves first. Moves of ``legal_moves()`` are played by the
        state's ``child`` when it has one (no legality re-check), else by ``play``.

        Children are kept for the rest of the choice (``_kids``): the next iteration of the
        deepening searches this node again, and takes the same child objects with their moves
        already generated instead of playing every move again (same tree, less work). The
        leaves kept by ``_frontier`` are completed by the state's ``expand`` (no new
        simulation) where it has one.
        """
        kids = self._kids_of(state)
        cls = state.__class__
        steps = self._steps.get(cls)
        if steps is None:
            steps = self._steps[cls] = _steps(cls)
        expand, play, try_play = steps
        killers = self._killers[ply]
        if try_play is None or (hash_move is None and killers[0] is None):
            order = self._ordered(state.legal_moves(), hash_move, ply)
        else:
            marks = self._marks  # this node waits for the history as it began: the journal keeps it
            slot = len(marks)
            marks.append(len(self._journal))
            try:
                tried: list = []
                for move in (hash_move, *killers):
                    if move is None or move in tried:
                        continue
                    child = kids.get(move)  # kept: legal here
                    if child is None:
                        child = try_play(state, move)
                        if child is None:
                            continue
                        kids[move] = child
                    elif child.__class__ is not cls:
                        child = kids[move] = expand(state, child) if expand is not None else play(state, move)
                    tried.append(move)
                    yield move, child
                order = [m for m in state.legal_moves() if m not in tried]
                if self._history:
                    score = self._history.scores(order)
                    for m, old in reversed(self._journal[marks[slot]:]):  # the earliest update wins
                        if m in score:
                            score[m] = old
                    order.sort(key=score.__getitem__, reverse=True)
            finally:  # also when a first move cut the node off (the generator closed)
                del marks[slot:]
                if not marks:
                    self._journal.clear()  # no node waits: nothing in it is read again
        for move in order:
            child = kids.get(move)
            if child is None:
                child = kids[move] = play(state, move)
            elif child.__class__ is not cls:  # a kept leaf: made whole
                child = kids[move] = expand(state, child) if expand is not None else play(state, move)
            yield move, child

    def _kids_of(self, state: State) -> dict:
        """``{move: child}`` kept for ``state`` in this choice: a new dict the first time (the
        whole store emptied first when it holds ``KIDS`` interior nodes, a memory bound), not
        kept in the last iteration (no later one would read it)."""
        entry = self._kids.get(id(state))
        if entry is not None:
            return entry[1]
        if not self._keep:
            return {}
        if len(self._kids) >= self.KIDS:
            self._kids.clear()
        kids: dict = {}
        self._kids[id(state)] = (state, kids)  # the state held: its id is not reused meanwhile
        return kids

    def _frontier(self, state: State, me: int, alpha: float, beta: float, ply: int,
                  hash_move: Any) -> tuple[float, Any]:
        """(best value, best move) of a depth-1 node of a state without ``best_leaf``: every
        child is a leaf, ``play``ed and valued by the evaluator; moves ordered by hash move and
        killers only (no history look-ups). The leaves are kept (``_kids_of``): the next
        iteration searches them as depth-1 nodes. (A state with ``best_leaf`` does all this in
        that one call, made by ``_search``.)
        """
        kids = self._kids_of(state)
        best, best_move = -INF, None
        evaluate = self._evaluate
        play = state.play
        for move in self._ordered(state.legal_moves(), hash_move, ply, False):
            child = kids[move] = play(move)
            self.nodes += 1
            v = self._final(child, me, ply + 1) if child.to_move < 0 else evaluate(child, me)
            if self.nodes >= self._next_check:
                self._check()
            if v > best:
                best, best_move = v, move
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        self._cutoff(move, hash_move, 1, ply)
                        break
        return best, best_move

    def _leaf_check(self, count: int) -> float:
        """``best_leaf``'s ``check``: the limits, ``count`` leaves into the depth-1 node that
        began at ``self._base`` nodes; returns the leaves until the next check."""
        base = self._base
        self.nodes = base + count
        self._check()
        return self._next_check - base

    @staticmethod
    def _final(state: State, me: int, ply: int) -> float:
        """Value for ``me`` of a finished game ``ply`` plies below the root."""
        v = terminal_value(state.outcome(), me)  # type: ignore[arg-type]  # a terminal state: outcome() is set
        return v - ply if v > 0 else v + ply if v < 0 else v

    def _cutoff(self, move: Any, hash_move: Any, depth: int, ply: int) -> None:
        """A beta cut-off by ``move``: remember it as a killer and in the history table."""
        if move != hash_move:
            killers = self._killers[ply]
            if killers[0] != move:
                killers[1] = killers[0]
                killers[0] = move
        old = self._history.get(move, 0)
        if self._marks:  # a node waits to order its moves by the history as it began
            journal = self._journal
            journal.append((move, old))
            if len(journal) > self._compact_at:
                self._compact()
        self._history[move] = old + depth * depth

    def _compact(self) -> None:
        """Bound the journal (a long search makes millions of cut-offs): between two marks of
        waiting nodes, and after the last, only each move's first entry is kept, which is all
        any waiting node reads (per move, its earliest entry since its own mark); what lies
        before the first mark is dropped. At most (waiting nodes x distinct moves) entries
        stay; the next compaction waits until the journal has doubled again."""
        journal, marks = self._journal, self._marks
        out: list = []
        starts = list(marks)
        for i, (start, end) in enumerate(zip(starts, [*starts[1:], len(journal)])):
            marks[i] = len(out)
            seen: set = set()
            for entry in journal[start:end]:
                if entry[0] not in seen:
                    seen.add(entry[0])
                    out.append(entry)
        journal[:] = out
        self._compact_at = max(self.JOURNAL, 2 * len(out))
