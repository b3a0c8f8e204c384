"""Report tables as text for people (terminal and Markdown); CSV files keep raw numbers.

Fractions show as percents, p-values with 3 significant digits (``< 1e-300`` below that, never
``0``: ``format_p``), missing values as ``-``;
column names become short headers, and the first-move table folds seat 0's wins, losses and
draws into ``W-L-D`` (cutechess-cli's and fastchess's order, ``WLD``) and its interval into one
``95% CI`` cell; the Ricochet table folds its failed-answer counts into one cell.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pandas as pd

from arena.reports.payoff_field import display as payoff_display
from arena.reports.payoffs import TITLES as PAYOFF_TABLES

_FRACTIONS = {"win_share", "finished", "ci_low", "ci_high", "draw_rate", "share", "solve_rate", "score", "draw_ratio",
              "los", "score_low", "score_high", "share_low", "share_high", "first_tie_rate", "decisive",
              "decisive_low", "decisive_high", "first_shared", "all_tied", "lead_change_rate", "decisive_pairs",
              "variance_share", "first_score", "cfs", "mass", "mass_low", "mass_high", "score_ab", "score_bc",
              "score_ca"}
#: figures in a bot's own units (evaluations) or the game's (exploitability): 3 significant digits
_SIGNIFICANT = {"drama", "drama_max", "exploitability", "nash_conv"}
_FRACTIONS |= {"cached", "illegal_1", "illegal_2", "illegal_3"}  # the llm section (arena.reports.llm)
_SIGNIFICANT |= {"cost", "latency_p50", "latency_p95"}
_P_VALUES = {"p_value", "p_holm"}
_TWO_DECIMALS = {"mu", "sigma", "conservative", "mean_rank", "mean_depth", "chi2",
                 "mean_length", "mean_excess", "chips_per_game", "mean_score", "mean_points", "lead_changes",
                 "branching", "mean"}

#: Short headers of the displayed tables (CSV files keep the column names).
HEADERS = {
    "label": "bot", "mu": "μ", "conservative": "μ-3σ", "sigma": "σ", "elo": "Elo", "wins": "W", "draws": "D",
    "losses": "L", "score_pct": "score %", "win_share": "win share", "p_value": "p",
    "draw_rate": "draws", "mean_rank": "mean rank", "mean_score": "mean score",
    "mean_nodes": "nodes/move", "sd_nodes": "sd", "mean_depth": "depth", "mean_seconds": "s/move",
    "max_seconds": "max s", "nodes_per_second": "nodes/s", "chips_per_game": "chips/game",
    "rounds_won": "won", "solve_rate": "solve rate", "mean_length": "length",
    "mean_excess": "excess", "p_holm": "p (Holm)", "draw_ratio": "draws", "elo_error": "±",
    "nelo": "nElo", "best_score": "best", "worst_score": "worst", "mean_plies": "plies", "los": "LOS", "DD_WL": "DD+WL",
    "p_method": "test", "first_shared": "ties for first", "all_tied": "all tied",
    "sd_plies": "sd", "p10_plies": "p10", "median_plies": "median", "p90_plies": "p90", "mean_points": "points",
    "lead_changes": "lead changes", "lead_change_rate": "per ply", "drama_max": "drama max",
    "self_play": "self-play", "ply_from": "from ply", "ply_to": "to ply",
    "decisive_pairs": "decisive pairs", "variance_share": "variance share", "first_score": "seat 0 score",
    "seat_scores": "seat scores", "gain_per_unit": "gain/unit", "cfs": "CFS", "av_op": "Av.Op", "nash_elo": "Nash Elo",
    "nash_conv": "NashConv", "info_states": "info states",
}
#: Per-table headers where the generic one would mislead.
TABLE_HEADERS = {
    "ratings": {"version": "v", "score": "score"},
    "seat_advantage": {"wins": "wins", "ci_low": "CI low", "ci_high": "CI high"},
    "ricochet": {"mean_seconds": "s/round"},
    "fault_summary": {"games": "games", "example": "first game"},
    "game": {"mean_plies": "mean plies"},
}


def format_value(column: str, value) -> str:
    """One cell as text: percents for fractions, 3 significant digits for p-values and
    seconds, thousands separators for node counts, ``-`` when missing."""
    if value is None or (not isinstance(value, (str, list, tuple)) and pd.isna(value)):
        return "-"
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, float):
        return float_format(column)(value)
    return str(value)


#: p-values below this print as ``< 1e-300``: a double holds them (down to about 5e-324) only
#: with fewer digits, and a tail sum that underflowed is exactly 0, which no test can give.
P_FLOOR = 1e-300


def format_p(p: float) -> str:
    """A p-value as text: 3 significant digits, ``< 1e-300`` below ``P_FLOOR`` (an underflowed
    tail, 0 included), ``-`` when missing."""
    if p != p:
        return "-"
    return f"< {P_FLOOR:g}" if p < P_FLOOR else f"{p:.3g}"


def float_format(column: str) -> Callable[[float], str]:
    """How ``format_value`` writes a (not missing) float of ``column``."""
    if column in _FRACTIONS:
        return lambda v: f"{100 * v:.1f}%"
    if column in _P_VALUES:
        return format_p
    if column.endswith("seconds") or column in _SIGNIFICANT:
        return lambda v: f"{v:.3g}"
    if column in _TWO_DECIMALS or column == "wins":
        return lambda v: f"{v:.2f}"
    if column == "chips":
        return lambda v: f"{v:.0f}" if v.is_integer() else f"{v:.1f}"
    if column in ("mean_nodes", "sd_nodes", "nodes_per_second"):
        return lambda v: f"{v:,.0f}"
    return lambda v: f"{v:.1f}"


def format_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every cell as display text (same columns): ``format_value`` of each
    cell, with one format per float or integer column."""
    shown = pd.DataFrame(index=range(len(frame)))
    for col in frame.columns:
        values, kind = frame[col].tolist(), frame[col].dtype.kind
        if kind == "f" and isinstance(frame[col].dtype, np.dtype):
            fmt = float_format(str(col))
            shown[col] = ["-" if v != v else fmt(v) for v in values]
        elif kind in ("i", "u") and isinstance(frame[col].dtype, np.dtype):
            shown[col] = [str(v) for v in values]
        else:
            shown[col] = [format_value(str(col), v) for v in values]
    return shown


