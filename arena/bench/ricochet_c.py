"""Fogleman's C solver for Ricochet Robots (github.com/fogleman/Ricochet, ``ricochet.c``), the
yardstick of ``arena bench --only ricochet`` (issue 35): a build of it outside the repository,
named by the environment variable ``ARENA_RICOCHET_C``, called through ``ctypes`` as its own
``ricochet.py`` calls it. It is never part of the arena; build it, e.g.::

    git clone https://github.com/fogleman/Ricochet /tmp/ricochet-c && cd /tmp/ricochet-c
    gcc -std=c99 -O3 -c -fPIC -o _ricochet.o ricochet.c && gcc -shared -o _ricochet _ricochet.o
    ARENA_RICOCHET_C=/tmp/ricochet-c/_ricochet arena bench --only ricochet

The C solver is IDA* with the same per-cell lower bound (a slide may stop anywhere on its
path) and a transposition table; it knows four robots, one goal robot (no vortex) and no
barriers. Its board runs from the top row down (index 0 is a16) with the arena's wall bits
(N=1 E=2 S=4 W=8); its robot 0 is the goal robot.
"""

from __future__ import annotations

import ctypes
import os
import time

from arena.errors import ConfigError
from arena.games.ricochet.puzzle import Puzzle

#: the environment variable naming the C solver's shared library
ENV = "ARENA_RICOCHET_C"
#: the grid bit of a cell holding a robot (``ricochet.c``: ``ROBOT``)
_ROBOT = 0x10


class _Game(ctypes.Structure):
    """``ricochet.c``'s ``Game``: the grid (walls and robot bits), the goal robot's lower
    bounds (filled by ``search``), the robots (0 is the goal robot), the target and the last move."""

    _fields_ = [("grid", ctypes.c_uint * 256), ("moves", ctypes.c_uint * 256), ("robots", ctypes.c_uint * 4),
                ("token", ctypes.c_uint), ("last", ctypes.c_uint)]


def _index(cell: int) -> int:
    """The C grid's index of an arena cell (``(rank - 1) * 16 + file``; its rows run from rank 16)."""
    return (15 - (cell >> 4)) * 16 + (cell & 15)


def fits(puzzle: Puzzle) -> bool:
    """True for a puzzle the C solver can take: four robots, one goal robot, no barriers."""
    return len(puzzle.robots) == 4 and puzzle.target != "V" and not puzzle.board.diagonals


class CSolver:
    """The C solver loaded from ``path`` (its shared library).

    Raises:
        OSError: the library cannot be loaded; AttributeError: it has no ``search``.
    """

    def __init__(self, path: str):
        self.path = path
        self.dll = ctypes.CDLL(path)
        self.dll.search.restype = ctypes.c_uint
        self._path = ctypes.create_string_buffer(256)

    def game(self, puzzle: Puzzle) -> _Game:
        """The C solver's input for ``puzzle`` (``fits``), built before any timing."""
        g = _Game()
        for cell, wall in enumerate(puzzle.board.walls):
            g.grid[_index(cell)] = wall
        goal = puzzle.goal_robots()[0]
        for k, r in enumerate([goal] + [r for r in range(4) if r != goal]):
            g.robots[k] = _index(puzzle.robots[r])
            g.grid[_index(puzzle.robots[r])] |= _ROBOT
        g.token = _index(puzzle.goal)
        return g

    def solve(self, game: _Game) -> tuple[int, float]:
        """(moves of the optimal solution, wall-clock seconds) of one ``search`` call."""
        start = time.perf_counter()
        moves = self.dll.search(ctypes.byref(game), self._path, None)
        return moves, time.perf_counter() - start


def from_env() -> CSolver | None:
    """The C solver named by ``ARENA_RICOCHET_C``, or ``None`` when the variable is unset.

    Raises:
        ConfigError: the variable names no loadable library with ``ricochet.c``'s ``search``.
    """
    path = os.environ.get(ENV)
    if not path:
        return None
    try:
        return CSolver(path)
    except (OSError, AttributeError) as exc:
        raise ConfigError(f"{ENV}={path!r} cannot be loaded ({exc}); accepted: the shared library built from "
                          "fogleman/Ricochet's ricochet.c (arena/bench/ricochet_c.py says how)") from None


def peak_kib() -> int:
    """This process's peak resident memory, KiB: Linux's ``VmHWM``, which starts afresh at
    ``exec`` (``ru_maxrss`` keeps the parent's peak there: a child of ``arena bench`` would
    report the bench's own memory); ``ru_maxrss`` where there is no ``/proc``."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


#: a child process solving one puzzle with the C solver: its time and peak memory
CHILD = """
import json, sys
from arena.bench.ricochet_c import CSolver, peak_kib
from arena.games.ricochet.puzzle import Puzzle
c = CSolver(sys.argv[1])
moves, seconds = c.solve(c.game(Puzzle.parse(sys.argv[2])))
print(json.dumps({"seconds": seconds, "moves": moves, "maxrss_kib": peak_kib()}))
"""
