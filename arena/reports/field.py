"""The field table: the headline of ``arena report`` and of the end of ``arena run``, as the
rating lists print it (Ordo, BayesElo, CCRL/CEGT; ``docs/statistics.md`` "The field table").

Two-player games: ``arena.stats.field`` (Bradley–Terry with a first-move term, draws as half
points, virtual draws as the prior, a bootstrap over series). n-player games:
``arena.stats.luce`` (Plackett–Luce with seat terms), TrueSkill's mu and sigma beside.

Tables (``--json`` names): ``ratings`` — one row per bot, best first: ``rank``, ``label``
(the bot as stored, a later version as ``me@2``), ``version``, ``elo`` with its 95%
bootstrap interval ``elo_low``..``elo_high`` (asymmetric), ``games``, ``score`` (mean points,
a draw half), ``av_op`` (the games-weighted mean Elo of its opponents, Ordo's "average
opponent"), ``draw_ratio`` (two players: draws; n players: shared first places), ``cfs``
(the likelihood of superiority over the next entry), then (n players) ``mu``, ``sigma``; and
one row per fitted seat term after the bots (``(first move)``: seat 0 over seat 1;
``(seat s)``: the seat over the average seat), Elo in ``elo``; last, the field's bots without a
rated game (no rank, no Elo). ``los_matrix`` — per bot (rank
order) the LOS over every other bot, one column per bot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from arena.errors import ConfigError
from arena.reports.coded import codes, matrix, seat_sizes, weights
from arena.stats import field as fs
from arena.stats import bootci, luce

if TYPE_CHECKING:
    from arena.reports.render import ReportData

COLUMNS = ["rank", "label", "version", "elo", "elo_low", "elo_high", "games", "score", "av_op", "draw_ratio", "cfs"]


@dataclass(frozen=True)
class FieldFit:
    """The fitted field of a report: ``labels`` (bots of the games fitted, field order first),
    ``seats`` per game, ``boot`` (``arena.stats.field.Bootstrap`` or ``arena.stats.luce.Bootstrap``;
    ``None`` with ``reason`` when there is no fit); per bot ``games``, ``points``, ``draws`` and
    ``met`` ``(k, k)`` (games against each bot); ``duels`` the 2-player games fitted."""

    labels: tuple[str, ...]
    seats: int
    boot: fs.Bootstrap | luce.Bootstrap | None
    games: np.ndarray
    points: np.ndarray
    draws: np.ndarray
    met: np.ndarray
    reason: str = ""
    duels: fs.Duels | None = None


def _labels(values: list, order: list[str]) -> tuple[str, ...]:
    rank = {label: i for i, label in enumerate(order)}
    found = {lab for v in values for lab in v}
    return tuple(sorted(found, key=lambda lab: (rank.get(lab, len(rank)), lab)))


def fit_field(games: pd.DataFrame, order: list[str], seats: int, seed: int = 1,
              replicates: int = fs.REPLICATES) -> FieldFit:
    """Fit the games with ``seats`` seats (the tournament's) of the store's games frame
    (``seats``, ``ranks``, ``series``); ``seed`` seeds the bootstrap."""
    sizes = seat_sizes(games)
    sub = games if bool((sizes == seats).all()) else games[sizes == seats]  # no copy of a million rows
    sc, sv = codes(sub, "seats")
    rc, rv = codes(sub, "ranks")
    labels = _labels(sv, order)
    k = len(labels)
    empty = np.zeros(k)
    if k < 2 or seats < 2:
        return FieldFit(labels, seats, None, empty, empty, empty, np.zeros((k, k)), "fewer than two bots")
    pos = {lab: i for i, lab in enumerate(labels)}
    bots = np.array([[pos[lab] for lab in v] for v in sv], np.int64)[sc]
    distinct = matrix(rv, seats, np.int64)
    n = weights(sub)  # 1 a game: the store's games frame, not a grouped one
    # per bot: games, points (k - place)/(k - 1) with tied places averaged, draws (a shared first),
    # worked out once per distinct rank list (a million games: no array of them per step)
    tied = (distinct[:, :, None] == distinct[:, None, :]).sum(axis=2)
    pts = (seats - (distinct + (tied - 1) / 2)) / (seats - 1)
    shared = (distinct == 1) & (tied > 1)
    g = np.bincount(bots.ravel(), weights=np.repeat(n, seats), minlength=k)
    p = np.bincount(bots.ravel(), weights=(pts[rc] * n[:, None]).ravel(), minlength=k)
    d = np.bincount(bots.ravel(), weights=(shared[rc] * n[:, None]).ravel(), minlength=k)
    met = np.zeros((k, k))
    for s in range(seats):
        for t in range(seats):
            if s != t:
                np.add.at(met, (bots[:, s], bots[:, t]), n)
    del n, pts, shared
    pairing_key = np.sort(bots, axis=1) @ (k ** np.arange(seats))[::-1]
    width = int(sub["series"].max()) + 1 if len(sub) else 1
    series = np.unique(pairing_key, return_inverse=True)[1].ravel() * width + sub["series"].to_numpy(np.int64)
    del pairing_key
    duels = None
    try:
        if seats == 2:  # each distinct rank list's points, then a game's (a million games: no rank array)
            first = np.where(distinct[:, 0] < distinct[:, 1], 1.0, np.where(distinct[:, 0] == distinct[:, 1], 0.5, 0.0))
            duels = fs.Duels.from_games(labels, bots[:, 0], bots[:, 1], first[rc], series)
            boot: fs.Bootstrap | luce.Bootstrap = fs.bootstrap(duels, replicates, seed, log_odds=True)
        else:
            boot = luce.bootstrap(luce.Rankings.from_games(labels, bots, distinct[rc], series), replicates, seed)
    except fs.NotConnected as exc:
        return FieldFit(labels, seats, None, g, p, d, met, str(exc), duels)
    return FieldFit(labels, seats, boot, g, p, d, met, "", duels)


def field_of(data: ReportData) -> FieldFit:
    """``fit_field`` of a report's games, once per ``data`` (kept on it)."""
    cached = data._tables.get("field_fit")
    if cached is None:
        seed = int(data.tournament.get("seed") or 1)
        cached = data._tables["field_fit"] = fit_field(data.games, data.order, data.num_players, seed)
    return cached


def anchor_index(fit: FieldFit, anchor: tuple[str, float] | None) -> tuple[int | None, float]:
    """The anchored bot's index and Elo (``None``, 0: mean 0).

    Raises:
        ConfigError: an anchor that is no bot of the fitted games (the message lists them).
    """
    if anchor is None:
        return None, 0.0
    name, value = anchor
    if name not in fit.labels:
        raise ConfigError(f"--anchor {name}={value:g}: no bot {name!r} among the rated games; "
                          f"accepted: {', '.join(fit.labels)}")
    return fit.labels.index(name), value


def field_tables(data: ReportData) -> dict[str, pd.DataFrame]:
    """The ``ratings`` and ``los_matrix`` tables of ``data`` (module docstring).

    Raises:
        ConfigError: a bad ``data.anchor``.
    """
    tables = _field_tables(data)
    status = league_status(data)
    if status is not None:
        tables["ratings"].insert(2, "status", [status.get(lab) for lab in tables["ratings"]["label"]])
    return tables


def league_status(data: ReportData) -> dict[str, str] | None:
    """A league's bots (``arena.tournament.league``): label -> ``active``, ``retired`` or
    ``candidate`` (not placed yet); ``None`` for a tournament whose members never changed (or
    data not loaded from a store). Read once per ``data``."""
    if "league" not in data._tables:
        from arena.results.membership import read_league, statuses

        events = read_league(data.path) if data.path is not None else []
        by_name = statuses(events)
        versions = data.tournament.get("versions") or {}
        data._tables["league"] = None if not events else {
            label: by_name.get(str((versions.get(label) or {}).get("bot") or label), "active")
            for label in data.order}
    return data._tables["league"]


def _apart(order: np.ndarray, labels: tuple[str, ...], status: dict[str, str] | None) -> list[list[int]]:
    """``order`` (bot indexes, best first) as the groups the field table shows apart: the
    active bots (candidates among them), then the retired ones (a league's); one group
    otherwise."""
    if status is None:
        return [list(order)]
    retired = [i for i in order if status.get(labels[i]) == "retired"]
    return [[i for i in order if i not in set(retired)], retired]


def _field_tables(data: ReportData) -> dict[str, pd.DataFrame]:
    fit = field_of(data)
    k = len(fit.labels)
    at, value = anchor_index(fit, data.anchor)
    versions = data.tournament.get("versions") or {}
    idle = [lab for lab in data.order if lab not in fit.labels]  # field bots without a rated game
    if fit.boot is None:
        labels = [*fit.labels, *idle]
        games = np.r_[fit.games, np.zeros(len(idle))]
        rows = pd.DataFrame({"rank": pd.array([pd.NA] * len(labels), dtype="Int64"), "label": labels,
                             "version": [int((versions.get(lab) or {}).get("version") or 1) for lab in labels],
                             "elo": math.nan, "elo_low": math.nan, "elo_high": math.nan,
                             "games": games.astype(int), "score": _ratio(np.r_[fit.points, games[k:]], games),
                             "av_op": math.nan, "draw_ratio": _ratio(np.r_[fit.draws, games[k:]], games),
                             "cfs": math.nan})
        return {"ratings": rows[COLUMNS], "los_matrix": pd.DataFrame({"label": list(fit.labels)})}
    est, reps = fit.boot.estimate, fit.boot.replicates
    elo = fs.anchored(est[:k], at, value)
    reps_elo = fs.anchored(reps[:, :k], at, value)
    low, high = _intervals(fit, at, value)
    los = fs.los_matrix(reps_elo)
    groups = _apart(fs.ranking(elo, fit.labels), fit.labels, league_status(data))
    order = np.array([i for g in groups for i in g], np.int64)
    opp = fit.met @ elo / np.where(fit.games > 0, fit.met.sum(axis=1), 1)
    cfs = np.full(k, np.nan)
    for g in groups:  # to the next entry of its group: a retired bot is not ranked among the active ones
        cfs[g[:-1]] = los[g[:-1], g[1:]]
    rank = np.r_[np.arange(1, len(groups[0]) + 1), np.full(k - len(groups[0]), -1)]
    table = pd.DataFrame({
        "rank": pd.array(rank, dtype="Int64").astype("Int64"), "label": [fit.labels[i] for i in order],
        "version": [int((versions.get(fit.labels[i]) or {}).get("version") or 1) for i in order],
        "elo": elo[order], "elo_low": low[order], "elo_high": high[order], "games": fit.games[order].astype(int),
        "score": _ratio(fit.points, fit.games)[order], "av_op": opp[order],
        "draw_ratio": _ratio(fit.draws, fit.games)[order], "cfs": cfs[order]})
    if fit.seats > 2:
        tr = data.ratings().set_index("label")
        table["mu"] = table["label"].map(tr["mu"]).astype(float)
        table["sigma"] = table["label"].map(tr["sigma"]).astype(float)
    table = pd.concat([table, _seat_rows(fit, est[k:], low[k:], high[k:]),
                       pd.DataFrame({"label": idle, "games": 0,
                                     "version": [int((versions.get(lab) or {}).get("version") or 1) for lab in idle]})],
                      ignore_index=True)
    table["rank"] = table["rank"].astype("Int64").mask(table["rank"] == -1)  # retired: no rank among the active
    table["version"] = table["version"].astype("Int64")
    table["games"] = table["games"].astype("Int64")
    names = [fit.labels[i] for i in order]
    matrix_ = pd.DataFrame(los[np.ix_(order, order)], columns=names)
    for i in range(k):
        matrix_.iat[i, i] = math.nan
    matrix_.insert(0, "label", names)
    return {"ratings": table, "los_matrix": matrix_}


def _seat_rows(fit: FieldFit, terms: np.ndarray, low: np.ndarray, high: np.ndarray) -> pd.DataFrame:
    """The seat terms' rows: ``(first move)`` (two seats: seat 0 over seat 1, the 2-player
    fit's ``f``) or ``(seat s)`` (over the average seat), with their intervals."""
    if fit.seats == 2:
        names = ["(first move)"]
    else:
        names = [f"(seat {s})" for s in range(fit.seats)]
    total = int(fit.games.sum() // fit.seats)
    return pd.DataFrame({"label": names, "elo": terms, "elo_low": low, "elo_high": high, "games": total})


def first_move_term(fit: FieldFit) -> tuple[float, float, float]:
    """The first-move term of a 2-player ``fit`` as its ``(first move)`` row shows it: Elo
    points (seat 0 over seat 1) and its 95% bootstrap interval; NaN without a fit."""
    if fit.boot is None or fit.seats != 2:
        return math.nan, math.nan, math.nan
    k = len(fit.labels)
    low, high = _intervals(fit, None, 0.0)
    return float(fit.boot.estimate[k]), float(low[k]), float(high[k])


def _intervals(fit: FieldFit, at: int | None, value: float) -> tuple[np.ndarray, np.ndarray]:
    """The 95% intervals of the ratings (anchored: bot ``at`` at ``value``, ``None``: mean
    ``value``) and then of the seat terms: BCa for a 2-player fit (``arena.stats.bootci``), the
    percentile interval for a Plackett–Luce fit."""
    assert fit.boot is not None
    k = len(fit.labels)
    if fit.seats == 2 and fit.duels is not None and isinstance(fit.boot, fs.Bootstrap):
        return bootci.field_intervals(fit.duels, fit.boot, at, value)
    reps = fit.boot.replicates
    return fs.intervals(np.c_[fs.anchored(reps[:, :k], at, value), reps[:, k:]])


def _marks(fit: FieldFit, data: ReportData) -> list[str]:
    """A line naming the bots whose interval may cover less than 95% (``bootci.pulled``: the
    prior moves their Elo by more than 0.4 standard errors), or none."""
    if fit.seats != 2 or fit.duels is None or not isinstance(fit.boot, fs.Bootstrap):
        return []
    at, _ = anchor_index(fit, data.anchor)
    marked = bootci.pulled(fit.duels, fit.boot, at)
    if not marked.any():
        return []
    pull = bootci.prior_pull(fit.duels, fit.boot, at)
    names = ", ".join(f"{fit.labels[i]} ({pull[i]:+.1f})" for i in np.flatnonzero(marked))
    return [f"Intervals that may cover less than 95%: {names}: the prior moves these Elo by more than "
            f"{bootci.PULL_LIMIT:g} standard errors (few games against distant bots; see docs/statistics.md, "
            f"\"Coverage of the intervals\")."]


def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.where(b > 0, a / np.where(b > 0, b, 1), np.nan)


def note(data: ReportData) -> list[str]:
    """The lines under the field table: the model, the anchor, the bootstrap and its error."""
    fit = field_of(data)
    if fit.boot is None:
        return [f"no field fit: {fit.reason}"]
    b = len(fit.boot.replicates)
    anchor = (f"{data.anchor[0]} anchored at {data.anchor[1]:g}" if data.anchor else "mean 0")
    model = ("Bradley-Terry, draws half a point, first-move term" if fit.seats == 2
             else "Plackett-Luce with seat terms (TrueSkill mu, sigma beside)")
    unit = "colour-swapped pairs" if fit.seats == 2 else "the games of a start, seats rotated"
    method = "BCa" if fit.seats == 2 else "percentile"
    return [f"Elo: {model}, {fs.PRIOR_DRAWS:g} virtual draw between every two bots that met as prior, {anchor}. "
            f"95% intervals ({method}) and CFS = LOS over the next entry from {b} bootstrap fits over series "
            f"({unit} resampled together; Monte-Carlo error of a CFS near 95%: "
            f"±{100 * math.sqrt(0.95 * 0.05 / max(b, 1)):.1f} points). See docs/statistics.md.", *_marks(fit, data),
            *_league_note(data)]


def _league_note(data: ReportData) -> list[str]:
    """A league's line under the field table: its retired bots and candidates, if any."""
    status = league_status(data) or {}
    retired = [lab for lab, s in status.items() if s == "retired"]
    placing = [lab for lab, s in status.items() if s == "candidate"]
    parts = [f"retired (not scheduled any more; their games count, ranked apart below the active bots): "
             f"{', '.join(retired)}"] * bool(retired)
    parts += [f"candidates still placing (a gauntlet against the active bots): {', '.join(placing)}"] * bool(placing)
    return ["League: " + "; ".join(parts) + "."] if parts else []
