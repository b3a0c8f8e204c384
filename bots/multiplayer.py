"""Search for sequential n-player games: ``paranoid`` and ``brs`` here, ``maxn`` in
``bots.maxn`` on the same driver (``_Search``).

All three run iterative deepening under depth (plies; BRS: layers), node and time (seconds)
limits and return the best move of the last completed iteration (if even the first
iteration is cut short: the best root move found so far). The seat to move always comes from
the state, so turn orders that do not strictly alternate (Sandpile's bonus offers and
toppling turns) need nothing special.

Leaf values. Terminal positions are scored from ``outcome().ranks`` by place points
(``arena.games.place_points``): a seat earns 1 for each seat ranked below it and 1/2 for each
seat sharing its rank. Paranoid
and BRS use the root seat's points scaled to ``[-WIN, WIN]``; max^n uses every seat's points
divided by ``n(n-1)/2`` (the vector sums to 1). Non-terminal leaves use the game's evaluator
(``bots.eval``): ``evaluate(state, root)`` for paranoid/BRS, ``evaluate_all`` normalised to
shares summing to 1 for max^n (shifted to a minimum of 0 first when negative); a game without
an evaluator scores 0 (uniform shares).
"""

from __future__ import annotations

import math
import operator
import time
from collections import defaultdict
from typing import Any

from arena.games import TERMINAL, Param, State, place_points
from bots.base import MAX_DEPTH, Bot, Limits, Plays, SearchStats
from bots.eval import evaluator, evaluator_all
from bots.values import terminal_value

#: depth used when neither the bot's spec nor the tournament sets any limit
DEFAULT_DEPTH = 3
INF = math.inf
_EXACT, _LOWER, _UPPER = 0, 1, 2


class _Abort(Exception):
    """Raised inside the search when the node or time limit is reached."""


def terminal_scalar(state: State, seat: int) -> float:
    """Value of a terminal position for ``seat`` in [-WIN, WIN] (sole winner: WIN)."""
    return terminal_value(state.outcome(), seat)  # type: ignore[arg-type]  # a terminal state: outcome() is set


def terminal_shares(state: State) -> tuple[float, ...]:
    """Per seat, place points over ``n(n-1)/2``: non-negative, summing to 1."""
    points = place_points(state.outcome().ranks)  # type: ignore[union-attr]  # terminal: outcome() is set
    n = len(points)
    return tuple(p / (n * (n - 1) / 2) for p in points)


def _player(state: State):
    """``state.child`` (a game's unchecked move for moves of ``legal_moves()``) when the
    state has one, else ``state.play``."""
    return getattr(state, "child", None) or state.play


def _steps(state: State, leaves: bool):
    """(step, whole): ``step(move)`` the position after a move of ``state.legal_moves()``.

    With ``leaves`` and a game whose states have ``leaf`` (Sandpile:
    ``arena.games.sandpile.search``), ``step`` may give a light position for evaluation only
    (``to_move`` and what the game's evaluator reads: no board copy, no key) and
    ``whole(position)`` makes it a state to search on, for the children that turn out not
    to be leaves. Otherwise ``step`` is ``_player(state)`` and ``whole`` the identity.
    A game's light positions also take ``leaf`` (and ``pass_or_first``, if its states have
    it) steps themselves: BRS walks a last-layer line of default moves on them.
    """
    if leaves:
        leaf = getattr(state, "leaf", None)
        if leaf is not None:
            return leaf, _whole
    return _player(state), _same


_whole = operator.methodcaller("whole")


def _same(state: State) -> State:
    return state


def shares(values: tuple[float, ...]) -> tuple[float, ...]:
    """Heuristic values as non-negative shares summing to 1 (uniform when all are 0)."""
    low = min(values)
    if low < 0:
        values = tuple(v - low for v in values)
    total = sum(values)
    if total <= 0:
        return tuple(1.0 / len(values) for _ in values)
    return tuple(v / total for v in values)


