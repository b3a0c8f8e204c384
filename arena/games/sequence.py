"""``MoveSequence``: a sequence of moves of one notation, written as the moves' texts separated
by spaces (a puzzle's solution: Solo Interaction's ``SoloSolution``, Ricochet's ``Solution``)."""

from __future__ import annotations

from typing import Any, ClassVar, Self


class MoveSequence(tuple):
    """A tuple of moves; ``str`` is their notation separated by spaces (``""`` for no move).

    Subclasses set ``MOVE`` (the move class) and ``parse_move`` (one move's text to a move).
    """

    MOVE: ClassVar[type]

    @staticmethod
    def parse_move(text: str) -> Any:
        """One move's text as a move.

        Raises:
            MoveSyntaxError: a bad move.
        """
        raise NotImplementedError

    def __str__(self) -> str:
        return " ".join(map(str, self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Self:
        """Moves separated by spaces (``""`` is the empty sequence).

        Raises:
            MoveSyntaxError: a bad move.
        """
        return cls(cls.parse_move(t) for t in str(text).split())

    @classmethod
    def of(cls, moves: Any) -> Self:
        """From text (or any object whose ``str`` is the notation), a sequence of this class, or
        a list or tuple of moves and move texts.

        Raises:
            MoveSyntaxError: something that is not a sequence of moves.
        """
        if isinstance(moves, cls):
            return moves
        if isinstance(moves, (list, tuple)):
            return cls(m if isinstance(m, cls.MOVE) else cls.parse_move(str(m)) for m in moves)
        return cls.parse(str(moves))
