"""Self-play game metrics: what the stored games say about the game itself, not about the bots
(``arena report NAME --section game``; definitions in ``docs/statistics.md`` "The game's own
figures").

Four tables, over the distinct games the rules ended (games a bot lost by a fault, and repeated
copies, are left out):

- ``game`` (one row for every game, then one per pairing): decisive games (one seat alone
  first) with a Wilson 95% interval, ties for first (first place shared), all tied (every seat
  first; in a two-player game the same as a tie: a draw), and the length distribution in plies
  (opening plies included): mean, standard deviation, 10th percentile, median, 90th percentile.
- ``game_seats``: per seat of the most common seat count, its share of the wins (a first
  place shared by n counting 1/n), of the games where it shared first place, and its mean points
  ``(k − place)/(k − 1)``.
- ``game_play`` (per scope, over a sample of at most ``MAX_SAMPLED`` games evenly spread over
  the game ids): the branching factor (mean legal moves where a seat is to move, from the
  stored games replayed by the rules), and from the evaluations the bots reported (the moves
  table's ``evaluation``) in self-play games (every seat a bot of one kind): lead changes per
  game and per evaluated ply, and drama (Ludii's: how far the eventual winner was behind the
  leader), per ply averaged and at its largest, in the bots' units.
- ``branching``: the branching factor per ply (grouped into at most ``MAX_ROWS`` rows of
  equal ply ranges) over the sample.

The evaluation's neutral value (what "level" means) is read per bot kind: ½ when every
evaluation it reported lies in [0, 1] (a win rate, as ``mcts``), else 0 (a score, as
``alphabeta``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from arena.games import Game
from arena.reports.coded import codes, matrix, seat_sizes
from arena.reports.tables import ALL, _pairing_key, pairing_names
from arena.stats.intervals import wilson_intervals

#: Games replayed (branching) and read for evaluations (lead changes, drama), at most.
MAX_SAMPLED = 200
#: Rows of the ``branching`` table, at most (plies are grouped into equal ranges beyond it).
MAX_ROWS = 40

GAME_COLUMNS = ["scope", "games", "decisive", "decisive_low", "decisive_high", "first_shared", "all_tied",
                "mean_plies", "sd_plies", "p10_plies", "median_plies", "p90_plies"]
PLAY_COLUMNS = ["scope", "sampled", "branching", "self_play", "neutral", "lead_changes", "lead_change_rate",
                "drama", "drama_max"]


def rule_ended(games: pd.DataFrame) -> pd.DataFrame:
    """The distinct games the rules ended: no fault, not a copy of an earlier game of its series."""
    keep = games["fault_seat"].isna().to_numpy() if "fault_seat" in games else np.ones(len(games), bool)
    if "copy" in games:
        keep = keep & ~games["copy"].to_numpy(bool)
    return games[keep]


def _firsts(games: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(seats per game, first places per game) as integer arrays."""
    sizes = seat_sizes(games)
    rc, rv = codes(games, "ranks")
    firsts = np.array([sum(1 for r in v if r == 1) for v in rv], dtype=np.int64)[rc] if len(games) else sizes
    return sizes, firsts


def _scopes(games: pd.DataFrame, order: Sequence[str] | None) -> list[tuple[str, np.ndarray]]:
    """(scope, row mask) for every game, then each pairing in the tournament's order."""
    code, values = codes(games, "seats")
    names = np.array(pairing_names(values, order), dtype=object)[code] if len(games) else code
    out = [(ALL, np.ones(len(games), bool))]
    for name in sorted(set(names.tolist()), key=_pairing_key(order)):
        out.append((name, names == name))
    return out