def _is_numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and series.dtype != bool


_FAILS = "fails i/n/l/c"


#: The header of a folded wins-losses-draws cell: the order cutechess-cli and fastchess print
#: (``Score of A vs B: W - L - D``), the same in every table and the live line.
WLD = "W-L-D"


def _wld(frame: pd.DataFrame) -> list[str]:
    """``wins-losses-draws`` of each row, e.g. ``11-5-4``."""
    return [f"{w}-{lo}-{d}" for w, lo, d in zip(frame["wins"], frame["losses"], frame["draws"])]


def _interval(low: float, high: float) -> str:
    if pd.isna(low) or pd.isna(high):
        return "-"
    return f"{100 * low:.1f}–{100 * high:.1f}%"


def _elo(elo: float, low: float, high: float) -> str:
    """``+34.9 [+13.6, +56.2]`` (or the interval alone when ``elo`` is NaN); ``-`` if missing."""
    if pd.isna(low) or pd.isna(high):
        return "-" if pd.isna(elo) else f"{elo:+.1f}"
    interval = f"[{low:+.1f}, {high:+.1f}]"
    return interval if pd.isna(elo) else f"{elo:+.1f} {interval}"


def _pm(value: float, error: float) -> str:
    """``+12.3 ± 4.5``; the value alone without an error; ``-`` if missing."""
    if pd.isna(value):
        return "-"
    return f"{value:+.1f}" if pd.isna(error) else f"{value:+.1f} ± {error:.1f}"


