"""``arena.results.packed_sums``: the compiled loop over packed columns gives the search sums
of the numpy path (``aggregates._game_sums``) to the bit, on every kind of numeric section."""

from __future__ import annotations

import random
import sqlite3

import numpy as np
import pytest

from arena.referee import MoveRecord
from arena.results import aggregates, packed_sums
from arena.results.packed import pack
from tests.reports.stores import make_store


def _record(rng: random.Random, i: int) -> list[MoveRecord]:
    """A game's plies with thinking times of a fixed resolution (scaled), float times, node
    counts of every width, depths with gaps (NULL), opening plies (seat -1) and a foreign seat."""
    rows = []
    scale = rng.choice([2.0 ** -20, 1e-3 / 3])  # a clock's tick (scaled integers), else plain floats
    big = rng.choice([100, 30_000, 2_000_000_000, 2 ** 40])
    for ply in range(rng.randrange(0, 30)):
        seat = -1 if ply < 2 and i % 3 == 0 else rng.choice([0, 1, 1, 2])
        seconds = None if i % 7 == 0 else rng.randrange(1, 5000) * scale
        rows.append(MoveRecord(ply=ply, seat=seat, move=f"m{ply}", seconds=seconds,  # type: ignore[arg-type]
                               nodes=None if i % 5 == 0 else rng.randrange(0, big),
                               depth=rng.choice([None, 1, 2, 7]) if i % 2 else None))
    return rows


def test_the_compiled_sums_are_the_numpy_sums():
    rng = random.Random(11)
    blobs = []
    for i in range(400):
        stats = _record(rng, i)
        moves = [f"m{r.ply}" for r in stats]
        blobs.append(pack(__import__("json").dumps(moves), moves, stats))
    want = aggregates._game_sums(blobs, 2)
    got = packed_sums.game_sums(blobs, 2)
    assert np.array_equal(np.isnan(want), np.isnan(got))
    assert want[~np.isnan(want)].tolist() == got[~np.isnan(got)].tolist()


@pytest.mark.parametrize("game", ["interaction", "sandpile", "ricochet"])
def test_search_sums_of_a_store_are_the_same_through_the_loop(tmp_path, monkeypatch, game):
    path = make_store(tmp_path, game)
    seats = 1 if game == "ricochet" else 2 if game == "interaction" else 3
    want = aggregates.search_sums(sqlite3.connect(path), seats)
    monkeypatch.setattr(packed_sums, "LOOP_GAMES", 1)
    calls = []
    real = packed_sums.game_sums
    monkeypatch.setattr(packed_sums, "game_sums", lambda *a: calls.append(1) or real(*a))
    assert aggregates.search_sums(sqlite3.connect(path), seats) == want
    assert calls
