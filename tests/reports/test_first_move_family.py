"""The first-move table's Holm family and its whole-game first-move Elo (issue 41).

A lone pairing's p was doubled by Holm (0.033 -> 0.067) because the whole-game row, the same
games, was counted as a second test; and the table's whole-game first-move Elo (the fit
without prior) differed from the field table's ``(first move)`` row (the fit with its prior)
for the same games, without a word."""

from __future__ import annotations

import math

import pytest
from scipy import stats

from arena.reports.render import ReportData, notes, tables_for
from arena.stats.significance import holm
from tests.reports.frames import games_frame, moves_frame

#: seat-0 result of a game -> (ranks by seat)
SEAT0 = {1: [1, 2], 0.5: [1, 1], 0: [2, 1]}


def _games(pairings: dict[tuple[str, str], list[float]]) -> ReportData:
    """Each pairing's games in colour-swapped pairs; the list gives seat 0's result of each game."""
    rows = []
    for (a, b), results in pairings.items():
        for i, r in enumerate(results):
            rows.append(([a, b] if i % 2 == 0 else [b, a], SEAT0[r]))
    labels = dict.fromkeys(lab for pair in pairings for lab in pair)
    tour = {"name": "fm", "game": "interaction", "num_players": 2, "seed": 1,
            "bots": {lab: "random" for lab in labels}}
    return ReportData(games_frame(rows), moves_frame([]), tour)


#: 14 of 18 decisive games won by seat 0, 2 draws: the exact binomial test gives p = 0.0309
LONE = [1] * 14 + [0] * 4 + [0.5] * 2


def test_a_lone_pairing_keeps_its_p_and_the_whole_game_row_is_no_second_test():
    table = tables_for(_games({("a", "b"): LONE}), ["first_move"])["first_move"]
    p = stats.binomtest(14, 18, 0.5).pvalue
    assert p == pytest.approx(0.03088, abs=1e-5)
    assert table["p_value"].tolist() == pytest.approx([p, p])
    assert table["p_holm"].tolist() == pytest.approx([p, p])  # a family of one each: not 2p


def test_holm_corrects_over_the_pairings_only():
    results = {("a", "b"): LONE, ("a", "c"): [1] * 10 + [0] * 10, ("b", "c"): [1] * 14 + [0] * 6}
    table = tables_for(_games(results), ["first_move"])["first_move"]
    whole, pairing_rows = table.iloc[0], table.iloc[1:]
    assert whole["p_holm"] == pytest.approx(whole["p_value"])
    assert pairing_rows["p_holm"].tolist() == pytest.approx(holm(pairing_rows["p_value"].tolist()))
    # known values: p = 0.0309, 1, 0.1153 -> Holm 3 x 0.0309, 1, 2 x 0.1153 (not 4x, 2x, 3x with the whole game)
    assert pairing_rows["p_value"].tolist() == pytest.approx([0.0308837890625, 1.0, 0.11531829833984375])
    assert pairing_rows["p_holm"].tolist() == pytest.approx([3 * 0.0308837890625, 1.0, 2 * 0.11531829833984375])


def test_the_first_move_table_gives_the_field_tables_first_move_elo():
    data = _games({("a", "b"): LONE, ("a", "c"): [1, 1, 0, 1] * 6, ("b", "c"): [1, 0.5, 1, 0] * 6})
    tables = tables_for(data, ["ratings", "first_move"])
    field_row = tables["ratings"].set_index("label").loc["(first move)"]
    whole = tables["first_move"].iloc[0]
    assert math.isfinite(field_row["elo"])
    assert (whole["first_elo"], whole["first_low"], whole["first_high"]) == pytest.approx(
        (field_row["elo"], field_row["elo_low"], field_row["elo_high"]))
    said = " ".join(notes(data, "first_move", tables["first_move"]))
    assert "field table" in said


def test_a_first_move_that_won_every_game_still_has_a_whole_game_elo():
    # the maximum-likelihood term does not exist (seat 0 won every game); the field fit's prior keeps it finite
    table = tables_for(_games({("a", "b"): [1] * 12}), ["first_move"])["first_move"]
    assert math.isfinite(table.iloc[0]["first_elo"]) and table.iloc[0]["first_elo"] > 0
