"""Integer codes of the games frame's list columns, so the report's tables group a million
games with numpy instead of one Python tuple per game (issue 14).

A tournament has few distinct seat lists (pairings in seat order), rank lists and score
lists; ``arena.results.aggregates.load_game_frame`` stores each once and codes the rows
(``seats_code``, ``ranks_code``, ``scores_code``). ``codes`` reads those codes, or computes
them for a frame built another way (tests, older callers), so every table gives the same
numbers either way.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd


def codes(games: pd.DataFrame, col: str) -> tuple[np.ndarray, list]:
    """``(code, values)`` of the list column ``col`` (``seats``, ``ranks`` or ``scores``):
    ``code[i]`` (int64, 0-based) indexes ``values``, the distinct lists (as stored), so equal
    lists have equal codes. Uses the stored ``<col>_code`` column when the frame has one."""
    if not len(games):
        return np.zeros(0, np.int64), []
    stored = f"{col}_code"
    if stored in games.columns:
        _, first, code = np.unique(games[stored].to_numpy(), return_index=True, return_inverse=True)
        return code.astype(np.int64).ravel(), list(games[col].to_numpy()[first])
    index: dict[tuple, int] = {}
    code = np.fromiter((index.setdefault(tuple(v), len(index)) for v in games[col]), np.int64, len(games))
    return code, [list(v) for v in index]


def seat_sizes(games: pd.DataFrame) -> np.ndarray:
    """Seats of each game (int64 array, one per row), from the seat lists' codes."""
    code, values = codes(games, "seats")
    return np.array([len(v) for v in values], dtype=np.int64)[code] if len(values) else np.zeros(0, np.int64)


def matrix(values: Sequence[Sequence], k: int, dtype=float) -> np.ndarray:
    """The distinct lists of ``codes`` of ``k`` entries each as a ``(len(values), k)`` array
    (shorter lists padded with NaN, ``None`` in object arrays, -1 in integer arrays)."""
    kind = np.dtype(dtype).kind
    out = np.full((len(values), k), np.nan if kind == "f" else None if kind == "O" else -1, dtype=dtype)
    for i, v in enumerate(values):
        out[i, : min(k, len(v))] = list(v)[:k]
    return out


def grouped(games: pd.DataFrame) -> pd.DataFrame:
    """The games with equal seats, ranks, scores and ``copy`` flag collapsed into one row
    each: the frame's columns (``game_id`` and ``series`` of the group's first game; the other
    per-game columns dropped) plus ``n``, the games in the group. Tables that depend on a game
    only through those columns (seat results, leaderboard counts, crosstable, first-move counts,
    Bradley–Terry cells) weight each row by ``n``: a million games cost what their few
    distinct results cost. The stored list codes (``seats_code``...) are kept when the frame
    has them."""
    columns = ["game_id", "series", "seats", "ranks", "scores", "copy", "n"]
    if not len(games):
        return pd.DataFrame(columns=columns)
    sc, _ = codes(games, "seats")
    rc, _ = codes(games, "ranks")
    pc, _ = codes(games, "scores")
    copy = games["copy"].to_numpy(bool) if "copy" in games.columns else np.zeros(len(games), bool)
    key = ((sc * (rc.max() + 1) + rc) * (pc.max() + 1) + pc) * 2 + copy
    _, first, count = np.unique(key, return_index=True, return_counts=True)
    order = np.argsort(first, kind="stable")  # groups in the order of their first game
    rows = games.iloc[first[order]]
    out = pd.DataFrame({"game_id": rows["game_id"].to_numpy(), "series": rows["series"].to_numpy(),
                        "seats": rows["seats"].to_numpy(), "ranks": rows["ranks"].to_numpy(),
                        "scores": rows["scores"].to_numpy(), "copy": copy[first[order]],
                        "n": count[order].astype(np.int64)})
    stored = [f"{col}_code" for col in ("seats", "ranks", "scores") if f"{col}_code" in games.columns]
    for col in stored:  # the list codes stay: the tables group on them, not on tuples of the lists
        out[col] = rows[col].to_numpy()
    return out[columns + stored]


def weights(frame: pd.DataFrame) -> np.ndarray:
    """The ``n`` column of a ``grouped`` frame (or of tables built from one), else 1 per row."""
    return frame["n"].to_numpy(np.int64) if "n" in frame.columns else np.ones(len(frame), np.int64)
