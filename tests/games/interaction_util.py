"""Helpers for the Interaction tests: positions from a few named balls."""

from __future__ import annotations

import arena.games

CHARS = {"R": "R", "B": "B", "Y": "Y"}


def position(balls: dict[str, str], side: str = "r", scores=(0, 0), ply: int = 10) -> str:
    """Position text with ``balls`` ({"e1": "R", ...}) on an otherwise empty board."""
    rows = []
    for rank in range(9, 0, -1):
        row = ""
        for f in "abcdefghi":
            sq = f"{f}{rank}"
            if sq in ("a1", "i1", "a9", "i9"):
                row += "#"
            else:
                row += balls.get(sq, ".")
        rows.append(row)
    return f"{'/'.join(rows)} {side} {scores[0]} {scores[1]} {ply}"


def balls_of(state) -> dict[str, str]:
    """{square: piece letter} of a state's balls."""
    out = {}
    for cell, piece in enumerate(state.board):
        if piece:
            out[f"{'abcdefghi'[cell % 9]}{cell // 9 + 1}"] = ".RBY"[piece]
    return out


def game(**params):
    return arena.games.make("interaction", **params)
