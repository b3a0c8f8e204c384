"""Ricochet Robots solver bots (``docs/rules/ricochet.md`` "Puzzle mode", "Speed").

- ``ricochet-optimal``: IDA* (``bots.ricochet_search.ida_star``); the optimal solution, or
  when its budget (``limits.time`` seconds / ``limits.nodes``) runs out the best found by a
  greedy search in the time left (``optimal`` False).
- ``ricochet-greedy``: greedy best-first search with a node and move cap: fast, not optimal.

Both work on a ``Puzzle`` (``solve_puzzle``) and answer a round state (``choose``).

Cold start (issue 18: a one-puzzle ``arena solve`` in ≤ 1.0 s once installed). The compiled
kernels cannot meet it on the 2-core machine measured: a bare script with two cached
``numba.njit`` functions takes 1.2-1.6 s (``import numba`` 0.3-0.45 s, the first call of a
cached kernel 0.5-0.75 s: numba's typing context and LLVM set-up), whatever the search does.
So a lone puzzle (``reset(None, ...)``, ``arena solve PUZZLE``) starts in plain Python:
``bots.kernels`` loads the kernel modules' own source a second time with a no-op ``njit``
and Python lists for arrays (one source, no second copy of the search), which solves the
puzzle at 60-190k nodes/s (by the load) against 6-10M compiled, but without importing numba or
numpy. ``COLD_NODES`` (16384 nodes, 0.1-0.2 s) settles 92% of random puzzles (300 of
``arena.bench.ricochet.random_puzzles``; 91% with barriers); the others hand over: the
compiled kernels load and go on from the first bound the plain search did not finish, so
the answer is the same and optimal (``tests/bots/test_ricochet_cold.py``). Such a puzzle
costs up to ``COLD_NODES`` of plain search more, and its ``seconds`` include loading the
compiled kernels. A timed solve (``limits.time``), a game (``reset(game, ...)``) and ``arena
solve --file`` load the compiled kernels first, outside the clock, as before.

Rejected: numba's ahead-of-time compiler (``numba.pycc``, a plain extension module written at
install) is pending deprecation since numba 0.57 with no replacement yet (numba 0.68.1 here
still warns), needs a C compiler where it is installed, and fails on ``objmode`` (the
kernel's deadline check: a ``TypeError`` in ``CC.compile`` with numba 0.68.1). Shaving the
CLI's imports would not have been enough on its own (numba's floor stays), and what is left of
them is typer, which builds a pydantic ``TypeAdapter`` for each option it coerces (pydantic
0.1-0.17 s): bypassing typer means a second parser for ``arena solve``. Measured
(``/usr/bin/time``, 10 runs each, old and new interleaved, load average 4.8-5.5):
``arena solve "1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC"`` median 0.92 s, 35 MB against 3.09 s,
155 MB before (0.30×; 1.50-1.66 s before at load ~1); CPU 0.46 s against 1.51 s (5 runs each).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from functools import lru_cache

from arena.games import Dynamics, Param, State
from arena.games.ricochet.board import Board
from arena.games.ricochet.puzzle import Puzzle, RobotMove, Solution
from arena.games.ricochet.puzzle import slide as rule_slide
from bots import kernels
from bots.base import Bot, Limits, Plays, SearchStats
from bots.ricochet_greedy import breadth_first, greedy


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
#: the same with two diagonal barriers: the search compiles plain boards and boards with
#: barriers apart (``bots.ricochet_search.ida_iteration``), so ``warm_up`` loads both
WARM_UP_BARRIERS = "1A,2B,4A,3B diag=e5/R,k11\\G R:c5,G:k12,B:a1,Y:p16 RC"

#: the kernel modules (``bots.kernels``: one source, a compiled and a plain-Python build)
SEARCH, BOUNDS = "bots.ricochet_search", "bots.ricochet_bounds"

#: IDA* nodes searched in plain Python before the compiled kernels are loaded (the cold start,
#: module docstring): 0.1-0.2 s on the machine measured
COLD_NODES = 16384
#: share of a time or node limit the optimal search spends on its proof; a greedy search
#: gets the rest when the proof does not finish (``solve``)
PROOF_SHARE = 0.85


def compiled_loaded() -> bool:
    """True once the compiled kernels are imported in this process."""
    return SEARCH in sys.modules and BOUNDS in sys.modules


def _build(compiled: bool):
    """(search module, bounds module) of the compiled or the plain-Python build."""
    got = _BUILDS.get(compiled)
    if got is None:
        load = kernels.compiled if compiled else kernels.plain
        got = _BUILDS[compiled] = (load(SEARCH), load(BOUNDS))
    return got


#: the builds loaded: compiled -> (search module, bounds module)
_BUILDS: dict[bool, tuple] = {}


def warm_up() -> None:
    """Load the compiled kernels (compiling them and writing numba's cache the first time):
    solves ``WARM_UP`` and ``WARM_UP_BARRIERS`` with them (the second adds about 10 ms once
    the cache is written: a game's first round on a board with barriers no longer loads the
    barrier kernels inside its clock)."""
    solve_optimal(Puzzle.parse(WARM_UP))
    solve_optimal(Puzzle.parse(WARM_UP_BARRIERS))


@lru_cache(maxsize=64)
def _arrays(board: Board, compiled: bool = True):
    return _build(compiled)[1].board_arrays(board)


def _tables(board: Board, compiled: bool = True):
    """The kernel's slide table (``d * 256 + cell``: where a lone robot stops)."""
    return _arrays(board, compiled)[1]


@lru_cache(maxsize=64)
def _paths(board: Board, compiled: bool = True):
    return _build(compiled)[1].path_table(board, _arrays(board, compiled)[0]) if board.diagonals else None


@lru_cache(maxsize=1024)
def _bounds(board: Board, goal: int, colours: tuple[int, ...] = (0,), compiled: bool = True):
    """Per cell, a lower bound on the moves of a goal robot; with barriers the bound of each
    goal robot's colour (its deflected paths), the smallest of them for the vortex."""
    bounds = _build(compiled)[1]
    walls, stops = _arrays(board, compiled)
    if not board.diagonals:
        return bounds.lower_bounds(walls, goal)
    paths = _paths(board, compiled)
    each = [bounds.lower_bounds(walls, goal, paths, r, stops) for r in colours]
    return bounds.np.array([min(v) for v in zip(*each)], bounds.np.int64)


def _puzzle_bounds(puzzle: Puzzle, compiled: bool = True):
    return _bounds(puzzle.board, puzzle.goal, puzzle.goal_robots() if puzzle.board.diagonals else (0,), compiled)


def _ida(puzzle: Puzzle, compiled: bool, **limits):
    """``ida_star`` of one build on ``puzzle``: (moves, nodes, depth, proven)."""
    search = _build(compiled)[0]
    return search.ida_star(_tables(puzzle.board, compiled), _puzzle_bounds(puzzle, compiled), puzzle.robots,
                           puzzle.goal_robots(), puzzle.goal, paths=_paths(puzzle.board, compiled), **limits)


def _slider(puzzle: Puzzle):
    """``slide(robots, r, d)`` for the Python searches: the game's rule with barriers, else
    ``None`` (the searches' straight slides)."""
    if not puzzle.board.diagonals:
        return None
    board = puzzle.board
    return lambda robots, r, d: rule_slide(board, robots, r, d)


#: every robot move, ``_MOVES[robot][direction]`` (shared: moves are immutable)
_MOVES = tuple(tuple(RobotMove(r, d) for d in range(4)) for r in range(5))


def _solution(moves) -> Solution | None:
    return None if moves is None else Solution(_MOVES[r][d] for r, d in moves)


def solve_optimal(puzzle: Puzzle, limits: Limits = Limits(), fallback: bool = True,
                  cold: int = 0) -> SolveResult:
    """The shortest solution by IDA*; within ``limits`` (seconds, nodes) or the best found.

    ``cold`` > 0 and the compiled kernels not loaded yet: IDA* first runs in plain Python
    (the same kernels, ``bots.kernels``) for up to ``cold`` nodes (checked every 1024); when
    that is not enough, the compiled kernels are loaded and go on from the bound the plain
    search did not finish (the module docstring, "Cold start"). The answer is the same.
    When the budget runs out (and ``fallback``), a greedy search gets what is left of it
    (``1 - PROOF_SHARE`` of it at least); its answer is not proven optimal.
    """
    start = time.perf_counter()
    deadline = None if limits.time is None else start + PROOF_SHARE * limits.time
    nodes_cap = None if limits.nodes is None else max(1, int(limits.nodes * PROOF_SHARE))
    nodes, first, proven = 0, 1, False
    if cold > 0 and not compiled_loaded():
        cap = cold if nodes_cap is None else min(cold, nodes_cap)
        moves, nodes, depth, proven = _ida(puzzle, False, deadline=deadline, max_nodes=cap, every=1023)
        first = depth + 1
        if not proven and (cap == nodes_cap or (deadline is not None and time.perf_counter() >= deadline)):
            cold = -1  # the caller's budget ran out, not the cold start's: no hand-over
    if not proven and cold >= 0:
        moves, more, depth, proven = _ida(puzzle, True, deadline=deadline, start=first,
                                          max_nodes=None if nodes_cap is None else max(1, nodes_cap - nodes))
        nodes += more
    if not proven and fallback:
        h = _puzzle_bounds(puzzle, compiled_loaded())
        stops = puzzle.board.stops
        left = None if limits.nodes is None else max(1, limits.nodes - nodes)
        end = None if limits.time is None else start + limits.time
        moves, more = greedy(stops, h, puzzle.robots, puzzle.goal_robots(), puzzle.goal,
                             max_nodes=left or 20000, deadline=end, slide=_slider(puzzle))
        nodes += more
    return SolveResult(_solution(moves), nodes, time.perf_counter() - start, proven, depth)


def solve_greedy(puzzle: Puzzle, limits: Limits = Limits(), max_nodes: int = 20000,
                 max_moves: int = 30) -> SolveResult:
    """A quick solution by greedy best-first search (not optimal); its lower bounds from the
    compiled kernels when they are loaded, else from their plain-Python build (same values)."""
    start = time.perf_counter()
    h = _puzzle_bounds(puzzle, compiled_loaded())
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
    #: nodes of plain-Python search before the compiled kernels load (0: loaded at reset)
    cold = 0

    def warm_up(self) -> None:
        """Load the compiled kernels now (before timing many puzzles, ``arena solve --file``)."""
        self.cold = 0
        warm_up()

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
        """Prepare for a game: loads (or compiles, the first time) the compiled kernels here,
        outside the timed rounds. ``game`` None (a lone puzzle, ``arena solve``): nothing is
        loaded; the first puzzles start in plain Python (``solve_optimal``'s ``cold``,
        ``COLD_NODES``) and load the compiled kernels only when they need them."""
        super().reset(game, seat, seed)
        self.cold = COLD_NODES if game is None else 0
        if game is not None:
            warm_up()

    def _solve(self, puzzle, limits):
        if self.cold and limits.time is not None and not compiled_loaded():
            self.warm_up()  # a time limit: load the compiled kernels before the clock starts
        return solve_optimal(puzzle, limits, cold=self.cold)


class GreedySolver(_SolverBot):
    """Greedy best-first search on the goal robot's lower bound: quick, often a few moves long.
    The bounds come from the plain-Python build until the compiled kernels are loaded
    (``warm_up``: ``arena solve --file`` loads them first)."""

    name = "ricochet-greedy"
    summary = "Ricochet: fast greedy best-first solver (not optimal)"
    PARAMS = {**_SolverBot.PARAMS,
              "max_nodes": Param(20000, "positions expanded at most", minimum=1),
              "max_moves": Param(30, "longest solution considered, moves", minimum=1)}

    def _solve(self, puzzle, limits):
        return solve_greedy(puzzle, limits, self.options["max_nodes"], self.options["max_moves"])
