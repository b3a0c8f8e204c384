"""The HTML report's plots as plotly figures (``arena.reports.html`` inlines them).

Each function takes the frames ``arena.results.store`` loads and the tables of
``arena.reports.render.build_tables`` and returns a ``plotly.graph_objects.Figure``, or
``None`` when there is nothing to plot.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from arena.results.ratings import rating_history
from arena.reports.coded import codes, weights
from arena.reports.display import format_p
from arena.reports.game import rule_ended
from arena.reports.tables import pairing_names

#: Height (px) kept free at the top of every plot for plotly's mode bar (its buttons, about
#: 28 px tall, sit at the top right): the title is drawn below it (``page_html``).
MODEBAR = 32
#: The top margin (px): the mode bar's strip, then the title.
TOP = MODEBAR + 40
#: The layout of a plot (height in px); the top margin comes from the template (``page_html``).
HEIGHT = 410
#: The layout keywords of every plot (margins, height)
LAYOUT = dict(margin=dict(l=60, r=20, b=50), height=HEIGHT)
#: The plotly template of every plot. Not set on the figures (plotly validates and deep-copies
#: a template for every figure, most of a small figure's cost): ``page_html`` puts it into the
#: figure's JSON once validated, as ``fig.update_layout(template=TEMPLATE)`` would, with the
#: title placed under the mode bar (``MODEBAR``) and a top margin of ``TOP``.
TEMPLATE = "plotly_white"
_TEMPLATE_JSON: dict = {}


def page_html(fig: go.Figure, div_id: str, config: dict) -> str:
    """The figure as an HTML fragment (``plotly.io.to_html``, no plotly.js) drawn with
    ``TEMPLATE``: its title (unless the figure places it) in the top margin below the mode bar,
    so the two never overlap, whatever the title's length."""
    if not _TEMPLATE_JSON:
        _TEMPLATE_JSON.update(pio.templates[TEMPLATE].to_plotly_json())
        layout = _TEMPLATE_JSON.setdefault("layout", {})
        layout["title"] = {**layout.get("title", {}), "x": 0.02, "xanchor": "left", "xref": "container",
                           "y": 1, "yanchor": "top", "yref": "container", "pad": {"t": MODEBAR}}
        layout["margin"] = {**layout.get("margin", {}), "t": TOP}
    spec = fig.to_dict()
    spec["layout"]["template"] = _TEMPLATE_JSON
    return pio.to_html(spec, validate=False, full_html=False, include_plotlyjs=False, div_id=div_id, config=config)


#: Characters of a line of a category axis label (``names_layout``); a longer line is cut with "…".
LABEL_LINE = 28
#: Width (px) of a label's character at plotly's 12 px tick font, and of the plot area at the
#: page's narrowest plot column: what ``names_layout`` sizes a plot with.
CHAR_PX, AREA_PX = 7, 440


def names_layout(names: Iterable[str]) -> dict:
    """The layout of a plot whose x axis is a category axis of bot or pairing names, which stay
    readable at the page's width: each name broken into lines at `` vs `` (a pairing ``a vs b``)
    with lines of at most ``LABEL_LINE`` characters (the whole name on hover), plotly's automatic
    angle (labels turned when neighbours would overlap), a bottom margin grown to fit them
    (``automargin``) and the plot made taller by what the labels take, so its area keeps about
    its height. Returns ``LAYOUT`` with ``xaxis`` and ``height`` (px)."""
    def short(line: str) -> str:
        return line if len(line) <= LABEL_LINE else line[:LABEL_LINE - 1] + "…"

    names = [str(n) for n in names]
    lines = [[short(part) + (" vs" if i < len(parts) - 1 else "") for i, part in enumerate(parts)]
             for parts in (n.split(" vs ") for n in names)]
    longest = max((len(line) for name in lines for line in name), default=0)
    rows = max((len(name) for name in lines), default=1)
    # labels side by side when they fit the plot area's width, else turned (up to upright)
    extra = 14 * (rows - 1) if len(names) * longest * CHAR_PX <= AREA_PX else max(0, longest * CHAR_PX - 30)
    axis = dict(type="category", tickmode="array", tickvals=names, ticktext=["<br>".join(n) for n in lines],
                automargin=True)
    return {**LAYOUT, "xaxis": axis, "height": HEIGHT + extra}


