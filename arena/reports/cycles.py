"""Rock, paper, scissors in a 2-player field: the report's ``cycles`` section
(``docs/statistics.md`` "Rock, paper, scissors"; the statistics are ``arena.stats.intransitive``).

Tables (``--json`` names): ``cycles`` — each significant 3-cycle (``cycle`` as ``a > b > c >
a``, the bots ``a``, ``b``, ``c``, each edge's score and games ``score_ab``, ``games_ab``, ...,
the intersection-union ``p_value`` and ``p_holm``; at most ``MAX_CYCLES`` rows, the smallest
p first); ``nash`` — the Nash-averaged ranking: ``rank``, ``label``, ``nash_elo`` (the bot's
Elo against the maximum-entropy equilibrium mixture, 0 on its support) and the equilibrium's
``mass``, each with a 95% bootstrap interval; ``alpharank`` — ``rank``, ``label``, α-Rank
``mass`` with its interval. The bootstrap is the field table's (``arena.reports.field``), its
first ``nash_replicates(k)`` replicates for the equilibria and α-Rank. ``cycle_graph`` draws the
significant cycles for the HTML page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from arena.reports.field import field_of
from arena.stats import field as fs
from arena.stats import intransitive as it

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from arena.reports.render import ReportData

#: significant cycles listed at most
MAX_CYCLES = 50
#: bootstrap replicates of the Nash and α-Rank intervals (one linear programme each): 200, fewer
#: for a field of more than 20 bots (``nash_replicates``)
NASH_REPLICATES = 200


def nash_replicates(k: int) -> int:
    """Replicates of the Nash intervals of a ``k``-bot field: ``NASH_REPLICATES`` up to 20
    bots, then ``4000 / k`` (50 at 80 bots and more), so that the linear programmes stay within
    a few seconds."""
    return NASH_REPLICATES if k <= 20 else max(50, 4000 // k)

CYCLE_COLUMNS = ["cycle", "a", "b", "c", "score_ab", "games_ab", "score_bc", "games_bc", "score_ca", "games_ca",
                 "p_value", "p_holm"]


def cycle_tables(data: ReportData) -> dict[str, pd.DataFrame]:
    """``cycles``, ``nash`` and ``alpharank`` of a 2-player report (module docstring); empty
    frames without a field fit. The count of candidate cycles tested is ``cycles.attrs["tested"]``."""
    fit = field_of(data)
    boot = fit.boot
    empty = {"cycles": pd.DataFrame(columns=CYCLE_COLUMNS),
             "nash": pd.DataFrame(columns=["rank", "label", "nash_elo", "nash_low", "nash_high", "mass", "mass_low",
                                           "mass_high"]),
             "alpharank": pd.DataFrame(columns=["rank", "label", "mass", "mass_low", "mass_high"])}
    duels = fit.duels
    if fit.seats != 2 or not isinstance(boot, fs.Bootstrap) or boot.log_odds is None or duels is None:
        empty["cycles"].attrs["tested"] = 0
        return empty
    k = len(fit.labels)
    cells = duels.cells()
    observed = fs.pair_log_odds(cells)
    se_pair = boot.log_odds.astype(float).std(axis=0, ddof=1) if len(boot.log_odds) > 1 else np.zeros(len(observed))
    lo = it.log_odds_matrix(k, duels.pa, duels.pb, observed)
    se = it.log_odds_matrix(k, duels.pa, duels.pb, se_pair)
    se = np.abs(np.nan_to_num(se, nan=0.0))
    cycles = it.three_cycles(lo, se)
    significant = [c for c in cycles if c.p_holm < it.LEVEL][:MAX_CYCLES]
    games = cells[:, 0] + cells[:, 2]
    points = cells[:, 1] + cells[:, 2] - cells[:, 3]
    index = {(int(a), int(b)): p for p, (a, b) in enumerate(zip(duels.pa, duels.pb))}

    def edge(i: int, j: int) -> tuple[float, int]:
        p = index[(min(i, j), max(i, j))]
        s = points[p] / games[p] if games[p] else np.nan
        return (s if i < j else 1 - s), int(games[p])

    rows = []
    for c in significant:
        a, b, d = c.bots
        (sab, gab), (sbc, gbc), (sca, gca) = edge(a, b), edge(b, d), edge(d, a)
        names = [fit.labels[x] for x in (a, b, d)]
        rows.append({"cycle": " > ".join(names + names[:1]), "a": names[0], "b": names[1], "c": names[2],
                     "score_ab": sab, "games_ab": gab, "score_bc": sbc, "games_bc": gbc, "score_ca": sca,
                     "games_ca": gca, "p_value": c.p_value, "p_holm": c.p_holm})
    table = pd.DataFrame(rows, columns=CYCLE_COLUMNS)
    table.attrs["tested"] = len(cycles)
    est = boot.estimate[:k] * fs.K
    matrix_ = it.log_odds_matrix(k, duels.pa, duels.pb, observed, est)
    b = nash_replicates(k)
    reps = boot.replicates[:b, :k] * fs.K
    rep_odds = boot.log_odds[:b].astype(float)
    rep_mats = it.log_odds_matrix(k, duels.pa, duels.pb, rep_odds, reps)
    return {"cycles": table, "nash": _nash(fit.labels, matrix_, rep_mats),
            "alpharank": _alpharank(fit.labels, matrix_, rep_mats)}


def _nash(labels, a: np.ndarray, reps: np.ndarray) -> pd.DataFrame:
    p = it.nash(a)
    value = it.to_elo(a @ p)
    rep_p = np.array([it.nash(m) for m in reps]) if len(reps) else np.zeros((0, len(labels)))
    rep_v = it.to_elo(np.einsum("bij,bj->bi", reps, rep_p)) if len(reps) else rep_p
    v_low, v_high = fs.intervals(rep_v)
    p_low, p_high = fs.intervals(rep_p)
    order = sorted(range(len(labels)), key=lambda i: (-round(float(value[i]), 6), -p[i], labels[i]))
    return pd.DataFrame({"rank": np.arange(1, len(labels) + 1), "label": [labels[i] for i in order],
                         "nash_elo": value[order], "nash_low": v_low[order], "nash_high": v_high[order],
                         "mass": p[order], "mass_low": p_low[order], "mass_high": p_high[order]})


def _alpharank(labels, a: np.ndarray, reps: np.ndarray) -> pd.DataFrame:
    pi = it.alpha_rank(it.scores_of(a))
    rep_pi = it.alpha_rank(it.scores_of(reps)) if len(reps) else np.zeros((0, len(labels)))
    low, high = fs.intervals(rep_pi)
    order = sorted(range(len(labels)), key=lambda i: (-pi[i], labels[i]))
    return pd.DataFrame({"rank": np.arange(1, len(labels) + 1), "label": [labels[i] for i in order],
                         "mass": pi[order], "mass_low": low[order], "mass_high": high[order]})


def cycle_line(table: pd.DataFrame) -> str:
    """One line: the significant cycles found, or ``no significant cycle``."""
    tested = int(table.attrs.get("tested", 0))
    if table.empty:
        return (f"No significant cycle: {tested} candidate 3-cycle(s) of the pairwise scores tested "
                "(intersection-union test, Holm-adjusted p < 0.05)." if tested else
                "No significant cycle: the pairwise scores form no 3-cycle (a transitive field).")
    return (f"{len(table)} significant rock-paper-scissors cycle(s) among {tested} candidate 3-cycle(s) "
            "(each edge's score beside; Holm-adjusted p < 0.05): the Elo list hides them, see nash and alpharank.")


def cycle_graph(cycles: pd.DataFrame | None, labels: list[str]) -> go.Figure | None:
    """The significant cycles as a graph: the bots on a circle, an arrow from each cycle's
    winner to its loser labelled with the score; ``None`` without a significant cycle."""
    if cycles is None or cycles.empty:
        return None
    import plotly.graph_objects as go

    bots = [lab for lab in labels if lab in set(cycles["a"]) | set(cycles["b"]) | set(cycles["c"])]
    angle = {lab: 2 * np.pi * i / len(bots) for i, lab in enumerate(bots)}
    pos = {lab: (float(np.cos(a)), float(np.sin(a))) for lab, a in angle.items()}
    fig = go.Figure()
    edges: dict[tuple[str, str], float] = {}
    for row in cycles.itertuples(index=False):
        edges[(row.a, row.b)] = row.score_ab
        edges[(row.b, row.c)] = row.score_bc
        edges[(row.c, row.a)] = row.score_ca
    for (u, v), score in edges.items():
        (x0, y0), (x1, y1) = pos[u], pos[v]
        fig.add_annotation(x=x0 + 0.85 * (x1 - x0), y=y0 + 0.85 * (y1 - y0), ax=x0 + 0.15 * (x1 - x0),
                           ay=y0 + 0.15 * (y1 - y0), xref="x", yref="y", axref="x", ayref="y", showarrow=True,
                           arrowhead=3, arrowsize=1.5, arrowwidth=2, arrowcolor="#d62728")
        fig.add_annotation(x=(x0 + x1) / 2, y=(y0 + y1) / 2, text=f"{100 * score:.0f}%", showarrow=False,
                           bgcolor="white", font=dict(size=12))
    fig.add_trace(go.Scatter(x=[pos[b][0] for b in bots], y=[pos[b][1] for b in bots], mode="markers+text",
                             text=bots, textposition="top center", marker=dict(size=18, color="#1f77b4"),
                             hoverinfo="text", showlegend=False))
    fig.update_layout(title="Significant cycles (arrow: winner to loser, the winner's score)",
                      xaxis=dict(visible=False, range=[-1.4, 1.4]), yaxis=dict(visible=False, range=[-1.4, 1.4],
                                                                              scaleanchor="x"),
                      margin=dict(l=20, r=20, b=20), height=440)  # top: figures.TOP
    return fig
