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
    assert set(rec) == {"puzzle", "solution", "moves", "nodes", "seconds", "optimal", "lower_bound"}
    assert rec["puzzle"] == PUZ and rec["moves"] == 5 == len(rec["solution"].split()) == rec["lower_bound"]
    assert rec["optimal"] is True and isinstance(rec["nodes"], int) and isinstance(rec["seconds"], float)


def test_one_move_is_singular(capsys):
    code, out, _ = run(capsys, "solve", "1A,2B,4A,3B R:d11,G:k12,B:a1,Y:p16 RC")
    assert code == 0 and "  1 move: " in out and "optimal" in out


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
    assert recs[1]["puzzle"] == "not a puzzle" and recs[1]["error"].startswith(f"{f}:2: ")  # FILE:LINE
    assert recs[2]["solution"] == ""


def test_a_file_without_a_puzzle_is_one_line_and_exit_2(tmp_path, capsys):
    f = tmp_path / "p.txt"
    f.write_text("# only a comment\n\n")
    code, out, err = run(capsys, "solve", "--file", str(f))
    assert code == 2 and out == "" and "no puzzle in" in err and "accepted: one puzzle a line" in err


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


def test_numba_outside_arena_solve_keeps_its_probes():
    """The compiled kernels loaded by anything but ``arena solve`` with a built-in solver (a
    tournament worker, a user's solver class) leave numba's BLAS and cffi probes alone: what
    numba records there holds for the whole process."""
    import subprocess
    import sys

    code = ("import bots.ricochet_search, numba.np.arraymath, sys\n"
            "print(numba.np.arraymath._HAVE_BLAS, 'scipy.linalg' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]


def test_a_puzzle_file_that_is_not_utf8_is_one_line(tmp_path, capsys):
    f = tmp_path / "bin.txt"
    f.write_bytes(b"\xff\xfe\x00garbage\n")
    code, out, err = run(capsys, "solve", "--file", str(f))
    assert code == 2 and "is not UTF-8 text" in err and err.count("\n") == 1 and not out


HARD = "2B,4B,3B,1B R:c2,G:a13,B:l14,Y:c15 BT"  # no solution of up to 18 moves within 3 s


def _boxed_target() -> str:
    """A custom board whose target RC (d6) is walled on all four sides: no robot can reach it."""
    ranks = [["0"] * 16 for _ in range(16)]
    ranks[10][3] = "fRC"  # rank 6 (rank 16 first), file d
    return "map:" + "/".join(",".join(r) for r in ranks) + " R:a1,G:b1,B:c1,Y:d1 RC"


def test_a_time_limit_that_runs_out_is_named_with_the_bound_searched(capsys):
    """Not "no solution found" alone: the limit that ran out and how deep the proof got."""
    code, out, _ = run(capsys, "solve", HARD, "--time-limit", "0.2")
    assert code == 0 and "the time limit of 0.2 s ran out after ruling out every solution of up to " in out
    assert out.count("\n") == 1
    if "no solution" in out:  # the greedy fallback may still find one: then "not proven optimal: ..."
        assert "no solution found: the time limit" in out and "proven" not in out
    else:
        assert "not proven optimal: the time limit of 0.2 s ran out" in out


def test_json_after_a_time_limit_gives_the_proven_lower_bound_the_text_gives(capsys):
    """The bound of "ruling out every solution of up to N moves" is in ``--json`` as
    ``lower_bound`` N + 1 (the fewest moves a solution can have)."""
    import re

    code, out, _ = run(capsys, "solve", HARD, "--bot", "ricochet-optimal:nodes=1000")
    ruled_out = int(re.search(r"ruling out every solution of up to (\d+) move", out).group(1))
    code, out, _ = run(capsys, "solve", HARD, "--bot", "ricochet-optimal:nodes=1000", "--json")
    rec = json.loads(out)
    assert code == 0 and rec["optimal"] is False and rec["lower_bound"] == ruled_out + 1 > 1
    code, out, _ = run(capsys, "solve", HARD, "--json", "--time-limit", "0.2")
    rec = json.loads(out)
    assert rec["optimal"] is False and isinstance(rec["lower_bound"], int) and rec["lower_bound"] > 1
    code, out, _ = run(capsys, "solve", PUZ, "--bot", "ricochet-greedy", "--json")
    assert json.loads(out)["lower_bound"] is None  # a heuristic's answer proves nothing


def test_a_node_limit_that_runs_out_is_named(capsys):
    code, out, _ = run(capsys, "solve", HARD, "--bot", "ricochet-optimal:nodes=1000")
    assert code == 0 and "the node limit of 1000 ran out after ruling out every solution of up to " in out


def test_a_puzzle_proven_unsolvable_is_not_a_time_limit(capsys):
    code, out, _ = run(capsys, "solve", _boxed_target(), "--time-limit", "30")
    assert code == 0 and "no solution: the target cannot be reached, proven" in out
    assert "time limit" not in out and "not found" not in out
    code, out, _ = run(capsys, "solve", _boxed_target(), "--json")
    rec = json.loads(out)
    assert rec["solution"] is None and rec["optimal"] is True and rec["lower_bound"] is None  # no solution at all


def test_the_no_solution_note_names_a_proven_move_bound():
    """No solution of at most ``max_depth`` moves (``ida_star``'s proof) reads as such."""
    from arena.cli.solve import _line, _note
    from bots.base import Limits
    from bots.ricochet import OptimalSolver, SolveResult

    result = SolveResult(None, 1234, 0.5, True, 60)
    note = _note(OptimalSolver(), Limits(time=10.0), result, True, 60, "unreachable")
    assert note == "none of at most 60 moves exists, proven"
    rec = {"puzzle": PUZ, "solution": None, "moves": None, "nodes": 1234, "seconds": 0.5, "optimal": True}
    assert _line(rec, note) == f"{PUZ}  no solution: none of at most 60 moves exists, proven  (1234 nodes, 0.500 s)"


SOLVER_FILE = '''
from bots.ricochet import solve_optimal


class Plain:
    """A solver that is not a bots.Bot: no choose, no reset."""

    def solve_puzzle(self, puzzle, limits):
        return solve_optimal(puzzle, limits)


class Racer:
    """A Ricochet race bot (choose only): it plays `arena run`, it does not solve."""

    def choose(self, state, limits):
        return None
'''


def test_a_solver_class_in_a_file_is_accepted_as_the_help_says(tmp_path, capsys):
    """`--bot path/to/file.py#Class`, listed by the help, works for a class with
    solve_puzzle (no choose or reset needed); a class without it is refused in one line that
    says what is accepted, file classes included."""
    f = tmp_path / "mysolver.py"
    f.write_text(SOLVER_FILE)
    code, out, err = run(capsys, "solve", PUZ, "--bot", f"{f}#Plain")
    assert code == 0 and "5 moves" in out and "optimal" in out and not err
    code, out, err = run(capsys, "solve", PUZ, "--bot", f"{f}#Racer")
    assert code == 2 and not out and err.count("\n") == 1
    assert "is not a ricochet solver (no solve_puzzle method)" in err and "path/to/file.py#ClassName" in err
    code, out, err = run(capsys, "solve", PUZ, "--bot", "nosuch")
    assert code == 2 and "unknown solver bot 'nosuch'" in err and "alphabeta" not in err
    assert "solve_puzzle(puzzle, limits)" in err and "path/to/file.py#ClassName" in err


def test_the_bot_help_lists_file_classes(capsys):
    import re

    code, out, _ = run(capsys, "solve", "--help")
    flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", out).split())
    assert code == 0 and "solve_puzzle(puzzle, limits)" in flat and "path/to/file.py#ClassName" in flat


def test_a_puzzle_argument_that_is_not_utf8_is_echoed_as_bytes():
    """`arena solve $'\\xff\\xfe'`: the bytes read \\xff\\xfe in the one-line error, not as
    surrogate escapes \\udcff."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "arena", "solve", b"\xff\xfe"], capture_output=True, timeout=120)
    err = done.stderr.decode("utf-8", "backslashreplace")
    assert done.returncode == 2 and not done.stdout and err.count("\n") == 1
    assert err.startswith("error: bad puzzle '\\xff\\xfe'; accepted: ") and "udc" not in err


def test_one_line_shows_surrogate_escapes_as_bytes():
    from arena.errors import ArenaError, one_line

    raw, typed = "\udcff\udc80a", "\\udcff"  # bytes not UTF-8; the text \udcff typed by a user
    assert one_line(ArenaError(f"bad {raw!r} and {raw}")) == "bad '\\xff\\x80a' and \\xff\\x80a"
    assert one_line(ArenaError(f"bad {typed!r}")) == "bad '\\\\udcff'"  # left as typed


def test_a_greedy_answer_claims_no_bound_and_no_limit(capsys):
    """A greedy answer is "not proven optimal" and nothing more: its length is no bound
    searched through, and it found its answer before the node limit (70) ran out."""
    code, out, _ = run(capsys, "solve", PUZ, "--bot", "ricochet-greedy:nodes=70")
    assert code == 0 and "5 moves" in out and "[not proven optimal, " in out
    assert "ran out" not in out and "ruling out" not in out
