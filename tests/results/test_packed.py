"""The packed column (``arena.results.packed``): every figure comes back as given, bit for bit,
one game at a time (the ``moves`` view) or many at once (``unpack_many``), and a short game
takes few bytes."""

from __future__ import annotations

import json
import math
import random
import sqlite3

import numpy as np
import pytest

from arena.referee.records import MoveRecord as M
from arena.results import packed

ROWS = [M(0, -1, "a"), M(1, 0, "b", 0.25, None, None, None, None, None),
        M(2, 1, "c", 0.5, 7, 3, -1.5, "valid", 12.0), M(3, 0, "d", 0.0, 0, 0, 0.0, "", 0.0),
        M(3, 1, "x", 1e-4, 2 ** 40, -5, math.pi, "won", None), M(4, -3, "e", 0.1, None, None, None, None, None)]
MOVES = ["a", "b", "c", "d", "e"]


def as_row(m: M) -> tuple:
    return (m.ply, m.seat, m.move, m.seconds, m.nodes, m.depth, m.evaluation, m.status, m.clock)


def test_every_figure_comes_back_through_the_view_and_in_bulk() -> None:
    blob = packed.pack(json.dumps(MOVES), MOVES, list(reversed(ROWS)))  # stored in (ply, seat) order
    assert blob[0] == packed.PACKING
    assert packed.moves_text(blob) == json.dumps(MOVES)
    conn = sqlite3.connect(":memory:")
    packed.register(conn)
    conn.execute("CREATE TABLE games (game_id INTEGER PRIMARY KEY, packed BLOB NOT NULL)")
    conn.execute(packed.VIEW)
    conn.executemany("INSERT INTO games VALUES (?, ?)", [(1, blob), (2, blob)])
    assert conn.execute("SELECT * FROM moves WHERE game_id = 2").fetchall() == [(2, *as_row(m)) for m in ROWS]
    assert conn.execute("SELECT count(*) FROM moves").fetchone() == (12,)
    assert conn.execute("SELECT arena_moves(packed) FROM games WHERE game_id = 1").fetchone() == (json.dumps(MOVES),)
    cols = packed.unpack_many([blob, blob])
    assert cols["game"].tolist() == [0] * 6 + [1] * 6
    assert cols["move"].tolist() == [m.move for m in ROWS] * 2  # the round's answer "x" is the row's own
    for name in ("ply", "seat", "seconds", "nodes", "depth", "evaluation", "clock"):
        want = [math.nan if getattr(m, name) is None else getattr(m, name) for m in ROWS] * 2
        np.testing.assert_array_equal(cols[name], np.array(want, float))
    assert cols["status"].tolist() == [m.status for m in ROWS] * 2


@pytest.mark.parametrize("seed", range(5))
def test_measured_times_come_back_bit_for_bit_in_few_bytes(seed: int) -> None:
    rng = random.Random(seed)
    start = rng.uniform(1e3, 1e7)  # a monotonic clock's reading, seconds
    times = [(start + rng.random() * 0.01) - start for _ in range(43)]
    rows = [M(i, i % 2, f"m{i}", t) for i, t in enumerate(times)]
    moves = [r.move for r in rows]
    blob = packed.pack(json.dumps(moves), moves, rows)
    assert packed.unpack_many([blob])["seconds"].tolist() == times
    assert [r[3] for r in packed._rows(blob)] == times
    assert len(blob) < 43 * 5 + 150  # 8 bytes a time unpacked


def test_games_of_every_column_format_unpack_together_as_alone() -> None:
    """One bulk call over games whose columns differ in format (scaled times of several q,
    floats, integers of several widths, absent columns, no rows) gives each game's own rows."""
    rng = random.Random(3)
    games = [ROWS, [], [M(0, 0, "a", 0.5, 300, 70000)], [M(0, 1, "b", math.pi, None, 2, 1e300)]]
    for k in range(20):
        games.append([M(i, i % 2, f"m{i}", rng.random() * 2 ** -k if k % 3 else None, rng.randrange(2 ** (k + 1)),
                        None if k % 2 else k, None if k % 4 else rng.random(), None, None) for i in range(k % 7)])
    blobs = [packed.pack(json.dumps([m.move for m in g]), [m.move for m in g], g) for g in games]
    cols = packed.unpack_many(blobs)
    assert cols["game"].tolist() == [i for i, g in enumerate(games) for _ in g]
    for name, at in (("ply", 0), ("seat", 1), ("seconds", 3), ("nodes", 4), ("depth", 5), ("evaluation", 6),
                     ("clock", 8)):
        want = [math.nan if r[at] is None else r[at] for b in blobs for r in packed._rows(b)]
        np.testing.assert_array_equal(cols[name], np.array(want, float), err_msg=name)


def test_odd_values_fall_back_to_what_keeps_them() -> None:
    moves = ["a\x1fb", ""]  # neither joins: the JSON text is kept
    rows = [M(0, 0, "a\x1fb", -0.0, 2 ** 62), M(1, 1, "", math.nan, -(2 ** 62))]
    blob = packed.pack(json.dumps(moves), moves, rows)
    assert packed.moves_text(blob) == json.dumps(moves)
    cols = packed.unpack_many([blob])
    assert cols["move"].tolist() == moves and math.copysign(1, cols["seconds"][0]) == -1
    assert packed._rows(blob)[1][3] is None and packed._rows(blob)[0][4] == 2 ** 62


def test_a_damaged_column_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="version"):
        packed.payload(b"\x07abc")
    with pytest.raises(ValueError, match="damaged"):
        packed.payload(b"\x01\xff\xff")


def test_a_43_ply_interaction_game_is_a_small_row(tmp_path) -> None:
    from arena.tournament import build, run_tournament

    summary = run_tournament(build(dict(game="interaction", bots=["random", "b=random"], games=60, workers=1,
                                        results=str(tmp_path))))
    conn = sqlite3.connect(summary.path)
    columns = [r[1] for r in conn.execute("PRAGMA table_info(games)")]
    plies, blob, row = conn.execute(
        "SELECT avg(plies), avg(length(packed)), avg(" + " + ".join(f"coalesce(length({c}), 0)" for c in columns)
        + ") FROM games").fetchone()
    assert 30 < plies < 60
    assert blob < 330 * plies / 43 and row < 480 * plies / 43  # the file adds headers, the index, free space
