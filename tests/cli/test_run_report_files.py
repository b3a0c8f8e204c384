"""``arena run`` rewrites its report files only when what they show changed (issue 41): a run of
a finished tournament plays nothing, prints the report and keeps the HTML page, the Markdown
report and the CSV files as they were; a run that played, or files written since by ``arena
report`` with other options, rebuilds them."""

from __future__ import annotations

import os

from tests.cli_run import run_cli


def mtimes(folder):
    return {p.name: os.stat(p).st_mtime_ns for p in folder.iterdir()
            if p.suffix in (".html", ".md", ".csv")}


def test_a_run_that_plays_nothing_keeps_the_report_files_and_prints_the_report(tmp_path, capsys):
    args = ["run", "--bot", "random", "--bot", "r2=random", "--games", "2", "--workers", "1",
            "--results", str(tmp_path), "--name", "t"]
    code, out, _ = run_cli(args, capsys)
    assert code in (0, None) and "2 games played" in out
    first = mtimes(tmp_path)
    assert "t.html" in first and "t.report.md" in first and len(first) > 3
    code, out, _ = run_cli(args, capsys)
    assert code in (0, None) and "0 games played" in out
    assert mtimes(tmp_path) == first  # not one file written again
    assert "Leaderboard" in out and f"up to date in {tmp_path / 't.report.md'}" in out  # the report, printed
    code, out, _ = run_cli([*args, "-q"], capsys)
    assert code in (0, None) and mtimes(tmp_path) == first
    code, out, _ = run_cli(["report", "t", "--results", str(tmp_path), "--anchor", "random=1000"], capsys)
    assert code in (0, None)
    rewritten = mtimes(tmp_path)
    assert rewritten["t.report.md"] != first["t.report.md"] and rewritten["t.html"] == first["t.html"]
    code, out, _ = run_cli(args, capsys)  # the files show another anchor now: written again
    assert code in (0, None) and f"written to {tmp_path / 't.report.md'}" in out
    again = mtimes(tmp_path)
    assert again["t.html"] != first["t.html"] and again["t.report.md"] != rewritten["t.report.md"]
    code, out, _ = run_cli([*args[:6], "4", *args[7:]], capsys)  # more games: played, so written again
    assert code in (0, None) and "2 games played" in out
    assert all(mtimes(tmp_path)[name] != again[name] for name in ("t.html", "t.report.md", "t.leaderboard.csv"))
