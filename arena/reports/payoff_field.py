"""The field table and the pair table of a game that ranks by payoff (``arena.reports.payoffs``):
what the Elo field table and the pentanomial pair table are for a game ranked by places
(``docs/statistics.md`` "Payoffs").

Tables (``--json`` names): ``payoff_ratings`` (section ``ratings``) — one row per bot, ranked
by bankroll instant runoff (``arena.stats.runoff``): ``rank``, ``label``, ``version``,
``runoff`` with ``runoff_low``..``runoff_high`` (the bot's mean payoff per game in the round its
runoff payoff comes from, over the games among the bots left then, with its 95% t-interval over
series), (poker) ``runoff_mbb``, ``runoff_mbb_low``, ``runoff_mbb_high``; ``payoff`` with
``payoff_low``..``payoff_high`` (the mean payoff over all its games: total bankroll), (poker)
``mbb``, ``mbb_low``, ``mbb_high``; ``games``, ``series``, ``cfs`` (the share of bootstrap
replicates whose runoff ranks the bot above the next entry); then the field's bots without a
counted game. ``payoff_los`` — per bot (rank order) the head-to-head likelihood of superiority
over every other bot (``arena.stats.runoff.Confidence``).
``payoff_pairs`` (section ``pairs``, two-player games) — one row per pairing, from the first
bot's side (field order): ``pairing``, ``bot``, ``opponent``, ``games``, ``series``, its mean
``payoff`` per game with its interval (and mbb), ``diff`` (its payoff minus the opponent's, per
game) with ``diff_low``..``diff_high``, ``p_value`` of "diff = 0" with ``p_method`` (``t`` over
series, or ``sign``) and ``p_holm`` across pairings.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from arena.games.payoff import Payoff
from arena.reports.payoffs import MBB_COLUMNS, PAYOFF_COLUMNS, PayoffGames, games_of, mean_columns
from arena.stats.payoffs import REPLICATES, SeriesMeans, series_means
from arena.stats.runoff import Pool, Runoff, bootstrap, pool
from arena.stats.significance import holm

if TYPE_CHECKING:
    from arena.reports.render import ReportData


def field_tables(data: ReportData, payoff: Payoff, replicates: int = REPLICATES) -> dict[str, pd.DataFrame]:
    """``payoff_ratings`` and ``payoff_los`` (module doc); the bootstrap seeded by the
    tournament's seed."""
    g = games_of(data, payoff)
    k = len(g.labels)
    means = series_means(g.payoff, g.bot, g.cluster, groups_count=k)
    field = pool(g.bot, g.payoff, g.cluster, g.stratum, g.labels)
    result = field.point()
    rated = set(np.flatnonzero(~np.isnan(means.mean)).tolist())
    at = np.array([b for b in result.order[0] if b in rated], np.int64)
    seed = int(data.tournament.get("seed") or 1)
    confidence = bootstrap(field, at, replicates, seed)
    versions = data.tournament.get("versions") or {}
    columns = {c: v[at] for c, v in mean_columns(means, payoff).items()}
    runoff_columns = {f"runoff_{c}" if c.startswith("mbb") else c.replace("payoff", "runoff"): v[at]
                      for c, v in mean_columns(_runoff_means(g, field, result), payoff).items()}
    table = pd.DataFrame({"rank": np.arange(1, len(at) + 1), "label": [g.labels[i] for i in at],
                          "version": [int((versions.get(g.labels[i]) or {}).get("version") or 1) for i in at],
                          **runoff_columns, **columns, "games": np.bincount(g.bot, minlength=k)[at],
                          "series": means.series[at], "cfs": np.append(confidence.cfs, np.nan)[:len(at)]})
    idle = [lab for lab in [*data.order, *(g.labels[i] for i in range(k) if i not in rated)]
            if lab not in set(table["label"])]
    table = pd.concat([table, pd.DataFrame({"label": list(dict.fromkeys(idle)), "games": 0, "series": 0})],
                      ignore_index=True)
    for col in ("rank", "version", "games", "series"):
        table[col] = table[col].astype("Int64")
    names = [g.labels[i] for i in at]
    matrix = pd.DataFrame(confidence.los[np.ix_(at, at)], columns=names)
    matrix.insert(0, "label", names)
    return {"payoff_ratings": table, "payoff_los": matrix}


def _runoff_means(g: PayoffGames, field: Pool, result: Runoff) -> SeriesMeans:
    """Each bot's ``series_means`` over the games of the round its runoff payoff comes from:
    the games whose every bot remained in that round."""
    k = len(g.labels)
    place = result.positions()[0]
    last = np.append(place, -1)[field.members].max(axis=1)  # per pairing: the place of its lowest bot
    rnd = result.round[0][g.bot]
    counted = (rnd >= 0) & (last[g.stratum] <= k - 1 - rnd)  # round r keeps the places 0..k-1-r
    return series_means(g.payoff[counted], g.bot[counted], g.cluster[counted], groups_count=k)


PAIR_COLUMNS = ["pairing", "bot", "opponent", "games", "series", *PAYOFF_COLUMNS, *MBB_COLUMNS, "diff", "diff_low",
                "diff_high", "p_value", "p_method", "p_holm"]


