"""Ricochet race statistics on a constructed two-game race."""

import math

import pytest

from arena.reports.ricochet import answer_length, ricochet_table, rounds
from tests.reports.frames import games_frame, moves_frame


def race():
    games = games_frame([
        (["opt", "greedy"], [1, 2], "target", None, 3, [2.0, 1.0]),
        (["greedy", "opt"], [1, 1], "max_rounds", None, 2, [1.0, 1.0]),
    ])
    m = [
        # game 1, round 0: opt 3 moves (won), greedy 5 moves (valid)
        (1, 0, 0, "opt", "RN GE RS", 1.0, 500, 3, None, "won"),
        (1, 0, 1, "greedy", "RN GE RS BW YN", 0.1, 50, 0, None, "valid"),
        # round 1: opt won in 2, greedy invalid
        (1, 1, 0, "opt", "BN BE", 2.0, 800, 2, None, "won"),
        (1, 1, 1, "greedy", "BS", 0.2, 40, 0, None, "invalid"),
        # round 2: greedy alone solves (4), opt late
        (1, 2, 0, "opt", "-", 3.0, 900, 5, None, "late"),
        (1, 2, 1, "greedy", "GN GE GS GW", 0.3, 60, 0, None, "won"),
        # game 2 (seats swapped), round 0: nobody answers; round 1: tie at 2, greedy wins
        (2, 0, 0, "greedy", "-", 0.4, 70, 0, None, "none"),
        (2, 0, 1, "opt", "-", 4.0, 1000, 6, None, "crash"),
        (2, 1, 0, "greedy", "YN YW", 0.5, 30, 0, None, "won"),
        (2, 1, 1, "opt", "RW RN", 1.0, 300, 2, None, "valid"),
    ]
    return games, moves_frame(m)


def test_answer_length():
    assert answer_length("RN GE RS") == 3
    assert answer_length("") == 0


def test_rounds_excess_over_shortest():
    answers = rounds(race()[1])
    greedy_first = answers[(answers.game_id == 1) & (answers.ply == 0)].set_index("label")
    assert greedy_first.loc["greedy", "excess"] == 2
    assert greedy_first.loc["opt", "excess"] == 0
    assert math.isnan(answers[answers.status == "invalid"]["length"].iloc[0])


def test_ricochet_table():
    games, moves = race()
    table = ricochet_table(games, moves, order=["opt", "greedy"]).set_index("label")
    assert list(table.index) == ["opt", "greedy"]
    opt, greedy = table.loc["opt"], table.loc["greedy"]
    assert (opt.games, opt.chips, opt.chips_per_game) == (2, 3.0, 1.5)
    assert (opt.rounds, opt.rounds_won, opt.solved) == (5, 2, 3)
    assert opt.solve_rate == pytest.approx(3 / 5)
    assert opt.mean_length == pytest.approx((3 + 2 + 2) / 3)
    assert opt.mean_excess == pytest.approx(0.0)
    assert opt.mean_seconds == pytest.approx(11.0 / 5)
    assert (opt.late, opt.crash, opt.invalid, opt.none) == (1, 1, 0, 0)
    assert (greedy.rounds_won, greedy.solved) == (2, 3)
    assert greedy.mean_length == pytest.approx((5 + 4 + 2) / 3)
    assert greedy.mean_excess == pytest.approx((2 + 0 + 0) / 3)
    assert (greedy.invalid, greedy.none) == (1, 1)
