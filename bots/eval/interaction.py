"""Interaction heuristic (``docs/rules/interaction.md``): pocketed neutrals first, then pocket threats.

Built for leaves of an alpha-beta search, so it reads only C-speed summaries of the public
state (``nmask``, ``scores``, ``side``):

- **score**: the difference of pocketed neutrals, ``SCORE`` per neutral, far above the rest.
- **threats**: a neutral on rank 4 or 6 enters a pocket with any strike that has a northward
  (southward) component and nothing on the pocket cell; one on rank 3 or 7 needs two cells of
  momentum or a bounce. Such neutrals are chances for the side to move, which strikes first:
  ``NEAR`` (``FAR``) per neutral for the side to move, minus the same for the other side.
  Every position reached by search alternates sides, so this is a tempo term: it makes a
  leaf where the opponent is to move next to loose neutrals worse than one where we are.

Values are in neutrals x 1000 and stay far below ``bots.eval.WIN``.

The neutrals are read from the state's neutral mask (``nmask``: bit ``cell`` set for each
neutral, kept move by move by ``arena.games.interaction.mechanics.simulate``): two
mask-and-popcounts count the ranks, with no pass over the board at each leaf of a search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arena.games.interaction.search import LeafPosition
    from arena.games.interaction.state import InteractionState

#: value of one pocketed neutral
SCORE = 1000.0
#: per neutral on rank 4 or 6 (next to the line of pockets), for the side to move
NEAR = 60.0
#: per neutral on rank 3 or 7
FAR = 15.0
#: ``state.board`` has 9 cells a rank, 9 ranks
_FILES = 9


def _rank_bits(*ranks: int) -> int:
    """Bit ``cell`` set for every cell of the 0-based ``ranks``."""
    return sum(1 << (rank * _FILES + f) for rank in ranks for f in range(_FILES))


#: ranks 4 and 6, ranks 3 and 7 (0-based 3, 5 and 2, 6)
_NEAR_BITS, _FAR_BITS = _rank_bits(3, 5), _rank_bits(2, 6)
#: ``_TEMPO[near][far]``: the tempo term ``NEAR * near + FAR * far`` for the side to move, of
#: ``near`` neutrals on ranks 4 and 6 and ``far`` on ranks 3 and 7 (18 cells each);
#: ``_TEMPO_AGAINST``: the same for the other side, ``0.0 - tempo``. Looked up, not computed:
#: a leaf's value makes no new float but its sum (the same values, bit for bit)
_TEMPO = tuple(tuple(NEAR * near + FAR * far for far in range(19)) for near in range(19))
_TEMPO_AGAINST = tuple(tuple(0.0 - t for t in row) for row in _TEMPO)


def evaluate(state: InteractionState | LeafPosition, seat: int) -> float:
    """Heuristic value of a live Interaction position for 0-based ``seat`` (higher is better)."""
    return evaluate_fields(state.nmask, state.scores, state.side, seat)


def evaluate_fields(neutrals: int, scores: tuple[int, int], side: int, seat: int) -> float:
    """``evaluate`` from the fields it reads: the neutral mask ``neutrals`` (bit ``cell`` per
    neutral), ``scores`` (Red, Blue) and ``side`` (the 0-based seat to move). A search values
    the positions one move away without building them (``InteractionState.best_leaf``'s
    ``light``)."""
    s0, s1 = scores
    lead = s0 - s1 if seat == 0 else s1 - s0
    tempo = (_TEMPO if side == seat else _TEMPO_AGAINST)[(neutrals & _NEAR_BITS).bit_count()][
        (neutrals & _FAR_BITS).bit_count()]
    return SCORE * lead + tempo if lead else tempo


def evaluate_all(state: InteractionState | LeafPosition) -> tuple[float, float]:
    """``(value for Red, value for Blue)``."""
    neutrals, scores, side = state.nmask, state.scores, state.side
    return evaluate_fields(neutrals, scores, side, 0), evaluate_fields(neutrals, scores, side, 1)
