"""The strength-ladder tables of a 2-player tournament whose field is one bot at several
budgets (``arena ladder``, or any field of that shape): Elo per rung, per step and per doubling
of the budget, and the first-move advantage at each step with a test of its trend
(``docs/statistics.md`` "Strength ladder"; the model is ``arena.stats.ladder``).

A field is a ladder when every bot has the same kind and options but one, whose values are
numbers, all different (``family``); the rungs are the bots in increasing order of that value.
A **step** is two neighbouring rungs; only the steps that met appear in ``ladder_steps``, but
every 2-player game of the field enters the fit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from arena.errors import ArenaError
from arena.reports import pairs
from arena.reports.coded import codes, matrix, seat_sizes
from arena.reports.display import format_p
from arena.stats.ladder import LOG2, axis, fit_ladder
from bots.registry import parse_spec


@dataclass(frozen=True)
class Family:
    """The rungs of a ladder field.

    Attributes:
        kind: the bots' kind; param: the option that varies.
        labels: the rungs' labels, weakest (smallest value) first.
        values: each rung's value of ``param``.
        x: each rung's strength coordinate (``arena.stats.ladder.axis``).
        scale: ``log2`` (x in doublings) or ``linear`` (x in units of ``param``).
    """

    kind: str
    param: str
    labels: tuple[str, ...]
    values: tuple[float, ...]
    x: tuple[float, ...]
    scale: str

    @property
    def unit(self) -> str:
        """What one unit of ``x`` is, in words: ``doubling of playouts``, ``+1 depth``."""
        return f"doubling of {self.param}" if self.scale == LOG2 else f"+1 {self.param}"


def family(bots: dict[str, str]) -> Family | None:
    """The ladder of a field (label -> spec, as stored), or ``None`` when the field is not one
    bot at two or more numeric values of one option."""
    if len(bots) < 2:
        return None
    try:
        specs = {label: parse_spec(text) for label, text in bots.items()}
    except ArenaError:
        return None
    first = next(iter(specs.values()))
    if any(s.kind != first.kind or set(s.options) != set(first.options) for s in specs.values()):
        return None
    varying = [k for k in first.options if len({s.options[k] for s in specs.values()}) > 1]
    if len(varying) != 1:
        return None
    param = varying[0]
    try:
        value = {label: float(s.options[param]) for label, s in specs.items()}
    except ValueError:
        return None
    if len(set(value.values())) != len(value) or not all(math.isfinite(v) for v in value.values()):
        return None
    labels = sorted(value, key=value.__getitem__)
    x, scale = axis([value[lab] for lab in labels])
    return Family(first.kind, param, tuple(labels), tuple(value[lab] for lab in labels), tuple(x), scale)


def _games(games: pd.DataFrame, fam: Family) -> pd.DataFrame:
    """One row per distinct 2-player game between rungs: ``x0``, ``x1`` (the seat bots'
    coordinates), ``points`` (seat 0's), ``cluster`` (pairing and series)."""
    distinct = games[~games["copy"].to_numpy(bool)] if "copy" in games.columns else games
    two = distinct[seat_sizes(distinct) == 2]
    if two.empty:
        return pd.DataFrame(columns=["x0", "x1", "points", "cluster"])
    sc, sv = codes(two, "seats")
    rc, rv = codes(two, "ranks")
    seats = matrix(sv, 2, object)[sc]
    ranks = matrix(rv, 2, float)[rc]
    where = {lab: x for lab, x in zip(fam.labels, fam.x)}
    ok = np.array([a in where and b in where for a, b in seats], dtype=bool)
    seats, ranks, series = seats[ok], ranks[ok], two["series"].to_numpy()[ok]
    points = np.where(ranks[:, 0] < ranks[:, 1], 1.0, np.where(ranks[:, 0] == ranks[:, 1], 0.5, 0.0))
    cluster = [f"{min(a, b)}|{max(a, b)}|{s}" for (a, b), s in zip(seats, series)]
    return pd.DataFrame({"x0": [where[a] for a in seats[:, 0]], "x1": [where[b] for b in seats[:, 1]],
                         "points": points, "cluster": cluster})


def ladder_tables(games: pd.DataFrame, fam: Family, order: Sequence[str] | None = None) -> dict[str, pd.DataFrame]:
    """The tables ``ladder`` (per rung), ``ladder_steps`` (per step that met) and
    ``ladder_fit`` (one row: the model's figures) of the store's games frame ``games``.

    ``ladder``: ``rung`` (1-based), ``label``, ``value``, ``x``, ``games``, ``score`` (fraction),
    ``elo``, ``elo_low``, ``elo_high`` (Bradley–Terry, mean 0), ``elo_fit`` (the fitted line,
    mean 0 over the rungs).
    ``ladder_steps``: ``step`` (``"a -> b"``), ``lower``, ``upper``, ``level`` (mean x),
    ``games``, ``pairs``, ``gain``, ``gain_low``, ``gain_high`` (Elo of the upper rung over the
    lower, pentanomial), ``gain_per_unit`` (gain / Δx), ``draw_rate``, seat 0's ``first_score``,
    ``first_score_low``, ``first_score_high`` (series-clustered) and the step's first-move Elo
    ``first_elo``, ``first_low``, ``first_high`` (Bradley–Terry of its games).
    ``ladder_fit``: ``param``, ``scale``, ``unit``, ``elo_per_unit`` with ``low``, ``high``,
    ``p_value``; ``first_move`` at ``mean_level`` with ``first_low``, ``first_high``;
    ``trend`` (change of the first-move Elo per unit) with ``trend_low``, ``trend_high``,
    ``trend_p``; ``games``, ``series``, ``reason`` (why there is no fit; empty when fitted).
    """
    g = _games(games, fam)
    fit = fit_ladder(g["x0"].to_numpy(float), g["x1"].to_numpy(float), g["points"].to_numpy(float),
                     g["cluster"].tolist())
    return {"ladder": _rungs(games, fam, order, fit.per_unit), "ladder_steps": _steps(games, fam, order),
            "ladder_fit": pd.DataFrame([{
                "param": fam.param, "scale": fam.scale, "unit": fam.unit, "elo_per_unit": fit.per_unit,
                "low": fit.per_unit_low, "high": fit.per_unit_high, "p_value": fit.per_unit_p,
                "first_move": fit.first_move, "first_low": fit.first_low, "first_high": fit.first_high,
                "mean_level": fit.mean_level, "trend": fit.trend, "trend_low": fit.trend_low,
                "trend_high": fit.trend_high, "trend_p": fit.trend_p, "games": int(fit.games),
                "series": fit.clusters, "reason": fit.reason}])}


def _rungs(games: pd.DataFrame, fam: Family, order: Sequence[str] | None, per_unit: float) -> pd.DataFrame:
    distinct = games[~games["copy"].to_numpy(bool)] if "copy" in games.columns else games
    bt = pairs.bt_fit(distinct, order).table.set_index("label")
    played = {lab: 0 for lab in fam.labels}
    scored = {lab: 0.0 for lab in fam.labels}
    for row in pairs.bt_cells(distinct).itertuples(index=False):
        played[row.seat0] = played.get(row.seat0, 0) + int(row.n)
        played[row.seat1] = played.get(row.seat1, 0) + int(row.n)
        scored[row.seat0] = scored.get(row.seat0, 0.0) + float(row.points)
        scored[row.seat1] = scored.get(row.seat1, 0.0) + float(row.n - row.points)
    mean_x = float(np.mean(fam.x))
    rows = []
    for i, (lab, value, x) in enumerate(zip(fam.labels, fam.values, fam.x)):
        rows.append({"rung": i + 1, "label": lab, "value": value, "x": x, "games": played[lab],
                     "score": scored[lab] / played[lab] if played[lab] else math.nan,
                     "elo": bt["elo"].get(lab, math.nan), "elo_low": bt["elo_low"].get(lab, math.nan),
                     "elo_high": bt["elo_high"].get(lab, math.nan), "elo_fit": per_unit * (x - mean_x)})
    return pd.DataFrame(rows)


STEP_COLUMNS = ["step", "lower", "upper", "level", "games", "pairs", "gain", "gain_low", "gain_high", "gain_per_unit",
                "draw_rate", "first_score", "first_score_low", "first_score_high", "first_elo", "first_low",
                "first_high"]


def _steps(games: pd.DataFrame, fam: Family, order: Sequence[str] | None) -> pd.DataFrame:
    table = pairs.pair_table(games, order)
    extra = pairs.first_move_extras(games, order)
    rows = []
    for i in range(len(fam.labels) - 1):
        lower, upper = fam.labels[i], fam.labels[i + 1]
        match = table[((table["bot"] == lower) & (table["opponent"] == upper))
                      | ((table["bot"] == upper) & (table["opponent"] == lower))]
        if match.empty:
            continue
        m = match.iloc[0]
        up = m["bot"] == upper  # the pair table's Elo is its first bot's
        gain, low, high = (m["elo"], m["elo_low"], m["elo_high"]) if up else (-m["elo"], -m["elo_high"], -m["elo_low"])
        first = extra[extra["scope"] == m["pairing"]]
        f = first.iloc[0] if len(first) else pd.Series(dtype=float)
        dx = fam.x[i + 1] - fam.x[i]
        rows.append({"step": f"{lower} -> {upper}", "lower": lower, "upper": upper,
                     "level": (fam.x[i] + fam.x[i + 1]) / 2, "games": int(m["games"]), "pairs": int(m["pairs"]),
                     "gain": float(gain), "gain_low": float(low), "gain_high": float(high),
                     "gain_per_unit": float(gain) / dx, "draw_rate": float(m["draw_ratio"]),
                     "first_score": float(f.get("score", math.nan)),
                     "first_score_low": float(f.get("score_low", math.nan)),
                     "first_score_high": float(f.get("score_high", math.nan)),
                     "first_elo": float(f.get("first_elo", math.nan)), "first_low": float(f.get("first_low", math.nan)),
                     "first_high": float(f.get("first_high", math.nan))})
    return pd.DataFrame(rows, columns=STEP_COLUMNS)


def fit_line(fit: pd.DataFrame) -> str:
    """The ``ladder_fit`` row in one line, as the terminal and Markdown print it."""
    r = fit.iloc[0]
    if r["reason"]:
        return f"Ladder fit over {int(r['games'])} games: none ({r['reason']})."

    def elo(v: float, lo: float, hi: float) -> str:
        interval = f" [{lo:+.1f}, {hi:+.1f}]" if lo == lo and hi == hi else ""
        return f"{v:+.1f}{interval}"

    trend = ("trend untested (one step: needs three rungs)" if r["trend"] != r["trend"] else
             f"its change per {r['unit']} {elo(r['trend'], r['trend_low'], r['trend_high'])} Elo, "
             f"p = {format_p(r['trend_p'])} (Wald z, trend test)")
    return (f"Elo per {r['unit']}: {elo(r['elo_per_unit'], r['low'], r['high'])} (p = {format_p(r['p_value'])}); "
            f"first-move Elo at the mean level: {elo(r['first_move'], r['first_low'], r['first_high'])}; {trend}; "
            f"{int(r['games'])} games, {int(r['series'])} series, 95% intervals clustered by series.")
