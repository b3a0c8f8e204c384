"""Interaction heuristic (``docs/rules/interaction.md``): pocketed neutrals first, then pocket threats.

Built for leaves of an alpha-beta search, so it reads only C-speed summaries of the public
state (``board`` bytes, ``scores``, ``side``):

- **score**: the difference of pocketed neutrals, ``SCORE`` per neutral, far above the rest.
- **threats**: a neutral on rank 4 or 6 enters a pocket with any strike that has a northward
  (southward) component and nothing on the pocket cell; one on rank 3 or 7 needs two cells of
  momentum or a bounce. Such neutrals are chances for the side to move, which strikes first:
  ``NEAR`` (``FAR``) per neutral for the side to move, minus the same for the other side.
  Every position reached by search alternates sides, so this is a tempo term: it makes a
  leaf where the opponent is to move next to loose neutrals worse than one where we are.

Values are in neutrals x 1000 and stay far below ``bots.eval.WIN``.
"""

from __future__ import annotations

from arena.games import State

#: value of one pocketed neutral
SCORE = 1000.0
#: per neutral on rank 4 or 6 (next to the line of pockets), for the side to move
NEAR = 60.0
#: per neutral on rank 3 or 7
FAR = 15.0
#: a neutral's byte in ``state.board``
_NEUTRAL = 3
# cell ranges (rank * 9 .. rank * 9 + 9) of ranks 3, 4, 6, 7 (0-based 2, 3, 5, 6)
_R3, _R4, _R6, _R7 = 18, 27, 45, 54


def evaluate(state: State, seat: int) -> float:
    """Heuristic value of a live Interaction position for 0-based ``seat`` (higher is better)."""
    board = state.board
    s0, s1 = state.scores
    near = board.count(_NEUTRAL, _R4, _R4 + 9) + board.count(_NEUTRAL, _R6, _R6 + 9)
    far = board.count(_NEUTRAL, _R3, _R3 + 9) + board.count(_NEUTRAL, _R7, _R7 + 9)
    tempo = NEAR * near + FAR * far
    if state.side == seat:
        return SCORE * (s0 - s1 if seat == 0 else s1 - s0) + tempo
    return SCORE * (s0 - s1 if seat == 0 else s1 - s0) - tempo


def evaluate_all(state: State) -> tuple[float, float]:
    """``(value for Red, value for Blue)``."""
    return evaluate(state, 0), evaluate(state, 1)
