"""Ricochet Robots: board assembly (``board``), puzzles and solutions (``puzzle``), the race
game (``game``). ``docs/rules/ricochet.md``."""

from arena.games.ricochet.board import Board
from arena.games.ricochet.game import RicochetGame, RicochetState, too_easy
from arena.games.ricochet.puzzle import Puzzle, RobotMove, Solution, slide

__all__ = ["Board", "Puzzle", "RicochetGame", "RicochetState", "RobotMove", "Solution", "slide", "too_easy"]