def outcome_table(games: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """The ``game`` table (module docstring) of the rule-ended games: every game, then each
    pairing in the tournament's order (all pairings at once: a 100-bot field has 4,950)."""
    games = rule_ended(games)
    sizes, firsts = _firsts(games)
    code, values = codes(games, "seats")
    names = np.array(pairing_names(values, order), dtype=object)[code] if len(games) else code
    frame = pd.DataFrame({"scope": names, "decisive": firsts == 1, "first_shared": firsts >= 2,
                          "all_tied": firsts == sizes, "plies": games["plies"].to_numpy(float)})
    whole = frame.assign(scope=ALL)
    scopes = sorted(set(names.tolist()), key=_pairing_key(order))
    parts = [_outcomes(whole, [ALL])] + ([_outcomes(frame, scopes)] if len(games) else [])
    return pd.concat(parts, ignore_index=True)[GAME_COLUMNS] if len(games) else _outcomes(whole, [ALL])


def _outcomes(frame: pd.DataFrame, scopes: list[str]) -> pd.DataFrame:
    """The ``game`` rows of ``frame`` grouped by its ``scope`` column, in the order of ``scopes``
    (a scope without games: NaN figures)."""
    by = frame.groupby("scope", sort=False)
    n = by.size().reindex(scopes, fill_value=0).to_numpy(np.int64)
    decisive = by["decisive"].sum().reindex(scopes, fill_value=0).to_numpy(np.int64)
    plies = by["plies"]
    low, high = wilson_intervals(decisive, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = pd.DataFrame({
            "scope": scopes, "games": n, "decisive": np.where(n > 0, decisive / np.maximum(n, 1), math.nan),
            "decisive_low": low, "decisive_high": high,
            "first_shared": by["first_shared"].mean().reindex(scopes).to_numpy(float),
            "all_tied": by["all_tied"].mean().reindex(scopes).to_numpy(float),
            "mean_plies": plies.mean().reindex(scopes).to_numpy(float),
            "sd_plies": plies.std(ddof=1).reindex(scopes).to_numpy(float),
            "p10_plies": plies.quantile(0.1).reindex(scopes).to_numpy(float),
            "median_plies": plies.quantile(0.5).reindex(scopes).to_numpy(float),
            "p90_plies": plies.quantile(0.9).reindex(scopes).to_numpy(float)})
    return out[GAME_COLUMNS]


def seat_table(games: pd.DataFrame) -> pd.DataFrame:
    """The ``game_seats`` table: ``seat``, ``games``, ``win_share``, ``first_shared``,
    ``mean_points`` over the rule-ended games with the most common seat count (two or more)."""
    games = rule_ended(games)
    sizes = seat_sizes(games)
    columns = ["seat", "games", "win_share", "first_shared", "mean_points"]
    if not (sizes >= 2).any():
        return pd.DataFrame(columns=columns)
    k = int(pd.Series(sizes[sizes >= 2]).mode().iloc[0])
    sub = games[sizes == k]
    rc, rv = codes(sub, "ranks")
    ranks = matrix(rv, k, float)[rc]
    first = ranks == 1
    shared = first.sum(axis=1, keepdims=True)
    tied = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    points = (k - (ranks + (tied - 1) / 2)) / (k - 1)
    return pd.DataFrame({"seat": np.arange(k), "games": len(sub), "win_share": (first / shared).mean(axis=0),
                         "first_shared": (first & (shared >= 2)).mean(axis=0),
                         "mean_points": points.mean(axis=0)}, columns=columns)


def sample_ids(games: pd.DataFrame, limit: int = MAX_SAMPLED) -> list[int]:
    """At most ``limit`` game ids of the rule-ended games, evenly spread over them in id order."""
    ids = np.sort(rule_ended(games)["game_id"].to_numpy(np.int64))
    if len(ids) > limit:
        ids = ids[np.unique(np.linspace(0, len(ids) - 1, limit).round().astype(np.int64))]
    return ids.tolist()


def legal_counts(game: Game, start, moves: Sequence[str]) -> list[int | None]:
    """The number of legal moves before each stored ply of one game, replayed by the rules
    from ``start`` (a ``State``); ``None`` where no seat is to move alone (a simultaneous
    round). The list stops early at a ply the rules no longer accept."""
    state, out = start, list[int | None]()
    for text in moves:
        seat = state.to_move
        if not (isinstance(seat, int) and seat >= 0):
            break  # a simultaneous round: no sequential branching to count
        out.append(len(state.legal_moves()))
        try:
            state = state.play(game.parse_move(state, text))
        except Exception:  # notation the rules no longer accept: count what replayed
            break
    return out


def branching_table(counts: dict[int, list[int | None]]) -> pd.DataFrame:
    """The ``branching`` table of ``game_id -> legal_counts``: ``ply_from``, ``ply_to``
    (0-based, inclusive), ``positions``, ``mean``, ``min``, ``max`` legal moves."""
    columns = ["ply_from", "ply_to", "positions", "mean", "min", "max"]
    rows = [(ply, c) for seq in counts.values() for ply, c in enumerate(seq) if c is not None]
    if not rows:
        return pd.DataFrame(columns=columns)
    frame = pd.DataFrame(rows, columns=["ply", "legal"])
    width = max(1, -(-(int(frame["ply"].max()) + 1) // MAX_ROWS))
    frame["bucket"] = frame["ply"] // width
    table = frame.groupby("bucket")["legal"].agg(["size", "mean", "min", "max"]).reset_index()
    return pd.DataFrame({"ply_from": table["bucket"] * width, "ply_to": table["bucket"] * width + width - 1,
                         "positions": table["size"], "mean": table["mean"].astype(float), "min": table["min"],
                         "max": table["max"]}, columns=columns)


def lead_and_drama(movers: Sequence[int], values: Sequence[float], k: int,
                   winners: Sequence[int]) -> tuple[int, int, float, float]:
    """Lead changes and drama of one game from its evaluated plies in order.

    Args:
        movers: the 0-based seat that reported each evaluation.
        values: each evaluation minus its neutral value (the mover's advantage, its units).
        k: seats in the game.
        winners: the seats placed first.

    After each evaluated ply every seat has a value: two players, the mover's ``v`` and the
    other's ``−v``; k players, each seat's latest reported value (plies before every seat has
    reported are skipped). The leaders are the seats of the highest value; a lead change is a
    ply whose leaders differ from the previous ply's; the ply's drama is the mean over the
    winners of (highest value − the winner's value), 0 when the winner leads (Ludii's
    ``Drama``, Browne 2008).

    Returns:
        (lead changes, plies counted, mean drama per ply, largest drama); NaN dramas when no
        ply counted.
    """
    current = [math.nan] * k
    previous: set[int] | None = None
    changes, dramas = 0, []
    for seat, v in zip(movers, values):
        if k == 2:
            current = [v, -v] if seat == 0 else [-v, v]
        else:
            current[seat] = v
        if any(c != c for c in current):
            continue
        top = max(current)
        leaders = {s for s in range(k) if current[s] == top}
        changes += previous is not None and leaders != previous
        previous = leaders
        dramas.append(sum(top - current[w] for w in winners) / len(winners))
    if not dramas:
        return 0, 0, math.nan, math.nan
    return changes, len(dramas), float(np.mean(dramas)), float(max(dramas))


def neutral_values(moves: pd.DataFrame, kind_of: Callable[[str], str]) -> dict[str, float]:
    """Bot kind -> neutral evaluation: ½ when every evaluation of that kind lies in [0, 1],
    else 0."""
    ev = moves[moves["seat"].ge(0) & moves["evaluation"].notna()]
    kinds = ev["label"].map(kind_of)
    inside = ev["evaluation"].between(0.0, 1.0)
    return {kind: 0.5 if bool(inside[kinds == kind].all()) else 0.0 for kind in kinds.unique()}


def play_table(games: pd.DataFrame, moves: pd.DataFrame, counts: dict[int, list[int | None]],
               kind_of: Callable[[str], str], order: Sequence[str] | None = None) -> pd.DataFrame:
    """The ``game_play`` table (module docstring) of the sampled games: ``games`` the store's
    frame (only the sampled ids are read), ``moves`` their stored plies, ``counts`` their
    ``legal_counts``, ``kind_of`` label -> bot kind."""
    games = rule_ended(games)
    sampled = games[games["game_id"].isin(list(counts))]
    neutral = neutral_values(moves, kind_of)
    evaluated = moves[moves["seat"].ge(0) & moves["evaluation"].notna()]
    by_game = {gid: rows for gid, rows in evaluated.groupby("game_id")}
    per_game = []
    for g in sampled.itertuples(index=False):
        seq = [c for c in counts.get(g.game_id, []) if c is not None]
        kinds = {kind_of(label) for label in g.seats}
        row = {"game_id": g.game_id, "positions": len(seq), "legal": float(sum(seq)), "self_play": False}
        rows = by_game.get(g.game_id)
        if len(kinds) == 1 and rows is not None:
            kind = kinds.pop()
            values = (rows["evaluation"] - neutral[kind]).tolist()
            winners = [s for s, r in enumerate(g.ranks) if r == 1]
            changes, plies, drama, drama_max = lead_and_drama(rows["seat"].tolist(), values, len(g.seats), winners)
            if plies:
                row.update(self_play=True, neutral=neutral[kind], changes=changes, rate=changes / plies,
                           drama=drama, drama_max=drama_max)
        per_game.append(row)
    frame = pd.DataFrame(per_game, columns=["game_id", "positions", "legal", "self_play", "neutral", "changes",
                                            "rate", "drama", "drama_max"])
    out = []
    for scope, mask in _scopes(sampled, order):
        sub = frame[frame["game_id"].isin(sampled["game_id"].to_numpy()[mask])]
        play = sub[sub["self_play"].astype(bool)]
        positions = sub["positions"].sum()
        out.append({"scope": scope, "sampled": len(sub), "branching": sub["legal"].sum() / positions if positions
                    else math.nan, "self_play": len(play),
                    "neutral": ", ".join(f"{v:g}" for v in sorted(set(play["neutral"]))) if len(play) else "",
                    "lead_changes": play["changes"].mean(), "lead_change_rate": play["rate"].mean(),
                    "drama": play["drama"].mean(), "drama_max": play["drama_max"].mean()})
    table = pd.DataFrame(out, columns=PLAY_COLUMNS)
    for col in PLAY_COLUMNS[5:]:
        table[col] = table[col].astype(float)
    return table