class _Search(Bot):
    """Shared driver: limits, iterative deepening, node counting, move ordering."""

    #: sequential games, any number of seats, no chance nodes (every node below the root is a
    #: seat's choice)
    PLAYS = Plays(chance_nodes=False)
    PARAMS = {
        "depth": Param(None, "plies of full-width search (64 at most)", kind=int, minimum=1,
                       maximum=MAX_DEPTH),
        "nodes": Param(None, "nodes per move", kind=int, minimum=1),
        "time": Param(None, "seconds per move", kind=float, minimum=0.0),
        "tt": Param(True, "use a transposition table"),
    }
    #: set by ``reset(game, ...)``: seats in the game, evaluation functions (None: no evaluator)
    players = 2
    _eval = None
    _eval_all = None

    def reset(self, game, seat: int, seed: int) -> None:
        super().reset(game, seat, seed)
        self.players = game.num_players
        self._eval = evaluator(game.name)
        self._eval_all = evaluator_all(game.name, game.num_players) if self._eval else None

    def choose(self, state: State, limits: Limits | None = None) -> Any:
        """The best move of the last completed iteration for the seat to move in ``state``.

        Limits: the stricter of the spec's (``depth``, ``nodes``, ``time`` in seconds) and
        ``limits``; with none at all, depth ``DEFAULT_DEPTH``. ``last_stats``: nodes visited,
        deepest completed iteration, seconds, and that iteration's root value (paranoid and
        BRS: root seat's scalar within [-WIN, WIN]; max^n: the root seat's share, 0..1).
        A single legal move is returned without search (0 nodes).
        """
        start = time.perf_counter()
        moves = state.legal_moves()
        self.last_stats = SearchStats(0, 0, 0.0, None)
        if state.to_move < 0 or not moves:
            return None
        lim = self.move_limits(limits)
        depth_cap = lim.plies(DEFAULT_DEPTH)
        self.root, self.nodes, self.max_nodes = state.to_move, 0, lim.nodes
        self.deadline = lim.deadline(start)
        self.use_tt = self.options["tt"]
        self.tt: dict = {}
        self.history: defaultdict = defaultdict(int)  # move -> score; read as 0 when absent
        best, value, done = moves[0], None, 0
        if len(moves) > 1:
            for depth in range(1, depth_cap + 1):
                self.cuts, self.partial = 0, None
                try:
                    best, value = self._root(state, self._order(moves, best), depth)
                except _Abort:
                    if done == 0 and self.partial is not None:
                        best = self.partial
                    break
                done = depth
                if self.cuts == 0:  # no leaf was cut by the depth: the tree is solved
                    break
        self.last_stats = SearchStats(self.nodes, done, time.perf_counter() - start, value)
        return best

    # ---- shared helpers ---------------------------------------------------------------------
    def _tick(self) -> None:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _Abort
        self.nodes += 1
        if self.deadline is not None and not self.nodes & 63 and time.perf_counter() > self.deadline:
            raise _Abort

    def _order(self, moves: list, first: Any = None) -> list:
        """TT/previous best move first, then by history score (stable: ties keep game order)."""
        history = self.history
        if history:  # descending scores; ``reverse`` keeps the sort stable
            moves = sorted(moves, key=history.__getitem__, reverse=True)
        if first is not None and first in moves:
            k = moves.index(first)
            if k:
                moves = [first, *moves[:k], *moves[k + 1:]]
        return moves

    def _reward(self, move: Any, depth: int) -> None:
        self.history[move] += depth * depth

    def _scalar(self, state: State) -> float:
        """The root seat's value of a leaf (terminal or at the depth horizon)."""
        if state.to_move == TERMINAL:
            return terminal_scalar(state, self.root)
        self.cuts += 1
        return self._eval(state, self.root) if self._eval else 0.0

    def _probe(self, state: State, depth: int, alpha: float, beta: float):
        """(key, value or None, stored best move) of ``state`` in the transposition table;
        key ``None`` when the table is off (``tt=false``). ``depth``: remaining plies."""
        if not self.use_tt:
            return None, None, None
        key = state.key()
        entry = self.tt.get(key)
        if entry is None:
            return key, None, None
        edepth, flag, value, move, complete = entry
        if edepth >= depth and (flag == _EXACT or (flag == _LOWER and value >= beta)
                                or (flag == _UPPER and value <= alpha)):
            if not complete:
                self.cuts += 1
            return key, value, move
        return key, None, move

    def _store(self, key, depth, value, alpha0, beta0, move, cuts0) -> float:
        """``value`` of the node ``key`` searched ``depth`` plies deep, kept in the table (with
        its bound against the window ``alpha0``, ``beta0``) unless ``key`` is ``None``."""
        if key is not None:
            flag = _UPPER if value <= alpha0 else _LOWER if value >= beta0 else _EXACT
            self.tt[key] = (depth, flag, value, move, self.cuts == cuts0)
        return value

    def _root(self, state: State, moves: list, depth: int) -> tuple[Any, float]:
        raise NotImplementedError


