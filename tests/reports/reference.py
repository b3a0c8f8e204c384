"""The report's computations as they were before issue 14 (pandas over every move row and
over one row per game with its parsed lists, a TrueSkill replay of every game, every table
rebuilt per output), copied here (with ``legacy_tables`` and ``legacy_pairs``) as the reference
the new path (incremental rating state, SQL sums, coded and grouped games, tables built once)
must match."""

from __future__ import annotations

import json
import math
import sqlite3

import numpy as np
import pandas as pd
import trueskill

from arena.results import store
from arena.results.ratings import RATING_COLUMNS, make_env, update_1vs1
from arena.reports import field as field_table
from arena.reports import render
from arena.stats import bt
from arena.stats.significance import holm
from arena.reports.ricochet import RACE_GAMES, ricochet_table
from arena.reports.tables import _key
from tests.reports import legacy_pairs as lp
from tests.reports import legacy_tables as lt


def old_load_moves(conn: sqlite3.Connection) -> pd.DataFrame:
    from arena.results.packed import register

    register(conn)  # the moves view's functions
    df = pd.read_sql_query("SELECT m.game_id, m.ply, m.seat, g.seats AS label, m.move, m.seconds, m.nodes, "
                           "m.depth, m.evaluation, m.status FROM moves m JOIN games g USING (game_id) "
                           "ORDER BY m.game_id, m.ply, m.seat", conn)
    df["label"] = [json.loads(s)[seat] if seat >= 0 else None for s, seat in zip(df["label"], df["seat"])]
    df["evaluation"] = df["evaluation"].astype(float)
    return df


def old_load_games(conn: sqlite3.Connection) -> pd.DataFrame:
    df = pd.read_sql_query("SELECT game_id, series, seed, seats, ranks, scores, termination, fault_seat, "
                    "plies, opening_plies, seconds FROM games ORDER BY game_id", conn)
    for col in ("seats", "ranks", "scores"):  # one JSON document per column: 10× faster than per row
        df[col] = json.loads("[" + ",".join(df[col].tolist()) + "]") if len(df) else []
    sizes = {len(v) for v in df["scores"]}
    if len(sizes) == 1:  # one array converts every score to float at C speed
        df["scores"] = np.array(df["scores"].tolist(), dtype=float).reshape(len(df), sizes.pop()).tolist()
    else:
        df["scores"] = [[float(x) for x in v] for v in df["scores"]]
    for col in ("game_id", "series", "seed", "plies", "opening_plies"):
        df[col] = df[col].astype("int64")
    df["fault_seat"] = df["fault_seat"].astype("Int64")
    df["seconds"] = df["seconds"].astype(float)
    df["termination"] = df["termination"].astype(str)
    return df


def old_build_tables(data: render.ReportData) -> dict[str, pd.DataFrame]:
    """``arena.reports.render.build_tables`` before issue 14: every game-level table from the
    per-game frame (``legacy_tables``, ``legacy_pairs``, ``legacy_cells``)."""
    games, moves, order = data.games, data.moves, data.order
    k, out = data.num_players, {}
    distinct = games[~games["copy"]] if "copy" in games else games
    results = lt.seat_results(games, order)
    out["leaderboard"] = lt.leaderboard(games, data.ratings(), order, results)
    if k == 2:
        out["pairs"] = lp.pair_table(games, order)
        fit = bt.fit_cells(legacy_cells(games), order)
        out["elo"] = pd.concat([fit.table, pd.DataFrame([{"label": "(first move)", "games": fit.games,
                                "elo": fit.first_move, "elo_low": fit.first_low, "elo_high": fit.first_high}])],
                               ignore_index=True)
    if k >= 2:
        out["crosstable"] = lt.crosstable(games, order).reset_index()
    if k == 2:
        name = str(data.tournament.get("game", lt.ALL))
        table = lt.first_move(distinct, name, order, results[results["game_id"].isin(distinct["game_id"])])
        extra = lp.first_move_extras(games, order).drop(columns="score")
        extra["scope"] = extra["scope"].fillna(name)
        table = table.merge(extra, on="scope", how="left")
        # the whole game's first-move Elo: the field table's fit (with its prior) of these games
        whole = field_table.fit_field(distinct, order, 2, int(data.tournament.get("seed") or 1))
        table.loc[0, ["first_elo", "first_low", "first_high"]] = field_table.first_move_term(whole)
        p = table["p_value"].tolist()  # Holm over the pairings; the whole game's row is not one of them
        table.insert(table.columns.get_loc("p_value") + 1, "p_holm", p[:1] + holm(p[1:]))
        out["first_move"] = table
    if k > 2:
        seats = lt.seat_advantage(distinct)
        extra = lp.seat_intervals(distinct).drop(columns=["games", "win_share"], errors="ignore")
        out["seat_advantage"] = seats.table.merge(extra, on="seat", how="left") if len(extra) else seats.table
        out["seat_test"] = seats.test_frame()
    out["lengths"] = lt.game_lengths(games, order)
    out["terminations"] = lt.terminations(games)
    out["fault_summary"], out["faults"] = lt.fault_summary(games), lt.faults(games)
    out["search"] = lt.search_stats(moves, order)
    if data.tournament.get("game") in RACE_GAMES:
        out["ricochet"] = ricochet_table(games, moves, order)
    if data.sprt:
        out["sprt"] = pd.DataFrame([{**{k: v for k, v in data.sprt.items() if k != "penta"},
                                     **dict(zip(("LL", "LD", "DD_WL", "WD", "WW"), data.sprt["penta"]))}])
    return out


