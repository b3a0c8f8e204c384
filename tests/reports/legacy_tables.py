"""The report tables as ``arena.reports.tables`` computed them before issue 14 (pandas over one
row per game, a Python tuple per row), kept as the reference of ``tests/reports/reference.py``.

Report tables as pandas frames, computed from the store's frames (no I/O here).

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
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from arena.referee.play import last_frame
from arena.results.ratings import rate_games
from arena.stats.intervals import wilson_interval
from arena.stats.significance import ChiSquare, binomial_test, equal_shares_test

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


def seat_results(games: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per (game, seat): ``game_id``, ``series``, ``pairing``, ``players``, ``seat``,
    ``label``, ``rank``, ``score``, ``result`` (W/D/L), ``points`` (see the module doc; NaN in
    one-player games) and ``first_share`` (1/n for a first place shared by n, else 0).

    Vectorised per number of seats (numpy), so 100,000 games take a fraction of a second."""
    columns = ["game_id", "series", "pairing", "players", "seat", "label", "rank", "score",
               "result", "points", "first_share"]
    parts = []
    sizes = games["seats"].map(len)
    names: dict[tuple, str] = {}
    for k in sorted(sizes.unique()):
        sub = games[sizes == k]
        if k == 0 or sub.empty:
            continue
        ranks = np.array(sub["ranks"].tolist(), dtype=int).reshape(len(sub), k)
        tied = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
        place = ranks + (tied - 1) / 2  # arena.games.place_points, vectorised: n - place
        points = (k - place) / (k - 1) if k > 1 else np.full(ranks.shape, math.nan)
        result = np.where(ranks != 1, "L", np.where(tied == 1, "W", "D"))
        listed = sub["scores"].tolist()
        if all(len(v) == k for v in listed):  # the usual case: one array, no per-row padding
            scores = np.array(listed, dtype=float).reshape(len(sub), k)
        else:
            scores = np.array([(list(v) + [math.nan] * k)[:k] for v in listed], dtype=float)
        keys = [tuple(v) for v in sub["seats"]]
        for key in set(keys) - names.keys():
            names[key] = pairing_name(key, order)
        pairing = [names[key] for key in keys]
        parts.append(pd.DataFrame({
            "game_id": np.repeat(sub["game_id"].to_numpy(), k),
            "series": np.repeat(sub["series"].to_numpy(), k),
            "pairing": np.repeat(np.array(pairing, dtype=object), k),
            "players": k,
            "seat": np.tile(np.arange(k), len(sub)),
            "label": np.array(sub["seats"].tolist(), dtype=object).reshape(len(sub), k).ravel(),
            "rank": ranks.ravel(), "score": scores.ravel(), "result": result.ravel(),
            "points": points.ravel(), "first_share": np.where(ranks == 1, 1.0 / tied, 0.0).ravel()}))
    if not parts:
        return pd.DataFrame(columns=columns)
    return pd.concat(parts, ignore_index=True).sort_values(["game_id", "seat"], ignore_index=True)[columns]


