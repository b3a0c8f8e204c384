"""Report tables as text for people (terminal and Markdown); CSV files keep raw numbers.

Fractions show as percents, p-values with 3 significant digits, missing values as ``-``;
column names become short headers, and the first-move table folds seat 0's wins, draws and
losses into ``W-D-L`` and its interval into one ``95% CI`` cell; the Ricochet table folds
its failed-answer counts into one cell.
"""

from __future__ import annotations

import pandas as pd

_FRACTIONS = {"win_share", "ci_low", "ci_high", "draw_rate", "share", "solve_rate"}
_TWO_DECIMALS = {"mu", "sigma", "conservative", "mean_rank", "mean_depth", "chi2",
                 "mean_length", "mean_excess", "chips_per_game", "mean_score"}

#: Short headers of the displayed tables (CSV files keep the column names).
HEADERS = {
    "label": "bot", "conservative": "mu-3σ", "sigma": "σ", "wins": "W", "draws": "D",
    "losses": "L", "score_pct": "score %", "win_share": "win share", "p_value": "p",
    "draw_rate": "draws", "mean_rank": "mean rank", "mean_score": "mean score",
    "mean_nodes": "nodes/move", "mean_depth": "depth", "mean_seconds": "s/move",
    "max_seconds": "max s", "nodes_per_second": "nodes/s", "chips_per_game": "chips/game",
    "rounds_won": "won", "solve_rate": "solve rate", "mean_length": "length",
    "mean_excess": "excess",
}
#: Per-table headers where the generic one would mislead.
TABLE_HEADERS = {
    "seat_advantage": {"wins": "wins"},
    "ricochet": {"mean_seconds": "s/round"},
    "fault_summary": {"games": "games", "example": "first game"},
}


def format_value(column: str, value) -> str:
    """One cell as text: percents for fractions, 3 significant digits for p-values and
    seconds, thousands separators for node counts, ``-`` when missing."""
    if value is None or (not isinstance(value, (str, list, tuple)) and pd.isna(value)):
        return "-"
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, float):
        if column in _FRACTIONS:
            return f"{100 * value:.1f}%"
        if column == "p_value" or column.endswith("seconds"):
            return f"{value:.3g}"
        if column in _TWO_DECIMALS or column == "wins":
            return f"{value:.2f}"
        if column == "chips" and value.is_integer():
            return f"{value:.0f}"
        if column in ("mean_nodes", "nodes_per_second"):
            return f"{value:,.0f}"
        return f"{value:.1f}"
    return str(value)


def format_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every cell as display text (same columns)."""
    shown = pd.DataFrame(index=range(len(frame)))
    for col in frame.columns:
        shown[col] = [format_value(str(col), v) for v in frame[col].tolist()]
    return shown


def _is_numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and series.dtype != bool


_FAILS = "fails i/n/l/c"


def _interval(low: float, high: float) -> str:
    if pd.isna(low) or pd.isna(high):
        return "-"
    return f"{100 * low:.1f}–{100 * high:.1f}%"


def display_frame(name: str, frame: pd.DataFrame) -> tuple[pd.DataFrame, list[bool]]:
    """Table ``name`` as text cells with short headers, and per column whether to
    right-align it (numbers)."""
    shown = format_frame(frame)
    right = {col: _is_numeric(frame[col]) for col in frame.columns}
    if name == "first_move" and len(frame):
        shown["W-D-L"] = [f"{w}-{d}-{lo}" for w, d, lo in
                          zip(frame["wins"], frame["draws"], frame["losses"])]
        shown["95% CI"] = [_interval(a, b) for a, b in zip(frame["ci_low"], frame["ci_high"])]
        shown = shown[["scope", "games", "W-D-L", "win_share", "95% CI", "p_value",
                       "draw_rate", "score_pct"]]
        right.update({"W-D-L": True, "95% CI": True})
    if name == "ricochet" and len(frame):
        shown[_FAILS] = ["/".join(str(int(frame.at[i, c])) for c in ("invalid", "none", "late",
                                                                   "crash"))
                         for i in frame.index]
        shown = shown[["label", "games", "chips", "rounds", "rounds_won", "solve_rate",
                       "mean_length", "mean_excess", "mean_seconds", _FAILS]]
        right[_FAILS] = True
    headers = {**HEADERS, **TABLE_HEADERS.get(name, {})}
    flags = [right.get(col, False) for col in shown.columns]
    return shown.rename(columns=lambda c: headers.get(str(c), str(c))), flags
