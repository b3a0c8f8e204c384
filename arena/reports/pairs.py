"""Per-pairing tables of 2-player tournaments as engine testers read them, and the
pair-aware (series-clustered) seat statistics (``docs/statistics.md`` "Two-player results:
pairs (pentanomial)", "Seat and first-move advantage").

Inputs are the store's games frame (``arena.results.store.load_games``), optionally with a boolean
``copy`` column (``arena.results.aggregates.load_copies``: games repeating an earlier game of their
series). The pair is the series: the two games of one start with the seats swapped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from arena.columns import Columns
from arena.reports.coded import codes, matrix, seat_sizes, weights
from arena.reports.display import format_p
from arena.stats import bt
from arena.stats.elo import match_stats
from arena.stats.intervals import clipped, cluster_mean, cluster_means, wilson_interval
from arena.stats.significance import holm, match_significances

#: the range of a share or a score: intervals are clipped to it (``cluster_mean``'s ``bounds``)
SHARE = (0.0, 1.0)

PAIR_COLUMNS = ["pairing", "bot", "opponent", "games", "wins", "losses", "draws", "score", "draw_ratio",
                "pairs", "leftover", "LL", "LD", "DD_WL", "WD", "WW", "elo", "elo_error", "elo_low", "elo_high",
                "nelo", "nelo_error", "los", "p_value", "p_method", "p_holm"]


@dataclass(frozen=True)
class TwoPlayer(Columns):
    """The 2-player games of a frame as integer and float columns, one entry per game:
    ``series``, ``pts`` (a's points), ``seat0_pts``, ``first`` (a in seat 0), ``copy``, the
    codes ``pair`` (of the pairing ``a``/``b``, 0.. dense) and ``cell`` (of the seat list);
    and per cell code the labels ``seat0``, ``seat1``, ``a``, ``b`` (the pairing's labels in
    field order) and its ``pair`` code (``cell_pair``): labels are looked up per distinct seat
    list, never held per game."""

    series: np.ndarray
    pts: np.ndarray
    seat0_pts: np.ndarray
    first: np.ndarray
    copy: np.ndarray
    pair: np.ndarray
    cell: np.ndarray
    seat0: np.ndarray
    seat1: np.ndarray
    a: np.ndarray
    b: np.ndarray
    cell_pair: np.ndarray

    def distinct(self) -> TwoPlayer:
        """The games that are not copies (``copy`` False)."""
        return self.part(~self.copy, ("series", "pts", "seat0_pts", "first", "copy", "pair", "cell"))


def _two_player(games: pd.DataFrame, order: Sequence[str] | None) -> TwoPlayer:
    """The 2-player games of ``games`` (``TwoPlayer``), computed per distinct seat and rank
    list (``coded.codes``)."""
    two = games[seat_sizes(games) == 2]
    rank = {lab: i for i, lab in enumerate(order or ())}
    if two.empty:
        none, blank = np.zeros(0, np.int64), np.zeros(0, object)
        return TwoPlayer(none, none.astype(float), none.astype(float), none.astype(bool), none.astype(bool), none,
                         none, blank, blank, blank, blank, none)
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
    return TwoPlayer(two["series"].to_numpy(np.int64), np.where(first, seat0, 1 - seat0), seat0, first, copy,
                     pair_by[sc], sc, seats[:, 0], seats[:, 1], a_by, b_by, pair_by)


def pair_table(games: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per pairing of a 2-player tournament, from the first bot's side (field order):
    n, W-L-D, score (fraction), draw ratio, complete ``pairs`` and ``leftover`` games,
    pentanomial counts ``LL, LD, DD_WL, WD, WW``, Elo with its ± half-width and 95% interval,
    nElo with its ± half-width (fastchess), LOS (fraction) and the two-sided p-value of "equal
    strength" with ``p_method`` (``normal``: ``2·min(LOS, 1 − LOS)``; ``sign``: the exact sign
    test where the normal approximation fails, ``arena.stats.significance.match_significance``)
    and its Holm-adjusted value across the pairings (``arena.stats.significance.holm``). The
    games of a pairing are paired by series; the counts of every pairing come of one pass of
    numpy over integer columns, then ``match_stats`` per pairing."""
    g = _two_player(games, order)
    if not len(g):
        return pd.DataFrame(columns=PAIR_COLUMNS)
    pair, pts = g.pair, g.pts  # pair codes 0.. (every code has games); the table is sorted below
    count = int(pair.max()) + 1
    cells = np.zeros(count, np.int64)
    cells[g.cell_pair] = np.arange(len(g.cell_pair))  # a seat list of each pairing (any: they share a and b)
    slot, size, cluster_pair = _series_slots(pair, g.series)
    in_pair = size[slot] == 2
    totals = np.bincount(slot, weights=pts)
    complete = size == 2
    penta = _counts(cluster_pair[complete], np.rint(2 * totals[complete]).astype(np.int64), 5, count)
    single = _counts(pair[~in_pair], np.rint(2 * pts[~in_pair]).astype(np.int64), 3, count)
    wdl = np.stack([np.bincount(pair, pts == x, minlength=count) for x in (1.0, 0.5, 0.0)], axis=1).astype(np.int64)
    a, b = g.a[cells], g.b[cells]
    rows = []
    for i in range(count):
        st = match_stats(penta[i].tolist(), single[i].tolist(), wdl[i].tolist())
        rows.append({"pairing": f"{a[i]} vs {b[i]}", "bot": a[i], "opponent": b[i], **st.as_row()})
    table = pd.DataFrame(rows)
    # every pairing's LOS and p at once (``match_significance``, row by row, gives the same numbers)
    table["los"], table["p_value"], table["p_method"] = match_significances(penta, single, table["z"])
    rank = {lab: i for i, lab in enumerate(order or ())}
    table = table.sort_values(["bot", "opponent"], key=lambda c: c.map(lambda x: (rank.get(x, len(rank)), x)),
                              ignore_index=True)
    table["p_holm"] = holm(table["p_value"].tolist())
    return table[PAIR_COLUMNS]


def _in_order(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(new codes, first)``: ``codes`` renumbered 0.. in order of first appearance, and the
    row of each new code's first appearance."""
    renumbered, _ = pd.factorize(codes)
    return renumbered.astype(np.int64), pd.Series(renumbered).drop_duplicates().index.to_numpy()


def _series_slots(group: np.ndarray, series: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each game's (group, series) cluster: ``(slot per game, games per cluster, group per
    cluster)``; a cluster of two games of a 2-player pairing is a game pair."""
    lo = int(series.min())
    span = int(series.max()) - lo + 1
    slot, keys = pd.factorize(group * span + (series - lo))
    return slot.astype(np.int64), np.bincount(slot), keys // span


def _counts(group: np.ndarray, category: np.ndarray, width: int, groups: int) -> np.ndarray:
    """``(groups, width)`` int array: how often each category ``0..width-1`` occurs per group."""
    flat = np.bincount(group * width + category, minlength=groups * width)
    return flat[: groups * width].reshape(groups, width)


#: columns of ``first_move_extras``
EXTRA_COLUMNS = ["scope", "score", "score_low", "score_high", "share_low", "share_high", "first_elo", "first_low",
                 "first_high"]


def first_move_extras(games: pd.DataFrame, order: Sequence[str] | None = None,
                      whole: bt.BTFit | None = None) -> pd.DataFrame:
    """Pair-aware seat-0 figures of a 2-player tournament, one row for all games then one per
    pairing (``scope``), over distinct games (copies dropped): ``score``, ``score_low``,
    ``score_high`` (seat 0's mean points, series-clustered 95% interval,
    ``arena.stats.intervals.cluster_means``), ``share_low``, ``share_high`` (the same for the
    decisive-game win share), and the Bradley–Terry first-move term ``first_elo``,
    ``first_low``, ``first_high`` (Elo points, ``arena.stats.bt``: the joint fit of every
    game for the whole field, each pairing's own fit in closed form for its row,
    ``bt.pairing_first_moves``). Each column is computed for every pairing at once.
    ``whole``: the fit of the distinct games when the caller has it (``bt_fit`` of games
    without copies), else fitted here."""
    g = _two_player(games, order).distinct()
    if not len(g):
        return pd.DataFrame(columns=EXTRA_COLUMNS)
    pair, first = _in_order(g.pair)  # pairings in order of their first game
    count = len(first)
    series, seat0 = g.series, g.seat0_pts
    decisive = seat0 != 0.5
    won = seat0 == 1
    # the whole game (clusters: pairing and series), then each pairing (clusters: series)
    every = pair * (int(series.max()) - int(series.min()) + 1) + series
    one = np.zeros(len(g), np.int64)
    parts = [cluster_means(seat0, one, every, bounds=SHARE, groups_count=1),
             cluster_means(seat0, pair, series, bounds=SHARE, groups_count=count)]
    score, lo, hi = (np.concatenate([parts[0][i], parts[1][i]]) for i in range(3))
    parts = [cluster_means(won[decisive], one[decisive], every[decisive], bounds=SHARE, groups_count=1),
             cluster_means(won[decisive], pair[decisive], series[decisive], bounds=SHARE, groups_count=count)]
    slo, shi = (np.concatenate([parts[0][i], parts[1][i]]) for i in (1, 2))
    fitted = whole if whole is not None else _distinct_fit(g, order)
    # each pairing's cells: its first bot in seat 0 (``first``), then its second bot
    a_first = g.first
    n1 = np.bincount(pair[a_first], minlength=count)
    s1 = np.bincount(pair[a_first], seat0[a_first], minlength=count)
    n2 = np.bincount(pair[~a_first], minlength=count)
    s2 = np.bincount(pair[~a_first], seat0[~a_first], minlength=count)
    f, f_lo, f_hi = bt.pairing_first_moves(n1, s1, n2, s2)
    names = [f"{a} vs {b}" for a, b in zip(g.a[g.cell[first]], g.b[g.cell[first]])]
    return pd.DataFrame({"scope": [None, *names], "score": score, "score_low": lo, "score_high": hi,
                         "share_low": slo, "share_high": shi,
                         "first_elo": np.concatenate([[fitted.first_move], f]),
                         "first_low": np.concatenate([[fitted.first_low], f_lo]),
                         "first_high": np.concatenate([[fitted.first_high], f_hi])})


def _distinct_fit(g: TwoPlayer, order: Sequence[str] | None) -> bt.BTFit:
    """The Bradley–Terry fit of the games ``g`` (``bt.fit_cells`` of their cells)."""
    n = np.bincount(g.cell, minlength=len(g.seat0))
    points = np.bincount(g.cell, g.seat0_pts, minlength=len(g.seat0))
    used = np.flatnonzero(n)
    cells = pd.DataFrame({"seat0": g.seat0[used], "seat1": g.seat1[used], "n": n[used], "points": points[used]})
    return bt.fit_cells(cells.sort_values(["seat0", "seat1"]).reset_index(drop=True), order)


def seat_intervals(games: pd.DataFrame) -> pd.DataFrame:
    """k-player seat win shares (a shared first place split equally) over distinct games, each
    with a 95% interval clustered by series (``arena.stats.intervals.cluster_mean``): ``seat``,
    ``games``, ``win_share``, ``ci_low``, ``ci_high``, and the two-sided z-test p-value of
    share = 1/k with its Holm-adjusted value across the seats. A seat that won every game or
    none shows no spread to estimate a clustered interval from: its interval is then Wilson's
    with the series as the trials (every series all or nothing), ``[0, z²/(C+z²)]`` for none."""
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
        m, lo, hi, c = cluster_mean(firsts[:, seat], cluster)
        se = (hi - lo) / (2 * stats.norm.ppf(0.975))  # from the interval before it is clipped
        if math.isnan(lo) and m in (0.0, 1.0) and c >= 1:  # no spread: all or nothing in every series
            lo, hi = wilson_interval(int(m) * c, c)
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


#: the level of the first-move note's tests: p below it, or a 95% interval without 0
ALPHA = 0.05
#: at most this many rows are named in the first-move note
NOTE_ROWS = 3


#: fewer game pairs than this: the pair table's Elo interval (normal approximation) covered
#: less than 95% in the coverage bench (89.5% at 10 pairs; docs/statistics.md "Coverage")
FEW_PAIRS = 30


def coverage_note(table: pd.DataFrame) -> list[str]:
    """The line under the pair table that marks the intervals the coverage bench found below
    their nominal 95% (``docs/statistics.md`` "Coverage of the intervals"): the Elo interval of
    the pairings with fewer than ``FEW_PAIRS`` game pairs (named, at most ``NOTE_ROWS``), and
    nElo ± always (fastchess's figure: the precision of the observed nElo, which covered the
    true nElo 74-98% of the time depending on the field). Empty for an empty table."""
    if table.empty or "pairs" not in table:
        return []
    few = [str(r.pairing) for r in table.itertuples(index=False) if 0 < float(r.pairs) < FEW_PAIRS]
    out = []
    if few:
        more = f" and {len(few) - NOTE_ROWS} more" if len(few) > NOTE_ROWS else ""
        out.append(f"mark: fewer than {FEW_PAIRS} game pairs in {', '.join(few[:NOTE_ROWS])}{more}: their Elo "
                   "interval may cover less than 95% (89.5% at 10 pairs in the coverage bench).")
    out.append("mark: nElo ± is fastchess's precision of the observed nElo, not an interval of the true nElo "
               "(it covered it 74-98% of the time in the coverage bench); read the Elo interval for that.")
    return out


def first_move_note(table: pd.DataFrame) -> list[str]:
    """The lines under the first-move table when, in some row, the win share and the fitted
    first-move Elo disagree: one significant (p < ``ALPHA``, or a 95% interval without 0) and
    the other not, or both significant with opposite signs. Names the rows (at most
    ``NOTE_ROWS``) with both figures, then says why they can disagree. Empty when they agree,
    or without the Elo columns (``render._first_move``)."""
    if "first_elo" not in table:
        return []
    found = []
    for r in table.itertuples(index=False):
        share, p, elo, low, high = (float(x) for x in (r.win_share, r.p_value, r.first_elo, r.first_low,
                                                       r.first_high))
        if any(math.isnan(x) for x in (share, p, elo, low, high)):
            continue
        share_says = 0 if p >= ALPHA else 1 if share > 0.5 else -1  # seat 0 ahead (1), behind (-1), not shown (0)
        elo_says = 0 if low <= 0 <= high else 1 if elo > 0 else -1
        if share_says != elo_says:
            words = {0: "not significant", 1: "seat 0 ahead", -1: "seat 0 behind"}
            found.append(f"{r.scope} (win share {100 * share:.1f}%, p {format_p(p)}: {words[share_says]}; "
                         f"first-move Elo {elo:+.1f} [{low:+.1f}, {high:+.1f}]: {words[elo_says]})")
    if not found:
        return []
    more = f"; and {len(found) - NOTE_ROWS} more row(s)" if len(found) > NOTE_ROWS else ""
    return [f"note: the win share and the first-move Elo disagree for {'; for '.join(found[:NOTE_ROWS])}{more}. "
            "The win share counts seat 0's decisive games as they fell; the first-move Elo is net of who played "
            "whom: the Bradley-Terry fit adjusts for opponent strength, so the games a much stronger bot wins "
            "from either seat say little about the seat, and it counts draws as half a point."]
