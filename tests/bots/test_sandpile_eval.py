"""The Sandpile evaluation read from the state's incremental data equals, bit for bit, the
original definition that scans every cell (kept here as the reference)."""

from __future__ import annotations

import random

import arena.games
from bots.eval import sandpile as ev


def reference_all(state):
    """``evaluate_all`` as first written: every cell scanned, seats looped."""
    board, rules = state.board, state.rules
    banked = [sum(r[p] for r in state.scores) for p in range(4)]
    if state.phase == "over":
        return tuple(float(b) for b in banked)
    top = [0.0, 0.0, 0.0, 0.0]
    hidden = 0
    for i, s in enumerate(board):
        if len(s) > 3:
            hidden |= 1 << i
    if hidden:
        around = rules.around_mask
        for i in [i for i, s in enumerate(board) if len(s) > 3]:
            hidden |= around[i]
            s = board[i]
            for c in s[-4:]:
                top[ord(c) - 65] += ev.SCATTER
            if len(s) > 4:
                top[ord(s[-5]) - 65] += ev.REMAINDER
    topm = [0, 0, 0, 0]
    for i, s in enumerate(board):
        if s:
            topm[ord(s[-1]) - 65] |= 1 << i
    if state.phase in ("place", "bonus", "endbonus"):
        three = sum(1 << i for i, s in enumerate(board) if len(s) == 3)
        for p in range(4):
            visible = topm[p] & ~hidden
            top[p] += visible.bit_count() - (1.0 - ev.PLACING_TOP_3) * (visible & three).bit_count()
    else:
        for p in range(4):
            top[p] += (topm[p] & ~hidden).bit_count()
    scorings = 1.0 + ev.FUTURE * (rules.rounds - state.round)
    later = (rules.rounds - state.round) * rules.pieces_per_round
    placing = state.phase in ("place", "bonus")
    return tuple(
        banked[p] + top[p] * scorings + (ev.TURN * (state.turns_left(p) - later) if placing else 0.0)
        + (ev.BONUS if state.holders >> p & 1 else 0.0)
        for p in range(4)
    )


def test_evaluation_equals_the_cell_scanning_definition():
    phases = set()
    for params in ({}, {"wrap": "mirror", "size": 5, "rounds": 2}):
        game = arena.games.make("sandpile", **params)
        for seed in range(5):
            rng = random.Random(seed)
            state = game.initial_state()
            while True:
                phases.add(state.phase)
                assert ev.evaluate_all(state) == reference_all(state), state.to_text()
                if state.is_terminal():
                    break
                moves = state.legal_moves()
                # odd seeds keep the bonus piece to the end-of-round offers
                state = state.play(moves[-1] if seed % 2 and state.phase == "bonus" else rng.choice(moves))
    assert phases == {"place", "bonus", "endbonus", "topple", "over"}