class ParanoidBot(_Search):
    """Paranoid search (Sturtevant & Korf 2000): the root seat maximises its value, every other
    seat minimises it, as one coalition; alpha-beta with a transposition table (sound here:
    the search is two-player zero-sum), history ordering, iterative deepening on plies."""

    name = "paranoid"
    summary = "paranoid alpha-beta for n-player games (depth/nodes/time, iterative deepening)"

    def _root(self, state, moves, depth):
        alpha, best = -INF, None
        play = _player(state)
        for move in moves:
            value = self._search(play(move), depth - 1, alpha, INF)
            if best is None or value > alpha:
                best, alpha = move, value
                self.partial = move
        return best, alpha

    def _search(self, state: State, depth: int, alpha: float, beta: float) -> float:
        self._tick()
        if depth <= 0 or state.to_move < 0:
            return self._scalar(state)
        key, value, tt_move = self._probe(state, depth, alpha, beta)
        if value is not None:
            return value
        alpha0, beta0, cuts0 = alpha, beta, self.cuts
        maximising = state.to_move == self.root
        best, best_move = (-INF if maximising else INF), None
        leaf = self._scalar if depth == 1 else None  # every child is a leaf: valued here
        play = _steps(state, leaf is not None)[0]
        tick = self._tick
        for move in self._order(state.legal_moves(), tt_move):
            if leaf is not None:
                child = play(move)
                tick()
                value = leaf(child)
            else:
                value = self._search(play(move), depth - 1, alpha, beta)
            if maximising and value > best:
                best, best_move, alpha = value, move, max(alpha, value)
            elif not maximising and value < best:
                best, best_move, beta = value, move, min(beta, value)
            if alpha >= beta:
                self._reward(move, depth)
                break
        return self._store(key, depth, best, alpha0, beta0, best_move, cuts0)


