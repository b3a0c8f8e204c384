"""Report tables on constructed frames with known counts."""

import math

import pytest

from arena.stats.intervals import wilson_interval
from arena.reports import coded
from arena.reports.tables import (crosstable, fault_summary, faults, first_move, game_lengths,
                                  leaderboard, seat_advantage, seat_results, search_stats,
                                  terminations)
from tests.reports.frames import games_frame, moves_frame

W, D, L = [1, 2], [1, 1], [2, 1]  # seat 0 wins, draws, loses


def first_move_games():
    # a vs b, 10 games: seat 0 wins 7 (4 with a first, 3 with b first), draws 1, loses 2.
    ab = ([(["a", "b"], W)] * 4 + [(["b", "a"], W)] * 3 + [(["a", "b"], D)]
          + [(["b", "a"], L)] * 2)
    # a vs c, 4 games: seat 0 wins all.
    ac = [(["a", "c"], W), (["c", "a"], W)] * 2
    return games_frame(ab + ac)


def test_first_move_counts_share_interval_and_binomial_test():
    table = first_move(first_move_games(), "nim", order=["a", "b", "c"]).set_index("scope")
    assert list(table.index) == ["nim", "a vs b", "a vs c"]
    whole = table.loc["nim"]
    assert (whole.games, whole.wins, whole.draws, whole.losses, whole.decisive) == (14, 11, 1, 2, 13)
    assert whole.win_share == pytest.approx(11 / 13)
    assert (whole.ci_low, whole.ci_high) == pytest.approx(wilson_interval(11, 13))
    # Exact two-sided: 2 * (C(13,11) + C(13,12) + C(13,13)) / 2^13 = 184 / 8192.
    assert whole.p_value == pytest.approx(184 / 8192, rel=1e-12)
    assert whole.draw_rate == pytest.approx(1 / 14)
    assert whole.score_pct == pytest.approx(100 * 11.5 / 14)
    ab = table.loc["a vs b"]
    assert (ab.wins, ab.draws, ab.losses) == (7, 1, 2)
    assert ab.p_value == pytest.approx(2 * (36 + 9 + 1) / 512, rel=1e-12)
    assert ab.draw_rate == pytest.approx(0.1)
    ac = table.loc["a vs c"]
    assert (ac.wins, ac.losses, ac.p_value) == (4, 0, pytest.approx(2 / 16))
    assert ac.ci_high == pytest.approx(1.0)


def test_first_move_without_decisive_games_is_nan_not_an_error():
    row = first_move(games_frame([(["a", "b"], D)])).iloc[0]
    assert row.decisive == 0 and math.isnan(row.win_share) and math.isnan(row.p_value)
    assert row.draw_rate == 1.0


def seat_games():
    # Three players: seat 0 alone first 6 times, seat 1 alone first 3 times, and 3 games
    # where all three share first place (1/3 each): win credits 7, 4, 1.
    rows = [(["a", "b", "c"], [1, 2, 3])] * 6 + [(["b", "c", "a"], [3, 1, 2])] * 3
    rows += [(["c", "a", "b"], [1, 1, 1])] * 3
    return games_frame(rows)


def test_seat_advantage_chi_square():
    result = seat_advantage(seat_games())
    table = result.table.set_index("seat")
    assert table["games"].tolist() == [12, 12, 12]
    assert table["wins"].tolist() == pytest.approx([7, 4, 1])
    assert table["win_share"].sum() == pytest.approx(1.0)
    assert table.loc[0, "mean_rank"] == pytest.approx((6 * 1 + 3 * 3 + 3 * 1) / 12)
    # Expected 4 each: chi2 = (9 + 0 + 9) / 4 = 4.5, 2 dof, p = exp(-4.5 / 2).
    assert result.test.statistic == pytest.approx(4.5)
    assert result.test.dof == 2
    assert result.test.p_value == pytest.approx(math.exp(-2.25), rel=1e-9)
    frame = result.test_frame()
    assert frame.loc[0, "games"] == 12 and frame.loc[0, "seats"] == 3
    # ties for first: the three games where all three share first place
    assert frame.loc[0, "first_ties"] == 3 and frame.loc[0, "first_tie_rate"] == pytest.approx(3 / 12)
    grouped = seat_advantage(coded.grouped(seat_games()))  # rows standing for n games count n times
    assert grouped.first_ties == 3


def test_ties_for_first_count_two_of_four_sharing():
    rows = [(["a", "b", "c", "d"], [1, 1, 3, 4]), (["a", "b", "c", "d"], [1, 2, 3, 4]),
            (["b", "c", "d", "a"], [2, 2, 1, 4]), (["c", "d", "a", "b"], [1, 1, 1, 1])]
    frame = seat_advantage(games_frame(rows)).test_frame()
    assert (frame.loc[0, "first_ties"], frame.loc[0, "first_tie_rate"]) == (2, 0.5)


