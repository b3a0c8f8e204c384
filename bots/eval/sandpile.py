"""Sandpile evaluation: banked round scores plus the visible tops the current round is likely
to score, corrected for stacks about to topple, and the pieces and bonus still in hand.

Values are non-negative "expected points" per seat (``evaluate_all``), well inside ±WIN/10;
``evaluate(state, seat)`` is the seat's value minus the mean of the others' (a linear proxy
for the pairwise comparisons that make a rank). Terminal positions are scored by the search.
"""

from __future__ import annotations

from arena.games.sandpile import STABLE_MAX, SandpileState

#: weight of a visible top on a stack of 3 while pieces are still being placed: it becomes
#: unstable as soon as anyone adds a piece.
PLACING_TOP_3 = 0.7
#: each of a toppling stack's four moving pieces is expected to end up as a visible top.
SCATTER = 0.85
#: a toppling stack's new top (the fifth piece from the top), if any.
REMAINDER = 0.6
#: value now of each later round's scoring of today's tops (they change a lot meanwhile).
FUTURE = 0.35
#: value of one placement turn left in the current round (a new top, usually).
TURN = 0.6
#: value of holding the bonus piece (one extra placement, at a time of one's choosing).
BONUS = 0.9


def expected_tops(state: SandpileState) -> list[float]:
    """Per seat, the visible tops expected once the current round's stacks have settled:
    tops of stable stacks not hit by a toppling neighbour, plus the pieces of unstable
    stacks (each moving piece becomes some neighbour's top; the fifth piece is the new top)."""
    board, rules = state.board, state.rules
    top = [0.0, 0.0, 0.0, 0.0]
    hidden = state.tall
    if hidden:
        around = rules.around_mask
        for i in state.unstable():
            hidden |= around[i]
            s = board[i]
            for c in s[-4:]:
                top[ord(c) - 65] += SCATTER
            if len(s) > 4:
                top[ord(s[-5]) - 65] += REMAINDER
    topm = state.topm
    if state.phase in ("place", "bonus", "endbonus"):
        # stacks of 3 lose weight: the next piece on them makes them topple
        three = 0
        for i, s in enumerate(board):
            if len(s) == STABLE_MAX:
                three |= 1 << i
        for p in range(4):
            visible = topm[p] & ~hidden
            top[p] += visible.bit_count() - (1.0 - PLACING_TOP_3) * (visible & three).bit_count()
    else:
        for p in range(4):
            top[p] += (topm[p] & ~hidden).bit_count()
    return top


def evaluate_all(state: SandpileState) -> tuple[float, ...]:
    """Per seat (0-based) expected points: banked + weighted expected tops + hand."""
    banked = state.totals()
    if state.phase == "over":
        return tuple(float(b) for b in banked)
    rules = state.rules
    scorings = 1.0 + FUTURE * (rules.rounds - state.round)
    top = expected_tops(state)
    later = (rules.rounds - state.round) * rules.pieces_per_round
    placing = state.phase in ("place", "bonus")
    holders = state.holders
    return tuple(
        banked[p] + top[p] * scorings + (TURN * (state.turns_left(p) - later) if placing else 0.0)
        + (BONUS if holders >> p & 1 else 0.0)
        for p in range(4)
    )


def evaluate(state: SandpileState, seat: int) -> float:
    """``seat``'s expected points minus the mean of the other three seats'."""
    v = evaluate_all(state)
    return v[seat] - (sum(v) - v[seat]) / 3.0
