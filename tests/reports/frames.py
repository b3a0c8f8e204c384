"""Build store-shaped frames for report tests (the layout of ``arena.results.store.load_games`` /
``load_moves``)."""

from __future__ import annotations

import math

import pandas as pd

GAME_COLUMNS = ["game_id", "series", "seed", "seats", "ranks", "scores", "termination",
                "fault_seat", "plies", "opening_plies", "seconds"]
MOVE_COLUMNS = ["game_id", "ply", "seat", "label", "move", "seconds", "nodes", "depth",
                "evaluation", "status"]


def games_frame(rows) -> pd.DataFrame:
    """``rows``: (seats, ranks[, termination[, fault_seat[, plies[, scores]]]]) per game;
    game ids count from 1, series = (id - 1) // len(seats)."""
    out = []
    for i, row in enumerate(rows, start=1):
        seats, ranks, *rest = row
        termination = rest[0] if len(rest) > 0 else "normal"
        fault = rest[1] if len(rest) > 1 and rest[1] is not None else math.nan
        plies = rest[2] if len(rest) > 2 else 40
        scores = rest[3] if len(rest) > 3 else [float(len(ranks) - r) for r in ranks]
        out.append((i, (i - 1) // len(seats), 1000 + i, list(seats), list(ranks), list(scores),
                    termination, fault, plies, 2, 0.5))
    return pd.DataFrame(out, columns=GAME_COLUMNS)


def moves_frame(rows) -> pd.DataFrame:
    """``rows``: tuples in ``MOVE_COLUMNS`` order."""
    return pd.DataFrame(list(rows), columns=MOVE_COLUMNS)
