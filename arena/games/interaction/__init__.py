"""Interaction, the 1979 Waddingtons momentum game, as ``docs/rules/interaction.md`` fixes it.

Modules: ``geometry`` (cells, directions, bounce tables), ``notation`` (``Move``, position
text, diagrams), ``state`` (``InteractionState``: move simulation, legality, end of game),
``game`` (``InteractionGame``).

Seats: 0 = Red (moves first), 1 = Blue. ``Outcome.scores`` are pocketed neutrals per seat.
Terminations (checked after every ply in this order):

- ``"target"``: the mover reached ``target`` pocketed neutrals and wins;
- ``"repetition"``: (board, scores, side to move) occurred for the third time: a draw;
- ``"passes"``: both players passed in a row;
- ``"max_plies"``: the ply count reached ``max_plies``.

After ``"passes"`` and ``"max_plies"`` the higher score wins (``cap_result="score"``) or the
game is drawn (``cap_result="draw"``).

For search (see ``InteractionState``): ``successors()`` gives ``[(move, state)]`` in one
pass; ``key()`` is an incremental 64-bit Zobrist key; ``board`` (81 bytes), ``scores``,
``side``, ``ply`` and ``balls(piece)`` are cheap to read.
"""

from arena.games.interaction.game import InteractionGame
from arena.games.interaction.notation import (
    BLUE,
    DEFAULT_SETUP,
    EMPTY,
    MOVES,
    NEUTRAL,
    PASS,
    RED,
    Move,
    parse_move_text,
)
from arena.games.interaction.state import InteractionState

__all__ = [
    "InteractionGame", "InteractionState", "Move", "PASS", "MOVES", "DEFAULT_SETUP",
    "EMPTY", "RED", "BLUE", "NEUTRAL", "parse_move_text",
]
