"""Terminal, Markdown and CSV output of reports; the ``arena report`` command's errors."""

import io

import pandas as pd
import pytest
from rich.console import Console

from arena.cli.app import main
from arena.errors import ConfigError, ResultsError
from arena.reports.output import markdown, print_summary, print_tables, write_files
from arena.reports.render import ReportData, build_tables, load, tables_for
from tests.reports.frames import games_frame, moves_frame


def two_player() -> ReportData:
    games = games_frame([
        (["ab3", "rnd"], [1, 2], "target"),
        (["rnd", "ab3"], [2, 1], "target"),
        (["ab3", "rnd"], [1, 1], "moves"),
        (["rnd", "ab3"], [1, 2], "timeout", 1),
    ])
    moves = moves_frame([
        (1, 0, -1, None, "a1n", 0.0, 0, 0, None, None),
        (1, 1, 0, "ab3", "b2s", 0.01, 120, 3, 0.5, None),
        (1, 2, 1, "rnd", "c3e", 0.001, 1, 0, None, None),
    ])
    tour = {"name": "demo", "game": "interaction", "params": {}, "num_players": 2, "seed": 1,
            "settings": {}, "bots": {"ab3": "alphabeta:depth=3", "rnd": "random"}}
    return ReportData(games, moves, tour)


def three_player() -> ReportData:
    games = games_frame([(["a", "b", "c"], [1, 2, 3]), (["b", "c", "a"], [1, 1, 3]),
                         (["c", "a", "b"], [2, 1, 3])])
    tour = {"name": "trio", "game": "sandpile", "num_players": 3,
            "bots": {"a": "greedy", "b": "maxn", "c": "random"}}
    return ReportData(games, moves_frame([]), tour)


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200, force_terminal=False), out


def test_sections_that_apply():
    assert set(build_tables(two_player())) == {
        "ratings", "los_matrix", "cycles", "nash", "alpharank",
        "leaderboard", "pairs", "elo", "crosstable", "first_move", "lengths", "terminations", "terminations_by_bot",
        "fault_summary", "faults", "search", "game", "game_seats", "game_play", "branching"}
    three = build_tables(three_player())
    assert {"ratings", "los_matrix"} <= set(three) and "cycles" not in three
    assert "seat_advantage" in three and "seat_test" in three and "first_move" not in three
    assert set(build_tables(three_player(), ["game_play"])) == {"game", "game_seats", "game_play", "branching"}
    with pytest.raises(ConfigError, match="unknown report section.*or a table within one: seat_test"):
        build_tables(two_player(), ["leaderbord"])
    # a table printed within a section (a key of --json) selects its section
    assert set(build_tables(two_player(), ["fault_summary"])) == {"fault_summary", "faults"}
    assert set(build_tables(three_player(), ["seat_test"])) == {"seat_advantage", "seat_test"}
    # `-s leaderboard,elo` as `-s leaderboard -s elo`; an empty name is named as one
    both = set(build_tables(two_player(), ["leaderboard", "elo"]))
    assert set(build_tables(two_player(), ["leaderboard, elo"])) == both
    with pytest.raises(ConfigError, match="unknown report section\\(s\\) ''; choose from"):
        build_tables(two_player(), [""])


def test_one_section_builds_only_that_section_and_the_same_table():
    data = two_player()
    pairs = tables_for(data, ["pairs"])
    assert set(pairs) == {"pairs"} and list(data._tables) == ["some:pairs"]  # no field fit, no cycles
    everything = tables_for(two_player())
    pd.testing.assert_frame_equal(pairs["pairs"], everything["pairs"])
    tables_for(data)  # every table, once
    assert tables_for(data, ["pairs"])["pairs"] is data._tables["all"]["pairs"]


def test_terminal_report_names_the_faulty_bot():
    con, out = console()
    print_tables(two_player(), con)
    text = out.getvalue()
    assert "Leaderboard" in text and "First-move advantage" in text
    assert "ab3 timeout in 1 game(s), e.g. game 4 (seat 1" in text
    con, out = console()
    print_summary(three_player(), con)
    assert "chi-square of equal win shares over 3 games" in out.getvalue()
    assert "No faults" in out.getvalue()


