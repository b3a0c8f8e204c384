"""Report tables as pandas frames, computed from the store's frames (no I/O here).

Inputs are the frames of ``arena.results.store``: ``games`` (``game_id``, ``series``, ``seed``,
``seats`` (labels by 0-based seat), ``ranks`` (1 = best, competition ranking), ``scores``,
``termination``, ``fault_seat``, ``plies``, ``opening_plies``, ``seconds``) and ``moves``
(``game_id``, ``ply``, ``seat``, ``label``, ``move``, ``seconds``, ``nodes``, ``depth``,
``evaluation``, ``status``).

Conventions (``docs/arena.md`` "Contracts / Statistics"), the same for two and n players:

- **Win / draw / loss** of a bot in one game: a win is first place alone, a draw is a first
  place shared with others (two-player: a draw), a loss is any place below first. This is
  the "did it win" view of OpenSpiel's and Ludii's win-rate tables; places below first are
  told apart by the score.
- **Points** of a seat in a k-player game: (k − p) / (k − 1), where p is its place with ties
  averaged (two bots sharing first of three occupy places 1 and 2, so p = 1.5 for both). A
  two-player win is 1, a draw 1/2, a loss 0; the points of one game sum to k/2. **Score %**
  is 100 × the mean points.
- **Head-to-head** (crosstable) in k-player games: in each game where both took part, 1 to
  the better placed, 1/2 each when placed equal.
- **First player** is seat 0 (whose first move may be an opening ply).
- **Win share** of a seat (k players): a first place shared by n seats counts 1/n to each.

Shares, intervals and rates are fractions in [0, 1]; columns named ``*_pct`` are percents.

At scale (issue 14) the tables group on integer codes of the distinct seat, rank and score
lists (``arena.reports.coded.codes``) instead of one Python tuple per game, and the
leaderboard, crosstable and first-move counts also take a ``coded.grouped`` frame, whose rows
each stand for ``n`` games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from arena.results.ratings import rate_games
from arena.reports.coded import codes, matrix, seat_sizes, weights
# how games ended live in ``endings``; read here too by the report and its tests
from arena.reports.endings import RESULTS as RESULTS, fault_summary as fault_summary, faults as faults
from arena.reports.endings import terminations as terminations, terminations_by_bot as terminations_by_bot
from arena.stats.intervals import wilson_intervals
from arena.stats.significance import ChiSquare, binomial_tests_half, equal_shares_test

#: Scope name of a table row that covers every pairing of the tournament.
ALL = "all"


def _key(order: Sequence[str] | None):
    """Sort key of labels: the tournament's bot order (unknown labels last), then by name."""
    rank = {label: i for i, label in enumerate(order or ())}
    return lambda lab: (rank.get(lab, len(rank)), lab)


def _pairing_key(order: Sequence[str] | None):
    key = _key(order)
    return lambda pairing: [key(lab) for lab in pairing.split(" vs ")]


def pairing_name(labels: Sequence[str], order: Sequence[str] | None = None) -> str:
    """The pairing of ``labels`` as text, e.g. ``"ab3 vs mcts"``: the tournament's bot order
    when ``order`` is given (unknown labels last), else alphabetical; seat order is ignored."""
    return " vs ".join(sorted(set(labels), key=_key(order)))


def pairing_names(seat_lists: Sequence[Sequence[str]], order: Sequence[str] | None = None) -> list[str]:
    """``pairing_name`` of each seat list (the order's sort key built once)."""
    key = _key(order)
    return [" vs ".join(sorted(set(labels), key=key)) for labels in seat_lists]


