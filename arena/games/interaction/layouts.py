"""The arena's six Solo Interaction layouts, easiest first (``docs/rules/interaction.md``
"Solo Interaction": the rulebook's six diagrams are not in our copy, so the arena ships its
own). Each records the solver's result in the rulebook's form "N balls, M moves, K
solutions" (N neutrals, M the proven minimum, K the distinct minimal solutions);
``tests/games/test_interaction_solo.py`` checks every figure against the solver and against a
plain breadth-first search over the game's moves.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Layout:
    """A numbered layout: its board (the solo start: red to move, nothing pocketed, ply 0) and
    the solver's figures."""

    number: int
    board: str
    balls: int
    moves: int
    solutions: int

    @property
    def text(self) -> str:
        """The start position's text."""
        return f"{self.board} r 0 0 0"

    def __str__(self) -> str:
        return f"{self.balls} balls, {self.moves} moves, {self.solutions} solutions"


LAYOUTS: tuple[Layout, ...] = (
    Layout(1, "#..R....#/.......Y./...Y...../........./........./...Y...../........./........./#.......#", 3, 4, 10),
    Layout(2, "#.....R.#/........./..Y...Y../...Y...Y./........./...Y...../........./........Y/#.......#", 6, 7, 32),
    Layout(3, "#......Y#/...Y....Y/Y......Y./......R../........./YY......Y/........./........./#Y......#", 9, 10, 26),
    Layout(4, "#.Y.....#/.YY..Y.../..Y....../...Y...../........./..Y..Y.../...R...../...Y.Y.../#.......#", 10, 12, 32),
    Layout(5, "#.Y.Y...#/.Y...Y.../........./...Y...../........./.....Y.../Y......R./.......Y./#.......#", 8, 11, 8),
    Layout(6, "#.......#/.....Y.Y./..YR..Y.Y/...Y...../........./........./........Y/......Y.Y/#...Y...#", 10, 16, 68),
)
