"""The game's own figures (arena/reports/game.py): hand-checked values on small fixed game sets."""

import json
import math

import numpy as np
import pandas as pd
import pytest

from arena.reports import game as gm
from arena.reports.output import report_json
from arena.reports.render import load
from tests.reports.frames import games_frame, moves_frame
from tests.reports.stores import make_store
from tests.tictactoe import TicTacToe

W, D, L = [1, 2], [1, 1], [2, 1]


def two_player_games():
    rows = [(["a", "b"], W, "normal", None, 10), (["b", "a"], L, "normal", None, 20),
            (["a", "b"], D, "normal", None, 30), (["b", "a"], W, "normal", None, 40),
            (["a", "b"], D, "normal", None, 50),
            (["b", "a"], W, "exception", 0, 3)]  # lost by a fault: not the game's
    frame = games_frame(rows)
    frame["copy"] = False
    return frame


def test_outcomes_and_lengths_by_hand():
    table = gm.outcome_table(two_player_games(), ["a", "b"]).set_index("scope")
    row = table.loc["all"]
    assert row["games"] == 5  # the fault game left out
    assert (row["decisive"], row["first_shared"], row["all_tied"]) == (3 / 5, 2 / 5, 2 / 5)
    # lengths 10, 20, 30, 40, 50: mean 30, sd sqrt(250), linear percentiles 14, 30, 46
    assert (row["mean_plies"], row["sd_plies"]) == (30, pytest.approx(math.sqrt(250)))
    assert (row["p10_plies"], row["median_plies"], row["p90_plies"]) == (14, 30, 46)
    assert row["decisive_low"] < 0.6 < row["decisive_high"]
    assert list(table.index) == ["all", "a vs b"]


def three_player_games():
    rows = [(["a", "b", "c"], [1, 2, 3]), (["b", "c", "a"], [1, 1, 3]), (["c", "a", "b"], [1, 1, 1]),
            (["a", "b", "c"], [2, 1, 2])]
    return games_frame(rows)


def test_ties_for_first_and_seat_shares_by_hand():
    row = gm.outcome_table(three_player_games()).iloc[0]
    # decisive: games 1 and 4; first shared: games 2 (two seats) and 3 (all three); all tied: game 3
    assert (row["decisive"], row["first_shared"], row["all_tied"]) == (0.5, 0.5, 0.25)
    seats = gm.seat_table(three_player_games()).set_index("seat")
    # win shares: seat 0: 1 + 1/2 + 1/3 + 0, seat 1: 0 + 1/2 + 1/3 + 1, seat 2: 1/3 (of 4 games)
    assert seats["win_share"].tolist() == pytest.approx([(1 + 1 / 2 + 1 / 3) / 4, (1 / 2 + 1 / 3 + 1) / 4, 1 / 12])
    assert seats["first_shared"].tolist() == pytest.approx([2 / 4, 2 / 4, 1 / 4])
    # points (k - place)/(k - 1), tied places averaged: game 2 places 1.5, 1.5, 3; game 3 all 2;
    # game 4 places 2.5, 1, 2.5
    assert seats["mean_points"].tolist() == pytest.approx([(1 + 0.75 + 0.5 + 0.25) / 4, (0.5 + 0.75 + 0.5 + 1) / 4,
                                                         (0 + 0 + 0.5 + 0.25) / 4])


def test_branching_of_a_tictactoe_game_replayed():
    # X takes 0, 4, 8 (a diagonal); O 1, 2: legal moves 9, 8, 7, 6, 5 before each ply
    counts = gm.legal_counts(TicTacToe(), TicTacToe().initial_state(), ["0", "1", "4", "2", "8"])
    assert counts == [9, 8, 7, 6, 5]
    short = gm.legal_counts(TicTacToe(), TicTacToe().initial_state(), ["0", "0", "4"])  # ply 1 does not replay
    assert short == [9, 8]
    table = gm.branching_table({1: counts, 2: short})
    assert table["positions"].tolist() == [2, 2, 1, 1, 1] and table["mean"].tolist() == [9, 8, 7, 6, 5]
    assert (table["ply_from"] == table["ply_to"]).all()


def test_branching_rows_group_long_games():
    table = gm.branching_table({1: list(range(100, 0, -1))})  # 100 plies: 40 rows at most, 3 plies each
    assert len(table) == 34 and table.iloc[0][["ply_from", "ply_to", "positions"]].tolist() == [0, 2, 3]
    assert table.iloc[0]["mean"] == 99 and table["positions"].sum() == 100


