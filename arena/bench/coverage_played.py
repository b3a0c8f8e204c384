"""Tournaments of the test game of known strengths played through the runner and read back
through the report (``arena.reports.render.build_tables``: what ``arena report`` prints), for
the coverage bench (``arena.bench.coverage``).

The field: ``known:elo=0``, ``50``, ``100``, ``200`` (labels a, b, c, d), seat 0 +30 Elo
(``-p first=30``), no random opening plies (they would declare random strengths), the field
table anchored at the weakest bot (``--anchor a=0``). Formats: round-robins of 100 games a
pairing, and a tenth as many gauntlets (``a`` against the others), SPRT matches of b against
a (``elo0=0,elo1=50``) and ``--until-ranked`` runs (at most 200 games a pairing).
"""

from __future__ import annotations

import tempfile
from collections import defaultdict
from itertools import permutations

import numpy as np
import pandas as pd

from arena.bench.coverage_sim import Tally, pair_truth, seat_truth
from arena.reports.render import build_tables, load
from arena.tournament import build, run_tournament

RATINGS = {"a": 0.0, "b": 50.0, "c": 100.0, "d": 200.0}
FIRST = 30.0
GAMES = 100


def _tournament(results: str, name: str, seed: int, bots: list[str], **extra) -> pd.DataFrame:
    cfg = build({"game": "known", "params": {"first": FIRST}, "games": GAMES, "results": results, "name": name,
                 "workers": 1, "opening_plies": 0, "seed": seed,
                 "bots": [f"{b}=known:elo={RATINGS[b]:g}" for b in bots], **extra})
    path = run_tournament(cfg).path
    data = load(path, anchor=("a", 0.0))
    return build_tables(data, ["ratings", "pairs", "first_move"])


def _field(t: defaultdict[str, Tally], tables, prefix: str) -> None:
    rows = tables["ratings"].set_index("label")
    bots = [b for b in RATINGS if b in rows.index and b != "a"]
    t[prefix + "field Elo"].add(rows.loc[bots, "elo_low"].to_numpy(float), rows.loc[bots, "elo_high"].to_numpy(float),
                                np.array([RATINGS[b] for b in bots]), rows.loc[bots, "elo"].to_numpy(float))
    if "d" in bots:
        t[prefix + "field Elo, strongest bot"].add(rows.loc["d", "elo_low"], rows.loc["d", "elo_high"], RATINGS["d"],
                                                   rows.loc["d", "elo"])
    first = rows.loc["(first move)"]
    t[prefix + "field first-move term"].add(first["elo_low"], first["elo_high"], FIRST, first["elo"])


def _pairs(t: defaultdict[str, Tally], tables, prefix: str) -> None:
    for row in tables["pairs"].itertuples():
        truth, _ = pair_truth(RATINGS[row.bot], RATINGS[row.opponent], FIRST, 0.0, True)
        t[prefix + "pair Elo"].add(row.elo_low, row.elo_high, truth, row.elo)


def _seats(t: defaultdict[str, Tally], tables, bots: list[str]) -> None:
    row = tables["first_move"].iloc[0]
    r = np.array([RATINGS[b] for b in bots])
    s0, s1 = (np.array(x) for x in zip(*permutations(range(len(bots)), 2)))
    score, share = seat_truth(r, s0, s1, FIRST, 0.0)
    t["round-robin: seat 0 score (series-clustered)"].add(row.score_low, row.score_high, score, row.score_pct / 100)
    t["round-robin: seat 0 decisive share (Wilson, per game)"].add(row.ci_low, row.ci_high, share, row.win_share)
    t["round-robin: seat 0 decisive share (series-clustered)"].add(row.share_low, row.share_high, share,
                                                                  row.win_share)


def play(runs: int, seed: int = 1) -> dict[str, Tally]:
    """``runs`` round-robins and ``max(1, runs // 10)`` tournaments of each other format."""
    t: defaultdict[str, Tally] = defaultdict(Tally)
    others = max(1, runs // 10)
    everyone = list(RATINGS)
    with tempfile.TemporaryDirectory(prefix="arena-coverage-") as results:
        for i in range(runs):
            tables = _tournament(results, f"rr{i}", seed * 1_000_003 + i, everyone)
            _field(t, tables, "round-robin: ")
            _pairs(t, tables, "round-robin: ")
            _seats(t, tables, everyone)
        for i in range(others):
            _field(t, _tournament(results, f"gauntlet{i}", seed * 2_000_003 + i, everyone, format="gauntlet"),
                   "gauntlet: ")
            _pairs(t, _tournament(results, f"sprt{i}", seed * 3_000_003 + i, ["b", "a"], sprt="elo0=0,elo1=50",
                                  games=4000), "SPRT match: ")
            _field(t, _tournament(results, f"ranked{i}", seed * 4_000_003 + i, everyone, until_ranked=0.95,
                                  games=200), "--until-ranked: ")
    for name, tally in t.items():
        tally.runs = runs if name.startswith("round-robin") else others
    return dict(t)
