"""The newcomer's rough edges (issue "See the tournament"), one test each: defaults in
``arena run --help``, ``arena --version``, a file bot given as a dotted path, tables on an
80-column terminal, ``arena report NAME | head``, ``arena bench --quick`` progress, and the
first lines of ``arena play``."""

from __future__ import annotations

import subprocess
import sys
import types

import pytest
from rich.console import Console
from typer.main import get_command
from typer.testing import CliRunner

import arena
import arena.cli.bench as bench_cli
from arena.bench import Figure
from arena.cli.app import app
from arena.reports.display import display_frame
from arena.reports.output import print_tables
from arena.reports.render import build_tables, load
from arena.tournament.config import DEFAULT_FIELDS
from tests.reports.stores import make_store
from tests.cli_run import run_cli



def test_every_run_option_states_its_default():
    run = get_command(app).commands["run"]
    options = [p for p in run.params if p.param_type_name == "option"]
    assert len(options) >= 20
    for option in options:
        assert "default" in (option.help or "").lower(), option.opts
    games = next(p for p in options if "--games" in p.opts).help
    for game, (_, count) in DEFAULT_FIELDS.items():
        assert f"{game} {count}" in games
    helps = {p.opts[0]: p.help for p in options}
    assert "default round-robin" in helps["--format"]
    assert "default cyclic" in helps["--seat-rotation"]
    assert "default 2" in helps["--opening-plies"]


def test_version(capsys):
    code, out, _ = run_cli(["--version"], capsys)
    assert code == 0 and out.strip() == f"arena {arena.__version__}"


def test_dotted_bot_suggests_the_file(tmp_path, monkeypatch, capsys):
    (tmp_path / "mybot.py").write_text(
        "class FirstMove:\n    def choose(self, state, limits):\n        return state.legal_moves()[0]\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "mybot", raising=False)
    code, _, err = run_cli(["play", "interaction", "--bot", "mybot.FirstMove"], capsys)
    assert code == 2 and "No module named 'mybot'" in err and "did you mean mybot.py#FirstMove?" in err
    (tmp_path / "mybot.py").unlink()
    code, _, err = run_cli(["play", "interaction", "--bot", "mybot.FirstMove"], capsys)
    assert code == 2 and "did you mean" not in err  # no such file: no suggestion


@pytest.fixture(scope="module")
def ricochet_db(tmp_path_factory):
    return make_store(tmp_path_factory.mktemp("newcomer"), "ricochet")


def test_tables_fit_80_columns(ricochet_db):
    data = load(ricochet_db)
    console = Console(width=80, record=True, color_system=None)
    print_tables(data, console)
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    # the Ricochet table is wider than 80: columns are left out with a note, none is wrapped
    assert "left out to fit 80 columns:" in text and "fails i/n/l/c" in text.split("left out to fit 80 columns:")[-1]
    shown, _ = display_frame("ricochet", build_tables(data)["ricochet"])
    for label, rate in zip(shown["bot"], shown["solve rate"]):
        assert any(label in line and rate in line for line in text.splitlines()), (label, rate)
    wide = Console(width=200, record=True, color_system=None)
    print_tables(data, wide)
    assert "left out" not in wide.export_text()


@pytest.mark.slow
def test_report_into_a_closed_pipe_exits_0_quietly(ricochet_db):
    proc = subprocess.Popen([sys.executable, "-m", "arena", "report", str(ricochet_db), "--no-write"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # like `| head` leaving before the report is printed
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0 and err == ""
    shell = subprocess.run(f"'{sys.executable}' -m arena report '{ricochet_db}' --no-write | head -1",
                           shell=True, capture_output=True, text=True, executable="/bin/bash")
    assert shell.stderr == "" and shell.stdout.startswith("ricochet:")


def test_bench_quick_prints_a_progress_line_per_figure(monkeypatch):
    mod = types.ModuleType("arena.bench.fake_two")
    mod.run = lambda quick: [Figure("fake", "widgets", 5.0, "w/s"), Figure("fake", "gadgets", 7.0, "g/s")]
    monkeypatch.setitem(sys.modules, "arena.bench.fake_two", mod)
    monkeypatch.setattr(bench_cli, "MODULES", ["fake_two"])
    lines = []
    bench_cli.run_modules(True, progress=lines.append)
    assert lines == ["bench 1/1: fake_two ...", "  fake: widgets = 5 w/s", "  fake: gadgets = 7 g/s"]
    result = CliRunner().invoke(app, ["bench", "--quick"], env={"COLUMNS": "200"})
    assert result.exit_code == 0 and "fake: gadgets = 7 g/s" in result.output


def test_play_starts_with_words_and_explains_ricochet_targets():
    result = CliRunner().invoke(app, ["play", "ricochet", "--bot", "ricochet-optimal", "-p", "max_rounds=1"])
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first == "ricochet (max_rounds=1), seed 0: seat 0 ricochet-optimal, seat 1 random"
    assert "make(" not in result.output
    assert "target codes: colour R red, G green, B blue, Y yellow" in result.output
    assert " = " in next(line for line in result.output.splitlines() if line.startswith("target "))
    assert "round 1: chip " in result.output and " won by seat 0 ricochet-optimal with " in result.output
    plain = CliRunner().invoke(app, ["play", "interaction", "-q", "-p", "target=2"])
    assert plain.output.splitlines()[0] == "interaction (target=2), seed 0: seat 0 random, seat 1 random#2"


def test_run_with_a_file_bot_without_a_class(tmp_path, monkeypatch, capsys):
    (tmp_path / "mybot.py").write_text("class FirstMove:\n    pass\n")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["run", "--bot", "me=mybot.py", "--bot", "greedy", "--games", "2",
                              "--results", str(tmp_path / "R")], capsys)
    assert code == 2 and "mybot.py#ClassName" in err and "#py" not in err and len(err.strip().splitlines()) == 1
