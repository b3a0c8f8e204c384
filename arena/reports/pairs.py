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
from arena.stats.intervals import clipped, cluster_mean, cluster_means
from arena.stats.significance import holm

#: the range of a share or a score: intervals are clipped to it (``cluster_mean``'s ``bounds``)
SHARE = (0.0, 1.0)

PAIR_COLUMNS = ["pairing", "bot", "opponent", "games", "wins", "draws", "losses", "score", "draw_ratio",
                "pairs", "leftover", "LL", "LD", "DD_WL", "WD", "WW", "elo", "elo_error", "elo_low", "elo_high",
                "nelo", "los", "p_value", "p_holm"]


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
    nElo, LOS (fraction) and the two-sided p-value of "equal strength" ``2·min(LOS, 1 − LOS)``
    with its Holm-adjusted value across the pairings (``arena.stats.significance.holm``). The games of a
    pairing are paired by series; the counts of every pairing come of one pass of numpy
    over integer columns, then ``match_stats`` per pairing."""
    g = _two_player(games, order)
    if g.empty:
        return pd.DataFrame(columns=PAIR_COLUMNS)
    pair = g["pair"].to_numpy(np.int64)
    pts = g["pts"].to_numpy(float)
    codes_, first = _in_order(pair)  # pairings in order of their first game
    count = len(first)
    slot, size, cluster_pair = _series_slots(codes_, g["series"].to_numpy(np.int64))
    in_pair = size[slot] == 2
    totals = np.bincount(slot, weights=pts)
    complete = size == 2
    penta = _counts(cluster_pair[complete], np.rint(2 * totals[complete]).astype(np.int64), 5, count)
    single = _counts(codes_[~in_pair], np.rint(2 * pts[~in_pair]).astype(np.int64), 3, count)
    wdl = _counts(codes_, np.where(pts == 1, 0, np.where(pts == 0.5, 1, np.where(pts == 0, 2, 3))), 4, count)
    a, b = g["a"].to_numpy()[first], g["b"].to_numpy()[first]
    rows = []
    for i in range(count):
        st = match_stats(penta[i].tolist(), single[i].tolist(), wdl[i, :3].tolist())
        p = 2 * min(st.los, 1 - st.los) if st.los == st.los else math.nan
        rows.append({"pairing": f"{a[i]} vs {b[i]}", "bot": a[i], "opponent": b[i], **st.as_row(), "p_value": p})
    table = pd.DataFrame(rows)
    rank = {lab: i for i, lab in enumerate(order or ())}
    table = table.sort_values(["bot", "opponent"], key=lambda c: c.map(lambda x: (rank.get(x, len(rank)), x)),
                              ignore_index=True)
    table["p_holm"] = holm(table["p_value"].tolist())
    return table[PAIR_COLUMNS]


def _in_order(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(new codes, first)``: ``codes`` renumbered 0.. in order of first appearance, and the
    row of each new code's first appearance."""
    renumbered, _ = pd.factorize(codes)
    return renumbered.astype(np.int64), np.unique(renumbered, return_index=True)[1]


def _series_slots(group: np.ndarray, series: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each game's (group, series) cluster: ``(slot per game, games per cluster, group per
    cluster)``; a cluster of two games of a 2-player pairing is a game pair."""
    lo = int(series.min())
    key = group * (int(series.max()) - lo + 1) + (series - lo)
    _, index, slot, size = np.unique(key, return_index=True, return_inverse=True, return_counts=True)
    return slot.ravel(), size, group[index]


def _counts(group: np.ndarray, category: np.ndarray, width: int, groups: int) -> np.ndarray:
    """``(groups, width)`` int array: how often each category ``0..width-1`` occurs per group."""
    flat = np.bincount(group * width + category, minlength=groups * width)
    return flat[: groups * width].reshape(groups, width)


#: columns of ``first_move_extras``
EXTRA_COLUMNS = ["scope", "score", "score_low", "score_high", "share_low", "share_high", "first_elo", "first_low",
                 "first_high"]


def first_move_extras(games: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """Pair-aware seat-0 figures of a 2-player tournament, one row for all games then one per
    pairing (``scope``), over distinct games (copies dropped): ``score``, ``score_low``,
    ``score_high`` (seat 0's mean points, series-clustered 95% interval,
    ``arena.stats.intervals.cluster_means``), ``share_low``, ``share_high`` (the same for the
    decisive-game win share), and the Bradley–Terry first-move term ``first_elo``,
    ``first_low``, ``first_high`` (Elo points, ``arena.stats.bt``: the joint fit of every
    game for the whole field, each pairing's own fit in closed form for its row,
    ``bt.pairing_first_moves``). Each column is computed for every pairing at once."""
    g = _two_player(games, order)
    g = g[~g["copy"].astype(bool)]
    if g.empty:
        return pd.DataFrame(columns=EXTRA_COLUMNS)
    pair, first = _in_order(g["pair"].to_numpy(np.int64))  # pairings in order of their first game
    count = len(first)
    series = g["series"].to_numpy(np.int64)
    seat0 = g["seat0_pts"].to_numpy(float)
    decisive = seat0 != 0.5
    # scope 0 is every game (clusters: pairing and series), scope 1 + i the i-th pairing
    scope = np.concatenate([np.zeros(len(g), np.int64), pair + 1])
    cluster = np.concatenate([pair * (int(series.max()) - int(series.min()) + 1) + series, series])
    score, lo, hi, _ = cluster_means(np.concatenate([seat0, seat0]), scope, cluster, bounds=SHARE,
                                     groups_count=count + 1)
    both = np.concatenate([decisive, decisive])
    _, slo, shi, _ = cluster_means((np.concatenate([seat0, seat0]) == 1)[both], scope[both], cluster[both],
                                   bounds=SHARE, groups_count=count + 1)
    cell = g["cell"].to_numpy(np.int64)
    cell_n = np.bincount(cell)
    cell_points = np.bincount(cell, seat0)
    used = np.flatnonzero(cell_n)
    first_of = np.unique(cell, return_index=True)[1]
    labels = pd.DataFrame({"seat0": g["seat0"].to_numpy()[first_of], "seat1": g["seat1"].to_numpy()[first_of],
                           "n": cell_n[used], "points": cell_points[used]})
    fitted = bt.fit_cells(labels.sort_values(["seat0", "seat1"]).reset_index(drop=True), order)
    # each pairing's cells: its first bot in seat 0 (``first``), then its second bot
    a_first = g["first"].to_numpy(bool)
    n1 = np.bincount(pair[a_first], minlength=count)
    s1 = np.bincount(pair[a_first], seat0[a_first], minlength=count)
    n2 = np.bincount(pair[~a_first], minlength=count)
    s2 = np.bincount(pair[~a_first], seat0[~a_first], minlength=count)
    f, f_lo, f_hi = bt.pairing_first_moves(n1, s1, n2, s2)
    names = [f"{a} vs {b}" for a, b in zip(g["a"].to_numpy()[first], g["b"].to_numpy()[first])]
    return pd.DataFrame({"scope": [None, *names], "score": score, "score_low": lo, "score_high": hi,
                         "share_low": slo, "share_high": shi,
                         "first_elo": np.concatenate([[fitted.first_move], f]),
                         "first_low": np.concatenate([[fitted.first_low], f_lo]),
                         "first_high": np.concatenate([[fitted.first_high], f_hi])})


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
