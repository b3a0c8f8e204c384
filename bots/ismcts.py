"""``ismcts``: information-set Monte-Carlo tree search (single-observer ISMCTS, Cowling, Powley
& Whitehouse 2012, "Information Set Monte Carlo Tree Search").

The bot sees only its seat's view. Each playout starts from a *determinization*: a full state
consistent with the view, drawn by the game's sampler (``View.sample``; in a game of perfect
information the view is the state itself). The playout descends one tree whose nodes are the
bot's own information sets: a node's children are keyed by what the bot's seat observes after
the step (its view's text; the tree path is the seat's observable history), so the statistics
of every determinization with the same observations are shared. At a node,

- the seat to move (the bot's or another's) picks among the moves legal in this
  determinization by UCB1 with *availability* counts: ``mean payoff of the mover +
  c * spread * sqrt(ln(times the move was available) / visits)``, where ``spread`` is the
  range of payoffs seen so far (so ``c`` needs no tuning to the game's units); a move never
  tried there is expanded first (chosen at random), which ends the descent;
- at a simultaneous node each seat draws its own move by *regret matching* (SM-MCTS, Lanctot,
  Lisý & Winands 2013: the positive part of its regrets, mixed with ``GAMMA`` of the uniform
  distribution; its regrets updated with the importance-weighted payoff scaled to [0, 1]),
  and the joint action is played: a deterministic rule (UCB) lets two like seats move in
  lockstep and miss the answer that beats the other's, and simultaneous games need mixed
  play (rock-paper-scissors);
- at a chance node the outcome is drawn by its probability.

After the descent, uniformly random moves (and chance outcomes by their probability) to the
end of the game; every edge on the path adds the final payoff of its mover: the game's scores
(``reward=payoff``: OpenSpiel's returns, chips in poker) or the seat's normalised place
(``reward=place``: win 1, draw 0.5, loss 0). The move played is the bot's most visited move at
the root; at a simultaneous root, a move drawn with probability its share of the visits (the
average strategy of regret matching). ``last_stats.nodes`` = playouts; ``evaluation`` = that
move's mean reward. A draw the sampler cannot make (``SampleError``: a sampler that draws and
rejects, such as OpenSpiel's replay sampler, gave up) loses its playout; with no playout at all,
the move is drawn uniformly at random.

Speed (``docs/speed.md``): in an OpenSpiel game the observer's key is its view's text made
without the view (``observed``) and the tree's edges at sequential nodes are OpenSpiel's action
ids, so no move notation is made below the root: 200 playouts a move take about 10 ms on Leduc
poker.

A game with hidden information whose views cannot be sampled is refused before the first
game (``SampledPlays``); every random choice is drawn from the seed given to ``reset``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from typing import Any

from arena.games import CHANCE, SIMULTANEOUS, TERMINAL, Dynamics, Game, Param, State, draw_chance
from arena.games.protocol import Answer
from arena.games.openspiel.state import OpenSpielState
from arena.games.openspiel.views import view_text
from arena.games.views import SampleError, View
from bots.base import Bot, Limits, Plays, SearchStats, collector_paused
from bots.mcts import BUDGET
from bots.values import rewards

#: plies of the random game the sampler check plays, at most
CHECK_PLIES = 500


class SampledPlays(Plays):
    """``Plays`` of a bot that samples states from its view: a game with hidden information must
    give a sampler of its views (``View.can_sample``), checked on views along one seeded random
    game; a simultaneous game must give each seat its moves in its view."""

    def refusal(self, game: Game) -> str | None:
        why = super().refusal(game)
        if why is None and game.type.dynamics == Dynamics.SIMULTANEOUS and not game.type.hidden_information:
            why = (f"plays simultaneous moves chosen from each seat's view; {game.name}'s seats answer "
                   "on the whole state (a race)")
        if why is None and game.type.hidden_information and not _samples(game):
            why = (f"plays games whose views can be sampled (View.sample); {game.name} gives no sampler "
                   "of the states behind a view")
        return why


#: ``_samples``' answers by (game name, parameters)
_SAMPLED: dict[tuple[str, tuple], bool] = {}


def _samples(game: Game) -> bool:
    """Whether every seat's view can be sampled along one seeded random game (once per game and
    parameters in a process: a bot checks at every ``reset``)."""
    key = (game.name, tuple(sorted(getattr(game, "params", {}).items())))
    found = _SAMPLED.get(key)
    if found is None:
        found = _SAMPLED[key] = _sampled_game(game)
    return found


def _sampled_game(game: Game) -> bool:
    rng = random.Random(0)
    state = game.initial_state(0)
    for _ in range(CHECK_PLIES):
        if state.to_move == TERMINAL:
            return True
        if state.to_move != CHANCE:
            for seat in range(game.num_players):
                view = state.view(seat)
                if isinstance(view, View) and view.moves and not view.can_sample:
                    return False
        state = _random_step(state, game.num_players, rng.random)
    return True


def _seat_moves(state: State, seat: int) -> tuple | list:
    """The moves of ``seat`` at a simultaneous node: its view's ``moves`` (an OpenSpiel state's
    ``seat_moves``, without making the view)."""
    if isinstance(state, OpenSpielState):
        return list(state.seat_moves(seat))
    view = state.view(seat)
    return view.moves if isinstance(view, View) else ()


def observed(state: State, seat: int) -> Hashable:
    """What ``seat`` observes of ``state``: its view's text (of an OpenSpiel state, the same text
    without making the view: ``arena.games.openspiel.views.view_text``); in a game of perfect
    information, where the view is the state, the state's ``key()``."""
    if isinstance(state, OpenSpielState):
        return view_text(state.spiel, seat, state.game.information_state)
    seen = state.view(seat)
    return seen.text if isinstance(seen, View) else seen.key()


