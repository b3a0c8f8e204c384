"""``mcts``: UCT (Monte-Carlo tree search) with random playouts, any sequential game, n players.

Each tree node keeps its visit count and the summed reward of every seat
(``bots.values.rewards``: win 1, draw 0.5, loss 0; n players: normalised finishing place), so a
node's value is read for whichever seat chooses there (max^n-style backup). One iteration:

1. selection: from the root, the child maximising ``mean reward of the seat to move +
   c * sqrt(ln N(parent) / N(child))`` while the node is fully expanded;
2. expansion: one untried move (untried moves are shuffled with the seeded rng);
3. playout: uniformly random moves until the game ends, or ``horizon`` plies have been played;
   a cut-off playout is scored by ranking the seats on the game's evaluator (``bots.eval``;
   no evaluator: a draw among all seats), shrunk half-way towards 0.5 (a lead is not a win);
4. backup of every seat's reward along the path.

Chance nodes (``State.to_move == CHANCE``: OpenSpiel's dice) are sampled: selection draws an
outcome by its probability with the seeded rng (``arena.games.draw_chance``) and descends
into that outcome's child, made on its first draw (a new child ends the selection, as an
expansion does); playouts draw chance outcomes the same way.

A move that wins at once is played without search (decisive move). Otherwise the move played
is the most visited root child. ``last_stats.nodes`` = playouts,
``evaluation`` = mean reward of that child for the seat to move (its win rate).
"""

from __future__ import annotations

import math
import time
from typing import Any

from arena.games import CHANCE, TERMINAL, Game, Param, State, draw_chance
from bots.base import Bot, Limits, SearchStats, collector_paused
from arena.games import competition_ranks, place_rewards
from bots.values import heuristic_all, rewards


def _shuffle(x: list, getrandbits) -> None:
    """``random.Random.shuffle(x)`` of the generator whose ``getrandbits`` this is: the same
    swaps from the same draws (its Fisher-Yates loop with ``_randbelow`` inlined), faster."""
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


class _Node:
    """A tree node: ``move`` (the move that led here), ``children`` (nodes, in expansion order),
    ``untried`` moves (expanded from the end), ``made``: the states after the untried moves
    when already played (the root's, by the decisive-move check), else ``None``; at a chance
    node, ``made`` holds its ``chance_outcomes()`` and ``outcomes`` ``{outcome: child}`` of
    the outcomes drawn so far (both set on the first draw)."""

    __slots__ = ("state", "move", "to_move", "children", "untried", "made", "visits", "totals", "outcomes")

    def __init__(self, state: State, move: Any, num_players: int, rng) -> None:
        self.state = state
        self.move = move
        self.to_move = state.to_move
        self.children: list[_Node] = []
        self.untried: list = [] if state.to_move == TERMINAL or state.to_move == CHANCE else list(state.legal_moves())
        _shuffle(self.untried, rng.getrandbits)
        self.made: list | None = None
        self.outcomes: dict | None = None
        self.visits = 0
        self.totals = [0.0] * num_players


#: the search budget of the Monte-Carlo bots (``mcts``, ``ismcts``): playouts or seconds per move
BUDGET = {
    "playouts": Param(None, "playouts per move (default 400; unlimited when a time limit is set)", kind=int, minimum=1),
    "time": Param(None, "seconds per move", kind=float, minimum=0),
}


