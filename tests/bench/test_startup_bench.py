"""``arena bench --only startup``: the command line answers ``--help`` and refuses bad input
to ``arena run`` before the heavy imports (pandas, scipy, numba, numpy, the runner). The
figures are wall-clock times, judged by ``arena bench``; the tests check what they can on a
loaded machine: the exit codes and the modules loaded, never the time."""

from __future__ import annotations

import pytest

from arena.bench import MODULES, startup


def test_startup_is_a_bench_area():
    assert "startup" in MODULES and [c.code for c in startup.CASES][:2] == [0, 0]


@pytest.mark.parametrize("case", startup.CASES, ids=lambda c: " ".join(c.args))
def test_help_and_refused_input_load_no_heavy_package(case, tmp_path):
    assert startup.heavy_imports(case.args, str(tmp_path)) == []
    _, _, code = startup.timed(["-m", "arena", *case.args], str(tmp_path))
    assert code == case.code
    assert list(tmp_path.iterdir()) == []  # a refused run leaves nothing behind


def test_a_figure_has_the_goal_and_says_the_exit_code_and_the_heavy_imports(tmp_path):
    figure = startup.measure(startup.CASES[-1], 1, str(tmp_path))
    assert figure.area == "startup" and figure.unit == "s" and figure.goal == "≤ 0.5" and figure.value > 0
    assert "exit code 2;" in figure.note and "heavy imports: none" in figure.note and "expected" not in figure.note
    assert figure.met in (True, False)