def test_points_average_tied_places():
    sr = seat_results(games_frame([(["a", "b", "c"], [1, 1, 3]), (["a", "b"], [1, 1])]))
    assert sr["points"].tolist() == pytest.approx([0.75, 0.75, 0.0, 0.5, 0.5])
    assert sr["result"].tolist() == ["D", "D", "L", "D", "D"]
    assert sr["first_share"].tolist() == pytest.approx([0.5, 0.5, 0, 0.5, 0.5])


def test_leaderboard_counts_and_score():
    frame = games_frame([(["a", "b"], W), (["b", "a"], W), (["a", "b"], D),
                         (["a", "b", "c"], [1, 2, 2])])
    board = leaderboard(frame, order=["a", "b", "c", "idle"]).set_index("label")
    assert list(board.columns) == ["mu", "sigma", "conservative", "games", "wins", "losses",
                                   "draws", "score_pct"]
    a = board.loc["a"]
    assert (a.games, a.wins, a.draws, a.losses) == (4, 2, 1, 1)
    assert a.score_pct == pytest.approx(100 * (1 + 0 + 0.5 + 1) / 4)
    # b and c share second of three: places 2 and 3 averaged to 2.5 -> (3 - 2.5) / 2 = 0.25.
    assert board.loc["c", "score_pct"] == pytest.approx(25.0)
    assert board.loc["idle", "games"] == 0
    assert board["conservative"].is_monotonic_decreasing


def test_crosstable_head_to_head():
    frame = games_frame([(["a", "b"], W), (["b", "a"], W), (["a", "b"], D),
                         (["a", "b", "c"], [1, 2, 2])])
    table = crosstable(frame, order=["a", "b", "c"])
    assert table.loc["a", "b"] == pytest.approx(100 * 2.5 / 4)
    assert table.loc["b", "a"] == pytest.approx(100 * 1.5 / 4)
    assert table.loc["b", "c"] == pytest.approx(50.0)
    assert math.isnan(table.loc["a", "a"])


def test_lengths_terminations_and_faults():
    frame = games_frame([
        (["a", "b"], W, "target", None, 30),
        (["b", "a"], L, "timeout", 0, 11),
        (["a", "b"], W, "illegal_move", 1, 5),
        (["b", "a"], W, "target", None, 50),
    ])
    frame["fault_detail"] = [None, "took 2.31 s (limit 1 s + margin 0.1 s)", "played z9", None]
    lengths = game_lengths(frame).set_index("scope")
    assert lengths.loc["all"].tolist() == pytest.approx([4, 24.0, 20.5, 5, 50])
    assert lengths.loc["a vs b", "games"] == 4
    ends = terminations(frame).set_index("termination")
    assert ends.loc["target", "games"] == 2 and not ends.loc["target", "fault"]
    assert ends.loc["timeout", "fault"] and ends["share"].sum() == pytest.approx(1.0)
    listed = faults(frame)
    assert listed["bot"].tolist() == ["b", "b"]  # seat 0 of game 2 and seat 1 of game 3
    assert listed["termination"].tolist() == ["timeout", "illegal_move"]
    assert listed.loc[1, "detail"] == "played z9"
    summary = fault_summary(frame)
    assert summary[["bot", "games"]].values.tolist() == [["b", 1], ["b", 1]]
    assert set(summary["example"]) == {2, 3}


def test_search_stats_exclude_opening_plies():
    moves = moves_frame([
        (1, 0, -1, None, "o1", 0.0, 0, 0, None, None),      # opening ply
        (1, 1, 0, "a", "m1", 0.5, 1000, 4, 0.1, None),
        (1, 2, 1, "b", "m2", 0.25, 100, 2, -0.3, None),
        (1, 3, 0, "a", "m3", 1.5, 3000, 6, 0.2, None),
    ])
    table = search_stats(moves).set_index("label")
    assert list(table.index) == ["a", "b"]
    assert table.loc["a", "moves"] == 2
    assert table.loc["a", "mean_nodes"] == pytest.approx(2000)
    assert table.loc["a", "mean_depth"] == pytest.approx(5)
    assert table.loc["a", "mean_seconds"] == pytest.approx(1.0)
    assert table.loc["a", "max_seconds"] == pytest.approx(1.5)
    assert table.loc["a", "nodes_per_second"] == pytest.approx(4000 / 2.0)
    assert table.loc["b", "nodes_per_second"] == pytest.approx(400)
