"""The HTML report: game selection, plots, self-containment, the ``arena report --html`` CLI
(the browser checks are in ``test_html_browser.py``)."""

from __future__ import annotations

import base64
import gzip
import json
import re
from html.parser import HTMLParser

import pytest

from arena.cli.app import main
from arena.errors import ConfigError
from arena.reports import figures
from arena.reports.html import (
    MAX_FAULT_GAMES, MAX_SELECTED, default_game_ids, parse_game_ids, render_html, result_text,
)
from arena.reports.render import load
from tests.reports.frames import games_frame
from tests.reports.stores import final_position, make_store


@pytest.fixture(scope="module")
def interaction_db(tmp_path_factory):
    return make_store(tmp_path_factory.mktemp("html"), "interaction", fault=True)


def test_a_page_that_cannot_be_written_stops_before_the_report(interaction_db, tmp_path, capsys):
    for target, reason in [(tmp_path / "none" / "x.html", "no folder"), (interaction_db / "x.html", "is not a folder")]:
        with pytest.raises(SystemExit) as exit_info:
            main(["report", str(interaction_db), "--html", str(target)])
        out, err = capsys.readouterr()
        assert exit_info.value.code == 2 and reason in err and out == ""


def test_parse_game_ids():
    assert parse_game_ids("1-3,777, 2") == [1, 2, 3, 777]
    assert parse_game_ids("5") == [5]
    for bad in ("", "a", "3-1", "1-", "1,,2", "-4"):
        with pytest.raises(ConfigError, match="accepted: ids and ranges"):
            parse_game_ids(bad)
    with pytest.raises(ConfigError, match=f"at most {MAX_SELECTED}"):
        parse_game_ids(f"1-{MAX_SELECTED + 1}")


def test_default_games_first_last_longest_and_faults():
    rows = [(["a", "b"], [1, 2], "target", None, 30), (["b", "a"], [1, 2], "target", None, 90),
            (["a", "b"], [1, 2], "timeout", 1, 10), (["a", "b"], [1, 2], "timeout", 1, 12),
            (["a", "b"], [2, 1], "exception", 0, 12), (["a", "b"], [1, 1], "repetition", None, 40)]
    games = games_frame(rows)
    # first 1, last 6, longest 2, first timeout of b: 3, first exception of a: 5 (4 repeats 3)
    assert default_game_ids(games) == [1, 2, 3, 5, 6]
    many = games_frame([(["a", f"b{i}"], [1, 2], "timeout", 1, 10) for i in range(20)])
    # first = longest (equal lengths) = the first fault, then MAX_FAULT_GAMES faults, last
    assert default_game_ids(many) == [*range(1, MAX_FAULT_GAMES + 1), 20]
    assert default_game_ids(games.iloc[0:0]) == []


def test_result_text():
    assert result_text(["a", "b"], [1, 2]) == "1-0"
    assert result_text(["a", "b"], [2, 1]) == "0-1"
    assert result_text(["a", "b"], [1, 1]) == "½-½"
    assert result_text(["a", "b", "c"], [2, 1, 3]) == "won by b"
    assert result_text(["a", "b", "c"], [1, 1, 3]) == "shared by a, b"


def test_pair_counts_agree_with_crosstable():
    games = games_frame([(["a", "b"], [1, 2]), (["b", "a"], [1, 1]), (["a", "b"], [2, 1]),
                         (["a", "b", "c"], [1, 3, 2])])
    counts = figures.pair_counts(games)
    assert counts[("a", "b")] == [2, 1, 1]  # W-D-L of a against b, by hand
    assert counts[("c", "a")] == [0, 0, 1]
    from arena.reports.tables import crosstable

    cross = crosstable(games)
    for (row, col), (w, d, lo) in counts.items():
        assert cross.loc[row, col] == pytest.approx(100 * (w + d / 2) / (w + d + lo))


class _Refs(HTMLParser):
    """Every tag's src/href and every <link>: what a browser would fetch."""

    def __init__(self):
        super().__init__()
        self.refs, self.tags = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.refs += [v for k, v in attrs if k in ("src", "href") and v]


def _frames(entry):
    return json.loads(gzip.decompress(base64.b64decode(entry["frames_gz"])))


def test_page_is_self_contained_with_plots_tables_and_games(interaction_db):
    page = render_html(interaction_db)
    refs = _Refs()
    refs.feed(page)
    assert refs.refs == [] and "link" not in refs.tags and "iframe" not in refs.tags
    assert refs.tags.count("script") >= 3  # plotly.js, the games' data, the viewer
    for plot in ("ratings", "crosstable", "first-move", "lengths", "terminations", "faults", "search", "game-lengths",
                 "branching"):
        assert f'id="plot-{plot}"' in page, plot
    for table in ("leaderboard", "crosstable", "first_move", "lengths", "terminations", "fault_summary", "search",
                  "game", "game_seats", "game_play", "branching"):
        assert f'id="table-{table}"' in page, table
    data = json.loads(re.search(r'<script id="games-data" type="application/json">(.*?)</script>', page, re.S).group(1))
    games = load(interaction_db).games
    assert [g["id"] for g in data] == default_game_ids(games)
    fault = [g for g in data if g["fault"]]
    assert fault and "bot bug on purpose" in fault[0]["fault"]
    for entry in data:
        frames = _frames(entry)
        assert len(frames) == entry["plies"] + 1 == entry["frames"]
        assert frames[-1]["text"] == final_position(interaction_db, entry["id"])
        assert all(f["svg"].startswith("<svg") for f in frames)