def seat_results(games: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per (game, seat): ``game_id``, ``series``, ``pairing``, ``players``, ``seat``,
    ``label``, ``rank``, ``score``, ``result`` (W/D/L), ``points`` (see the module doc; NaN in
    one-player games) and ``first_share`` (1/n for a first place shared by n, else 0); then
    ``copy`` and ``n`` when ``games`` has them (a ``coded.grouped`` frame: each row stands for
    ``n`` games).

    Vectorised per number of seats over the distinct seat and rank lists (``coded.codes``)."""
    columns = ["game_id", "series", "pairing", "players", "seat", "label", "rank", "score",
               "result", "points", "first_share"]
    extra = [c for c in ("copy", "n") if c in games.columns]
    parts = []
    sizes = seat_sizes(games)
    for k in sorted(set(sizes.tolist())):
        sub = games[sizes == k]
        if k == 0 or sub.empty:
            continue
        sc, sv = codes(sub, "seats")
        rc, rv = codes(sub, "ranks")
        pc, pv = codes(sub, "scores")
        ranks = matrix(rv, k, np.int64)[rc]
        tied = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
        place = ranks + (tied - 1) / 2  # arena.games.place_points, vectorised: n - place
        points = (k - place) / (k - 1) if k > 1 else np.full(ranks.shape, math.nan)
        result = np.where(ranks != 1, "L", np.where(tied == 1, "W", "D"))
        scores = matrix(pv, k, float)[pc]
        pairing = np.array(pairing_names(sv, order), dtype=object)[sc]
        frame = pd.DataFrame({
            "game_id": np.repeat(sub["game_id"].to_numpy(), k),
            "series": np.repeat(sub["series"].to_numpy(), k),
            "pairing": np.repeat(pairing, k),
            "players": k,
            "seat": np.tile(np.arange(k), len(sub)),
            "label": matrix(sv, k, object)[sc].ravel(),
            "rank": ranks.ravel(), "score": scores.ravel(), "result": result.ravel(),
            "points": points.ravel(), "first_share": np.where(ranks == 1, 1.0 / tied, 0.0).ravel()})
        for col in extra:
            frame[col] = np.repeat(sub[col].to_numpy(), k)
        parts.append(frame)
    if not parts:
        return pd.DataFrame(columns=columns + extra)
    return pd.concat(parts, ignore_index=True).sort_values(["game_id", "seat"], ignore_index=True)[columns + extra]


def _wsum(frame: pd.DataFrame, by: str | list[str], values: dict[str, pd.Series]) -> pd.DataFrame:
    """Sums of ``values`` (series aligned with ``frame``) per ``by`` group."""
    return frame[[by] if isinstance(by, str) else by].assign(**values).groupby(by).sum()


def leaderboard(
    games: pd.DataFrame,
    ratings: pd.DataFrame | None = None,
    order: Sequence[str] | None = None,
    results: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The leaderboard: ``label``, ``mu``, ``sigma``, ``conservative`` (mu − 3σ), ``games``,
    ``wins``, ``losses``, ``draws``, ``score_pct``; best conservative rating first.

    ``ratings`` is ``arena.results.ratings.rate_games(games)`` when omitted; ``order`` lists bots that
    appear even without games; ``results`` is ``seat_results(games, order)`` when omitted (rows
    with an ``n`` column count ``n`` games each).
    """
    if ratings is None:
        ratings = rate_games(games, labels=list(order or ()))
    sr = seat_results(games, order) if results is None else results
    w = pd.Series(weights(sr), index=sr.index)
    counts = (
        _wsum(sr, ["label", "result"], {"w": w})["w"].unstack("result")
        .reindex(columns=["W", "D", "L"])
        .fillna(0)
        .astype(int)
        .rename(columns={"W": "wins", "D": "draws", "L": "losses"})
    )
    counts.columns.name = None
    points = pd.to_numeric(sr["points"], errors="coerce")
    sums = _wsum(sr, "label", {"played": w, "rated": w.where(points.notna(), 0), "sum": (points * w).fillna(0)})
    played = pd.DataFrame({"played": sums["played"], "score_pct": 100 * sums["sum"] / sums["rated"]})
    board = ratings.drop(columns="games").set_index("label").join(played, how="outer").join(counts)
    board["games"] = board.pop("played").fillna(0).astype(int)
    for col in ("wins", "draws", "losses"):
        board[col] = board[col].fillna(0).astype(int)
    board["score_pct"] = board["score_pct"].astype(float)
    board = board.reset_index().rename(columns={"index": "label"})
    cols = ["label", "mu", "sigma", "conservative", "games", "wins", "losses", "draws",
            "score_pct"]
    board = board[cols].sort_values(["conservative", "label"], ascending=[False, True])
    return board.reset_index(drop=True)


def crosstable(games: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """Head-to-head score % of the row bot against the column bot (NaN: never met).

    Two-player games: the row's score % in their games (a draw counts half). k-player games:
    1 when the row bot placed better than the column bot, 1/2 when equal, over the games
    where both took part. Rows with an ``n`` column (``coded.grouped``) count ``n`` games each.
    """
    parts = []
    sizes = seat_sizes(games)
    w = weights(games)
    for k in sorted(set(sizes.tolist())):
        sub = games[sizes == k]
        if k < 2 or sub.empty:
            continue
        sc, sv = codes(sub, "seats")
        rc, rv = codes(sub, "ranks")
        seats = matrix(sv, k, object)[sc]
        ranks = matrix(rv, k, float)[rc]
        n = w[sizes == k]
        for a in range(k):
            for b in range(k):
                if a != b:
                    pts = np.where(ranks[:, a] < ranks[:, b], 1.0, np.where(ranks[:, a] == ranks[:, b], 0.5, 0.0))
                    parts.append(pd.DataFrame({"label": seats[:, a], "opponent": seats[:, b], "wp": pts * n, "n": n}))
    _, values = codes(games, "seats")
    labels = sorted({lab for seats in values for lab in seats}, key=_key(order))
    if not parts:
        return pd.DataFrame(index=pd.Index(labels, name="label"), columns=labels, dtype=float)
    sums = pd.concat(parts, ignore_index=True).groupby(["label", "opponent"])[["wp", "n"]].sum()
    table = (sums["wp"] / sums["n"]).unstack("opponent")
    table = (table * 100).reindex(index=labels, columns=labels)
    table.columns.name = None
    return table


def first_move(
    games: pd.DataFrame, game_name: str = ALL, order: Sequence[str] | None = None,
    results: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """First-move advantage of two-player games: one row for the whole game (``scope`` =
    ``game_name``) then one per pairing (``scope`` = e.g. ``"a vs b"``).

    Columns (``docs/arena.md`` "Contracts / Statistics"): ``games``; seat 0's ``wins``,
    ``losses``, ``draws``; ``decisive`` (wins + losses); ``win_share`` = wins / decisive with
    its Wilson 95% interval ``ci_low``..``ci_high`` and ``p_value`` of the two-sided exact
    binomial test against 1/2; ``draw_rate`` = draws / games; ``score_pct`` = seat 0's score %
    (a draw counts half). Games with other than two seats are ignored. ``results``:
    ``seat_results`` of ``games`` when already computed (rows with ``n`` count ``n`` games).
    """
    if results is None:
        results = seat_results(games[seat_sizes(games) == 2], order)
    first = results[(results["seat"] == 0) & (results["players"] == 2)]
    scopes = sorted(first["pairing"].unique(), key=_pairing_key(order))
    code = pd.Index(scopes, dtype=object).get_indexer(first["pairing"]) + 1  # 0: the whole game's row
    n = weights(first).astype(float)
    result = first["result"].to_numpy()
    points = first["points"].to_numpy(float)

    def sums(values: np.ndarray) -> np.ndarray:
        per = np.bincount(code, values, minlength=len(scopes) + 1)
        per[0] = values.sum()
        return per

    wins, draws, losses = (sums(n * (result == r)).astype(np.int64) for r in ("W", "D", "L"))
    played = sums(n).astype(np.int64)
    decisive = wins + losses
    low, high = wilson_intervals(wins, decisive)
    with np.errstate(invalid="ignore", divide="ignore"):
        return pd.DataFrame({
            "scope": [game_name, *scopes],
            "games": played,
            "wins": wins,
            "losses": losses,
            "draws": draws,
            "decisive": decisive,
            "win_share": np.where(decisive > 0, wins / np.maximum(decisive, 1), np.nan),
            "ci_low": low,
            "ci_high": high,
            "p_value": binomial_tests_half(wins, decisive),
            "draw_rate": np.where(played > 0, draws / np.maximum(played, 1), np.nan),
            "score_pct": np.where(played > 0, 100 * sums(points * n) / np.maximum(played, 1), np.nan),
        })


@dataclass(frozen=True)
class SeatAdvantage:
    """Seat advantage of k-player games.

    Attributes:
        table: one row per 0-based ``seat``: ``games``, ``mean_rank``, ``wins`` (first places,
            a first place shared by n counting 1/n), ``win_share`` (wins / games; the shares
            sum to 1), ``mean_score`` (the game's own points).
        test: chi-square test that every seat's wins are equal.
        first_ties: games whose first place is shared by two or more seats.
    """

    table: pd.DataFrame
    test: ChiSquare
    first_ties: int = 0

    def test_frame(self) -> pd.DataFrame:
        """The test as a one-row frame: ``games``, ``seats``, ``chi2``, ``dof``, ``p_value``,
        ``first_ties`` (games with a shared first place) and ``first_tie_rate`` (their share)."""
        games = int(self.table["games"].max()) if len(self.table) else 0
        return pd.DataFrame([{"games": games, "seats": len(self.table),
                              "chi2": self.test.statistic, "dof": self.test.dof,
                              "p_value": self.test.p_value, "first_ties": self.first_ties,
                              "first_tie_rate": self.first_ties / games if games else math.nan}])


def seat_advantage(games: pd.DataFrame) -> SeatAdvantage:
    """Per-seat results of the games with the most common number of seats (at least two),
    and how many of them have a first place shared by two or more seats (ties for first);
    rows with an ``n`` column (``coded.grouped``) count ``n`` games each."""
    sizes = seat_sizes(games)
    w = weights(games)
    if not (sizes >= 2).any():
        empty = pd.DataFrame(columns=["seat", "games", "mean_rank", "wins", "win_share",
                                      "mean_score"])
        return SeatAdvantage(empty, equal_shares_test([]))
    count = pd.Series(w[sizes >= 2]).groupby(sizes[sizes >= 2]).sum()
    k = int(count[count == count.max()].index.min())  # the mode (the smallest of equals)
    sr = seat_results(games[sizes == k])
    n = pd.Series(weights(sr), index=sr.index)
    score = sr["score"].astype(float)
    sums = _wsum(sr, "seat", {"games": n, "rank": sr["rank"] * n, "wins": sr["first_share"] * n,
                              "scored": n.where(score.notna(), 0), "score": (score * n).fillna(0)})
    table = pd.DataFrame({"games": sums["games"].astype(int), "mean_rank": sums["rank"] / sums["games"],
                          "wins": sums["wins"].astype(float), "mean_score": sums["score"] / sums["scored"]})
    table["win_share"] = table["wins"] / table["games"]
    table = table.reset_index()[["seat", "games", "mean_rank", "wins", "win_share",
                                 "mean_score"]]
    firsts = _wsum(sr, "game_id", {"firsts": (sr["rank"] == 1).astype(int), "n": n})
    ties = int((firsts["n"][firsts["firsts"] >= 2] / k).sum())  # n repeats once per seat
    return SeatAdvantage(table, equal_shares_test(table["wins"].tolist()), ties)


def game_lengths(games: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """Game lengths in plies (opening plies included; Ricochet: rounds): one row for every
    game (``scope`` = ``"all"``) then one per pairing: ``games``, ``mean``, ``median``,
    ``min``, ``max``."""
    code, values = codes(games, "seats")
    names = pairing_names(values, order)
    scopes = sorted(set(names), key=_pairing_key(order))
    where = {name: i for i, name in enumerate(scopes)}
    scope = np.array([where[name] for name in names], dtype=np.int64)[code] if names else code
    stats = ["count", "mean", "median", "min", "max"]
    plies = games["plies"].reset_index(drop=True)
    overall = plies.agg(stats).to_frame(ALL).T
    per = plies.groupby(scope).agg(stats)
    per.index = [scopes[i] for i in per.index]
    table = pd.concat([overall, per]).rename(columns={"count": "games"})
    table.index.name = "scope"
    table = table.reset_index()
    table["games"] = table["games"].fillna(0).astype(int)
    for col in ("min", "max"):
        table[col] = table[col].astype("Int64")
    return table


def search_stats(moves: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """Per-bot search statistics over the moves it chose (opening plies excluded): ``label``,
    ``moves``, ``mean_nodes`` and ``sd_nodes`` (the sample standard deviation of the node
    counts; NaN below two), ``mean_depth`` (plies), ``mean_seconds`` and ``max_seconds`` per
    move, ``nodes_per_second`` (total nodes / total seconds; NaN without time)."""
    own = moves[moves["label"].notna() & (moves["seat"] >= 0)]
    own = own.assign(nodes=pd.to_numeric(own["nodes"]), depth=pd.to_numeric(own["depth"]),
                     seconds=pd.to_numeric(own["seconds"]))
    table = own.groupby("label").agg(
        moves=("ply", "count"),
        mean_nodes=("nodes", "mean"),
        sd_nodes=("nodes", "std"),
        mean_depth=("depth", "mean"),
        mean_seconds=("seconds", "mean"),
        max_seconds=("seconds", "max"),
        total_nodes=("nodes", lambda c: c.sum(min_count=1)),  # unreported: NaN, not 0
        total_seconds=("seconds", lambda c: c.sum(min_count=1)),
    )
    seconds = table.pop("total_seconds")
    nodes = table.pop("total_nodes")
    table["nodes_per_second"] = (nodes / seconds.where(seconds > 0)).astype(float)
    table["sd_nodes"] = table["sd_nodes"].astype(float)
    table = table.reset_index()
    return table.sort_values("label", key=lambda col: col.map(_key(order)), ignore_index=True)


def _sd(n: int, total: float | None, squares: float | None) -> float:
    """The sample standard deviation of ``n`` values from their sum and sum of squares (NaN
    below two values or without the sums)."""
    if n < 2 or total is None or squares is None:
        return math.nan
    return math.sqrt(max(0.0, (squares - total * total / n) / (n - 1)))


def search_from_sums(sums: dict[str, list], order: Sequence[str] | None = None) -> pd.DataFrame:
    """``search_stats`` from per-bot sums (``arena.results.aggregates.search_sums``, computed in SQL): the
    same columns and definitions, means over the moves that report the statistic."""
    rows = []
    for label, (moves, nn, sn, nd, sd, ns, ss, mx, sq) in sums.items():
        rows.append({
            "label": label, "moves": int(moves),
            "mean_nodes": sn / nn if nn else math.nan,
            "sd_nodes": _sd(nn, sn, sq),
            "mean_depth": sd / nd if nd else math.nan,
            "mean_seconds": ss / ns if ns else math.nan,
            "max_seconds": float(mx) if mx is not None else math.nan,
            "nodes_per_second": sn / ss if nn and ns and ss > 0 else math.nan,
        })
    columns = ["label", "moves", "mean_nodes", "sd_nodes", "mean_depth", "mean_seconds", "max_seconds",
               "nodes_per_second"]
    table = pd.DataFrame(rows, columns=columns)
    for col in columns[2:]:
        table[col] = table[col].astype(float)
    table["moves"] = table["moves"].astype("int64")
    return table.sort_values("label", key=lambda col: col.map(_key(order)), ignore_index=True)