def legacy_cells(games: pd.DataFrame) -> pd.DataFrame:
    """``arena.reports.pairs.bt_cells`` before issue 14."""
    two = games[games["seats"].map(len) == 2]
    if two.empty:
        return pd.DataFrame(columns=["seat0", "seat1", "n", "points"])
    ranks = np.array(two["ranks"].tolist(), dtype=float)
    pts = np.where(ranks[:, 0] < ranks[:, 1], 1.0, np.where(ranks[:, 0] == ranks[:, 1], 0.5, 0.0))
    seats = np.array(two["seats"].tolist(), dtype=object)
    frame = pd.DataFrame({"seat0": seats[:, 0], "seat1": seats[:, 1], "points": pts})
    return (frame.groupby(["seat0", "seat1"], sort=True)
            .agg(n=("points", "size"), points=("points", "sum")).reset_index())


def old_load_copies(conn: sqlite3.Connection) -> list[int]:
    from arena.results.packed import register

    register(conn)
    layout = conn.execute("PRAGMA user_version").fetchone()[0]
    moves = "moves" if layout < 3 else "arena_moves(packed) AS moves"  # the move list's text in either layout
    df = pd.read_sql_query(f"SELECT game_id, series, seats, {moves} FROM games ORDER BY game_id", conn)
    key = [",".join(sorted(json.loads(s))) for s in df["seats"]]
    dup = pd.DataFrame({"s": df["series"], "k": key, "m": df["moves"]}).duplicated()
    return [int(g) for g in df.loc[dup, "game_id"]]


def old_replay(games: pd.DataFrame, env, labels, history):
    prior = (env.mu, env.sigma)
    ratings: dict[str, tuple[float, float]] = {}
    counts: dict[str, int] = {}
    margin = trueskill.calc_draw_margin(env.draw_probability, 2, env)
    for label in labels or []:
        ratings.setdefault(label, prior)
        counts.setdefault(label, 0)
    ordered = games.sort_values("game_id", kind="stable")
    for game_id, seats, ranks in zip(ordered["game_id"], ordered["seats"], ordered["ranks"]):
        for label in seats:
            ratings.setdefault(label, prior)
            counts.setdefault(label, 0)
        if len(seats) < 2:
            continue
        if len(seats) == 2 and seats[0] != seats[1]:
            result = 1.0 if ranks[0] < ranks[1] else 0.5 if ranks[0] == ranks[1] else 0.0
            updated = update_1vs1(ratings[seats[0]], ratings[seats[1]], result, env.beta, env.tau, margin)
        else:
            rated = env.rate([(env.create_rating(*ratings[label]),) for label in seats], ranks=[r - 1 for r in ranks])
            updated = [(r.mu, r.sigma) for (r,) in rated]
        for label, rating in zip(seats, updated):
            ratings[label] = rating
            counts[label] += 1
            if history is not None:
                history.append((game_id, label, rating[0], rating[1], rating[0] - 3 * rating[1], counts[label]))
    return ratings, counts


