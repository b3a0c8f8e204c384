"""Ricochet Robots solver bots (``docs/rules/ricochet.md`` "Puzzle mode", "Speed").

- ``ricochet-optimal``: IDA* (``bots.ricochet_search.ida_star``); the optimal solution, or
  when its budget (``limits.time`` seconds / ``limits.nodes``) runs out the best found by a
  greedy search in the time left (``optimal`` False).
- ``ricochet-greedy``: greedy best-first search with a node and move cap: fast, not optimal.

Both work on a ``Puzzle`` (``solve_puzzle``) and answer a round state (``choose``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from arena.games import Dynamics, Param, State
from arena.games.ricochet.board import Board
from arena.games.ricochet.puzzle import Puzzle, RobotMove, Solution
from arena.games.ricochet.puzzle import slide as rule_slide
from bots.base import Bot, Limits, Plays, SearchStats
from bots.ricochet_bounds import board_arrays, lower_bounds, path_table
from bots.ricochet_search import breadth_first, greedy, ida_star


@dataclass(frozen=True)
class SolveResult:
    """A solver's answer to a puzzle.

    Attributes:
        solution: the moves, or ``None`` when none was found.
        nodes: positions searched, count.
        seconds: wall-clock time, seconds.
        optimal: True only when the solution is proven the shortest (or proven absent).
        depth: deepest completed search depth, moves.
    """

    solution: Solution | None
    nodes: int
    seconds: float
    optimal: bool
    depth: int = 0


#: a 5-move puzzle solved once per process before timed play
WARM_UP = "1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC"


@lru_cache(maxsize=64)
def _arrays(board: Board) -> tuple[np.ndarray, np.ndarray]:
    return board_arrays(board)


def _tables(board: Board) -> np.ndarray:
    """The kernel's slide table (``d * 256 + cell``: where a lone robot stops)."""
    return _arrays(board)[1]


@lru_cache(maxsize=64)
def _paths(board: Board) -> np.ndarray | None:
    return path_table(board, _arrays(board)[0]) if board.diagonals else None


@lru_cache(maxsize=1024)
def _bounds(board: Board, goal: int, colours: tuple[int, ...] = (0,)) -> np.ndarray:
    """Per cell, a lower bound on the moves of a goal robot; with barriers the bound of each
    goal robot's colour (its deflected paths), the smallest of them for the vortex."""
    walls, stops = _arrays(board)
    if not board.diagonals:
        return lower_bounds(walls, goal)
    paths = _paths(board)
    return np.minimum.reduce([lower_bounds(walls, goal, paths, r, stops) for r in colours])


def _puzzle_bounds(puzzle: Puzzle) -> np.ndarray:
    return _bounds(puzzle.board, puzzle.goal, puzzle.goal_robots() if puzzle.board.diagonals else (0,))


def _slider(puzzle: Puzzle):
    """``slide(robots, r, d)`` for the Python searches: the game's rule with barriers, else
    ``None`` (the searches' straight slides)."""
    if not puzzle.board.diagonals:
        return None
    board = puzzle.board
    return lambda robots, r, d: rule_slide(board, robots, r, d)


def _solution(moves) -> Solution | None:
    return None if moves is None else Solution(RobotMove(r, d) for r, d in moves)


def solve_optimal(puzzle: Puzzle, limits: Limits = Limits(), fallback: bool = True) -> SolveResult:
    """The shortest solution by IDA*; within ``limits`` (seconds, nodes) or the best found.

    When the budget runs out (and ``fallback``), a greedy search gets what is left of it
    (15% of it at least); its answer is not proven optimal.
    """
    start = time.perf_counter()
    deadline = None if limits.time is None else start + 0.85 * limits.time
    h = _puzzle_bounds(puzzle)
    nodes_cap = None if limits.nodes is None else max(1, int(limits.nodes * 0.85))
    moves, nodes, depth, proven = ida_star(
        _tables(puzzle.board), h, puzzle.robots, puzzle.goal_robots(), puzzle.goal,
        deadline=deadline, max_nodes=nodes_cap, paths=_paths(puzzle.board))
    if not proven and fallback:
        stops = puzzle.board.stops
        left = None if limits.nodes is None else max(1, limits.nodes - nodes)
        end = None if limits.time is None else start + limits.time
        moves, more = greedy(stops, h, puzzle.robots, puzzle.goal_robots(), puzzle.goal,
                             max_nodes=left or 20000, deadline=end, slide=_slider(puzzle))
        nodes += more
    return SolveResult(_solution(moves), nodes, time.perf_counter() - start, proven, depth)


