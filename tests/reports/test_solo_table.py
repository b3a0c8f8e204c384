"""The one-player results table (``arena.reports.solo``) and a one-player run's defaults."""

from __future__ import annotations

import pandas as pd

from arena.reports.render import build_tables, load
from arena.reports.solo import solo_table
from arena.tournament import build, run_tournament


def test_solo_table_by_hand():
    games = pd.DataFrame({
        "seats": [["a"], ["b"], ["a"], ["b"], ["b"]],
        "scores": [[-7.0], [-9.0], [-8.0], [-30.0], [-9.0]],
        "termination": ["cleared", "cleared", "cleared", "stalled", "cleared"],
        "fault_seat": [None, None, None, None, None],
        "plies": [7, 9, 8, 12, 9],
        "copy": [False, False, False, False, True],  # b's last game repeats its first: counted once
    })
    table = solo_table(games, ["b", "a"])
    assert table["bot"].tolist() == ["a", "b"]
    a, b = table.iloc[0], table.iloc[1]
    def row(r):
        return r.games, r.finished, r.mean_score, r.best_score, r.worst_score, r.mean_plies
    assert row(a) == (2, 1.0, -7.5, -7, -8, 7.5)
    assert row(b) == (2, 0.5, -19.5, -9, -30, 10.5)
    assert a.faults == b.faults == 0


def test_faulted_games_have_no_score_and_rank_last():
    """A game the referee stopped (a timeout, a crash blamed on nobody) scores 0.0 in its
    outcome, better than any real Solo Interaction score: it must not count as a score."""
    games = pd.DataFrame({
        "seats": [["faulty"], ["faulty"], ["good"], ["good"], ["half"], ["half"]],
        "scores": [[0.0], [0.0], [-7.0], [-7.0], [0.0], [-9.0]],
        "termination": ["timeout", "crash", "cleared", "cleared", "exception", "cleared"],
        "fault_seat": [0, None, None, None, 0, None],
        "plies": [3, 5, 7, 7, 2, 9],
    })
    table = solo_table(games, ["faulty", "half", "good"])
    assert table["bot"].tolist() == ["good", "half", "faulty"]
    good, half, faulty = (table.iloc[i] for i in range(3))
    assert (good.finished, good.faults, good.mean_score) == (1.0, 0, -7.0)
    assert (half.finished, half.faults, half.mean_score, half.best_score) == (0.5, 1, -9.0, -9.0)
    assert (faulty.finished, faulty.faults) == (0.0, 1)  # the crash blamed on nobody is no fault
    assert pd.isna(faulty.mean_score) and pd.isna(faulty.best_score)


def test_a_one_player_run_plays_no_random_opening_and_reports_scores(tmp_path):
    cfg = build(dict(game="interaction-solo", params={"layout": "2"}, games=2, results=str(tmp_path), name="s",
                     bots=["interaction-solo-optimal", "random"]))
    assert cfg.opening_plies == 0  # random plies would give each bot a different puzzle
    summary = run_tournament(cfg)
    table = build_tables(load(summary.path))["solo"]
    best = table.iloc[0]
    assert best.bot == "interaction-solo-optimal" and best.finished == 1.0
    assert best.best_score == best.worst_score == -7  # layout 2's proven minimum: 7 moves
    assert table.iloc[1].mean_score < best.mean_score