def test_markdown_and_csv_written_and_parseable(tmp_path):
    data = two_player()
    paths = write_files(data, tmp_path)
    assert paths[0] == tmp_path / "demo.report.md"
    names = {p.name for p in paths[1:]}
    assert {"demo.leaderboard.csv", "demo.first_move.csv", "demo.faults.csv"} <= names
    board = pd.read_csv(tmp_path / "demo.leaderboard.csv").set_index("label")
    # TrueSkill weighs recent games: ab3 (W, W, D, then a timeout loss) ends below rnd.
    assert board.index.tolist() == ["rnd", "ab3"]
    assert board.loc["ab3", ["wins", "draws", "losses"]].tolist() == [2, 1, 1]
    assert board.loc["ab3", "score_pct"] == pytest.approx(62.5)
    first = pd.read_csv(tmp_path / "demo.first_move.csv")
    assert first.loc[0, "scope"] == "interaction" and first.loc[0, "games"] == 4
    assert pd.read_csv(tmp_path / "demo.faults.csv").loc[0, "bot"] == "ab3"
    text = paths[0].read_text()
    assert text.startswith("# demo\n")
    # Every Markdown table is well formed: header, separator, rows with the same cell count.
    blocks = [b for b in text.split("\n\n") if b.startswith("|")]
    assert len(blocks) >= 6
    for block in blocks:
        rows = block.strip().splitlines()
        assert set(rows[1].replace("|", "").replace(":", "").strip()) <= {"-", " "}
        assert len({row.count("|") for row in rows}) == 1
    assert "| ab3" in markdown(data, build_tables(data, ["leaderboard"]))



def test_corrupt_or_missing_database(tmp_path):
    bad = tmp_path / "junk.sqlite"
    bad.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(ResultsError, match="junk.sqlite"):
        load(bad)
    with pytest.raises(ResultsError, match="no results database"):
        load(tmp_path / "missing.sqlite")


def test_cli_unknown_name_lists_available(tmp_path, capsys):
    (tmp_path / "alpha.sqlite").write_bytes(b"")
    (tmp_path / "beta.sqlite").write_bytes(b"")
    with pytest.raises(SystemExit) as exit_info:
        main(["report", "gamma", "--results", str(tmp_path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "no tournament 'gamma'" in err and "alpha, beta" in err
    assert len(err.strip().splitlines()) == 1


def test_cli_corrupt_database_is_one_line(tmp_path, capsys):
    (tmp_path / "broken.sqlite").write_bytes(b"garbage" * 1000)
    with pytest.raises(SystemExit) as exit_info:
        main(["report", "broken", "--results", str(tmp_path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "broken.sqlite" in err and len(err.strip().splitlines()) == 1


def test_empty_tournament_still_reports(tmp_path):
    from tests.reports.frames import games_frame as gf

    data = ReportData(gf([]), moves_frame([]), {"name": "empty", "game": "interaction",
                                                "num_players": 2, "bots": {"a": "random"}})
    con, out = console()
    print_tables(data, con)
    assert "0 games of interaction" in out.getvalue()
    board = pd.read_csv(write_files(data, tmp_path)[1])
    assert board.loc[0, "label"] == "a" and board.loc[0, "games"] == 0


def test_ricochet_section_only_for_ricochet(tmp_path):
    from tests.reports.test_ricochet import race

    games, moves = race()
    tour = {"name": "race", "game": "ricochet", "num_players": 2,
            "bots": {"opt": "optimal", "greedy": "greedy"}}
    data = ReportData(games, moves, tour)
    assert "ricochet" in build_tables(data)
    assert "ricochet" not in build_tables(ReportData(games, moves, {**tour, "game": "other"}))
    con, out = console()
    print_tables(data, con, ["ricochet"])
    assert "Ricochet races" in out.getvalue() and "60.0%" in out.getvalue()
    written = {p.name for p in write_files(data, tmp_path)}
    assert "race.ricochet.csv" in written
    table = pd.read_csv(tmp_path / "race.ricochet.csv").set_index("label")
    assert table.loc["opt", "chips"] == 3.0


def test_unwritable_folder_is_a_results_error(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the report folder should be")
    with pytest.raises(ResultsError, match="cannot write the report"):
        write_files(two_player(), blocker)