def pair_table(data: ReportData, payoff: Payoff) -> pd.DataFrame:
    """``payoff_pairs`` of a two-player game (module doc); pairings in field order."""
    g = games_of(data, payoff)
    columns = [c for c in PAIR_COLUMNS if c not in MBB_COLUMNS or payoff.big_blind is not None]
    if g.seats != 2 or not len(g.bot):
        return pd.DataFrame(columns=columns)
    bot, pay = g.bot.reshape(-1, 2), g.payoff.reshape(-1, 2)
    first = bot[:, 0] <= bot[:, 1]  # the bot earlier in field order (labels are in field order)
    a, b = np.where(first, bot[:, 0], bot[:, 1]), np.where(first, bot[:, 1], bot[:, 0])
    pa, pb = np.where(first, pay[:, 0], pay[:, 1]), np.where(first, pay[:, 1], pay[:, 0])
    k = len(g.labels)
    pairing, pair_code = np.unique(a * k + b, return_inverse=True)
    pair_code = pair_code.ravel()
    cluster = g.cluster[::2]
    own = series_means(pa, pair_code, cluster, groups_count=len(pairing))
    diff = series_means(pa - pb, pair_code, cluster, groups_count=len(pairing))
    la, lb = [g.labels[int(p) // k] for p in pairing], [g.labels[int(p) % k] for p in pairing]
    table = pd.DataFrame({"pairing": [f"{x} vs {y}" for x, y in zip(la, lb)], "bot": la, "opponent": lb,
                          "games": np.bincount(pair_code, minlength=len(pairing)), "series": own.series,
                          **mean_columns(own, payoff), "diff": diff.mean, "diff_low": diff.low,
                          "diff_high": diff.high, "p_value": diff.p_value, "p_method": diff.method,
                          "p_holm": holm(diff.p_value.tolist())})
    return table[columns]


def _decimals(values: pd.Series) -> int:
    """Decimals that show about three significant digits of the column's largest value."""
    top = float(np.nanmax(np.abs(values.to_numpy(float)))) if values.notna().any() else 0.0
    return 3 if top == 0 or not math.isfinite(top) else int(min(3, max(0, 2 - math.floor(math.log10(top)))))


def _signed(value: float, places: int) -> str:
    return "-" if value != value else f"{value:+.{places}f}"


def _with_interval(frame: pd.DataFrame, mean: str, low: str, high: str) -> list[str]:
    """``+0.523 [+0.310, +0.736]`` per row (the interval alone missing: the mean)."""
    places = _decimals(pd.concat([frame[mean], frame[low], frame[high]]))
    return [_signed(m, places) if lo != lo or hi != hi else f"{_signed(m, places)} [{_signed(lo, places)}, "
            f"{_signed(hi, places)}]" for m, lo, hi in zip(frame[mean], frame[low], frame[high])]


#: the displayed headers of the payoff columns
HEADERS = {"payoff": "payoff (95% CI)", "mbb": "mbb/hand (95% CI)", "diff": "diff (95% CI)"}
#: the field table's: its runoff payoff and mean payoff, in one unit (mbb per hand where the game has it)
RATING_HEADERS = {"runoff": "runoff (95% CI)", "payoff": "mean payoff (95% CI)",
                  "runoff_mbb": "runoff mbb/hand (95% CI)", "mbb": "mean mbb/hand (95% CI)"}


def display(name: str, frame: pd.DataFrame, shown: pd.DataFrame, right: dict) -> tuple[pd.DataFrame, dict]:
    """The displayed cells of a payoff table (``arena.reports.display.display_frame``): each mean
    with its interval in one cell, signed, in the unit's digits; the LOS matrix in percents. The
    field table shows its two means in mbb per hand only, where the game has it (the CSV and
    ``--json`` keep both units)."""
    if name == "payoff_los":
        for col in frame.columns[1:]:
            shown[col] = ["-" if pd.isna(v) else f"{100 * v:.1f}%" for v in frame[col]]
        return shown, right
    if name == "payoff_ratings":
        headers, means = RATING_HEADERS, ["runoff_mbb", "mbb"] if "mbb" in frame else ["runoff", "payoff"]
    else:
        headers, means = HEADERS, [m for m in ("payoff", "mbb", "diff") if m in frame]
    folded = []
    for mean in means:
        shown[headers[mean]] = _with_interval(frame, mean, f"{mean}_low", f"{mean}_high")
        right[headers[mean]] = True
        folded.append(headers[mean])
    if "sd" in frame:
        shown["sd"] = [_signed(v, _decimals(frame["sd"])).lstrip("+") for v in frame["sd"]]
    if name == "payoff_ratings":
        lead = ["rank", "label", *(["engine"] if "engine" in frame else []),
                *(["version"] if (frame["version"].fillna(1) > 1).any() else [])]
    else:
        lead = {"payoffs": ["label", "games", "series"], "payoff_seats": ["seat", "games", "series"],
                "payoff_pairs": ["pairing", "games", "series"]}[name]
    tail = {"payoffs": ["sd", "forfeits", "left_out"], "payoff_seats": [], "payoff_ratings": ["games", "series", "cfs"],
            "payoff_pairs": ["p_value", "p_method", "p_holm"]}[name]
    return shown[lead + folded + tail], right
