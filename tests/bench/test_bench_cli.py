import math
import sys
import types

import pytest
from typer.testing import CliRunner

import arena.cli.bench as bench_cli
from arena.bench import Figure
from arena.cli.app import app


def fake_modules(monkeypatch):
    ok = types.ModuleType("arena.bench.fake_ok")
    ok.run = lambda quick: [Figure("fake", "widgets", 123456.0 if quick else 1.0, "widgets/s", "≥ 5", "[note]")]
    bad = types.ModuleType("arena.bench.fake_bad")

    def boom(quick):
        raise RuntimeError("no [red]widgets[/red]\nat all")

    bad.run = boom
    monkeypatch.setitem(sys.modules, "arena.bench.fake_ok", ok)
    monkeypatch.setitem(sys.modules, "arena.bench.fake_bad", bad)
    monkeypatch.setattr(bench_cli, "MODULES", ["fake_bad", "fake_ok"])


def test_failures_are_rows_not_crashes(monkeypatch):
    fake_modules(monkeypatch)
    result = CliRunner().invoke(app, ["bench", "--quick"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "failed" in result.output and "RuntimeError: no [red]widgets[/red] at all" in result.output
    assert "widgets/s" in result.output and "123,456" in result.output and "[note]" in result.output
    assert "yes" not in result.output and "goals are judged in the full run" in result.output  # quick
    result = CliRunner().invoke(app, ["bench"], env={"COLUMNS": "200"})
    assert " no " in result.output  # the full run judges: 1.0 does not meet "≥ 5"


def test_only_selects_one_module_and_rejects_unknown(monkeypatch):
    fake_modules(monkeypatch)
    rows = bench_cli.run_modules(quick=False, only="fake_ok")
    assert [(name, err) for name, _, err in rows] == [("fake_ok", None)]
    assert rows[0][1][0].value == 1.0
    result = CliRunner().invoke(app, ["bench", "--only", "nope"])
    assert result.exit_code != 0 and "fake_bad, fake_ok" in str(result.exception)


def test_games_goes_with_only_report():
    result = CliRunner().invoke(app, ["bench", "--games", "100"])
    assert result.exit_code != 0 and "--only report" in str(result.exception)
    result = CliRunner().invoke(app, ["bench", "--only", "report", "--games", "lots"])
    assert result.exit_code != 0 and "bad --games 'lots'" in str(result.exception)


@pytest.mark.slow
def test_report_bench_on_a_small_store(tmp_path, monkeypatch):
    """The report figures on a 40-game store and a 5-bot field: a valid store (every game
    replays), the report subprocess timed, its peak memory measured."""
    import sqlite3

    import arena.games
    from arena.bench import report
    from arena.results.store import load_game

    monkeypatch.setattr(report, "QUICK_FIELD", 5)  # the field's figures as for 20 bots, on 20 games
    figures = report.run(quick=True, games=40)
    assert [f.unit for f in figures] == ["s", "MiB", "s", "s", "s", "s", "s"]
    assert all(f.value > 0 for f in figures)
    assert "copied games" in figures[0].name and "second" in figures[2].name  # no rating state, then the stored one
    assert f"{report.QUICK_FIELD}-bot round-robin" in figures[5].name
    path = report.build_store(tmp_path, "small", 6, distinct=3)
    game = arena.games.make("interaction")
    for game_id in range(1, 7):
        row = load_game(path, game_id)
        state = game.initial_state(row["seed"])
        for text in row["moves"]:
            state = state.play(game.parse_move(state, text))
        assert state.is_terminal()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT prefix FROM rating_state").fetchone() == (6,)
    conn.close()
    assert report.build_store(tmp_path, "small", 10, distinct=3) == path  # extended: the six games stay
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*), max(game_id) FROM games").fetchone() == (10, 10)
    assert conn.execute("SELECT prefix FROM rating_state").fetchone() == (10,)
    conn.close()


def test_the_field_store_is_the_round_robin_arena_run_plays(tmp_path):
    """The 100-bot bench store in small: the ids, series and seats of the round-robin's
    schedule, real games (each replays), none a copy, the rating state kept."""
    import sqlite3

    import arena.games
    from arena.results import aggregates
    from arena.bench import report
    from arena.results.store import load_game
    from arena.tournament.pairing import round_robin
    from arena.tournament.series import schedule

    path = report.build_field_store(tmp_path, "field", 4, distinct=3)
    labels = report.field_labels(4)
    tasks = schedule(arena.games.make("interaction"), round_robin(labels, 2), 2, 1)
    frame = aggregates.load_game_frame(path)
    assert len(frame) == len(tasks) == 12
    assert [list(t.seats) for t in tasks] == [list(s) for s in frame["seats"]]
    assert frame["series"].tolist() == [t.series for t in tasks]
    assert aggregates.load_copies(path) == []
    game = arena.games.make("interaction")
    for task in tasks:
        row = load_game(path, task.game_id)
        state = game.initial_state(row["seed"])
        for text in row["moves"]:
            state = state.play(game.parse_move(state, text))
        assert state.is_terminal()
    assert frame.groupby(frame["game_id"].sub(1) // 2)["seed"].nunique().eq(1).all()  # one start a series
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT prefix FROM rating_state").fetchone() == (12,)
    conn.close()


def test_a_module_needing_an_optional_package_is_skipped_with_how_to_install(monkeypatch):
    fake_modules(monkeypatch)
    needs = types.ModuleType("arena.bench.fake_cluster")

    def missing(quick):
        raise ModuleNotFoundError("No module named 'dask'", name="dask")

    needs.run = missing
    monkeypatch.setitem(sys.modules, "arena.bench.fake_cluster", needs)
    monkeypatch.setattr(bench_cli, "MODULES", ["fake_cluster", "fake_ok"])
    rows = bench_cli.run_modules(quick=True)
    assert rows[0] == ("fake_cluster", None, "skipped: needs dask (pip install -e '.[cluster]')")
    result = CliRunner().invoke(app, ["bench", "--quick"], env={"COLUMNS": "200"})
    assert result.exit_code == 0 and "skipped" in result.output and "failed" not in result.output


def test_the_met_column_reads_the_goal():
    def met(value, goal):
        return Figure("a", "f", value, "x", goal).met

    assert (met(0.8, "≥ 0.75"), met(0.7, "≥ 0.75"), met(50_001, "≥ 50000"), met(12.3, "≤ 3 (linear)")) == \
           (True, False, True, False)
    assert (met(19.9, "< 20"), met(20, "< 20"), met(1.04, "≈ 1"), met(0.94, "≈ 1")) == (True, False, True, False)
    assert (met(1.0, ""), met(float("nan"), "≥ 1"), met(2.0, "fast")) == (None, None, None)


def test_a_figure_without_a_value_reads_none(monkeypatch):
    """``arena bench --only coverage --quick`` printed ``= nan % covered`` for an interval no
    run marked; the progress line and the table say ``none`` (the note says why)."""
    empty = types.ModuleType("arena.bench.fake_empty")
    empty.run = lambda quick: [Figure("coverage", "  intervals marked", math.nan, "% covered", "", "none in 4 runs")]
    monkeypatch.setitem(sys.modules, "arena.bench.fake_empty", empty)
    monkeypatch.setattr(bench_cli, "MODULES", ["fake_empty"])
    lines: list[str] = []
    bench_cli.run_modules(True, progress=lines.append)
    assert lines[-1] == "  coverage:   intervals marked = none (none in 4 runs)"
    result = CliRunner().invoke(app, ["bench", "--quick"], env={"COLUMNS": "200"})
    assert result.exit_code == 0 and "nan" not in result.output and "none" in result.output, result.output