def display_frame(name: str, frame: pd.DataFrame) -> tuple[pd.DataFrame, list[bool]]:
    """Table ``name`` as text cells with short headers, and per column whether to
    right-align it (numbers)."""
    shown = format_frame(frame)
    right = {col: _is_numeric(frame[col]) for col in frame.columns}
    if name == "first_move" and len(frame) and "first_elo" in frame:
        shown[WLD] = _wld(frame)
        shown["95% CI"] = [_interval(a, b) for a, b in zip(frame["ci_low"], frame["ci_high"])]
        shown["pair CI"] = [_interval(a, b) for a, b in zip(frame["share_low"], frame["share_high"])]
        shown["score CI"] = [_interval(a, b) for a, b in zip(frame["score_low"], frame["score_high"])]
        shown["first-move Elo"] = [_elo(e, lo, hi) for e, lo, hi in
                                   zip(frame["first_elo"], frame["first_low"], frame["first_high"])]
        shown = shown[["scope", "games", WLD, "win_share", "95% CI", "pair CI", "p_value", "p_holm",
                       "draw_rate", "score_pct", "score CI", "first-move Elo"]]
        right.update({WLD: True, "95% CI": True, "pair CI": True, "score CI": True, "first-move Elo": True})
    elif name == "first_move" and len(frame):  # the plain table of ``tables.first_move``
        shown[WLD] = _wld(frame)
        shown["95% CI"] = [_interval(a, b) for a, b in zip(frame["ci_low"], frame["ci_high"])]
        shown = shown[["scope", "games", WLD, "win_share", "95% CI", "p_value",
                       "draw_rate", "score_pct"]]
        right.update({WLD: True, "95% CI": True})
    if name == "pairs" and len(frame):
        shown[WLD] = _wld(frame)
        shown["pentanomial"] = [" ".join(str(int(x)) for x in counts) for counts in
                                zip(*(frame[c].tolist() for c in ("LL", "LD", "DD_WL", "WD", "WW")))]
        shown["Elo"] = [_elo(e, lo, hi) for e, lo, hi in zip(frame["elo"], frame["elo_low"], frame["elo_high"])]
        shown["nElo"] = [_pm(v, err) for v, err in zip(frame["nelo"], frame["nelo_error"])]
        shown = shown[["pairing", "games", WLD, "score", "draw_ratio", "pairs", "pentanomial", "Elo",
                       "elo_error", "nElo", "los", "p_value", "p_method", "p_holm"]]
        right.update({WLD: True, "pentanomial": True, "Elo": True, "nElo": True})
    if name == "game" and len(frame):
        shown["95% CI"] = [_interval(a, b) for a, b in zip(frame["decisive_low"], frame["decisive_high"])]
        shown = shown[["scope", "games", "decisive", "95% CI", "first_shared", "all_tied", "mean_plies", "sd_plies",
                       "p10_plies", "median_plies", "p90_plies"]]
        right["95% CI"] = True
    if name == "elo" and len(frame):
        shown["95% CI"] = [_elo(math.nan, lo, hi) for lo, hi in zip(frame["elo_low"], frame["elo_high"])]
        shown["elo"] = ["-" if e != e else f"{e:+.1f}" for e in frame["elo"]]  # signed: ratings about a mean of 0
        shown = shown[["label", "games", "elo", "95% CI"]]
        right.update({"elo": True, "95% CI": True})
    if name in ("ratings", "nash", "alpharank", "cycles") and len(frame):
        shown, right = _field(name, frame, shown, right)
    if name == "los_matrix" and len(frame):
        for col in frame.columns[1:]:
            shown[col] = ["-" if pd.isna(v) else f"{100 * v:.1f}%" for v in frame[col]]
    if name == "ricochet" and len(frame):
        shown[_FAILS] = ["/".join(str(int(x)) for x in counts) for counts in
                         zip(*(frame[c].tolist() for c in ("invalid", "none", "late", "crash")))]
        shown = shown[["label", "games", "chips", "rounds", "rounds_won", "solve_rate",
                       "mean_length", "mean_excess", "mean_seconds", _FAILS]]
        right[_FAILS] = True
    if name in _STUDY and len(frame):
        shown, right = _STUDY[name](frame, shown, right)
    if name in PAYOFF_TABLES and len(frame):
        shown, right = payoff_display(name, frame, shown, right)
    headers = {**HEADERS, **TABLE_HEADERS.get(name, {})}
    flags = [right.get(col, False) for col in shown.columns]
    return shown.rename(columns=lambda c: headers.get(str(c), str(c))), flags


#: a start position's text is cut to this many characters on screen (CSV and JSON keep it whole)
START_WIDTH = 28


def _start(text: str) -> str:
    """A long position text as its head and tail (positions of one game often share a prefix)."""
    if len(text) <= START_WIDTH:
        return text
    head = (START_WIDTH - 1) // 2
    return text[:head] + "…" + text[len(text) - (START_WIDTH - 1 - head):]


def _openings(frame: pd.DataFrame, shown: pd.DataFrame, right: dict) -> tuple[pd.DataFrame, dict]:
    shown["start"] = [_start(str(t)) for t in frame["start"]]
    shown["score CI"] = [_interval(a, b) for a, b in zip(frame["score_low"], frame["score_high"])]
    shown["bias"] = ["-" if pd.isna(b) else f"{100 * b:+.1f}%" for b in frame["bias"]]
    cols = ["position", "start", "games"]
    if "wins" in frame:
        shown[WLD] = _wld(frame)
        shown["95% CI"] = [_interval(a, b) for a, b in zip(frame["ci_low"], frame["ci_high"])]
        cols += [WLD, "score", "score CI", "bias", "win_share", "95% CI"]
    else:
        cols += ["seat", "score", "score CI", "bias", "seat_scores"]
    cols[cols.index("bias") + 1:cols.index("bias") + 1] = ["p_value", "p_holm", "flagged"]
    shown = shown[cols + ["draw_rate", "decisive_pairs", "variance_share"]]
    right.update({WLD: True, "score CI": True, "bias": True, "95% CI": True})
    return shown, right


