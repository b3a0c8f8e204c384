"""CLI consistency: numeric checks like ``arena run``, fast start, wide piped tables, full jsonl."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from arena.cli.console import PIPE_WIDTH, console_width, make_console
from arena.tournament import build, run_tournament
from tests.cli_run import run_cli
from tests.registered import register_game



@pytest.mark.parametrize("args, needle", [
    (["play", "interaction", "--seed", "-1"], "--seed -1 is out of range; accepted: 0 to 9223372036854775807"),
    (["play", "interaction", "--seed", "x"], "--seed 'x' is not an integer"),
    (["play", "interaction", "--move-time", "0"], "--move-time 0 is out of range; accepted: 0.001 to 86400"),
    (["play", "interaction", "--time-margin", "-1"], "--time-margin -1 is out of range; accepted: 0 to 3600"),
    (["play", "interaction", "--opening-plies", "-2"], "--opening-plies -2 is out of range"),
    (["solve", "1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC", "--time-limit", "-1"],
     "--time-limit -1 is out of range; accepted: 0.001"),
    (["solve", "1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC", "--time-limit", "0"], "--time-limit 0 is out of range"),
    (["solve", "random random random"], "bad board 'random' in puzzle; accepted: four quadrant sides"),
])
def test_bad_numbers_and_boards_are_one_line_exit_2(args, needle, capsys):
    code, out, err = run_cli(args, capsys)
    assert code == 2 and err.count("\n") == 1 and needle in err, err
    assert "or random" not in err and "Traceback" not in out + err


def test_cli_import_leaves_heavy_modules_for_the_commands():
    code = ("import sys, arena.cli.app; print(sorted(m for m in ('pandas', 'scipy', 'numba', 'arena.results.store', "
            "'arena.tournament', 'arena.reports.render') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "[]", proc.stdout + proc.stderr


def test_console_width_when_piped(monkeypatch, tmp_path):
    monkeypatch.delenv("COLUMNS", raising=False)
    with open(tmp_path / "out.txt", "w") as f:
        assert console_width(f) == PIPE_WIDTH
    monkeypatch.setenv("COLUMNS", "100")
    assert make_console().width == 100


def test_piped_tables_do_not_wrap_cells():
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    proc = subprocess.run([sys.executable, "-m", "arena", "games"], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0
    assert "│ interaction" in proc.stdout and "interact\n" not in proc.stdout
    assert max(map(len, proc.stdout.splitlines())) > 80


def test_export_jsonl_has_every_column(tmp_path, monkeypatch, capsys):
    register_game(monkeypatch, "nim", "tests.toy:Nim")
    run_tournament(build(dict(game="nim", params={"pile": "9"}, games=2, workers=1, results=str(tmp_path), name="t",
                              bots=["random", "b=tests/fixtures/broken_bots.py#Raiser"])))
    out = tmp_path / "t.jsonl"
    code, _, err = run_cli(["export", "t", "--out", str(out), "--results", str(tmp_path)], capsys)
    assert code in (0, None), err
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert list(rows[0]) == ["game_id", "seed", "seats", "ranks", "scores", "termination", "plies", "opening_plies",
                             "moves", "series", "fault_seat", "fault_detail", "seconds", "attempts"]
    for row in rows:
        assert all(isinstance(row[k], int) for k in ("game_id", "seed", "plies", "opening_plies", "series", "attempts"))
        assert isinstance(row["seconds"], float) and row["plies"] == len(row["moves"])
    faulted = [r for r in rows if r["termination"] == "exception"]
    assert faulted and all(isinstance(r["fault_seat"], int) and "bot bug" in r["fault_detail"] for r in faulted)


def test_games_rounded_up_to_whole_series_says_so(tmp_path, capsys):
    code, out, err = run_cli(["run", "--bot", "random", "--bot", "greedy", "--games", "3", "--workers", "1",
                              "--results", str(tmp_path), "--name", "g3", "-q"], capsys)
    assert code == 0, err
    assert "g3: 4 games played" in out
    assert "note: --games 3 rounded up to 4 per pairing (whole series of 2 games, one per seat order)" in err
    code, out, err = run_cli(["run", "--bot", "random", "--bot", "greedy", "--games", "4", "--workers", "1",
                              "--results", str(tmp_path), "--name", "g3", "-q"], capsys)
    assert code == 0 and "rounded" not in err
