"""Sandpile evaluation: banked round scores plus the visible tops the current round is likely
to score, corrected for stacks about to topple, and the pieces and bonus still in hand.

Values are non-negative "expected points" per seat (``evaluate_all``), well inside ±WIN/10;
``evaluate(state, seat)`` is the seat's value minus the mean of the others' (a linear proxy
for the pairwise comparisons that make a rank). Terminal positions are scored by the search.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.games.sandpile import Phase, SandpileState

#: The phases used here as module constants (a global load: cheaper than the enum's attribute
#: lookup in hot code; a phase compares equal to its text, identity first).
_PLACE, _BONUS, _ENDBONUS, _TOPPLE, _OVER = Phase.PLACE, Phase.BONUS, Phase.ENDBONUS, Phase.TOPPLE, Phase.OVER


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
#: what a top on a stack of 3 loses while pieces are still being placed
_THREE_LOSS = 1.0 - PLACING_TOP_3


#: (rules, unstable stacks) -> (mask of the unstable stacks and the cells they send pieces
#: to, per seat the expected tops from their moving pieces); cleared when it reaches _CACHE_MAX
_MOVING: dict = {}
_CACHE_MAX = 1 << 16


def _moving(state: SandpileState) -> tuple[int, tuple[float, ...]]:
    """(cells whose tops the toppling will change, per seat the tops expected from the
    moving pieces) of ``state``'s unstable stacks; memoised on ``state.unstable_stacks``
    (few distinct sets of unstable stacks occur under one search)."""
    stacks = state.unstable_stacks
    if not stacks:
        return 0, (0.0, 0.0, 0.0, 0.0)
    key = (state.rules, stacks)
    found = _MOVING.get(key)
    if found is None:
        around = state.rules.around_mask
        top = [0.0, 0.0, 0.0, 0.0]
        hidden = state.tall
        for i, s in stacks:
            hidden |= around[i]
            for c in s[-4:]:
                top[ord(c) - 65] += SCATTER
            if len(s) > 4:
                top[ord(s[-5]) - 65] += REMAINDER
        if len(_MOVING) >= _CACHE_MAX:
            _MOVING.clear()
        found = _MOVING[key] = (hidden, tuple(top))
    return found


def expected_tops(state: SandpileState) -> list[float]:
    """Per seat, the visible tops expected once the current round's stacks have settled:
    tops of stable stacks not hit by a toppling neighbour, plus the pieces of unstable
    stacks (each moving piece becomes some neighbour's top; the fifth piece is the new top)."""
    hidden, moving = _moving(state)
    top = list(moving)
    topm = state.topm
    if state.phase in (_PLACE, _BONUS, _ENDBONUS):
        # stacks of 3 (``STABLE_MAX``) lose weight: the next piece on them makes them topple
        three = state.three
        for p in range(4):
            visible = topm[p] & ~hidden
            top[p] += visible.bit_count() - _THREE_LOSS * (visible & three).bit_count()
    else:
        for p in range(4):
            top[p] += (topm[p] & ~hidden).bit_count()
    return top


def evaluate_all(state: SandpileState) -> tuple[float, ...]:
    """Per seat (0-based) expected points: banked + weighted expected tops + hand.

    Reads the state's incremental data (``banked``, the ``topm``/``three``/``tall`` masks):
    no scan of the board's cells.
    """
    banked = state.banked
    phase = state.phase
    if phase == _OVER:
        return tuple(float(b) for b in banked)
    top: Sequence[float]  # per seat (an annotation: no code)
    if phase == _TOPPLE:
        top = expected_tops(state)
    elif not state.tall:  # placing, nothing unstable: every top is visible (``expected_tops`` unrolled)
        three = state.three
        a, b, c, d = state.topm
        top = (a.bit_count() - _THREE_LOSS * (a & three).bit_count(),
               b.bit_count() - _THREE_LOSS * (b & three).bit_count(),
               c.bit_count() - _THREE_LOSS * (c & three).bit_count(),
               d.bit_count() - _THREE_LOSS * (d & three).bit_count())
    else:  # placing beside unstable stacks: ``expected_tops`` unrolled
        hidden, (ma, mb, mc, md) = _moving(state)
        three = state.three
        shown = ~hidden
        a, b, c, d = state.topm
        a, b, c, d = a & shown, b & shown, c & shown, d & shown
        top = (ma + (a.bit_count() - _THREE_LOSS * (a & three).bit_count()),
               mb + (b.bit_count() - _THREE_LOSS * (b & three).bit_count()),
               mc + (c.bit_count() - _THREE_LOSS * (c & three).bit_count()),
               md + (d.bit_count() - _THREE_LOSS * (d & three).bit_count()))
    scorings, h0, h1, h2, h3, b0, b1, b2, b3 = _turn_terms(state)
    return (banked[0] + top[0] * scorings + h0 + b0,
            banked[1] + top[1] * scorings + h1 + b1,
            banked[2] + top[2] * scorings + h2 + b2,
            banked[3] + top[3] * scorings + h3 + b3)


#: (rules, phase, step, round, holders) -> ``_turn_terms``
_TERMS: dict = {}


def _turn_terms(state: SandpileState) -> tuple[float, ...]:
    """(weight of the tops, then per seat the hand term, then per seat the bonus term) of
    ``evaluate_all``: functions of the turn only, memoised."""
    key = (state.rules, state.phase, state.step, state.round, state.holders)
    found = _TERMS.get(key)
    if found is None:
        rules, phase, holders = state.rules, state.phase, state.holders
        scorings = 1.0 + FUTURE * (rules.rounds - state.round)
        if phase == _PLACE or phase == _BONUS:
            # TURN per placement turn left (``SandpileState.turns_left`` less the later rounds')
            later = (rules.rounds - state.round) * rules.pieces_per_round
            hand = tuple(TURN * (state.turns_left(p) - later) for p in range(4))
        else:
            hand = (0.0, 0.0, 0.0, 0.0)
        bonus = tuple(BONUS if holders >> p & 1 else 0.0 for p in range(4))
        if len(_TERMS) >= 1 << 16:
            _TERMS.clear()
        found = _TERMS[key] = (scorings, *hand, *bonus)
    return found


def evaluate(state: SandpileState, seat: int) -> float:
    """``seat``'s expected points minus the mean of the other three seats'."""
    v = evaluate_all(state)
    return v[seat] - (sum(v) - v[seat]) / 3.0
