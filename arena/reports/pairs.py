"""Per-pairing tables of 2-player tournaments as engine testers read them, and the
pair-aware (series-clustered) seat statistics (``docs/statistics.md`` "Two-player results:
pairs (pentanomial)", "Seat and first-move advantage").

Inputs are the store's games frame (``arena.store.load_games``), optionally with a boolean
``copy`` column (``arena.aggregates.load_copies``: games repeating an earlier game of their
series). The pair is the series: the two games of one start with the seats swapped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from arena.reports.coded import codes, matrix, seat_sizes, weights
from arena.stats import bt
from arena.stats.elo import match_stats
from arena.stats.intervals import clipped, cluster_mean
from arena.stats.significance import holm, match_significance

#: the range of a share or a score: intervals are clipped to it (``cluster_mean``'s ``bounds``)
SHARE = (0.0, 1.0)

PAIR_COLUMNS = ["pairing", "bot", "opponent", "games", "wins", "draws", "losses", "score", "draw_ratio",
                "pairs", "leftover", "LL", "LD", "DD_WL", "WD", "WW", "elo", "elo_error", "elo_low", "elo_high",
                "nelo", "nelo_error", "los", "p_value", "p_method", "p_holm"]


def _two_player(games: pd.DataFrame, order: Sequence[str] | None) -> pd.DataFrame:
    """One row per 2-player game: ``game_id``, ``series``, ``a``/``b`` (the pairing's labels
    in field order), ``pts`` (a's points), ``seat0_pts``, ``first`` (a in seat 0), ``copy``,
    ``seat0``, ``seat1``, and the integer codes ``pair`` (of ``a``/``b``) and ``cell`` (of the
    seat list), computed per distinct seat and rank list (``coded.codes``)."""
    columns = ["game_id", "series", "a", "b", "pts", "seat0_pts", "first", "copy", "seat0", "seat1", "pair", "cell"]
    two = games[seat_sizes(games) == 2]
    rank = {lab: i for i, lab in enumerate(order or ())}
    if two.empty:
        return pd.DataFrame(columns=columns)
    sc, sv = codes(two, "seats")
    rc, rv = codes(two, "ranks")
    seats = matrix(sv, 2, object)
    ranks = matrix(rv, 2, float)
    seat0 = np.where(ranks[:, 0] < ranks[:, 1], 1.0, np.where(ranks[:, 0] == ranks[:, 1], 0.5, 0.0))[rc]
    labels = sorted(set(seats.ravel()), key=lambda lab: (rank.get(lab, len(rank)), lab))
    pos = pd.Series(range(len(labels)), index=labels)
    first_by = pos.reindex(seats[:, 0]).to_numpy() <= pos.reindex(seats[:, 1]).to_numpy()
    a_by = np.where(first_by, seats[:, 0], seats[:, 1])
    b_by = np.where(first_by, seats[:, 1], seats[:, 0])
    pairs = {p: i for i, p in enumerate(dict.fromkeys(zip(a_by, b_by)))}
    pair_by = np.array([pairs[p] for p in zip(a_by, b_by)], dtype=np.int64)
    first = first_by[sc]
    copy = two["copy"].to_numpy(bool) if "copy" in two else np.zeros(len(two), bool)
    return pd.DataFrame({"game_id": two["game_id"].to_numpy(), "series": two["series"].to_numpy(), "a": a_by[sc],
                         "b": b_by[sc], "pts": np.where(first, seat0, 1 - seat0), "seat0_pts": seat0, "first": first,
                         "copy": copy, "seat0": seats[sc, 0], "seat1": seats[sc, 1], "pair": pair_by[sc], "cell": sc})


def pair_table(games: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per pairing of a 2-player tournament, from the first bot's side (field order):
    n, W-D-L, score (fraction), draw ratio, complete ``pairs`` and ``leftover`` games,
    pentanomial counts ``LL, LD, DD_WL, WD, WW``, Elo with its ± half-width and 95% interval,
    nElo with its ± half-width (fastchess), LOS (fraction) and the two-sided p-value of "equal
    strength" with ``p_method`` (``normal``: ``2·min(LOS, 1 − LOS)``; ``sign``: the exact sign
    test where the normal approximation fails, ``arena.stats.significance.match_significance``)
    and its Holm-adjusted value across the pairings (``arena.stats.significance.holm``). The
    games of a pairing are paired by series (numpy over integer columns)."""
    g = _two_player(games, order)
    if g.empty:
        return pd.DataFrame(columns=PAIR_COLUMNS)
    rows = []
    for _, sub in g.groupby("pair", sort=False):
        a, b = sub["a"].iloc[0], sub["b"].iloc[0]
        _, slot, size = np.unique(sub["series"].to_numpy(), return_inverse=True, return_counts=True)
        in_pair = size[slot.ravel()] == 2
        totals = np.bincount(slot.ravel(), weights=sub["pts"].to_numpy())
        penta = np.bincount(np.rint(2 * totals[size == 2]).astype(int), minlength=5)
        single = np.bincount(np.rint(2 * sub["pts"].to_numpy()[~in_pair]).astype(int), minlength=3)
        pts = sub["pts"].to_numpy()
        wdl = [int((pts == 1).sum()), int((pts == 0.5).sum()), int((pts == 0).sum())]
        st = match_stats(penta[:5].tolist(), single[:3].tolist(), wdl)
        sig = match_significance(penta[:5].tolist(), single[:3].tolist(), st.los, st.sigma > 0)
        rows.append({"pairing": f"{a} vs {b}", "bot": a, "opponent": b, **st.as_row(), "los": sig.los,
                     "p_value": sig.p_value, "p_method": sig.method})
    table = pd.DataFrame(rows)
    rank = {lab: i for i, lab in enumerate(order or ())}
    table = table.sort_values(["bot", "opponent"], key=lambda c: c.map(lambda x: (rank.get(x, len(rank)), x)),
                              ignore_index=True)
    table["p_holm"] = holm(table["p_value"].tolist())
    return table[PAIR_COLUMNS]


def first_move_extras(games: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """Pair-aware seat-0 figures of a 2-player tournament, one row for all games then one per
    pairing (``scope``), over distinct games (copies dropped): ``score``, ``score_low``,
    ``score_high`` (seat 0's mean points, series-clustered 95% interval,
    ``arena.stats.intervals.cluster_mean``), ``share_low``, ``share_high`` (the same for the
    decisive-game win share), and the Bradley–Terry first-move term ``first_elo``,
    ``first_low``, ``first_high`` (Elo points, ``arena.stats.bt``)."""
    g = _two_player(games, order)
    g = g[~g["copy"].astype(bool)]
    if g.empty:
        return pd.DataFrame(columns=["scope", "score", "score_low", "score_high", "share_low", "share_high",
                                     "first_elo", "first_low", "first_high"])
    scopes = [(None, g)] + [(f"{sub['a'].iloc[0]} vs {sub['b'].iloc[0]}", sub)
                            for _, sub in g.groupby("pair", sort=False)]
    rows = []
    for scope, sub in scopes:
        series = sub["series"].to_numpy(np.int64)
        cluster = sub["pair"].to_numpy(np.int64) * (int(series.max()) - int(series.min()) + 1) + series - series.min()
        score, lo, hi, _ = cluster_mean(sub["seat0_pts"].to_numpy(), cluster, bounds=SHARE)
        dec = (sub["seat0_pts"] != 0.5).to_numpy()
        _, slo, shi, _ = cluster_mean((sub["seat0_pts"].to_numpy() == 1)[dec], cluster[dec],
                                      bounds=SHARE)
        per = sub.groupby("cell").agg(n=("seat0_pts", "size"), points=("seat0_pts", "sum"),
                                      seat0=("seat0", "first"), seat1=("seat1", "first"))
        cells = per.sort_values(["seat0", "seat1"])[["seat0", "seat1", "n", "points"]].reset_index(drop=True)
        fitted = bt.fit_cells(cells, order)
        rows.append({"scope": scope, "score": score, "score_low": lo, "score_high": hi, "share_low": slo,
                     "share_high": shi, "first_elo": fitted.first_move, "first_low": fitted.first_low,
                     "first_high": fitted.first_high})
    return pd.DataFrame(rows)


def seat_intervals(games: pd.DataFrame) -> pd.DataFrame:
    """k-player seat win shares (a shared first place split equally) over distinct games, each
    with a 95% interval clustered by series (``arena.stats.intervals.cluster_mean``): ``seat``,
    ``games``, ``win_share``, ``ci_low``, ``ci_high``, and the two-sided z-test p-value of
    share = 1/k with its Holm-adjusted value across the seats."""
    distinct = games[~games["copy"]] if "copy" in games else games
    sizes = seat_sizes(distinct)
    if not (sizes >= 2).any():
        return pd.DataFrame(columns=["seat", "games", "win_share", "ci_low", "ci_high", "p_value", "p_holm"])
    k = int(pd.Series(sizes[sizes >= 2]).mode().iloc[0])
    sub = distinct[sizes == k]
    rc, rv = codes(sub, "ranks")
    ranks = matrix(rv, k, float)[rc]
    firsts = (ranks == 1) / (ranks == 1).sum(axis=1, keepdims=True)
    sc, sv = codes(sub, "seats")
    field = {key: i for i, key in enumerate(dict.fromkeys(",".join(sorted(v)) for v in sv))}
    series = sub["series"].to_numpy(np.int64)
    cluster = (np.array([field[",".join(sorted(v))] for v in sv], dtype=np.int64)[sc]
               * (int(series.max()) - int(series.min()) + 1) + series - series.min())
    rows = []
    for seat in range(k):
        m, lo, hi, _ = cluster_mean(firsts[:, seat], cluster)
        se = (hi - lo) / (2 * stats.norm.ppf(0.975))  # from the interval before it is clipped
        lo, hi = clipped(lo, hi, SHARE)
        p = float(2 * stats.norm.sf(abs(m - 1 / k) / se)) if se > 0 else math.nan
        rows.append({"seat": seat, "games": len(sub), "win_share": m, "ci_low": lo, "ci_high": hi, "p_value": p})
    table = pd.DataFrame(rows)
    table["p_holm"] = holm(table["p_value"].tolist())
    return table


def bt_cells(games: pd.DataFrame) -> pd.DataFrame:
    """Aggregated 2-player games: one row per (``seat0``, ``seat1``) labels with ``n`` games
    and ``points`` of seat 0 (win 1, draw ½). Rows with an ``n`` column (``coded.grouped``)
    count ``n`` games each."""
    sizes = seat_sizes(games)
    two = games[sizes == 2]
    if two.empty:
        return pd.DataFrame(columns=["seat0", "seat1", "n", "points"])
    sc, sv = codes(two, "seats")
    rc, rv = codes(two, "ranks")
    ranks = matrix(rv, 2, float)[rc]
    pts = np.where(ranks[:, 0] < ranks[:, 1], 1.0, np.where(ranks[:, 0] == ranks[:, 1], 0.5, 0.0))
    seats = matrix(sv, 2, object)[sc]
    n = weights(two)
    frame = pd.DataFrame({"seat0": seats[:, 0], "seat1": seats[:, 1], "n": n, "points": pts * n})
    return frame.groupby(["seat0", "seat1"], sort=True)[["n", "points"]].sum().reset_index()


def bt_fit(games: pd.DataFrame, order: Sequence[str] | None = None) -> bt.BTFit:
    """The Bradley–Terry fit of the 2-player ``games`` (store frame: ``seats``, ``ranks``).

    Returns NaN figures (``converged`` False) without games or when a rating diverges.
    """
    return bt.fit_cells(bt_cells(games), order)
