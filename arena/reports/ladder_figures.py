"""The strength ladder's plots (``arena ladder``'s HTML report; split from
``arena.reports.figures``): each rung's Elo against its parameter, and the first-move Elo of
each step. The tables are ``arena.reports.ladder``'s.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from arena.reports.figures import LAYOUT


def _value_axis(rungs: pd.DataFrame, fit: pd.DataFrame) -> dict:
    """The x axis of the ladder plots: the parameter, on a log scale for a doubling ladder."""
    row = fit.iloc[0]
    return dict(title=str(row["param"]), type="log" if row["scale"] == "log2" else "linear",
                tickvals=rungs["value"].to_numpy(float), ticktext=[f"{v:g}" for v in rungs["value"]])


def ladder_elo(rungs: pd.DataFrame | None, fit: pd.DataFrame | None) -> go.Figure | None:
    """Each rung's Bradley–Terry Elo (95% interval) against its parameter value, and the
    ladder model's line (``arena.reports.ladder``)."""
    if rungs is None or fit is None or rungs.empty or rungs["elo"].isna().all():
        return None
    row = fit.iloc[0]
    y = rungs["elo"].to_numpy(float)
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=rungs["value"].to_numpy(float), y=y, mode="markers", name="Bradley–Terry",
        error_y=dict(type="data", symmetric=False, array=rungs["elo_high"].to_numpy(float) - y,
                     arrayminus=y - rungs["elo_low"].to_numpy(float)),
        customdata=rungs["label"].to_numpy(object), hovertemplate="%{customdata}: %{y:+.1f} Elo<extra></extra>"))
    if row["elo_per_unit"] == row["elo_per_unit"]:
        fig.add_trace(go.Scatter(x=rungs["value"].to_numpy(float), y=rungs["elo_fit"].to_numpy(float), mode="lines",
                                 name="fit", hoverinfo="skip"))
    unit = "doubling" if row["scale"] == "log2" else f"+1 {row['param']}"
    title = f"Elo per rung; fit {row['elo_per_unit']:+.0f} per {unit}" if row["low"] == row["low"] else "Elo per rung"
    fig.update_layout(title=title, xaxis=_value_axis(rungs, fit), yaxis_title="Elo (mean 0)",
                      legend=dict(x=0.02, y=0.98), **LAYOUT)
    return fig


def ladder_first_move(steps: pd.DataFrame | None, rungs: pd.DataFrame | None,
                      fit: pd.DataFrame | None) -> go.Figure | None:
    """The first-move Elo of each step (its games' Bradley–Terry term, 95% interval) at the
    step's mean level, and the fitted trend with its p-value."""
    if steps is None or rungs is None or fit is None or steps.empty or steps["first_elo"].isna().all():
        return None
    row = fit.iloc[0]
    v0 = float(rungs["value"].iloc[0])
    level = steps["level"].to_numpy(float)
    value = v0 * 2.0 ** level if row["scale"] == "log2" else v0 + level
    y = steps["first_elo"].to_numpy(float)
    fig = go.Figure(go.Scatter(
        x=value, y=y, mode="markers", name="per step",
        error_y=dict(type="data", symmetric=False, array=steps["first_high"].to_numpy(float) - y,
                     arrayminus=y - steps["first_low"].to_numpy(float)),
        customdata=steps["step"].to_numpy(object), hovertemplate="%{customdata}: %{y:+.1f} Elo<extra></extra>"))
    if row["trend"] == row["trend"]:
        fig.add_trace(go.Scatter(x=value, y=row["first_move"] + row["trend"] * (level - row["mean_level"]),
                                 mode="lines", name="trend", hoverinfo="skip"))
        title = f"First-move Elo per step; trend p = {row['trend_p']:.2g}"
    else:
        title = "First-move Elo per step"
    fig.add_hline(y=0, line_dash="dot")
    fig.update_layout(title=title, xaxis=_value_axis(rungs, fit), yaxis_title="first-move Elo",
                      legend=dict(x=0.02, y=0.98), **LAYOUT)
    return fig
