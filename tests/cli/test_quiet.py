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
