"""``arena.reports.pairs`` as it was before issue 14 (the reference of
``tests/reports/reference.py``), with the one change of definition since: intervals of a
share or score clipped to [0, 1] (``docs/statistics.md`` "Presentation").

Per-pairing tables of 2-player tournaments as engine testers read them, and the
pair-aware (series-clustered) seat statistics (``docs/statistics.md`` "Two-player results:
pairs (pentanomial)", "Seat and first-move advantage").

Inputs are the store's games frame (``arena.results.store.load_games``), optionally with a boolean
``copy`` column (``arena.results.store.load_copies``: games repeating an earlier game of their
series). The pair is the series: the two games of one start with the seats swapped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from arena.stats import bt
from arena.stats.elo import match_stats
from arena.stats.intervals import cluster_mean
from arena.stats.significance import holm

PAIR_COLUMNS = ["pairing", "bot", "opponent", "games", "wins", "draws", "losses", "score", "draw_ratio",
                "pairs", "leftover", "LL", "LD", "DD_WL", "WD", "WW", "elo", "elo_error", "elo_low", "elo_high",
                "nelo", "los", "p_value", "p_holm"]


def _two_player(games: pd.DataFrame, order: Sequence[str] | None) -> pd.DataFrame:
    """One row per 2-player game: ``game_id``, ``series``, ``a``/``b`` (the pairing's labels
    in field order), ``pts`` (a's points), ``seat0_pts``, ``first`` (a in seat 0), ``copy``."""
    two = games[games["seats"].map(len) == 2]
    rank = {lab: i for i, lab in enumerate(order or ())}
    if two.empty:
        return pd.DataFrame(columns=["game_id", "series", "a", "b", "pts", "seat0_pts", "first", "copy", "seat0",
                                     "seat1"])
    seats = np.array(two["seats"].tolist(), dtype=object)
    ranks = np.array(two["ranks"].tolist(), dtype=float)
    seat0 = np.where(ranks[:, 0] < ranks[:, 1], 1.0, np.where(ranks[:, 0] == ranks[:, 1], 0.5, 0.0))
    labels = sorted(set(seats.ravel()), key=lambda lab: (rank.get(lab, len(rank)), lab))
    pos = pd.Series(range(len(labels)), index=labels)
    first = pos.reindex(seats[:, 0]).to_numpy() <= pos.reindex(seats[:, 1]).to_numpy()
    a = np.where(first, seats[:, 0], seats[:, 1])
    b = np.where(first, seats[:, 1], seats[:, 0])
    copy = two["copy"].to_numpy(bool) if "copy" in two else np.zeros(len(two), bool)
    return pd.DataFrame({"game_id": two["game_id"].to_numpy(), "series": two["series"].to_numpy(), "a": a, "b": b,
                         "pts": np.where(first, seat0, 1 - seat0), "seat0_pts": seat0, "first": first, "copy": copy,
                         "seat0": seats[:, 0], "seat1": seats[:, 1]})


def pair_table(games: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per pairing of a 2-player tournament, from the first bot's side (field order):
    n, W-D-L, score (fraction), draw ratio, complete ``pairs`` and ``leftover`` games,
    pentanomial counts ``LL, LD, DD_WL, WD, WW``, Elo with its ± half-width and 95% interval,
    nElo, LOS (fraction) and the two-sided p-value of "equal strength" ``2·min(LOS, 1 − LOS)``
    with its Holm-adjusted value across the pairings (``arena.reports.elo``)."""
    g = _two_player(games, order)
    if g.empty:
        return pd.DataFrame(columns=PAIR_COLUMNS)
    rows = []
    for (a, b), sub in g.groupby(["a", "b"], sort=False):
        per = sub.groupby("series")["pts"].agg(["size", "sum"])
        pairs = per[per["size"] == 2]
        penta = np.bincount(np.rint(2 * pairs["sum"]).astype(int), minlength=5)
        singles = sub[sub["series"].isin(per.index[per["size"] != 2])]
        single = np.bincount(np.rint(2 * singles["pts"]).astype(int), minlength=3)
        wdl = [int((sub["pts"] == 1).sum()), int((sub["pts"] == 0.5).sum()), int((sub["pts"] == 0).sum())]
        st = match_stats(penta[:5], single[:3], wdl)
        p = 2 * min(st.los, 1 - st.los) if st.los == st.los else math.nan
        rows.append({"pairing": f"{a} vs {b}", "bot": a, "opponent": b, **st.as_row(), "p_value": p})
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
    ``arena.reports.elo.cluster_mean``), ``share_low``, ``share_high`` (the same for the
    decisive-game win share), and the Bradley–Terry first-move term ``first_elo``,
    ``first_low``, ``first_high`` (Elo points, ``arena.reports.bt``)."""
    g = _two_player(games, order)
    g = g[~g["copy"].astype(bool)]
    if g.empty:
        return pd.DataFrame(columns=["scope", "score", "score_low", "score_high", "share_low", "share_high",
                                     "first_elo", "first_low", "first_high"])
    scopes = [(None, g)] + [(f"{a} vs {b}", sub) for (a, b), sub in g.groupby(["a", "b"], sort=False)]
    rows = []
    for scope, sub in scopes:
        cluster = sub.groupby(["a", "b", "series"], sort=False).ngroup().to_numpy()
        score, lo, hi, _ = cluster_mean(sub["seat0_pts"].to_numpy(), cluster, bounds=(0.0, 1.0))
        dec = (sub["seat0_pts"] != 0.5).to_numpy()
        _, slo, shi, _ = cluster_mean((sub["seat0_pts"].to_numpy() == 1)[dec], cluster[dec],
                                      bounds=(0.0, 1.0))
        cells = sub.groupby(["seat0", "seat1"]).agg(n=("seat0_pts", "size"), points=("seat0_pts", "sum")).reset_index()
        fitted = bt.fit_cells(cells, order)
        rows.append({"scope": scope, "score": score, "score_low": lo, "score_high": hi, "share_low": slo,
                     "share_high": shi, "first_elo": fitted.first_move, "first_low": fitted.first_low,
                     "first_high": fitted.first_high})
    return pd.DataFrame(rows)


def seat_intervals(games: pd.DataFrame) -> pd.DataFrame:
    """k-player seat win shares (a shared first place split equally) over distinct games, each
    with a 95% interval clustered by series (``arena.reports.elo.cluster_mean``): ``seat``,
    ``games``, ``win_share``, ``ci_low``, ``ci_high``, and the two-sided z-test p-value of
    share = 1/k with its Holm-adjusted value across the seats."""
    distinct = games[~games["copy"]] if "copy" in games else games
    sizes = distinct["seats"].map(len)
    if sizes[sizes >= 2].empty:
        return pd.DataFrame(columns=["seat", "games", "win_share", "ci_low", "ci_high", "p_value", "p_holm"])
    k = int(sizes[sizes >= 2].mode().iloc[0])
    sub = distinct[sizes == k]
    ranks = np.array(sub["ranks"].tolist(), dtype=float)
    firsts = (ranks == 1) / (ranks == 1).sum(axis=1, keepdims=True)
    cluster = sub["seats"].map(lambda s: ",".join(sorted(s))) + "\t" + sub["series"].astype(str)
    rows = []
    for seat in range(k):
        m, lo, hi, c = cluster_mean(firsts[:, seat], cluster.to_numpy())
        se = (hi - lo) / (2 * stats.norm.ppf(0.975))
        if math.isnan(lo) and m in (0.0, 1.0) and c >= 1:  # no spread: Wilson over the series
            lo, hi = stats.binomtest(int(m) * c, c).proportion_ci(method="wilson")
        lo, hi = max(lo, 0.0), min(hi, 1.0)
        p = float(2 * stats.norm.sf(abs(m - 1 / k) / se)) if se > 0 else math.nan
        rows.append({"seat": seat, "games": len(sub), "win_share": m, "ci_low": lo, "ci_high": hi, "p_value": p})
    table = pd.DataFrame(rows)
    table["p_holm"] = holm(table["p_value"].tolist())
    return table
