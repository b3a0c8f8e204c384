"""Display cells of report tables (terminal and Markdown)."""

from arena.reports.display import display_frame, format_value
from arena.reports.tables import first_move
from tests.reports.frames import games_frame


def test_format_value():
    assert format_value("win_share", 0.5) == "50.0%"
    assert format_value("p_value", 0.0214843) == "0.0215"
    assert format_value("mu", float("nan")) == "-"
    assert format_value("games", 12) == "12"
    assert format_value("nodes_per_second", 123456.7) == "123,457"
    assert format_value("fault", True) == "yes"


def test_first_move_cells():
    frame = first_move(games_frame([(["a", "b"], [1, 2])] * 3 + [(["b", "a"], [1, 1])]), "nim")
    shown, right = display_frame("first_move", frame)
    assert list(shown.columns) == ["scope", "games", "W-L-D", "win share", "95% CI", "p",
                                   "draws", "score %"]
    assert shown.iloc[0].tolist()[:3] == ["nim", "4", "3-0-1"]  # 3 wins, 0 losses, 1 draw
    assert shown.iloc[0]["95% CI"] == "43.9–100.0%"  # Wilson 3/3: 0.4385 to 1
    assert shown.iloc[0]["p"] == "0.25"               # 2 / 2^3
    assert right == [False, True, True, True, True, True, True, True]


def test_one_result_order_everywhere():
    """Wins, losses, draws (cutechess-cli's and fastchess's order) in the live line, every folded
    cell, the leaderboard's columns and the CSV/JSON columns: a 3-2-1 match from a's side."""
    from arena.reports.pairs import pair_table
    from arena.reports.render import ReportData, build_tables
    from arena.tournament.live import MatchWatch
    from tests.reports.frames import moves_frame

    # pairs: WW, LL, WD(a wins in seat 0, draws in seat 1), then a's seat-1 loss and a's seat-0 win
    rows = [(["a", "b"], [1, 2]), (["b", "a"], [2, 1]), (["a", "b"], [2, 1]), (["b", "a"], [1, 2]),
            (["a", "b"], [1, 2]), (["b", "a"], [1, 1])]
    games = games_frame(rows)
    watch = MatchWatch(("a", "b"))
    for g in games.itertuples():
        watch.add(g.series, g.seats, g.ranks)
    assert watch.line().startswith("Score of a vs b: 3 - 2 - 1 ")
    pairs = pair_table(games, ["a", "b"])
    assert list(pairs.columns[4:7]) == ["wins", "losses", "draws"]
    shown, _ = display_frame("pairs", pairs)
    assert shown.loc[0, "W-L-D"] == "3-2-1"
    tables = build_tables(ReportData(games, moves_frame([]), {"name": "t", "game": "interaction", "num_players": 2,
                                                              "bots": {"a": "random", "b": "greedy"}}))
    board, _ = display_frame("leaderboard", tables["leaderboard"])
    assert [c for c in board.columns if c in ("W", "L", "D")] == ["W", "L", "D"]
    assert board.set_index("bot").loc["a", ["W", "L", "D"]].tolist() == ["3", "2", "1"]
    first = tables["first_move"]
    assert list(first.columns[2:5]) == ["wins", "losses", "draws"]
    seat0 = display_frame("first_move", first)[0].loc[0, "W-L-D"]
    assert seat0 == f"{first.loc[0, 'wins']}-{first.loc[0, 'losses']}-{first.loc[0, 'draws']}" == "3-2-1"