def test_lead_changes_and_drama_two_players_by_hand():
    # advantages of the mover: seat 0 +0.2, seat 1 +0.1, seat 0 -0.3, seat 1 -0.1; seat 1 wins.
    # Values after each ply (seat 0, seat 1): (.2, -.2) (-.1, .1) (-.3, .3) (.1, -.1); leaders 0, 1, 1, 0:
    # 2 changes; the winner's gap to the leader: 0.4, 0, 0, 0.2
    changes, plies, drama, drama_max = gm.lead_and_drama([0, 1, 0, 1], [0.2, 0.1, -0.3, -0.1], 2, [1])
    assert (changes, plies) == (2, 4)
    assert (drama, drama_max) == (pytest.approx(0.15), pytest.approx(0.4))


def test_lead_changes_and_drama_three_players_by_hand():
    # each seat's latest value; plies before every seat has reported are skipped. After ply 3:
    # (.1, .3, .2), leader 1; after ply 4: (.5, .3, .2), leader 0 (1 change). Winners 0 and 2
    # (tied first): gaps ((.3 - .1) + (.3 - .2))/2 = .15, then (0 + .3)/2 = .15
    assert gm.lead_and_drama([0, 1, 2, 0], [0.1, 0.3, 0.2, 0.5], 3, [0, 2]) == (1, 2, pytest.approx(0.15),
                                                                               pytest.approx(0.15))
    assert gm.lead_and_drama([0, 1], [0.1, 0.2], 3, [0])[:2] == (0, 0)


def test_play_table_reads_self_play_games_only():
    games = games_frame([(["a", "b"], W), (["b", "a"], W), (["a", "x"], W)])
    games["copy"] = False
    rows = []
    # game 1: a (seat 0) says .7, b .4 (seat 0 leads both times: no change), a wins
    rows += [(1, 0, -1, None, "0", 0.0, None, None, math.nan, None), (1, 1, 0, "a", "1", 0.1, 10, 1, 0.7, None),
             (1, 2, 1, "b", "2", 0.1, 10, 1, 0.4, None)]
    # game 2: b (seat 0) says .3, a (seat 1) .45: seat 1 leads, then seat 0 leads: 1 change; b wins
    rows += [(2, 0, 0, "b", "1", 0.1, 10, 1, 0.3, None), (2, 1, 1, "a", "2", 0.1, 10, 1, 0.45, None)]
    # game 3: a against x, another kind: not self-play
    rows += [(3, 0, 0, "a", "1", 0.1, 10, 1, 0.9, None), (3, 1, 1, "x", "2", 0.1, 10, 1, 35.0, None)]
    moves = moves_frame(rows)
    kinds = {"a": "mcts", "b": "mcts", "x": "alphabeta"}
    counts = {1: [4, 3, 2], 2: [5, 4], 3: [6, 5]}
    table = gm.play_table(games, moves, counts, kinds.get, ["a", "b", "x"]).set_index("scope")
    row = table.loc["all"]
    assert row["sampled"] == 3 and row["branching"] == pytest.approx(29 / 7)
    assert row["self_play"] == 2 and row["neutral"] == "0.5"
    assert row["lead_changes"] == pytest.approx(0.5)  # 0 and 1
    assert row["lead_change_rate"] == pytest.approx((0 + 1 / 2) / 2)
    # game 1: (.2, -.2) then (.1, -.1), the winner leads: 0; game 2: (-.2, .2): winner seat 0 behind by .4,
    # then (.05, -.05): 0 -> drama .2, max .4
    assert row["drama"] == pytest.approx(0.1) and row["drama_max"] == pytest.approx(0.2)
    assert table.loc["a vs x", "self_play"] == 0 and math.isnan(table.loc["a vs x", "drama"])
    assert gm.neutral_values(moves, kinds.get) == {"mcts": 0.5, "alphabeta": 0.0}


def test_sample_is_spread_over_the_ids():
    games = games_frame([(["a", "b"], W)] * 1000)
    ids = gm.sample_ids(games, 200)
    assert len(ids) == 200 and ids[0] == 1 and ids[-1] == 1000 and np.all(np.diff(ids) >= 4)


def test_section_game_from_a_stored_tournament(tmp_path):
    path = make_store(tmp_path, "sandpile", fault=True)
    out = json.loads(report_json(load(path), ["game"]))["tables"]
    assert set(out) == {"game", "game_seats", "game_play", "branching"}
    stored = pd.DataFrame(json.loads(report_json(load(path), ["terminations"]))["tables"]["terminations"])
    rule = int(stored.loc[~stored["fault"], "games"].sum())
    assert out["game"][0]["games"] == rule and out["game_play"][0]["sampled"] == rule
    assert out["game_play"][0]["branching"] > 1 and sum(r["positions"] for r in out["branching"]) > 0
    assert len(out["game_seats"]) == 4
