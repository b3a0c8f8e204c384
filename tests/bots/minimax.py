"""Plain minimax (no pruning, no table) for checking alpha-beta root values."""

from __future__ import annotations

WIN = 1_000_000.0


def final_value(outcome, seat: int, ply: int) -> float:
    """Two-player terminal value for ``seat``, ``ply`` plies below the root: WIN - ply / 0 / -WIN + ply."""
    mine, other = outcome.ranks[seat], outcome.ranks[1 - seat]
    if mine == other:
        return 0.0
    return WIN - ply if mine < other else -WIN + ply


def minimax(state, depth: int, evaluate, ply: int = 0) -> float:
    """Value of a live ``state`` for its side to move, searching ``depth`` >= 1 plies."""
    me = state.to_move
    best = float("-inf")
    for move in state.legal_moves():
        child = state.play(move)
        if child.is_terminal():
            v = final_value(child.outcome(), me, ply + 1)
        elif depth == 1:
            v = evaluate(child, me)
        else:
            v = minimax(child, depth - 1, evaluate, ply + 1)
            v = v if child.to_move == me else -v
        best = max(best, v)
    return best