class BestReplyBot(_Search):
    """Best-reply search (Schadd & Winands 2011): the root seat's moves alternate with ONE
    MIN layer in which the moves of all opponents are merged and only the best reply of any
    one opponent is played.

    A sequential state cannot skip a seat, so between two root turns the opponents still all
    move: as in BRS+ (Esser et al. 2013), exactly one opponent ply in the run is searched and
    every other opponent plays a default move, ``pass`` when legal, else its first legal move
    (a function of the position only, which keeps the transposition table, used at the root
    seat's nodes, sound). Depth counts layers: a run of consecutive root plies (a placement and
    its bonus offer) is one MAX layer, a run of opponent plies one MIN layer.
    """

    PARAMS = {**_Search.PARAMS,
              "depth": Param(None, "layers of search (a run of the root seat's plies, or of the opponents', is "
                                   "one layer; 64 at most)", kind=int, minimum=1, maximum=MAX_DEPTH)}

    name = "brs"
    summary = "best-reply search for n-player games (depth in layers, nodes, time)"

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._is_pass: dict = {}

    def _root(self, state, moves, depth):
        alpha, best = -INF, None
        play = _player(state)
        for move in moves:
            value = self._after_root_ply(play(move), depth, alpha, INF)
            if best is None or value > alpha:
                best, alpha = move, value
                self.partial = move
        return best, alpha

    def _after_root_ply(self, state, depth, alpha, beta, whole=_same) -> float:
        """The value after a root-seat move to ``state``: the same MAX layer goes on, else the
        next layer; ``whole`` makes a light last-layer position (``_steps``) a state first."""
        if state.to_move == self.root:
            return self._max(whole(state), depth, alpha, beta)  # same MAX layer
        return self._layer(state, depth - 1, alpha, beta)

    def _layer(self, state, depth, alpha, beta) -> float:
        """A new layer starts at ``state``; ``depth`` layers remain, this one included."""
        if depth <= 0 or state.to_move < 0:
            self._tick()
            return self._scalar(state)
        if state.to_move == self.root:
            return self._max(state, depth, alpha, beta)
        return self._min(state, depth, alpha, beta, replied=False)

    def _default(self, moves: list) -> Any:
        """The move of an opponent that does not reply: the last legal move if it is written
        ``pass`` (games list it last), else the first legal move."""
        last = moves[-1]
        flag = self._is_pass.get(last)
        if flag is None:
            flag = self._is_pass[last] = str(last) == "pass"
        return last if flag else moves[0]

    def _max(self, state, depth, alpha, beta) -> float:
        self._tick()
        key, value, tt_move = self._probe(state, depth, alpha, beta)
        if value is not None:
            return value
        alpha0, beta0, cuts0 = alpha, beta, self.cuts
        best, best_move = -INF, None
        step, whole = _steps(state, depth == 1)  # last layer: a child that ends it is a leaf
        for move in self._order(state.legal_moves(), tt_move):
            value = self._after_root_ply(step(move), depth, alpha, beta, whole)
            if value > best:
                best, best_move, alpha = value, move, max(alpha, value)
            if alpha >= beta:
                self._reward(move, depth)
                break
        return self._store(key, depth, best, alpha0, beta0, best_move, cuts0)

    def _min(self, state, depth, alpha, beta, replied: bool) -> float:
        """An opponent ply inside the MIN layer; ``replied``: the layer's one reply is made."""
        if replied:
            return self._default_line(state, depth, alpha, beta)
        self._tick()
        # reply here with any move, or play the default and let a later opponent reply
        moves = state.legal_moves()
        candidates = [(m, True) for m in self._order(moves)] + [(self._default(moves), False)]
        best = INF
        step, whole = _steps(state, depth == 1)  # last layer: a child that ends it is a leaf
        root = self.root
        for move, done in candidates:
            child = step(move)
            if child.to_move == root or child.to_move < 0:
                if not done:
                    continue  # the layer ends: the same line as (default, True)
                if depth == 1:  # the last layer ends: a leaf (``_layer`` at depth 0)
                    self._tick()
                    value = self._scalar(child)
                else:
                    value = self._layer(child, depth - 1, alpha, beta)
            elif done:  # the reply is made: the line of default moves (``_min`` with ``replied``)
                value = self._default_line(child, depth, alpha, beta)  # light in the last layer too
            else:
                value = self._min(whole(child), depth, alpha, beta, False)
            if value < best:
                best, beta = value, min(beta, value)
            if alpha >= beta:
                if done:
                    self._reward(move, depth)
                break
        return best

    def _default_line(self, state, depth, alpha, beta) -> float:
        """The value of an opponent ply after the layer's reply: this opponent and the ones
        after it play their default moves until the layer ends (from the state alone where
        it can tell, ``pass_or_first``: no move generation). A single line, walked in a loop:
        the nodes, in order, and the value of one ``_min`` call per ply with one candidate.
        In the last layer (``depth`` 1) the line is walked on ``leaf`` positions where the
        game has them (Sandpile's take ``leaf`` and ``pass_or_first`` steps themselves)."""
        root, tick = self.root, self._tick
        leaves = depth == 1 and hasattr(state, "leaf")
        quick = hasattr(state, "pass_or_first")
        while True:
            tick()
            move = state.pass_or_first() if quick else self._default(state.legal_moves())
            child = state.leaf(move) if leaves else _player(state)(move)
            if child.to_move == root or child.to_move < 0:
                break
            state = child
        if depth == 1:
            tick()
            return self._scalar(child)
        return self._layer(child, depth - 1, alpha, beta)