def leaderboard(
    games: pd.DataFrame,
    ratings: pd.DataFrame | None = None,
    order: Sequence[str] | None = None,
    results: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The leaderboard: ``label``, ``mu``, ``sigma``, ``conservative`` (mu − 3σ), ``games``,
    ``wins``, ``draws``, ``losses``, ``score_pct``; best conservative rating first.

    ``ratings`` is ``arena.results.ratings.rate_games(games)`` when omitted; ``order`` lists bots that
    appear even without games; ``results`` is ``seat_results(games, order)`` when omitted.
    """
    if ratings is None:
        ratings = rate_games(games, labels=list(order or ()))
    sr = seat_results(games, order) if results is None else results
    counts = (
        sr.pivot_table(index="label", columns="result", values="game_id", aggfunc="count")
        .reindex(columns=["W", "D", "L"])
        .fillna(0)
        .astype(int)
        .rename(columns={"W": "wins", "D": "draws", "L": "losses"})
    )
    played = sr.groupby("label").agg(played=("game_id", "count"), score_pct=("points", "mean"))
    played["score_pct"] *= 100
    board = ratings.drop(columns="games").set_index("label").join(played, how="outer").join(counts)
    board["games"] = board.pop("played").fillna(0).astype(int)
    for col in ("wins", "draws", "losses"):
        board[col] = board[col].fillna(0).astype(int)
    board["score_pct"] = board["score_pct"].astype(float)
    board = board.reset_index().rename(columns={"index": "label"})
    cols = ["label", "mu", "sigma", "conservative", "games", "wins", "draws", "losses",
            "score_pct"]
    board = board[cols].sort_values(["conservative", "label"], ascending=[False, True])
    return board.reset_index(drop=True)


def crosstable(games: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """Head-to-head score % of the row bot against the column bot (NaN: never met).

    Two-player games: the row's score % in their games (a draw counts half). k-player games:
    1 when the row bot placed better than the column bot, 1/2 when equal, over the games
    where both took part.
    """
    parts = []
    sizes = games["seats"].map(len)
    for k in sorted(sizes.unique()):
        sub = games[sizes == k]
        if k < 2 or sub.empty:
            continue
        seats = np.array(sub["seats"].tolist(), dtype=object).reshape(len(sub), k)
        ranks = np.array(sub["ranks"].tolist(), dtype=float).reshape(len(sub), k)
        for a in range(k):
            for b in range(k):
                if a != b:
                    pts = np.where(ranks[:, a] < ranks[:, b], 1.0, np.where(ranks[:, a] == ranks[:, b], 0.5, 0.0))
                    parts.append(pd.DataFrame({"label": seats[:, a], "opponent": seats[:, b], "points": pts}))
    rows = pd.concat(parts, ignore_index=True) if parts else []
    labels = sorted({lab for seats in games["seats"] for lab in seats}, key=_key(order))
    if not len(rows):
        return pd.DataFrame(index=pd.Index(labels, name="label"), columns=labels, dtype=float)
    pairs = rows
    table = pairs.pivot_table(index="label", columns="opponent", values="points", aggfunc="mean")
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
    ``draws``, ``losses``; ``decisive`` (wins + losses); ``win_share`` = wins / decisive with
    its Wilson 95% interval ``ci_low``..``ci_high`` and ``p_value`` of the two-sided exact
    binomial test against 1/2; ``draw_rate`` = draws / games; ``score_pct`` = seat 0's score %
    (a draw counts half). Games with other than two seats are ignored. ``results``:
    ``seat_results`` of ``games`` when already computed.
    """
    if results is None:
        results = seat_results(games[games["seats"].map(len) == 2], order)
    first = results[(results["seat"] == 0) & (results["players"] == 2)]
    rows = [_first_move_row(game_name, first)]
    for pairing in sorted(first["pairing"].unique(), key=_pairing_key(order)):
        rows.append(_first_move_row(pairing, first[first["pairing"] == pairing]))
    return pd.DataFrame(rows)


def _first_move_row(scope: str, first: pd.DataFrame) -> dict:
    wins = int((first["result"] == "W").sum())
    draws = int((first["result"] == "D").sum())
    losses = int((first["result"] == "L").sum())
    games, decisive = len(first), wins + losses
    low, high = wilson_interval(wins, decisive)
    return {
        "scope": scope,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "decisive": decisive,
        "win_share": wins / decisive if decisive else math.nan,
        "ci_low": low,
        "ci_high": high,
        "p_value": binomial_test(wins, decisive, 0.5),
        "draw_rate": draws / games if games else math.nan,
        "score_pct": 100 * first["points"].mean() if games else math.nan,
    }


@dataclass(frozen=True)
class SeatAdvantage:
    """Seat advantage of k-player games.

    Attributes:
        table: one row per 0-based ``seat``: ``games``, ``mean_rank``, ``wins`` (first places,
            a first place shared by n counting 1/n), ``win_share`` (wins / games; the shares
            sum to 1), ``mean_score`` (the game's own points).
        test: chi-square test that every seat's wins are equal.
    """

    table: pd.DataFrame
    test: ChiSquare

    def test_frame(self) -> pd.DataFrame:
        """The test as a one-row frame: ``games``, ``seats``, ``chi2``, ``dof``, ``p_value``."""
        games = int(self.table["games"].max()) if len(self.table) else 0
        return pd.DataFrame([{"games": games, "seats": len(self.table),
                              "chi2": self.test.statistic, "dof": self.test.dof,
                              "p_value": self.test.p_value}])


def seat_advantage(games: pd.DataFrame) -> SeatAdvantage:
    """Per-seat results of the games with the most common number of seats (at least two)."""
    sizes = games["seats"].map(len)
    sizes = sizes[sizes >= 2]
    if sizes.empty:
        empty = pd.DataFrame(columns=["seat", "games", "mean_rank", "wins", "win_share",
                                      "mean_score"])
        return SeatAdvantage(empty, equal_shares_test([]))
    k = int(sizes.mode().iloc[0])
    sr = seat_results(games[games["seats"].map(len) == k])
    table = sr.groupby("seat").agg(
        games=("game_id", "count"),
        mean_rank=("rank", "mean"),
        wins=("first_share", "sum"),
        mean_score=("score", "mean"),
    )
    table["win_share"] = table["wins"] / table["games"]
    table = table.reset_index()[["seat", "games", "mean_rank", "wins", "win_share",
                                 "mean_score"]]
    return SeatAdvantage(table, equal_shares_test(table["wins"].tolist()))


def game_lengths(games: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """Game lengths in plies (opening plies included; Ricochet: rounds): one row for every
    game (``scope`` = ``"all"``) then one per pairing: ``games``, ``mean``, ``median``,
    ``min``, ``max``."""
    names = {key: pairing_name(key, order) for key in set(map(tuple, games["seats"]))}
    frame = games.assign(scope=[names[tuple(s)] for s in games["seats"]])
    stats = ["count", "mean", "median", "min", "max"]
    overall = frame["plies"].agg(stats).to_frame(ALL).T
    per = frame.groupby("scope")["plies"].agg(stats)
    per = per.loc[sorted(per.index, key=_pairing_key(order))]
    table = pd.concat([overall, per]).rename(columns={"count": "games"})
    table.index.name = "scope"
    table = table.reset_index()
    table["games"] = table["games"].fillna(0).astype(int)
    for col in ("min", "max"):
        table[col] = table[col].astype("Int64")
    return table


def terminations(games: pd.DataFrame) -> pd.DataFrame:
    """How games ended: ``termination``, ``games``, ``share`` (fraction), ``fault`` (whether
    the reason is a bot's fault), most frequent first."""
    counts = games["termination"].value_counts()
    faulty = games.loc[games["fault_seat"].notna(), "termination"].unique()
    table = pd.DataFrame({"termination": counts.index, "games": counts.to_numpy()})
    table["share"] = table["games"] / max(len(games), 1)
    table["fault"] = table["termination"].isin(faulty)
    return table


def _brief(detail: str) -> str:
    """A stored fault detail in one line: its first line, and for an ``exception`` with a
    traceback the traceback's last frame (the bot's file and line)."""
    where = last_frame(detail)
    return detail.splitlines()[0] + (f" ({where})" if where else "") if detail else ""


def faults(games: pd.DataFrame) -> pd.DataFrame:
    """Every game lost by a fault, with the bot blamed: ``game_id``, ``bot`` (label at
    ``fault_seat``), ``seat``, ``termination`` (exception, illegal_move, bad_move, timeout,
    crash, ...), ``plies`` and ``detail`` (the store's ``fault_detail`` when it has one: its first
    line, and a traceback's last frame)."""
    bad = games[games["fault_seat"].notna()].sort_values("game_id")
    rows = []
    for g in bad.itertuples(index=False):
        seat = int(g.fault_seat)
        detail = getattr(g, "fault_detail", None)
        rows.append({
            "game_id": g.game_id,
            "bot": g.seats[seat] if 0 <= seat < len(g.seats) else "?",
            "seat": seat,
            "termination": g.termination,
            "plies": g.plies,
            "detail": _brief(detail) if isinstance(detail, str) else "",
        })
    return pd.DataFrame(rows, columns=["game_id", "bot", "seat", "termination", "plies",
                                       "detail"])


def fault_summary(games: pd.DataFrame) -> pd.DataFrame:
    """Faults per bot and reason: ``bot``, ``termination``, ``games``, ``example`` (the first
    game id, to replay it), most faults first."""
    listed = faults(games)
    if listed.empty:
        return pd.DataFrame(columns=["bot", "termination", "games", "example"])
    table = listed.groupby(["bot", "termination"]).agg(
        games=("game_id", "count"), example=("game_id", "min"))
    return table.reset_index().sort_values(["games", "bot"], ascending=[False, True],
                                           ignore_index=True)


def search_stats(moves: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """Per-bot search statistics over the moves it chose (opening plies excluded): ``label``,
    ``moves``, ``mean_nodes``, ``mean_depth`` (plies), ``mean_seconds`` and ``max_seconds``
    per move, ``nodes_per_second`` (total nodes / total seconds; NaN without time)."""
    own = moves[moves["label"].notna() & (moves["seat"] >= 0)]
    own = own.assign(nodes=pd.to_numeric(own["nodes"]), depth=pd.to_numeric(own["depth"]),
                     seconds=pd.to_numeric(own["seconds"]))
    table = own.groupby("label").agg(
        moves=("ply", "count"),
        mean_nodes=("nodes", "mean"),
        sd_nodes=("nodes", "std"),  # added since (the HTML search plot's spread)
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

