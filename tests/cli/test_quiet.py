"""``arena run``: a bad option fails before the runner and the reports are loaded."""

from __future__ import annotations

import subprocess
import sys



def test_a_bad_option_is_refused_before_the_runner_and_the_reports_are_imported(tmp_path):
    code = ("import sys\nfrom arena.cli.app import main\n"
            "try:\n    main(['run', '--format', 'knockout-ish', '--results', sys.argv[1]])\n"
            "except SystemExit as exc:\n"
            "    print(exc.code, 'arena.tournament.runner' in sys.modules, 'pandas' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["2", "False", "False"]
    assert "unknown tournament format 'knockout-ish'" in out.stderr


def test_quiet_prints_one_line_and_notes_on_stderr(tmp_path, capsys):
    """``-q``: no progress bar and no report, one line naming the games played and stored, the
    database and the HTML report (both written); what else the run says is a note on stderr."""
    import re

    from tests.cli_run import run_cli

    args = ["run", "-p", "max_plies=30", "--bot", "random", "--bot", "greedy", "--workers", "1", "--name", "t",
            "--results", str(tmp_path), "-q"]
    code, out, err = run_cli([*args, "--games", "2"], capsys)
    assert code == 0 and err == "", err
    db, page = tmp_path / "t.sqlite", tmp_path / "t.html"
    assert re.fullmatch(rf"t: 2 games played in [\d.]+s, 2/2 stored in {re.escape(str(db))}; "
                        rf"HTML report: {re.escape(str(page))}\n", out), out  # one line, however long
    assert page.is_file() and (tmp_path / "t.report.md").is_file()
    code, out, err = run_cli([*args, "--games", "4"], capsys)
    assert code == 0 and out.startswith("t: 2 games played") and "4/4 stored" in out and "Leaderboard" not in out
    assert err == "note: extended from 2 to 4 games per pairing\n", err
