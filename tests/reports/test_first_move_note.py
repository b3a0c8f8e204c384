"""The note under the first-move table when the win share and the fitted first-move Elo
disagree (one significant and the other not, or opposite signs), saying why they can."""

from __future__ import annotations

import io
import math

import pandas as pd
from rich.console import Console

from arena.reports.output import markdown, print_tables
from arena.reports.pairs import first_move_note
from arena.reports.render import ReportData, build_tables
from tests.reports.frames import games_frame, moves_frame

FIELD = ["strong", "mid", "weak", "weakest"]


def _round_robin(split: bool) -> ReportData:
    """Four bots, 4 pairs a pairing; the earlier bot wins 3 pairs from both seats; the fourth
    pair is split (``split``: seat 0 wins both games, else the earlier bot wins it too)."""
    rows = []
    for i, a in enumerate(FIELD):
        for b in FIELD[i + 1:]:
            rows += [([a, b], [1, 2]), ([b, a], [2, 1])] * 3
            rows += [([a, b], [1, 2]), ([b, a], [1, 2])] if split else [([a, b], [1, 2]), ([b, a], [2, 1])]
    tour = {"name": "rr", "game": "interaction", "num_players": 2, "bots": {label: "random" for label in FIELD}}
    return ReportData(games_frame(rows), moves_frame([]), tour)


def test_a_significant_first_move_elo_beside_a_share_that_is_not_gets_a_note():
    data = _round_robin(split=True)
    first = build_tables(data, ["first_move"])["first_move"]
    whole = first.iloc[0]
    # the pattern: the win share is not significant, the fitted term is (the decisive
    # games the stronger bots win from both seats dilute the share, the fit nets them out)
    assert whole["p_value"] > 0.05 and whole["first_low"] > 0
    out = io.StringIO()
    print_tables(data, Console(file=out, width=120, force_terminal=False), ["first_move"])
    text = " ".join(out.getvalue().split())
    assert ("note: the win share and the first-move Elo disagree for interaction (win share 62.5%, p 0.111: not "
            "significant; first-move Elo +") in text
    assert "net of who played whom" in text and "adjusts for opponent strength" in text
    assert "note: the win share and the first-move Elo disagree" in markdown(data, {"first_move": first})


def test_no_note_when_they_agree():
    data = _round_robin(split=False)  # no seat effect at all: neither is significant
    first = build_tables(data, ["first_move"])["first_move"]
    assert first_move_note(first) == []
    out = io.StringIO()
    print_tables(data, Console(file=out, width=120, force_terminal=False), ["first_move"])
    assert "disagree" not in out.getvalue()


def _row(scope: str, share: float, p: float, elo: float, low: float, high: float) -> dict:
    return {"scope": scope, "win_share": share, "p_value": p, "first_elo": elo, "first_low": low, "first_high": high}


def test_opposite_significant_signs_get_a_note_and_missing_figures_none():
    table = pd.DataFrame([_row("nim", 0.40, 0.01, +35.0, +5.0, +65.0),        # both significant, opposite
                          _row("a vs b", 0.56, 0.03, +40.0, +10.0, +70.0),    # agree: both ahead
                          _row("a vs c", 0.48, 0.60, +12.0, -30.0, +54.0),    # agree: neither significant
                          _row("b vs c", 0.60, 0.20, math.nan, math.nan, math.nan)])
    (line,) = first_move_note(table)
    assert "for nim (win share 40.0%, p 0.01: seat 0 behind; first-move Elo +35.0 [+5.0, +65.0]: seat 0 ahead)" in line
    assert "a vs b" not in line and "a vs c" not in line and "b vs c" not in line
    assert first_move_note(table.drop(columns=["first_elo", "first_low", "first_high"])) == []
