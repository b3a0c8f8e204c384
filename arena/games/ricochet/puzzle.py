"""Ricochet puzzles: board + robots + target, robot moves and solutions
(``docs/rules/ricochet.md`` "Robots and moves", "Puzzle mode", "Notation").

>>> p = Puzzle.parse("1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC")
>>> str(p)
'1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC'
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from arena.errors import MoveSyntaxError, PuzzleSyntaxError
from arena.games.sequence import MoveSequence
from arena.games.ricochet.board import (
    CENTRE, COLOURS, DIRS, STEP, Board, format_diagonals, parse_diagonals, parse_square, square_name,
)


@dataclass(frozen=True)
class RobotMove:
    """One move: robot index (``R G B Y K`` = 0-4) and direction (``N E S W`` = 0-3)."""

    robot: int
    direction: int

    def __str__(self) -> str:
        return COLOURS[self.robot] + DIRS[self.direction]

    @classmethod
    def parse(cls, text: str) -> RobotMove:
        """``RN``, ``ge``...

        Raises:
            MoveSyntaxError: not a robot letter followed by a direction.
        """
        t = text.strip().upper()
        if len(t) != 2 or t[0] not in COLOURS or t[1] not in DIRS:
            raise MoveSyntaxError(f"bad robot move {text!r}; accepted: robot R/G/B/Y/K + N/E/S/W, e.g. RN")
        return cls(COLOURS.index(t[0]), DIRS.index(t[1]))


class Solution(MoveSequence):
    """A sequence of ``RobotMove``; ``str`` is the notation ``RN GE RS`` (``""`` for 0 moves)."""

    MOVE = RobotMove
    parse_move = staticmethod(RobotMove.parse)


def slide(board: Board, robots: tuple[int, ...], robot: int, d: int) -> int:
    """Where ``robot`` stops sliding in direction ``d`` (walls, central block, robots and
    diagonal barriers); its own cell when it cannot move, or when its path is an endless
    loop that no robot stops (an illegal move, ``docs/rules/ricochet.md`` "Second edition")."""
    start = robots[robot]
    if board.diagonals:
        cells, loops = board.path(robot, start, d)
        prev = start
        for cell in cells:
            if cell in robots and cell != start:
                return prev
            prev = cell
        return start if loops else prev
    stop = board.stops[d][start]
    step = STEP[d]
    for i, other in enumerate(robots):
        if i == robot:
            continue
        if d == 0 or d == 2:
            if other % 16 != start % 16:
                continue
        elif other // 16 != start // 16:
            continue
        if step > 0 and start < other <= stop:
            stop = other - step
        elif step < 0 and stop <= other < start:
            stop = other - step
    return stop


@dataclass(frozen=True)
class Puzzle:
    """Board + robot cells (``R G B Y [K]`` order) + target code."""

    board: Board
    robots: tuple[int, ...]
    target: str

    @property
    def goal(self) -> int:
        """The target's cell."""
        return self.board.targets[self.target]

    def goal_robots(self) -> tuple[int, ...]:
        """Robots that may take the target: its colour's robot, every robot for the vortex."""
        if self.target == "V":
            return tuple(range(len(self.robots)))
        return ("RGBY".index(self.target[0]),)

    def is_solved(self, robots: tuple[int, ...] | None = None) -> bool:
        """True when a goal robot stands on the target."""
        robots = self.robots if robots is None else robots
        return any(robots[r] == self.goal for r in self.goal_robots())

    def apply(self, moves) -> tuple[int, ...]:
        """Robot cells after the moves.

        Raises:
            MoveSyntaxError: a bad move, a robot not in the game, or a move that does not
                move its robot at least one cell.
        """
        robots = list(self.robots)
        for m in Solution.of(moves):
            if m.robot >= len(robots):
                raise MoveSyntaxError(f"move {m}: no robot {COLOURS[m.robot]} in this game")
            to = slide(self.board, tuple(robots), m.robot, m.direction)
            if to == robots[m.robot]:
                raise MoveSyntaxError(f"move {m} does not move its robot")
            robots[m.robot] = to
        return tuple(robots)

    def check(self, moves) -> tuple[int, ...] | None:
        """The robot cells a valid solution leaves, ``None`` when ``moves`` is not one."""
        try:
            robots = self.apply(moves)
        except MoveSyntaxError:
            return None
        return robots if self.is_solved(robots) else None

    def moves_from(self, robots: tuple[int, ...]) -> list[tuple[RobotMove, tuple[int, ...]]]:
        """Every move that moves a robot, with the robot cells after it."""
        out = []
        for r in range(len(robots)):
            for d in range(4):
                to = slide(self.board, robots, r, d)
                if to != robots[r]:
                    out.append((RobotMove(r, d), robots[:r] + (to,) + robots[r + 1:]))
        return out

    def random_walk(self, rng: random.Random, length: int = 6) -> Solution:
        """A random walk of up to ``length`` moves, cut where it first solves the puzzle."""
        robots, moves = self.robots, []
        for _ in range(rng.randint(1, length)):
            move, robots = rng.choice(self.moves_from(robots))
            moves.append(move)
            if self.is_solved(robots):
                break
        return Solution(moves)

    def robots_text(self) -> str:
        return ",".join(f"{COLOURS[i]}:{square_name(c)}" for i, c in enumerate(self.robots))

    def board_text(self) -> str:
        """The board name, then ``diag=...`` when the board has barriers."""
        return board_text(self.board)

    def __str__(self) -> str:
        return f"{self.board_text()} {self.robots_text()} {self.target}"

    @classmethod
    def parse(cls, text: str, allow_no_target: bool = False) -> Puzzle:
        """``<board> <robots> <target>`` (``docs/rules/ricochet.md`` "Notation"), case-insensitive.

        Raises:
            PuzzleSyntaxError: a malformed field, a missing robot, two robots on a cell or a
                robot in the central block.
        """
        parts = str(text).split()
        diag = ""
        if len(parts) == 4 and parts[1].lower().startswith("diag="):
            diag = parts.pop(1)[5:]
        if len(parts) != 3:
            raise PuzzleSyntaxError(f"bad puzzle {text!r}; accepted: '<board> [diag=e5/R,..] <robots> <target>' "
                                    "like '1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC'")
        try:
            board = Board.parse(parts[0])
        except PuzzleSyntaxError:
            raise
        except Exception as exc:  # PositionSyntaxError from the board
            if parts[0].lower().startswith("map:"):
                raise PuzzleSyntaxError(str(exc)) from None
            raise PuzzleSyntaxError(
                f"bad board {parts[0]!r} in puzzle; accepted: four quadrant sides NW,NE,SE,SW like "
                "1A,2B,4A,3B (one side of each board 1-4) or map:... (a puzzle names its board, "
                "'random' is not accepted)") from None
        if diag:
            try:
                board = board.with_diagonals(parse_diagonals(diag))
            except PuzzleSyntaxError:
                raise
            except Exception as exc:  # PositionSyntaxError
                raise PuzzleSyntaxError(str(exc)) from None
        robots = parse_robots(parts[1])
        target = parts[2].upper()
        if not (allow_no_target and target == "-") and target not in board.targets:
            raise PuzzleSyntaxError(f"bad target {parts[2]!r}; accepted: {', '.join(board.targets)}")
        return cls(board, robots, target)


