"""``arena.columns.Columns``: the rows of a dataclass of numpy columns."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from arena.columns import Columns


@dataclass(frozen=True)
class Games(Columns):
    game_id: np.ndarray
    points: np.ndarray
    names: np.ndarray  # a lookup table of another length, not a row column


def test_length_and_parts_of_the_row_columns():
    g = Games(np.array([1, 2, 3, 4]), np.array([1.0, 0.5, 0.0, 1.0]), np.array(["x", "y"]))
    assert len(g) == 4 and len(Games(np.zeros(0), np.zeros(0), np.zeros(0))) == 0
    won = g.part(g.points == 1.0, ("game_id", "points"))
    assert isinstance(won, Games) and won.game_id.tolist() == [1, 4] and won.names.tolist() == ["x", "y"]
    assert g.part(slice(1, 3), ("game_id", "points")).points.tolist() == [0.5, 0.0]
    every = g.part(np.array([1, 0]))  # indices, every field
    assert every.game_id.tolist() == [2, 1] and every.names.tolist() == ["y", "x"]