def old_rate_games(games: pd.DataFrame, env, labels) -> pd.DataFrame:
    ratings, counts = old_replay(games, env, labels, None)
    rows = [(label, mu, sigma, mu - 3 * sigma, counts[label]) for label, (mu, sigma) in ratings.items()]
    frame = pd.DataFrame(rows, columns=RATING_COLUMNS)
    frame["games"] = frame["games"].astype(int)
    return frame.sort_values(["conservative", "label"], ascending=[False, True], ignore_index=True)


def old_history(games: pd.DataFrame, env) -> pd.DataFrame:
    history: list[tuple] = []
    old_replay(games, env, None, history)
    return pd.DataFrame(history, columns=["game_id", *RATING_COLUMNS])


def old_search_stats(moves: pd.DataFrame, order) -> pd.DataFrame:
    own = moves[moves["label"].notna() & (moves["seat"] >= 0)]
    own = own.assign(nodes=pd.to_numeric(own["nodes"]), depth=pd.to_numeric(own["depth"]),
                     seconds=pd.to_numeric(own["seconds"]))
    table = own.groupby("label").agg(
        moves=("ply", "count"), mean_nodes=("nodes", "mean"), mean_depth=("depth", "mean"),
        mean_seconds=("seconds", "mean"), max_seconds=("seconds", "max"),
        total_nodes=("nodes", lambda c: c.sum(min_count=1)), total_seconds=("seconds", lambda c: c.sum(min_count=1)))
    seconds = table.pop("total_seconds")
    nodes = table.pop("total_nodes")
    table["nodes_per_second"] = (nodes / seconds.where(seconds > 0)).astype(float)
    table = table.reset_index()
    return table.sort_values("label", key=lambda col: col.map(_key(order)), ignore_index=True)


def old_tables(path) -> tuple[dict[str, pd.DataFrame], pd.DataFrame]:
    """Every table of the old path, and the old rating history, of the database at ``path``."""
    conn = store.connect_readonly(path)
    try:
        games = old_load_games(conn)
        moves = old_load_moves(conn)
        tournament = dict(store.load_tournament(conn))
        games["copy"] = games["game_id"].isin(old_load_copies(conn))
        sprt = store.load_sprt(conn)
        details = pd.read_sql_query("SELECT game_id, fault_detail FROM games WHERE fault_seat IS NOT NULL", conn)
        games = games.merge(details, on="game_id", how="left")
    finally:
        conn.close()
    data = render.ReportData(games, moves, tournament, sprt)
    env = make_env(tau=float((tournament.get("settings") or {}).get("tau", 0.0)))
    data.ratings = lambda: old_rate_games(games, env, data.order)  # the old TrueSkill replay of every game
    tables = old_build_tables(data)
    return tables, old_history(games, env)


def assert_same(new: pd.DataFrame, old: pd.DataFrame, name: str) -> None:
    """Same columns, rows and values (floats to 1e-9 relative: sums taken in another order)."""
    assert list(new.columns) == list(old.columns), name
    assert len(new) == len(old), name
    for col in old.columns:
        for a, b in zip(new[col].tolist(), old[col].tolist()):
            if isinstance(b, float) or isinstance(a, float):
                if (a is None or (isinstance(a, float) and math.isnan(a))) and (b is None or pd.isna(b)):
                    continue
                assert a == pytest_approx(b), f"{name}.{col}: {a} != {b}"
            else:
                assert a == b or (pd.isna(a) and pd.isna(b)), f"{name}.{col}: {a!r} != {b!r}"


def pytest_approx(value):
    import pytest

    return pytest.approx(value, rel=1e-9, abs=1e-12)


def old_pair_counts(games: pd.DataFrame) -> dict[tuple[str, str], list[int]]:
    counts: dict[tuple[str, str], list[int]] = {}
    for seats, ranks in zip(games["seats"], games["ranks"]):
        for la, ra in zip(seats, ranks):
            for lb, rb in zip(seats, ranks):
                if la != lb:
                    c = counts.setdefault((la, lb), [0, 0, 0])
                    c[0 if ra < rb else 1 if ra == rb else 2] += 1
    return counts