def board_text(board: Board) -> str:
    """``<board name>`` or ``<board name> diag=<barriers>`` (puzzle and state text)."""
    return f"{board.name} diag={format_diagonals(board.diagonals)}" if board.diagonals else board.name


def parse_robots(text: str) -> tuple[int, ...]:
    """``R:c5,G:k12,B:a1,Y:p16[,K:..]`` in any order -> cells in ``R G B Y K`` order.

    Raises:
        PuzzleSyntaxError: a bad entry, a missing or repeated robot, a shared cell or a robot
            in the central block.
    """
    found: dict[int, int] = {}
    for entry in text.split(","):
        colour, _, square = entry.partition(":")
        c = colour.strip().upper()
        if len(c) != 1 or c not in COLOURS or c in (COLOURS[i] for i in found):
            raise PuzzleSyntaxError(f"bad robot entry {entry!r}; accepted: R:c5,G:k12,B:a1,Y:p16[,K:..]")
        try:
            found[COLOURS.index(c)] = parse_square(square)
        except Exception as exc:
            raise PuzzleSyntaxError(str(exc)) from None
    n = len(found)
    if n not in (4, 5) or sorted(found) != list(range(n)):
        raise PuzzleSyntaxError(f"bad robots {text!r}: need R, G, B, Y (and K with five robots)")
    robots = tuple(found[i] for i in range(n))
    if len(set(robots)) != n or any(c in CENTRE for c in robots):
        raise PuzzleSyntaxError(f"bad robots {text!r}: robots on one cell or in the central block")
    return robots


__all__ = ["Puzzle", "RobotMove", "Solution", "slide", "parse_robots", "board_text"]
