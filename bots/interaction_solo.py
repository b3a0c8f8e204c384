"""Solo Interaction solver bots (``docs/rules/interaction.md`` "Solo Interaction").

- ``interaction-solo-optimal``: IDA* on the bound "neutrals left" with a transposition table
  (``bots.solo_search.count_solutions``): proves the minimum and counts the minimal
  solutions. Within a budget (``limits.time`` seconds / ``limits.nodes``) that runs out it
  answers with the greedy search's solution (``proven`` False).
- ``interaction-solo-greedy``: greedy best-first search on (neutrals left, moves): quick,
  not optimal.

Both play the sequential game (``interaction-solo``: one move per ply, following the plan
found at the first ply) and answer a race round (``interaction-solo-race``: the whole
solution at once), through ``solve_position``.
"""

from __future__ import annotations

import time
from typing import cast

from arena.games import SIMULTANEOUS, Dynamics, Param, State
from arena.games.interaction.solo import SoloSolution, SoloState
from bots.base import Bot, Limits, Plays, SearchStats
from bots.solo_search import SoloResult, count_solutions, greedy_solution


def solve_greedy(state: SoloState, max_nodes: int = 5000) -> SoloResult:
    """A solution by greedy best-first search (``optimal`` only for an already clear board)."""
    start = time.perf_counter()
    moves, nodes = greedy_solution(state, max_nodes)
    return SoloResult(moves, None if moves is None else len(moves), 1 if moves else 0,
                      False, nodes, time.perf_counter() - start)


class _SoloBot(Bot):
    #: Solo Interaction, move by move, and its race (the whole solution at each round)
    PLAYS = Plays(dynamics=frozenset(Dynamics), games=frozenset({"interaction-solo", "interaction-solo-race"}))
    PARAMS = {
        "time": Param(None, "seconds per position (the tighter of this and the arena's)", kind=float, minimum=0),
        "nodes": Param(None, "nodes per position", kind=int, minimum=1),
    }
    #: True when the last answer was proven optimal.
    proven = False

    def reset(self, game, seat: int, seed: int) -> None:
        super().reset(game, seat, seed)
        self._plan: list = []
        self._expect: bytes | None = None

    def solve_position(self, state: SoloState, limits: Limits = Limits()) -> SoloResult:
        """Solve ``state`` within the tighter of ``limits`` and the bot's own."""
        result = self._solve(state, limits.tighter(self.own_limits()))
        self.proven = result.optimal
        self.last_stats = SearchStats(nodes=result.nodes, depth=result.length or 0, seconds=result.seconds,
                                      evaluation=None if result.length is None else float(result.length))
        return result

    def choose(self, state: State, limits: Limits):
        """At a race round: the whole solution (``None`` when none was found); in the
        sequential game: the next move of the plan (re-planned when the position is not the
        one the plan expects)."""
        limits = limits or Limits()
        if state.to_move == SIMULTANEOUS:
            position = getattr(state, "position", None)
            if position is None:
                return None
            game = position.game
            limits = limits.tighter(Limits(time=game.params.get("think_time"), nodes=game.params.get("think_nodes")))
            result = self.solve_position(position, limits)
            return None if result.moves is None else SoloSolution(result.moves)
        solo = cast(SoloState, state)  # sequential: the game is interaction-solo
        plan = getattr(self, "_plan", [])
        if not plan or getattr(self, "_expect", None) != solo.board:
            result = self.solve_position(solo, limits)
            plan = list(result.moves or ())
            if not plan:
                plan = [state.legal_moves()[0]]
        move = plan.pop(0)
        self._plan = plan
        self._expect = solo.play(move).board if plan else None
        return move

    def _solve(self, state: SoloState, limits: Limits) -> SoloResult:
        raise NotImplementedError


class OptimalSoloSolver(_SoloBot):
    """Proven minimum and solution count by IDA* with a transposition table."""

    name = "interaction-solo-optimal"
    summary = "Solo Interaction: optimal IDA* solver, counts the minimal solutions"

    def _solve(self, state, limits):
        deadline = limits.deadline()
        result = count_solutions(state, max_nodes=limits.nodes, deadline=None if deadline is None
                                 else time.perf_counter() + 0.8 * (deadline - time.perf_counter()))
        if result.moves is None and not result.optimal:
            fallback = solve_greedy(state)
            return SoloResult(fallback.moves, fallback.length, fallback.solutions, False,
                              result.nodes + fallback.nodes, result.seconds + fallback.seconds)
        return result


class GreedySoloSolver(_SoloBot):
    """Greedy best-first search: fast, not optimal."""

    name = "interaction-solo-greedy"
    summary = "Solo Interaction: fast greedy best-first solver (not optimal)"
    PARAMS = {**_SoloBot.PARAMS, "max_nodes": Param(5000, "positions expanded at most", minimum=1)}

    def _solve(self, state, limits):
        cap = self.options["max_nodes"] if limits.nodes is None else min(self.options["max_nodes"], limits.nodes)
        return solve_greedy(state, cap)
