"""Issue 14, the game-level part: games read in bulk with coded lists (``arena.results.aggregates``),
tables grouped on the codes (``arena.reports.coded``), copies found by ``moves_hash``, and the
bulk store path (``Store.add_games``) give what the old per-game path gave."""

from __future__ import annotations

import shutil
import sqlite3

import pandas as pd
import pytest

from arena.results.packed import register
from arena.results import aggregates, store, writing
from arena.reports import coded, pairs
from arena.reports import tables as t
from arena.results.store import Store
from tests.reports.reference import assert_same, old_load_copies, old_load_games
from tests.reports.stores import field_store, make_store, nim_store
from tests.reports.test_scale import LEGACY, _compare


def test_a_field_with_copies_and_a_leftover_has_its_known_tables(tmp_path):
    path = field_store(tmp_path)
    assert aggregates.load_copies(path) == [11]
    _compare(path, "field")
    _compare(path, "field")  # from the stored rating state


def test_three_players_with_a_copy_have_their_known_tables(tmp_path):
    path = nim_store(tmp_path)
    assert aggregates.load_copies(path) == [7]
    _compare(path, "nim3")


def test_add_games_stores_what_add_game_stores(tmp_path):
    one = field_store(tmp_path / "batch")
    conn = sqlite3.connect(one)
    register(conn)  # the moves view's functions
    games = conn.execute("SELECT * FROM games ORDER BY game_id").fetchall()
    moves = conn.execute("SELECT * FROM moves ORDER BY game_id, ply, seat").fetchall()
    with Store.open(tmp_path / "single", "field") as s:
        s.begin("field", "interaction", {"max_plies": 24}, 2, 1, {"games": 2},
                [("r0", "random"), ("g1", "greedy"), ("r2", "random")], len(games))
        records = {g[0]: g for g in games}
        for game_id, loaded in ((g, store.load_game(one, g)) for g in records):
            record = _record(conn, loaded)
            s.add_game(game_id, loaded["series"], record, loaded["attempts"])
    other = sqlite3.connect(tmp_path / "single" / "field.sqlite")
    register(other)
    finished = [d[0] for d in conn.execute("SELECT * FROM games").description].index("finished")
    strip = lambda rows: [r[:finished] + r[finished + 1:] for r in rows]  # noqa: E731
    assert strip(other.execute("SELECT * FROM games ORDER BY game_id").fetchall()) == strip(games)
    assert other.execute("SELECT * FROM moves ORDER BY game_id, ply, seat").fetchall() == moves


def _record(conn, row):
    """A ``GameRecord`` with the stored fields of ``row`` (``store.load_game``) and its moves."""
    from arena.games import Outcome
    from arena.referee.records import GameRecord, MoveRecord

    stats = [MoveRecord(*m) for m in conn.execute(
        "SELECT ply, seat, move, seconds, nodes, depth, evaluation, status FROM moves WHERE game_id = ? "
        "ORDER BY ply, seat", (row["game_id"],))]
    outcome = Outcome(tuple(row["scores"]), tuple(row["ranks"]), row["termination"])
    return GameRecord(seed=row["seed"], seats=tuple(row["seats"]), moves=tuple(row["moves"]),
                      opening_plies=row["opening_plies"], outcome=outcome,
                      seconds=row["seconds"], move_stats=tuple(stats), fault_seat=row["fault_seat"],
                      fault_detail=row["fault_detail"])


def test_an_older_store_gets_its_hashes_when_a_run_opens_it(tmp_path):
    path = tmp_path / LEGACY.name
    shutil.copy(LEGACY, path)
    raw = sqlite3.connect(path)
    assert not aggregates.has_hashes(raw)
    before = old_load_copies(raw)  # grouped on the move lists
    raw.close()
    with Store.open(tmp_path, path.stem):  # migrated to the current layout
        pass
    conn = sqlite3.connect(path)
    register(conn)
    assert aggregates.has_hashes(conn)
    for moves, stored in conn.execute("SELECT arena_moves(packed), moves_hash FROM games"):
        assert stored == writing.moves_hash(moves)
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'games_series_hash'").fetchone()
    assert aggregates.load_copies(path) == before
    _compare(path, "legacy")


@pytest.mark.parametrize("game", ["interaction", "sandpile", "ricochet"])
def test_the_game_frame_is_the_old_loaders(tmp_path, game):
    path = make_store(tmp_path, game, fault=True)
    legacy = tmp_path / LEGACY.name
    shutil.copy(LEGACY, legacy)  # a reader migrates an older store in place: never the fixture itself
    for db in (path, legacy):
        conn = store.connect_readonly(db)
        old = old_load_games(conn)
        pd.testing.assert_frame_equal(store.load_games(conn), old)
        coded_frame = aggregates.load_game_frame(conn)
        pd.testing.assert_frame_equal(coded_frame[old.columns], old)
        no_times = aggregates.load_game_frame(conn, seconds=False)
        assert "seconds" not in no_times and len(no_times) == len(old)
        conn.close()


def test_an_empty_store_loads_an_empty_frame(tmp_path):
    with Store.open(tmp_path, "empty") as s:
        s.begin("empty", "interaction", {}, 2, 1, {"games": 0}, [("a", "random")], 0)
        path = s.path
    frame = aggregates.load_game_frame(path)
    assert frame.empty and list(frame.columns[:11]) == list(old_load_games(sqlite3.connect(path)).columns)


def test_tables_on_codes_equal_tables_on_lists(tmp_path):
    """The same tables whether the frame carries the stored codes or only its lists (codes
    computed by ``coded.codes``), and whether games are grouped (weighted) or one per row."""
    path = field_store(tmp_path)
    games = aggregates.load_game_frame(path)
    games["copy"] = games["game_id"].isin(aggregates.load_copies(path))
    plain = games.drop(columns=["seats_code", "ranks_code", "scores_code"])
    plain["seats"] = [list(v) for v in plain["seats"]]  # fresh lists, as a caller would build them
    order = ["r0", "g1", "r2"]
    for name, build in [("seat_results", lambda g: t.seat_results(g, order)),
                        ("crosstable", lambda g: t.crosstable(g, order).reset_index()),
                        ("lengths", lambda g: t.game_lengths(g, order)),
                        ("pairs", lambda g: pairs.pair_table(g, order)),
                        ("extras", lambda g: pairs.first_move_extras(g, order)),
                        ("cells", pairs.bt_cells)]:
        assert_same(build(games), build(plain), name)
    grouped = coded.grouped(games)
    assert grouped["n"].sum() == len(games) and len(grouped) < len(games)
    ratings = pd.DataFrame({"label": order, "mu": [25.0] * 3, "sigma": [8.0] * 3, "conservative": [1.0] * 3,
                            "games": [0] * 3})
    per_game = t.leaderboard(games, ratings, order, t.seat_results(plain, order))
    assert_same(t.leaderboard(games, ratings, order, t.seat_results(grouped, order)), per_game, "leaderboard")
    assert_same(t.crosstable(grouped, order), t.crosstable(plain, order), "crosstable")
    assert_same(pairs.bt_cells(grouped), pairs.bt_cells(plain), "cells")
    distinct = plain[~plain["copy"]]
    assert_same(t.first_move(grouped[~grouped["copy"]], "x", order,
                             t.seat_results(grouped[~grouped["copy"]], order)),
                t.first_move(distinct, "x", order), "first_move")