def _ladder(frame: pd.DataFrame, shown: pd.DataFrame, right: dict) -> tuple[pd.DataFrame, dict]:
    shown["value"] = [f"{v:g}" for v in frame["value"]]
    shown["x"] = [f"{v:.2f}" for v in frame["x"]]
    shown["Elo (BT)"] = [_elo(e, lo, hi) for e, lo, hi in zip(frame["elo"], frame["elo_low"], frame["elo_high"])]
    shown["fitted"] = ["-" if pd.isna(v) else f"{v:+.1f}" for v in frame["elo_fit"]]
    right.update({"Elo (BT)": True, "fitted": True, "value": True, "x": True})
    return shown[["rung", "label", "value", "x", "games", "score", "Elo (BT)", "fitted"]], right


def _steps(frame: pd.DataFrame, shown: pd.DataFrame, right: dict) -> tuple[pd.DataFrame, dict]:
    shown["gain"] = [_elo(e, lo, hi) for e, lo, hi in zip(frame["gain"], frame["gain_low"], frame["gain_high"])]
    shown["gain_per_unit"] = ["-" if pd.isna(v) else f"{v:+.1f}" for v in frame["gain_per_unit"]]
    shown["seat 0 CI"] = [_interval(a, b) for a, b in zip(frame["first_score_low"], frame["first_score_high"])]
    shown["first-move Elo"] = [_elo(e, lo, hi) for e, lo, hi in
                               zip(frame["first_elo"], frame["first_low"], frame["first_high"])]
    right.update({"gain": True, "gain_per_unit": True, "seat 0 CI": True, "first-move Elo": True})
    return shown[["step", "games", "pairs", "gain", "gain_per_unit", "draw_rate", "first_score", "seat 0 CI",
                  "first-move Elo"]], right


def _field(name: str, frame: pd.DataFrame, shown: pd.DataFrame, right: dict) -> tuple[pd.DataFrame, dict]:
    """The field table and the non-transitivity tables (``arena.reports.field``, ``cycles``)."""
    if name == "ratings":
        shown["Elo"] = ["-" if pd.isna(e) else f"{e:+.1f}" for e in frame["elo"]]
        shown["95% interval"] = [_elo(math.nan, lo, hi) for lo, hi in zip(frame["elo_low"], frame["elo_high"])]
        shown["Av.Op"] = ["-" if pd.isna(v) else f"{v:+.1f}" for v in frame["av_op"]]
        cols = ["rank", "label", *(["status"] if "status" in frame else []), *(["engine"] if "engine" in frame else []),
                *(["version"] if (frame["version"].fillna(1) > 1).any() else []), "Elo",
                "95% interval", "games", "score", "Av.Op", "draw_ratio", "cfs"]
        cols += [c for c in ("mu", "sigma") if c in frame]
        right.update({"Elo": True, "95% interval": True, "Av.Op": True})
        return shown[cols], right
    if name == "nash":
        shown["Nash Elo"] = [_elo(v, lo, hi) for v, lo, hi in zip(frame["nash_elo"], frame["nash_low"],
                                                                    frame["nash_high"])]
    if name in ("nash", "alpharank"):
        shown["mass 95%"] = [_interval(lo, hi) for lo, hi in zip(frame["mass_low"], frame["mass_high"])]
        cols = ["rank", "label", *(["Nash Elo"] if name == "nash" else []), "mass", "mass 95%"]
        right.update({"Nash Elo": True, "mass 95%": True})
        return shown[cols], right
    for edge, a in {"ab": "a", "bc": "b", "ca": "c"}.items():
        shown[f"{edge} score"] = [f"{x} {100 * v:.0f}% ({int(n)})" for x, v, n in
                                  zip(frame[a], frame[f"score_{edge}"], frame[f"games_{edge}"])]
        right[f"{edge} score"] = True
    return shown[["cycle", "ab score", "bc score", "ca score", "p_value", "p_holm"]], right


#: the study tables' own layouts (start positions, the strength ladder)
_STUDY = {"openings": _openings, "ladder": _ladder, "ladder_steps": _steps}
