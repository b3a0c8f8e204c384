"""``arena solve``: readable lines, JSON objects, bad input (docs/arena.md, docs/rules/ricochet.md)."""

from __future__ import annotations

import json

import pytest

from arena.cli.app import main

PUZ = "1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC"
ZERO = "1A,2B,4A,3B R:d10,G:k12,B:a1,Y:p16 RC"  # red already on its target


def run(capsys, *argv):
    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


def test_single_puzzle_readable_and_json(capsys):
    code, out, _ = run(capsys, "solve", PUZ)
    assert code == 0 and "5 moves" in out and "optimal" in out
    code, out, _ = run(capsys, "solve", PUZ, "--json")
    rec = json.loads(out)
    assert set(rec) == {"puzzle", "solution", "moves", "nodes", "seconds", "optimal"}
    assert rec["puzzle"] == PUZ and rec["moves"] == 5 == len(rec["solution"].split())
    assert rec["optimal"] is True and isinstance(rec["nodes"], int) and isinstance(rec["seconds"], float)


def test_zero_moves_is_empty_string(capsys):
    code, out, _ = run(capsys, "solve", ZERO, "--json")
    rec = json.loads(out)
    assert code == 0 and rec["solution"] == "" and rec["moves"] == 0 and rec["optimal"] is True


def test_file_with_a_bad_line_goes_on_and_exits_2(tmp_path, capsys):
    f = tmp_path / "p.txt"
    f.write_text(f"{PUZ}\nnot a puzzle\n\n# comment\n{ZERO}\n")
    code, out, _ = run(capsys, "solve", "--file", str(f), "--json", "--bot", "ricochet-greedy")
    recs = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and len(recs) == 3
    assert recs[0]["solution"] and recs[0]["optimal"] is False
    assert recs[1]["puzzle"] == "not a puzzle" and "error" in recs[1]
    assert recs[2]["solution"] == ""


def test_time_limit_gives_unproven_answer(capsys):
    code, out, _ = run(capsys, "solve", "2B,4B,3B,1B R:c2,G:a13,B:l14,Y:c15 BT", "--json",
                       "--time-limit", "0.2")
    rec = json.loads(out)
    assert code == 0 and rec["optimal"] is False
    assert rec["solution"] is None or rec["moves"] == len(rec["solution"].split())


@pytest.mark.parametrize("argv", [["solve", "1A,2B R:c5 RC"], ["solve"], ["solve", PUZ, "--bot", "random"],
                                  ["solve", "--file", "/nonexistent/file"]])
def test_bad_input_one_line_error(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


def test_a_one_puzzle_process_imports_only_what_solving_needs():
    """The cold start of ``arena solve`` (issue 18, ``bots/ricochet.py`` "Cold start"): a puzzle
    solved within the plain-Python budget imports neither numba nor numpy, nor rich, the
    referee or pandas; the answer unchanged."""
    import subprocess
    import sys

    unwanted = ["numba", "numpy", "rich", "arena.referee", "arena.watch", "pandas", "scipy", "trueskill", "plotly"]
    code = (
        "import sys\n"
        "from arena.cli.app import main\n"
        f"try:\n    main(['solve', {PUZ!r}])\nexcept SystemExit as exc:\n    assert not exc.code\n"
        f"print(sorted(m for m in {unwanted!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    solved, loaded = done.stdout.splitlines()
    assert "5 moves" in solved and "optimal" in solved and "92 nodes" in solved  # the compiled search's count
    assert loaded == "[]"


def test_a_puzzle_file_loads_numba_without_its_probes(tmp_path):
    """``--file`` loads the compiled kernels first, with numba's BLAS probe (``scipy.linalg``) and
    cffi C parser hidden while numba loads; scipy.linalg still imports afterwards."""
    import subprocess
    import sys

    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{PUZ}\n{ZERO}\n")
    code = (
        "import sys\n"
        "from arena.cli.app import main\n"
        f"try:\n    main(['solve', '--file', {str(puzzles)!r}])\nexcept SystemExit as exc:\n    assert not exc.code\n"
        "print(sorted(m for m in ['scipy.linalg', 'pycparser'] if m in sys.modules), 'numba' in sys.modules)\n"
        "import numba.np.arraymath, scipy.linalg\n"
        "print(numba.np.arraymath._HAVE_BLAS, callable(scipy.linalg.solve))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    first, second, loaded, after = done.stdout.splitlines()
    assert "5 moves" in first and "0 moves" in second
    assert loaded == "[] True"
    assert after == "False True"


def test_a_puzzle_file_that_is_not_utf8_is_one_line(tmp_path, capsys):
    f = tmp_path / "bin.txt"
    f.write_bytes(b"\xff\xfe\x00garbage\n")
    code, out, err = run(capsys, "solve", "--file", str(f))
    assert code == 2 and "is not UTF-8 text" in err and err.count("\n") == 1 and not out
