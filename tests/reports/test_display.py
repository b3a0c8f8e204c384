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
    assert list(shown.columns) == ["scope", "games", "W-D-L", "win share", "95% CI", "p",
                                   "draws", "score %"]
    assert shown.iloc[0].tolist()[:3] == ["nim", "4", "3-1-0"]
    assert shown.iloc[0]["95% CI"] == "43.9–100.0%"  # Wilson 3/3: 0.4385 to 1
    assert shown.iloc[0]["p"] == "0.25"               # 2 / 2^3
    assert right == [False, True, True, True, True, True, True, True]