def test_leaderboard_shows_columns_another_module_adds(interaction_db, monkeypatch):
    """Columns added to a table (e.g. Elo and its interval) reach the page unchanged."""
    from arena.reports import render

    real = render.build_tables

    def with_elo(data, sections=None):
        tables = real(data, sections)
        tables["leaderboard"] = tables["leaderboard"].assign(elo=[1512.5, 1487.5])
        return tables

    monkeypatch.setattr("arena.reports.render.build_tables", with_elo)  # tables_for builds through it
    page = render_html(interaction_db)
    table = re.search(r'<table class="report-table" id="table-leaderboard">(.*?)</table>', page, re.S).group(1)
    assert "<th class=\"num\">Elo</th>" in table and "1512.5" in table


def test_cli_report_html(interaction_db, tmp_path, capsys):
    out = tmp_path / "page.html"
    with pytest.raises(SystemExit) as exc:
        main(["report", str(interaction_db), "--no-write", "-s", "leaderboard", "--html", str(out), "--games", "2,3"])
    assert exc.value.code == 0 and out.is_file()
    data = re.search(r'<script id="games-data" type="application/json">(.*?)</script>', out.read_text(), re.S).group(1)
    assert [g["id"] for g in json.loads(data)] == [2, 3]
    with pytest.raises(SystemExit) as exc:
        main(["report", str(interaction_db), "--no-write", "-s", "leaderboard", "--html"])
    assert exc.value.code == 0 and (interaction_db.parent / "interaction.html").is_file()
    for args, message in ((["--games", "9-x"], "bad game selection '9-x'"),
                          (["--games", "99"], "game 99 is not stored; stored ids: 1 to 5"),
                          ([str(out)], "a file name goes with --html")):
        with pytest.raises(SystemExit) as exc:
            main(["report", str(interaction_db), "--no-write", "-s", "leaderboard", *args])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("bad", ["99999", "abc", "5-1"])
def test_cli_report_bad_games_stops_before_printing_or_writing(interaction_db, tmp_path, capsys, bad):
    import shutil
    db = tmp_path / "copy.sqlite"
    shutil.copy(interaction_db, db)
    with pytest.raises(SystemExit) as exc:
        main(["report", str(db), "--html", "--games", bad])
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and len(err.strip().splitlines()) == 1 and "--games" in err
    written = [p.name for p in tmp_path.iterdir() if p.suffix in (".md", ".csv", ".html")]
    assert out == "" and written == []  # nothing printed or written


@pytest.mark.parametrize("name", ["sandpile", "ricochet"])
def test_sandpile_and_ricochet_pages(name, tmp_path):
    path = make_store(tmp_path, name)
    page = render_html(path)
    data = json.loads(re.search(r'<script id="games-data" type="application/json">(.*?)</script>', page, re.S).group(1))
    assert data
    for entry in data:
        frames = _frames(entry)
        assert frames[-1]["text"] == final_position(path, entry["id"])
        assert f'class="board {name}"' in frames[-1]["svg"]
    if name == "ricochet":
        assert any('class="answer"' in f["svg"] for e in data for f in _frames(e))


@pytest.mark.slow
def test_arena_run_writes_the_html_report(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "arena", "run", "--game", "interaction", "-p", "max_plies=30",
                           "--bot", "random", "--bot", "greedy", "--games", "2", "--workers", "1", "--quiet",
                           "--name", "tiny", "--results", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    page = tmp_path / "tiny.html"
    assert proc.stdout.strip().endswith(f"; HTML report: {page}") and page.is_file()  # -q: one line
    data = json.loads(re.search(r'<script id="games-data" type="application/json">(.*?)</script>',
                                page.read_text(), re.S).group(1))
    assert [g["id"] for g in data] == [1, 2]


@pytest.mark.slow
def test_replays_start_from_the_openings_file_position(tmp_path):
    import subprocess
    import sys

    positions = ["#.......#/.Y......./...YYY.Y./R.......B/........./B.......R/.Y.YYY.Y./........./#.......# r 0 0 10",
                 "#.......#/........./.Y.YYY.Y./R.......B/........./B.......R/.Y.YYY.Y./........./#.......# b 1 0 7"]
    book = tmp_path / "book.txt"
    book.write_text("\n".join(positions) + "\n")
    proc = subprocess.run([sys.executable, "-m", "arena", "run", "--game", "interaction", "-p", "max_plies=30",
                           "--bot", "random", "--bot", "greedy", "--openings", str(book), "--workers", "1",
                           "--quiet", "--name", "book", "--results", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    path = tmp_path / "book.sqlite"
    games = load(path).games
    page = render_html(path, games=",".join(map(str, games["game_id"])))
    data = json.loads(re.search(r'<script id="games-data" type="application/json">(.*?)</script>', page, re.S).group(1))
    firsts = {_frames(entry)[0]["text"] for entry in data}
    assert firsts == set(positions)
    assert all(entry["stopped"] == "" for entry in data)
