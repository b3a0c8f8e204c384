"""The Ricochet kernels' numba cache: written at first use where numba can write, and a
quiet per-process compilation where it cannot (issue 18, "cold start")."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

numba = pytest.importorskip("numba")

from bots import ricochet_search  # noqa: E402


def test_no_writable_cache_location_compiles_without_caching(monkeypatch):
    from numba.core import caching

    monkeypatch.setattr(caching.CacheImpl, "_locator_classes", [])

    def twice(x):
        return 2 * x

    with pytest.raises(RuntimeError):  # what numba itself does with cache=True
        numba.njit(cache=True)(twice)
    compiled = ricochet_search.kernel(twice)
    assert compiled(21) == 42
    assert isinstance(compiled._cache, caching.NullCache)


def test_kernels_cache_on_disk():
    from bots import ricochet_bounds, ricochet_moves, ricochet_table

    for module, name in [(ricochet_search, n) for n in ("ida_iteration", "ida_run")] + \
            [(ricochet_moves, n) for n in ("slide", "slide_paths", "stop_on", "apart")] + \
            [(ricochet_table, n) for n in ("table_key", "bucket", "spread")] + \
            [(ricochet_bounds, n) for n in ("_stops", "_straight_bounds", "_barrier_bounds", "_turning_ahead",
                                            "_levels")]:
        kernel = getattr(module, name)
        assert not isinstance(kernel._cache, numba.core.caching.NullCache), name


@pytest.mark.slow
def test_warm_up_loads_the_plain_board_and_the_barrier_search():
    """A plain board's search is a specialisation of its own (``paths`` None: no barrier walk in
    its move loop, ``ricochet_search.ida_iteration``); the warm-up loads both before timed play."""
    from bots.ricochet import warm_up

    warm_up()
    kinds = {str(sig[1]) for sig in ricochet_search.ida_run.signatures}
    assert {"none", "array(int64, 1d, C)"} <= kinds


_SOLVE = ("from arena.games.ricochet.puzzle import Puzzle; from bots.ricochet import WARM_UP, solve_optimal; "
          "print(len(solve_optimal(Puzzle.parse(WARM_UP)).solution))")


@pytest.mark.slow
def test_first_process_writes_the_cache_the_next_loads_it(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "NUMBA_DEBUG_CACHE": "1"}
    first = subprocess.run([sys.executable, "-c", _SOLVE], env=env, capture_output=True, text=True, check=True)
    assert first.stdout.strip().splitlines()[-1] == "5"
    assert list(tmp_path.rglob("*ida_iteration*.nbi")), "no cache index written"
    second = subprocess.run([sys.executable, "-c", _SOLVE], env=env, capture_output=True, text=True, check=True)
    assert second.stdout.strip().splitlines()[-1] == "5"
    assert "data saved" not in second.stdout and "data loaded" in second.stdout


def test_the_search_kernels_cache_stamp_holds_the_files_of_the_kernels_they_call():
    """numba stamps a cached kernel with its own file only; the search's kernels compile in the
    moves' and the table's kernels, so their stamp holds those files' hashes too
    (``bots.kernels._with_sources``): an edit of either compiles the search again."""
    import hashlib

    from bots import ricochet_moves, ricochet_table

    hashes = [hashlib.sha256(open(m.__file__, "rb").read()).hexdigest() for m in (ricochet_moves, ricochet_table)]
    for kernel in (ricochet_search.ida_iteration, ricochet_search.ida_run):
        stamp = kernel._cache._cache_file._source_stamp
        assert list(stamp[1:]) == hashes


_CALLEE = "from bots.kernels import backend\nkernel, np, objmode = backend(__name__)\n\n\n@kernel\ndef f(x):\n" \
          "    return x + {n}\n"
_CALLER = ("from bots.kernels import backend, sibling\nkernel, np, objmode = backend(__name__, uses=('callee',))\n"
           "f = sibling('callee', __name__).f\n\n\n@kernel\ndef g(x):\n    return f(x) * 10\n")


@pytest.mark.slow
def test_an_edit_of_a_called_kernels_file_alone_compiles_the_caller_again(tmp_path):
    """Cached, then the callee's file edited (the caller's not): the next process runs the new
    callee in the caller (numba alone would load the caller's cached code, the old callee in it)."""
    (tmp_path / "caller.py").write_text(_CALLER)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    answers = []
    for n in (1, 2):
        (tmp_path / "callee.py").write_text(_CALLEE.format(n=n))
        run = subprocess.run([sys.executable, "-c", "import caller; print(caller.g(1))"], env=env, cwd=tmp_path,
                             capture_output=True, text=True, check=True)
        answers.append(run.stdout.strip())
    assert answers == ["20", "30"]
