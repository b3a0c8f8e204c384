"""``arena run -q`` prints one line: what was played, where it is stored, and where the reports
are (they are written as without ``-q``); a bad option fails before the runner is loaded."""

from __future__ import annotations

import subprocess
import sys

from tests.cli_run import run_cli


def test_quiet_prints_one_summary_line_and_writes_the_reports(tmp_path, capsys):
    code, out, err = run_cli(["run", "-q", "--results", str(tmp_path), "--name", "q", "--bot", "random",
                              "--bot", "greedy", "--games", "2", "--workers", "1"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 1, out
    assert lines[0].startswith("q: 2 games played in ")
    assert f"2/2 stored in {tmp_path / 'q.sqlite'}" in lines[0]
    assert lines[0].endswith(f"; report: arena report q; HTML: {tmp_path / 'q.html'}")
    assert (tmp_path / "q.html").is_file() and (tmp_path / "q.report.md").is_file()


def test_a_bad_option_is_refused_before_the_runner_and_the_reports_are_imported(tmp_path):
    code = ("import sys\nfrom arena.cli.app import main\n"
            "try:\n    main(['run', '--format', 'knockout-ish', '--results', sys.argv[1]])\n"
            "except SystemExit as exc:\n"
            "    print(exc.code, 'arena.tournament.runner' in sys.modules, 'pandas' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["2", "False", "False"]
    assert "unknown tournament format 'knockout-ish'" in out.stderr