#: Points per bot of the rating-progression plot; a longer history is thinned to about this.
MAX_POINTS = 2000


def rating_progression(history: pd.DataFrame) -> go.Figure | None:
    """TrueSkill mu of each bot against its games played, with a mu ± sigma band.

    ``history``: ``arena.results.ratings.rating_history`` (ratings updated in game-id order) or a
    store's games frame (rated here). A bot with more than ``MAX_POINTS`` games is drawn
    through its first game, every ``ceil(games / MAX_POINTS)``-th game and its last."""
    if "seats" in history.columns:
        history = rating_history(history)
    if history.empty:
        return None
    fig = go.Figure()
    palette = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
    for i, (label, rows) in enumerate(history.groupby("label", sort=False)):
        step = -(-len(rows) // MAX_POINTS)
        if step > 1:
            keep = np.array((rows["games"] % step == 0) | (rows["games"] == 1))  # the first: legend order
            keep[-1] = True
            rows = rows[keep]
        colour = palette[i % len(palette)]
        # numpy arrays: plotly keeps them whole (typed arrays in the page) instead of checking
        # thousands of list items one by one
        x = rows["games"].to_numpy(np.int64)
        upper = (rows["mu"] + rows["sigma"]).to_numpy(float)
        lower = (rows["mu"] - rows["sigma"]).to_numpy(float)
        fig.add_trace(go.Scatter(x=np.concatenate([x, x[::-1]]), y=np.concatenate([upper, lower[::-1]]), fill="toself",
                                 fillcolor=colour, opacity=0.15, line=dict(width=0), hoverinfo="skip",
                                 showlegend=False, legendgroup=label))
        fig.add_trace(go.Scatter(x=x, y=rows["mu"].to_numpy(float), mode="lines", name=label, line=dict(color=colour),
                                 legendgroup=label, customdata=rows["sigma"].to_numpy(float),
                                 hovertemplate=f"{label}<br>game %{{x}}: mu %{{y:.2f}} "
                                               "± %{customdata:.2f}<extra></extra>"))
    fig.update_layout(title="Rating progression (TrueSkill mu ± sigma)", xaxis_title="games played",
                      yaxis_title="mu", **LAYOUT)
    return fig


def pair_counts(games: pd.DataFrame) -> dict[tuple[str, str], list[int]]:
    """(row bot, column bot) -> [better, equal, worse] placings of the row bot in the games
    where both took part: wins, draws, losses in two-player games (the crosstable's definition,
    ``arena.reports.tables.crosstable``). Counted per distinct (seats, ranks) (``coded``: rows
    with an ``n`` column count ``n`` games), so a million games cost what their few distinct
    results cost."""
    counts: dict[tuple[str, str], list[int]] = {}
    sc, sv = codes(games, "seats")
    rc, rv = codes(games, "ranks")
    key = sc * (len(rv) or 1) + rc
    totals = np.bincount(key, weights=weights(games)) if len(key) else np.zeros(0)
    for k in np.flatnonzero(totals):
        seats, ranks, n = sv[k // (len(rv) or 1)], rv[k % (len(rv) or 1)], totals[k]
        for la, ra in zip(seats, ranks):
            for lb, rb in zip(seats, ranks):
                if la != lb:
                    c = counts.setdefault((la, lb), [0, 0, 0])
                    c[0 if ra < rb else 1 if ra == rb else 2] += int(n)
    return counts


def crosstable_heatmap(games: pd.DataFrame, cross: pd.DataFrame) -> go.Figure | None:
    """The crosstable (score % of the row bot against the column bot) as a heatmap, with n and
    W-L-D on hover. ``cross``: ``build_tables(...)["crosstable"]`` (a ``label`` column)."""
    if cross is None or cross.empty:
        return None
    table = cross.set_index("label")
    rows, cols = [str(r) for r in table.index], [str(c) for c in table.columns]
    counts = pair_counts(games)
    hover = []
    for r in rows:
        line = []
        for c in cols:
            w, d, lo = counts.get((r, c), [0, 0, 0])
            line.append(f"n {w + d + lo}, W-L-D {w}-{lo}-{d}" if w + d + lo else "never met")
        hover.append(line)
    z = table.to_numpy(dtype=float)
    text = [[("" if pd.isna(v) else f"{v:.0f}%") for v in row] for row in z]
    fig = go.Figure(go.Heatmap(z=z, x=cols, y=rows, text=text, texttemplate="%{text}", customdata=hover,
                               colorscale="RdBu", zmin=0, zmax=100, colorbar=dict(title="score %"),
                               hovertemplate="%{y} vs %{x}: %{z:.1f}%<br>%{customdata}<extra></extra>"))
    fig.update_layout(title="Crosstable: score % of the row bot", xaxis_title="opponent",
                      yaxis=dict(autorange="reversed"), **LAYOUT)
    return fig


def first_move_bars(first: pd.DataFrame | None, seats: pd.DataFrame | None) -> go.Figure | None:
    """Seat 0's win share per scope with its Wilson 95% interval (two players), or each seat's
    share of first places with the seat table's 95% interval (``ci_low``, ``ci_high``: clustered
    by series; three or more players; docs/statistics.md "Seat and first-move advantage")."""
    if first is not None and len(first):
        y = first["win_share"] * 100
        fig = go.Figure(go.Bar(
            x=first["scope"], y=y,
            error_y=dict(type="data", symmetric=False, array=first["ci_high"] * 100 - y,
                         arrayminus=y - first["ci_low"] * 100),
            customdata=first[["wins", "losses", "draws"]].to_numpy(),
            hovertemplate="%{x}: %{y:.1f}%<br>W-L-D %{customdata[0]}-%{customdata[1]}-%{customdata[2]}<extra></extra>"))
        fig.add_hline(y=50, line_dash="dot")
        fig.update_layout(title="First-move advantage: seat 0's win share (Wilson 95% interval)",
                          yaxis_title="win share %", yaxis_range=[0, 100], **names_layout(first["scope"]))
        return fig
    if seats is not None and len(seats):
        y = seats["win_share"].to_numpy(float) * 100
        bars: dict = dict(hovertemplate="%{x}: %{y:.1f}% of first places<extra></extra>")
        title = "Seat advantage: share of first places"
        if "ci_low" in seats and "ci_high" in seats:  # the table's 95% intervals (clustered by series)
            low, high = seats["ci_low"].to_numpy(float) * 100, seats["ci_high"].to_numpy(float) * 100
            bars = dict(error_y=dict(type="data", symmetric=False, array=np.clip(high - y, 0, None),
                                     arrayminus=np.clip(y - low, 0, None)),
                        customdata=np.column_stack([low, high]),
                        hovertemplate="%{x}: %{y:.1f}% of first places<br>95% interval "
                                      "%{customdata[0]:.1f}–%{customdata[1]:.1f}%<extra></extra>")
            title += " (95% interval)"
        fig = go.Figure(go.Bar(x=[f"seat {s}" for s in seats["seat"]], y=y, **bars))
        fig.add_hline(y=100 / len(seats), line_dash="dot")
        fig.update_layout(title=title, yaxis_title="%", yaxis_rangemode="tozero", **LAYOUT)
        return fig
    return None


#: Above this many games per pairing, a box is drawn from its computed quartiles and fences
#: (plotly's own method, "linear" quartiles) instead of embedding every length.
BOX_POINTS = 5000
#: Above this many pairings, every box is drawn from its computed quartiles in one trace (a
#: 100-bot field has 4,950 pairings: one trace each costs seconds and a page of megabytes).
BOX_TRACES = 60


def length_boxes(games: pd.DataFrame, order: Sequence[str] | None = None) -> go.Figure | None:
    """The distribution of game lengths (plies; Ricochet: rounds) per pairing, as box plots."""
    if games.empty:
        return None
    code, values = codes(games, "seats")
    names = np.array(pairing_names(values, order), dtype=object)
    scopes, of_list = np.unique(names, return_inverse=True)  # sorted names; each seat list's pairing
    group = of_list.ravel()[code]
    plies = games["plies"].to_numpy(dtype=float)
    sort = np.argsort(group, kind="stable")
    bounds = np.searchsorted(group[sort], np.arange(len(scopes) + 1))
    samples = [plies[sort[bounds[i]:bounds[i + 1]]] for i in range(len(scopes))]
    fig = go.Figure()
    if len(scopes) > BOX_TRACES:
        stats = [_box_stats(y) for y in samples]
        fig.add_trace(go.Box(x=list(scopes), **{k: [s[k] for s in stats] for k in stats[0]}, boxpoints=False))
    for name, y in zip(scopes if len(scopes) <= BOX_TRACES else (), samples):
        if len(y) <= BOX_POINTS:
            fig.add_trace(go.Box(y=y, name=name, boxpoints=False))
            continue
        fig.add_trace(go.Box(x=[name], **{k: [v] for k, v in _box_stats(y).items()}, name=name, boxpoints=False))
    fig.update_layout(title="Game length per pairing", yaxis_title="plies", showlegend=False,
                      **names_layout(scopes))
    return fig


def _box_stats(y: np.ndarray) -> dict[str, float]:
    """A box's quartiles (plotly's "linear" method), fences (the most extreme lengths within
    1.5 IQR of the box) and mean."""
    q1, median, q3 = np.percentile(y, [25, 50, 75])
    iqr = q3 - q1
    return {"q1": q1, "median": median, "q3": q3, "lowerfence": y[y >= q1 - 1.5 * iqr].min(),
            "upperfence": y[y <= q3 + 1.5 * iqr].max(), "mean": float(y.mean())}


def termination_bars(terms: pd.DataFrame | None) -> go.Figure | None:
    """Games per termination; faults in red."""
    if terms is None or terms.empty:
        return None
    colours = ["#d62728" if f else "#1f77b4" for f in terms["fault"]]
    fig = go.Figure(go.Bar(x=terms["termination"], y=terms["games"], marker_color=colours))
    fig.update_layout(title="Terminations", yaxis_title="games", **LAYOUT)
    return fig


def fault_bars(summary: pd.DataFrame | None) -> go.Figure | None:
    """Faults per bot, stacked by kind (``timeout``, ``illegal_move``...)."""
    if summary is None or summary.empty:
        return None
    fig = go.Figure()
    for kind, rows in summary.groupby("termination"):
        fig.add_trace(go.Bar(x=rows["bot"], y=rows["games"], name=str(kind)))
    fig.update_layout(title="Faults by bot", barmode="stack", yaxis_title="games",
                      **names_layout(summary["bot"].unique()))
    return fig


def search_bars(search: pd.DataFrame | None) -> go.Figure | None:
    """Mean nodes per move of each bot on a linear axis from 0 (close means look close), with
    ± the standard deviation over the bot's moves (``sd_nodes``, when the table has it; the
    lower end clipped at 0), mean depth and time on hover."""
    if search is None or search.empty or search["mean_nodes"].fillna(0).le(0).all():
        return None
    y = search["mean_nodes"].to_numpy(float)
    bars: dict = {}
    title = "Search: mean nodes per move"
    if "sd_nodes" in search and search["sd_nodes"].notna().any():
        sd = search["sd_nodes"].to_numpy(float)
        bars = dict(error_y=dict(type="data", symmetric=False, array=sd, arrayminus=np.minimum(sd, y)))
        title += " (± 1 sd over the moves)"
    fig = go.Figure(go.Bar(x=search["label"], y=y, customdata=search[["mean_depth", "mean_seconds"]], **bars,
                           hovertemplate="%{x}: %{y:,.0f} nodes/move, depth %{customdata[0]:.1f}, "
                                         "%{customdata[1]:.3g} s/move<extra></extra>"))
    fig.update_layout(title=title, yaxis=dict(title="nodes", type="linear", rangemode="tozero"),
                      **names_layout(search["label"]))
    return fig


def length_histogram(games: pd.DataFrame) -> go.Figure | None:
    """The length distribution of the rule-ended games (``arena.reports.game.rule_ended``):
    games per length in plies (at most 60 bins of whole plies), with the median marked."""
    plies = rule_ended(games)["plies"].to_numpy(dtype=float) if len(games) else np.array([])
    if not len(plies):
        return None
    lo, hi = int(plies.min()), int(plies.max())
    width = max(1, -(-(hi - lo + 1) // 60))
    counts, edges = np.histogram(plies, bins=np.arange(lo, hi + width + 1, width))
    fig = go.Figure(go.Bar(x=edges[:-1] + (width - 1) / 2, y=counts, width=width * 0.9,
                           hovertemplate="%{y} games of %{x} plies<extra></extra>" if width == 1 else
                           "%{y} games around %{x} plies<extra></extra>"))
    median = float(np.median(plies))
    fig.add_vline(x=median, line_dash="dash", annotation_text=f"median {median:g}")
    fig.update_layout(title="The game: length distribution", xaxis_title="plies", yaxis_title="games", **LAYOUT)
    return fig


def branching_line(branching: pd.DataFrame | None) -> go.Figure | None:
    """Mean legal moves per ply (``arena.reports.game.branching_table``) with the min-max band."""
    if branching is None or branching.empty:
        return None
    x = (branching["ply_from"] + branching["ply_to"]) / 2
    fig = go.Figure([
        go.Scatter(x=x, y=branching["max"], mode="lines", line=dict(width=0), showlegend=False, hoverinfo="skip"),
        go.Scatter(x=x, y=branching["min"], mode="lines", line=dict(width=0), fill="tonexty",
                   fillcolor="rgba(31,119,180,0.15)", name="min-max"),
        go.Scatter(x=x, y=branching["mean"], mode="lines+markers", name="mean",
                   customdata=branching[["positions"]], hovertemplate="ply %{x}: %{y:.1f} legal moves "
                                                                     "(%{customdata[0]} positions)<extra></extra>"),
    ])
    fig.update_layout(title="The game: legal moves per ply (branching factor)", xaxis_title="ply",
                      yaxis_title="legal moves", **LAYOUT)
    return fig


def openings_scores(table: pd.DataFrame | None) -> go.Figure | None:
    """Each start position's score (seat 0's; k players: the seat furthest from ½) with its
    series-clustered 95% interval, flagged positions in red (``arena.reports.openings``)."""
    if table is None or table.empty:
        return None
    y = table["score"].to_numpy(float) * 100
    colours = ["#d62728" if f else "#1f77b4" for f in table["flagged"]]
    starts = [s if len(s) <= 60 else s[:59] + "…" for s in table["start"].astype(str)]
    fig = go.Figure(go.Scatter(
        x=table["position"].to_numpy(np.int64), y=y, mode="markers", marker=dict(color=colours, size=8),
        error_y=dict(type="data", symmetric=False, array=table["score_high"].to_numpy(float) * 100 - y,
                     arrayminus=y - table["score_low"].to_numpy(float) * 100),
        customdata=np.column_stack([starts, table["games"].to_numpy(), [format_p(p) for p in table["p_holm"]]]),
        hovertemplate="position %{x}: %{y:.1f}%<br>%{customdata[0]}<br>%{customdata[1]} games, "
                      "Holm p %{customdata[2]}<extra></extra>"))
    fig.add_hline(y=50, line_dash="dot")
    seat = "seat 0's score" if "wins" in table else "most biased seat's score"
    fig.update_layout(title=f"Start positions: {seat} (red: biased)",
                      xaxis_title="position", yaxis_title="score % (95% interval)", yaxis_range=[0, 100], **LAYOUT)
    return fig