class MCTSBot(Bot):
    """UCT with random playouts; reproducible from the seed when no time limit is set."""

    name = "mcts"
    summary = "UCT Monte-Carlo tree search with random playouts (any sequential game, n players)"
    PARAMS = {
        **BUDGET,
        "c": Param(1.0, "UCT exploration constant (rewards are in [0, 1])", minimum=0),
        "horizon": Param(None, "plies after which a playout is cut and scored by the evaluator "
                         "(0 = to the end; default 10 with an evaluator, else to the end)", kind=int, minimum=0),
    }
    DEFAULT_PLAYOUTS = 400
    DEFAULT_HORIZON = 10
    #: a cut-off playout's reward is shrunk towards 0.5 by this factor: a heuristic lead is
    #: worth less than a won game
    CUTOFF_WEIGHT = 0.5

    def reset(self, game: Game, seat: int, seed: int) -> None:
        super().reset(game, seat, seed)
        self._n = game.num_players
        self._evaluate_all = heuristic_all(game.name, self._n)
        horizon = self.options["horizon"]
        if horizon is None:
            horizon = self.DEFAULT_HORIZON if self._evaluate_all is not None else 0
        self._horizon = horizon or -1  # -1: never cut
        self._c = self.options["c"]
        #: competition ranks of a cut-off playout -> its rewards
        self._cutoffs: dict[tuple[int, ...], tuple[float, ...]] = {}
        #: competition ranks of a finished playout -> its rewards (``bots.values.rewards``)
        self._finals: dict[tuple[int, ...], tuple[float, ...]] = {}

    def choose(self, state: State, limits: Limits | None = None) -> Any:
        start = time.perf_counter()
        if self.no_answer(state, start):
            return None
        own = Limits(time=self.options["time"], nodes=self.options["playouts"])
        lim = own.tighter(limits or Limits()).budgeted(self.seat)  # under a clock: this seat's share
        budget = lim.nodes if lim.nodes is not None else (None if lim.time is not None else self.DEFAULT_PLAYOUTS)
        deadline = lim.deadline(start)
        root = _Node(state, None, self._n, self.rng)
        if len(root.untried) == 1:
            self.last_stats = SearchStats(0, 0, time.perf_counter() - start, None)
            return root.untried[0]
        win, root.made = self._decisive(state, root.untried)
        if win is not None:
            self.last_stats = SearchStats(0, 0, time.perf_counter() - start, 1.0)
            return win
        playouts = 0
        with collector_paused():  # the tree holds no cycle: reference counting frees it
            while budget is None or playouts < budget:
                if deadline is not None and (playouts & 7) == 0 and time.perf_counter() >= deadline and playouts:
                    break
                self._iterate(root)
                playouts += 1
        child = max(root.children, key=lambda nd: (nd.visits, nd.totals[root.to_move]))
        rate = child.totals[root.to_move] / child.visits
        self.last_stats = SearchStats(playouts, 0, time.perf_counter() - start, rate)
        return child.move

    def _iterate(self, root: _Node) -> None:
        node, path = root, [root]
        c = self._c
        log, sqrt = math.log, math.sqrt
        new = False  # a chance outcome drawn for the first time: its child is played out as it is
        while not node.untried and (node.children or node.to_move == CHANCE):
            if node.to_move == CHANCE:
                node, new = self._draw(node)
                path.append(node)
                if new:
                    break
                continue
            log_n = log(node.visits)
            seat = node.to_move
            best: _Node | None = None
            best_score = -1.0
            for child in node.children:
                v = child.visits
                score = child.totals[seat] / v + c * sqrt(log_n / v)
                if score > best_score:
                    best, best_score = child, score
            node = best  # type: ignore[assignment]  # children exist: one scored above -1
            path.append(node)
        if node.untried and not new:
            move = node.untried.pop()
            made = node.made
            if made:
                after = made.pop()
            else:  # a move of the node's legal_moves(): the state's child skips the legality re-check
                after = getattr(node.state, "child", node.state.play)(move)
            child = _Node(after, move, self._n, self.rng)
            node.children.append(child)
            node = child
            path.append(node)
        result = self._playout(node.state)
        if len(result) == 2:
            r0, r1 = result
            for nd in path:
                nd.visits += 1
                totals = nd.totals
                totals[0] += r0
                totals[1] += r1
            return
        seats = range(len(result))
        for nd in path:
            nd.visits += 1
            totals = nd.totals
            for i in seats:
                totals[i] += result[i]

    def _draw(self, node: _Node) -> tuple[_Node, bool]:
        """``(child, new)`` at a chance node: the child of an outcome drawn by its probability,
        made on the outcome's first draw (``new``)."""
        if node.outcomes is None:
            node.outcomes = {}
            node.made = node.state.chance_outcomes()
        move = draw_chance(node.made or (), self.rng.random())
        child = node.outcomes.get(move)
        if child is not None:
            return child, False
        child = node.outcomes[move] = _Node(node.state.play(move), move, self._n, self.rng)
        node.children.append(child)
        return child, True

    @staticmethod
    def _decisive(state: State, moves: list) -> tuple[Any, list]:
        """``(move, [])``: a move that ends the game with the mover alone in first place; else
        ``(None, states)``: the state after each of ``moves``, in order (the root's expansions
        take them instead of playing the moves again)."""
        seat = state.to_move
        made = []
        for move in moves:
            after = state.play(move)
            if after.is_terminal():
                ranks = after.outcome().ranks  # type: ignore[union-attr]  # terminal: outcome() is set
                if ranks[seat] == 1 and ranks.count(1) == 1:
                    return move, []
            made.append(after)
        return None, made

    def _playout(self, state: State) -> tuple[float, ...]:
        """Per-seat rewards of a random continuation of ``state``.

        Each ply plays ``legal_moves()[int(rng.random() * len(legal_moves()))]``: by the state's
        ``random_child(u)`` when its class has one (the same move, without building the move
        list), else by its ``child(move)`` (a move of ``legal_moves()`` without the legality
        re-check), else by ``play``.
        """
        rnd = self.rng.random
        horizon = self._horizon
        plies = 0
        cls: type | None = None
        step: Any = None  # the class's stepping functions, looked up once per class
        pick: Any = None
        while state.to_move != TERMINAL:
            if plies == horizon:
                if self._evaluate_all is None:
                    return (0.5,) * self._n
                ranks = competition_ranks(self._evaluate_all(state))
                found = self._cutoffs.get(ranks)
                if found is None:  # few rank patterns: computed once each
                    found = self._cutoffs[ranks] = tuple(0.5 + self.CUTOFF_WEIGHT * (r - 0.5)
                                                         for r in place_rewards(ranks))
                return found
            if state.__class__ is not cls:
                cls = state.__class__
                pick = getattr(cls, "random_child", None)
                step = getattr(cls, "child", None) or cls.play
            if pick is not None:
                state = pick(state, rnd())
            elif state.to_move == CHANCE:
                state = step(state, draw_chance(state.chance_outcomes(), rnd()))
            else:
                moves = state.legal_moves()
                state = step(state, moves[int(rnd() * len(moves))])
            plies += 1
        outcome = state.outcome()
        assert outcome is not None  # the loop ran to a terminal state
        found = self._finals.get(outcome.ranks)
        if found is None:  # few rank patterns: computed once each
            found = self._finals[outcome.ranks] = rewards(outcome)
        return found