def _random_step(state: State, n: int, rnd: Any) -> State:
    """The state after a uniformly random move (a chance outcome by its probability; at a
    simultaneous node a random move of each seat)."""
    to_move = state.to_move
    if to_move == CHANCE:
        return state.play(draw_chance(state.chance_outcomes(), rnd()))
    if to_move == SIMULTANEOUS:
        answers = []
        for seat in range(n):
            seat_moves = _seat_moves(state, seat)
            answers.append(Answer(seat_moves[int(rnd() * len(seat_moves))] if seat_moves else None))
        return state.play(answers)
    moves = state.legal_moves()
    return state.play(moves[int(rnd() * len(moves))])


#: the share of the uniform distribution in regret matching's draw at a simultaneous node
GAMMA = 0.1


class _Node:
    """An information set of the bot's seat: ``children`` by the seat's next observation,
    ``edges`` by ``(mover, move)``: ``[visits, summed reward of the mover, availability]``; at a
    simultaneous node ``[visits, summed reward, regret]``."""

    __slots__ = ("children", "edges")

    def __init__(self) -> None:
        self.children: dict[Hashable, _Node] = {}
        self.edges: dict[tuple[int, Any], list] = {}


class ISMCTSBot(Bot):
    """Single-observer information-set MCTS (the module doc); reproducible from the seed when no
    time limit is set."""

    name = "ismcts"
    summary = "information-set MCTS: UCT over its own information sets, states sampled from its view"
    PARAMS = {
        **BUDGET,
        "c": Param(1.0, "UCT exploration constant, in units of the spread of the payoffs seen", minimum=0),
        "reward": Param("payoff", "what a playout is worth to a seat: payoff (the game's scores) or place "
                        "(win 1, draw 0.5, loss 0)", choices=("payoff", "place")),
    }
    PLAYS = SampledPlays(dynamics=frozenset(Dynamics), hidden_information=True)
    DEFAULT_PLAYOUTS = 400

    def reset(self, game: Game, seat: int, seed: int) -> None:
        super().reset(game, seat, seed)
        self._n = game.num_players
        self._c = self.options["c"]
        self._place = self.options["reward"] == "place"
        self._low = math.inf
        self._high = -math.inf
        self._simultaneous_root = False

    def choose(self, state: State | View, limits: Limits | None = None) -> Any:
        start = time.perf_counter()
        if self.game is None:
            raise RuntimeError(f"{self.name}: reset(game, seat, seed) must be called before choose")
        moves = state.legal_moves()
        if len(moves) <= 1:
            self.last_stats = SearchStats(0, 0, time.perf_counter() - start, None)
            return moves[0] if moves else None
        own = Limits(time=self.options["time"], nodes=self.options["playouts"])
        lim = own.tighter(limits or Limits()).budgeted(self.seat)
        budget = lim.nodes if lim.nodes is not None else (None if lim.time is not None else self.DEFAULT_PLAYOUTS)
        deadline = lim.deadline(start)
        sample = state.sample if isinstance(state, View) else (lambda rng: state)
        root = _Node()
        self._simultaneous_root = state.to_move == SIMULTANEOUS
        keys: dict | None = None  # the root's moves -> their edges' keys
        playouts = tries = 0
        with collector_paused():  # the tree holds no cycle: reference counting frees it
            while budget is None or tries < budget:
                if deadline is not None and tries and (tries & 7) == 0 and time.perf_counter() >= deadline:
                    break
                tries += 1
                try:
                    determinization = sample(self.rng)
                except SampleError:  # a sampler that draws and rejects found none: this playout is lost
                    continue
                if keys is None:
                    keys = self._root_keys(determinization, moves)
                self._iterate(root, determinization)
                playouts += 1
        if keys is None:  # no state could be sampled: nothing to search
            best, value = moves[self.rng.randrange(len(moves))], None
        else:
            best, value = self._answer(root, moves, keys)
        self.last_stats = SearchStats(playouts, 0, time.perf_counter() - start, value)
        return best

    def _root_keys(self, state: State, moves: list) -> dict:
        """The key of each root move in the tree: the move, or at a sequential node of an
        OpenSpiel game its action id (``_iterate`` keys those by id: no notation made); the
        view's moves are in the order of OpenSpiel's legal actions."""
        if isinstance(state, OpenSpielState) and not self._simultaneous_root:
            actions = state.spiel.legal_actions(self.seat)
            if len(actions) != len(moves):
                raise RuntimeError(f"{self.name}: a sampled state has {len(actions)} moves, the view {len(moves)}")
            return dict(zip(moves, actions))
        return {m: m for m in moves}

    def _answer(self, root: _Node, moves: list, keys: dict) -> tuple[Any, float | None]:
        """The move to play and its mean reward: the most visited at a sequential root, a draw by
        the share of the visits at a simultaneous one (the module doc)."""
        seat, edges = self.seat, root.edges
        found = [edges.get((seat, keys[m])) or [0, 0.0] for m in moves]
        if self._simultaneous_root:
            visits = [e[0] for e in found]
            best = self.rng.choices(range(len(moves)), visits)[0] if sum(visits) else 0
        else:
            best = max(range(len(moves)), key=lambda i: (found[i][0], found[i][1]))
        edge = found[best]
        return moves[best], (edge[1] / edge[0] if edge[0] else None)

    def _iterate(self, root: _Node, state: State) -> None:
        """One playout from the determinization ``state``: descend, expand, play out, back up."""
        rnd = self.rng.random
        observer, n = self.seat, self._n
        node = root
        path: list[tuple[list, int]] = []  # the sequential edges taken, with their movers
        joint: list[tuple[list, int, list, float]] = []  # the simultaneous ones: edge, mover, row, probability
        new = False
        while not new and state.to_move != TERMINAL:
            to_move = state.to_move
            if to_move == CHANCE:
                state = state.play(draw_chance(state.chance_outcomes(), rnd()))
            elif to_move == SIMULTANEOUS:
                answers = []
                for seat in range(n):
                    moves = _seat_moves(state, seat)
                    if not moves:
                        answers.append(Answer(None))
                        continue
                    move, taken, fresh = self._regret_matching(node, seat, moves, rnd)
                    joint.append(taken)
                    new = new or fresh
                    answers.append(Answer(move))
                state = state.play(answers)
            elif type(state) is OpenSpielState:  # by action id: no notation made
                spiel = state.spiel
                action, edge, new = self._select(node, to_move, spiel.legal_actions(), rnd)
                path.append((edge, to_move))
                state = OpenSpielState(state.game, spiel.child(action))
            else:
                move, edge, new = self._select(node, to_move, state.legal_moves(), rnd)
                path.append((edge, to_move))
                state = state.play(move)
            key = observed(state, observer)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node()
            node = child
        scores = self._playout(state, rnd)
        for edge, seat in path:
            edge[0] += 1
            edge[1] += scores[seat]
        if joint:
            low, spread = self._low, (self._high - self._low if self._high > self._low else 1.0)
            for edge, seat, row, probability in joint:
                score = scores[seat]
                edge[0] += 1
                edge[1] += score
                u = (score - low) / spread
                for other in row:
                    other[2] -= u
                edge[2] += u / probability

    def _regret_matching(self, node: _Node, seat: int, moves: tuple | list,
                         rnd: Any) -> tuple[Any, tuple[list, int, list, float], bool]:
        """``(move, (its edge, seat, the seat's edges here, the move's probability), new)``: a move
        of ``seat`` at a simultaneous node drawn by regret matching (the module doc); ``new`` on
        the seat's first visit of the node."""
        edges = node.edges
        new = False
        row = []
        for m in moves:
            edge = edges.get((seat, m))
            if edge is None:
                edge = edges[seat, m] = [0, 0.0, 0.0]
                new = True
            row.append(edge)
        positive = [e[2] if e[2] > 0 else 0.0 for e in row]
        total = sum(positive)
        k = len(moves)
        mixed = [(1 - GAMMA) * (p / total if total > 0 else 1 / k) + GAMMA / k for p in positive]
        u, i = rnd(), 0
        while i < k - 1 and u >= mixed[i]:
            u -= mixed[i]
            i += 1
        return moves[i], (row[i], seat, row, mixed[i]), new

    def _select(self, node: _Node, seat: int, moves: list | tuple, rnd: Any) -> tuple[Any, list, bool]:
        """``(move, its edge, new)``: a move of ``seat`` never tried at ``node`` (chosen at random;
        ``new``), else the UCB1 choice with availability counts (the module doc)."""
        edges = node.edges
        untried = [m for m in moves if (seat, m) not in edges]
        if untried:
            move = untried[int(rnd() * len(untried))]
            for m in moves:
                found = edges.get((seat, m))
                if found is not None:
                    found[2] += 1
            edge = edges[seat, move] = [0, 0.0, 1]
            return move, edge, True
        spread = self._high - self._low if self._high > self._low else 1.0
        explore = self._c * spread
        log, sqrt = math.log, math.sqrt
        best_move, best, best_score = None, None, -math.inf
        for m in moves:
            edge = edges[seat, m]
            edge[2] += 1
            score = edge[1] / edge[0] + explore * sqrt(log(edge[2]) / edge[0])
            if score > best_score:
                best_move, best, best_score = m, edge, score
        assert best is not None  # moves is not empty
        return best_move, best, False

    def _playout(self, state: State, rnd: Any) -> tuple[float, ...]:
        """Each seat's reward at the end of a random continuation of ``state`` (the module doc);
        keeps the range of rewards seen (``spread``)."""
        n = self._n
        pick = getattr(type(state), "random_child", None)
        while state.to_move != TERMINAL:
            if pick is not None and state.to_move != SIMULTANEOUS:
                state = pick(state, rnd())
            else:
                state = _random_step(state, n, rnd)
        outcome = state.outcome()
        assert outcome is not None  # the loop ran to a terminal state
        scores = rewards(outcome) if self._place else outcome.scores
        low, high = min(scores), max(scores)
        if low < self._low:
            self._low = low
        if high > self._high:
            self._high = high
        return scores
