"""The end-of-run termination summary per bot (cutechess-cli's): counts by result and
termination, time losses and adjudications included."""

from __future__ import annotations

import io

from rich.console import Console

from arena.reports.output import print_termination_summary
from arena.reports.render import ReportData, build_tables
from arena.reports.tables import terminations_by_bot
from tests.reports.frames import games_frame, moves_frame

GAMES = [
    (["a", "b"], [1, 2], "target"),
    (["b", "a"], [2, 1], "target"),
    (["a", "b"], [2, 1], "timeout", 0),
    (["b", "a"], [1, 2], "adjudicated"),
    (["a", "b"], [1, 1], "adjudicated_draw"),
    (["c", "a", "b"], [1, 1, 3], "rounds"),
]


def test_each_bot_counts_its_games_by_result_and_termination():
    table = terminations_by_bot(games_frame(GAMES), ["a", "b", "c"])
    rows = {(b, r, t): n for b, r, t, n in table.itertuples(index=False)}
    assert rows == {("a", "win", "target"): 2, ("a", "draw", "adjudicated_draw"): 1, ("a", "draw", "rounds"): 1,
                    ("a", "loss", "timeout"): 1, ("a", "loss", "adjudicated"): 1,
                    ("b", "win", "timeout"): 1, ("b", "win", "adjudicated"): 1, ("b", "draw", "adjudicated_draw"): 1,
                    ("b", "loss", "target"): 2, ("b", "loss", "rounds"): 1, ("c", "draw", "rounds"): 1}
    assert table["bot"].tolist()[:5] == ["a"] * 5
    assert table["result"].tolist()[:5] == ["win", "loss", "loss", "draw", "draw"]  # W-L-D, as every table
    assert table.groupby("bot")["games"].sum().to_dict() == {"a": 6, "b": 6, "c": 1}


def test_summary_prints_cutechess_lines_per_player():
    data = ReportData(games_frame(GAMES[:4]), moves_frame([]), {"name": "t", "game": "nim", "num_players": 2,
                                                                "bots": {"a": "random", "b": "random"}})
    assert "terminations_by_bot" in build_tables(data, ["terminations"])
    out = io.StringIO()
    print_termination_summary(data, Console(file=out, width=120, force_terminal=False))
    text = out.getvalue().splitlines()
    assert text[0] == "Terminations by bot"
    assert text[1:5] == ["Player: a", '   "Win: target": 2', '   "Loss: adjudicated": 1', '   "Loss: timeout": 1']
    assert text[5:] == ["Player: b", '   "Win: adjudicated": 1', '   "Win: timeout": 1', '   "Loss: target": 2']
