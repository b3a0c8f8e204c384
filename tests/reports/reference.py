"""Small independent computations the report's faster paths are checked against: the games
frame and the copies of a duplicate series read by plain SQL and JSON, a TrueSkill replay of
every game with the ``trueskill`` package's own ``rate``, the pair counts of a plain loop, and
the comparison of two frames (``assert_same``). The report's tables themselves are checked
against known values (``tests.reports.golden_tables``)."""

from __future__ import annotations

import json
import math
import sqlite3

import numpy as np
import pandas as pd
import trueskill

from arena.results.ratings import RATING_COLUMNS, update_1vs1


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


def old_history(games: pd.DataFrame, env) -> pd.DataFrame:
    history: list[tuple] = []
    old_replay(games, env, None, history)
    return pd.DataFrame(history, columns=["game_id", *RATING_COLUMNS])


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
