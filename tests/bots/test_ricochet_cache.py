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
    from bots import ricochet_bounds

    for module, name in [(ricochet_search, n) for n in ("_slide", "_move", "ida_iteration", "ida_run")] + \
            [(ricochet_bounds, n) for n in ("_stops", "_straight_bounds", "_barrier_bounds", "_turning_ahead")]:
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