def solve_greedy(puzzle: Puzzle, limits: Limits = Limits(), max_nodes: int = 20000,
                 max_moves: int = 30) -> SolveResult:
    """A quick solution by greedy best-first search (not optimal)."""
    start = time.perf_counter()
    h = _puzzle_bounds(puzzle)
    cap = max_nodes if limits.nodes is None else min(max_nodes, limits.nodes)
    deadline = None if limits.time is None else start + limits.time
    moves, nodes = greedy(puzzle.board.stops, h, puzzle.robots, puzzle.goal_robots(), puzzle.goal,
                          max_nodes=cap, max_moves=max_moves, deadline=deadline, slide=_slider(puzzle))
    optimal = moves is not None and len(moves) == 0
    return SolveResult(_solution(moves), nodes, time.perf_counter() - start, optimal,
                       len(moves) if moves else 0)


def solve_bfs(puzzle: Puzzle, max_depth: int = 8) -> Solution | None:
    """Plain breadth-first search over every robot move (a reference; small depths only)."""
    return _solution(breadth_first(puzzle.board.stops, puzzle.robots, puzzle.goal_robots(),
                                   puzzle.goal, max_depth, slide=_slider(puzzle)))


class _SolverBot(Bot):
    #: Ricochet Robots puzzles only, any number of racers
    PLAYS = Plays(dynamics=frozenset({Dynamics.SIMULTANEOUS}), games=frozenset({"ricochet"}))
    PARAMS = {
        "time": Param(None, "seconds per puzzle (the tighter of this and the arena's)", kind=float, minimum=0),
        "nodes": Param(None, "nodes per puzzle", kind=int, minimum=1),
    }
    #: True when the answer of the last solve was proven optimal.
    proven = False

    def solve_puzzle(self, puzzle: Puzzle, limits: Limits = Limits()) -> SolveResult:
        """Solve ``puzzle`` within the tighter of ``limits`` and the bot's own."""
        result = self._solve(puzzle, limits.tighter(self.own_limits()))
        self.proven = result.optimal
        self.last_stats = SearchStats(nodes=result.nodes, depth=result.depth, seconds=result.seconds,
                                      evaluation=None if result.solution is None else float(len(result.solution)))
        return result

    def choose(self, state: State, limits: Limits) -> Solution | None:
        """The answer to the round's puzzle (``None`` when none was found or the game is over)."""
        puzzle = getattr(state, "puzzle", None)
        if puzzle is None:
            return None
        game = getattr(state, "game", None)
        if game is not None:
            limits = limits.tighter(Limits(time=game.params.get("think_time"),
                                           nodes=game.params.get("think_nodes")))
        return self.solve_puzzle(puzzle, limits).solution

    def _solve(self, puzzle: Puzzle, limits: Limits) -> SolveResult:
        raise NotImplementedError


class OptimalSolver(_SolverBot):
    """IDA* with an admissible per-cell bound and a transposition table: proven optimal
    answers when the budget allows (``proven``/``last_stats``)."""

    name = "ricochet-optimal"
    summary = "Ricochet: optimal IDA* solver (best found when the budget runs out)"

    def reset(self, game, seat: int, seed: int) -> None:
        """Prepare for a game; loads (or compiles, the first time) the search kernel here,
        outside the timed rounds."""
        super().reset(game, seat, seed)
        solve_optimal(Puzzle.parse(WARM_UP))

    def _solve(self, puzzle, limits):
        return solve_optimal(puzzle, limits)


class GreedySolver(_SolverBot):
    """Greedy best-first search on the goal robot's lower bound: quick, often a few moves long."""

    name = "ricochet-greedy"
    summary = "Ricochet: fast greedy best-first solver (not optimal)"
    PARAMS = {**_SolverBot.PARAMS,
              "max_nodes": Param(20000, "positions expanded at most", minimum=1),
              "max_moves": Param(30, "longest solution considered, moves", minimum=1)}

    def _solve(self, puzzle, limits):
        return solve_greedy(puzzle, limits, self.options["max_nodes"], self.options["max_moves"])
