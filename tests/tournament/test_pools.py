"""Several pools and process sweeps in one process (a Dask worker running two runs' games, a
library user running two tournaments in threads): the subreaper state is put back once the
last one ends, and no sweep kills another pool's workers."""

import subprocess
import sys
import threading

import pytest

import arena.tournament.pool as pool_module
from arena.os_guard import children_lock, is_subreaper, orphans_reaped
from arena.tournament.pool import Pool, WorkerSlot, open_workers
from arena.tournament.worker import WorkerSetup
from bots.registry import parse_spec
from tests.tournament.hostile import alive

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_CHILD_SUBREAPER: Linux")


def _pool() -> Pool:
    specs = {s.label: s for s in (parse_spec("random"), parse_spec("greedy"))}
    return Pool(WorkerSetup(game="interaction", params={}, specs=specs), workers=1, num_players=2, game_time=60.0)


def _open(pool: Pool) -> Pool:
    list(pool.run([], keep=True))  # open, no worker yet: as a run between its games
    return pool


@pytest.fixture
def not_a_subreaper():
    if is_subreaper():
        pytest.skip("the test process is a child subreaper already")
    yield
    assert not is_subreaper()


@pytest.mark.parametrize("order", ["first opened closes first", "last opened closes first"])
def test_overlapping_pools_put_the_subreaper_state_back(not_a_subreaper, order):
    a = _open(_pool())
    b = _open(_pool())
    assert is_subreaper()
    first, last = (a, b) if order == "first opened closes first" else (b, a)
    first.close()
    assert is_subreaper()  # the other pool is still open
    last.close()
    assert not is_subreaper()


def test_a_pool_outliving_an_orphans_reaped_block_keeps_the_subreaper_state(not_a_subreaper):
    with orphans_reaped(open_workers):
        pool = _open(_pool())
    assert is_subreaper()  # the pool still needs it
    pool.close()
    assert not is_subreaper()


def test_a_sweep_spares_a_worker_another_pool_is_starting(monkeypatch):
    """Pool A sweeps (another thread) while pool B has started a worker not yet in its
    ``slots``: the sweep waits for B to record it, and spares it."""
    a, b = _open(_pool()), _open(_pool())
    sweeps: list[threading.Thread] = []

    class Racing(WorkerSlot):
        def __init__(self, *args):
            super().__init__(*args)  # the worker runs, not yet in b.slots
            sweeps.append(threading.Thread(target=a._sweep))
            sweeps[-1].start()
            sweeps[-1].join(2.0)  # time enough for a sweep that does not wait

    try:
        with children_lock():
            b.slots = [WorkerSlot(b.ctx, b.setup, False)]
        monkeypatch.setattr(pool_module, "WorkerSlot", Racing)
        b._replace(0)
        sweeps[0].join(30)
        assert not sweeps[0].is_alive()
        pid = b.slots[0].proc.pid
        assert alive(pid), "pool A's sweep killed the worker pool B was starting"
        assert pid in open_workers()
    finally:
        monkeypatch.undo()
        a.close()
        b.close()


def test_orphans_reaped_spares_the_workers_of_pools_opened_meanwhile():
    """An ``orphans_reaped`` block (a run checking its field) while another run opens a pool
    and starts its workers: the block kills its own strays only."""
    pool = _pool()
    try:
        with orphans_reaped(open_workers) as killed:
            stray = subprocess.Popen(["sleep", "60"])
            _open(pool)
            with children_lock():
                pool.slots = [WorkerSlot(pool.ctx, pool.setup, False)]
            worker = pool.slots[0].proc.pid
        assert killed == [stray.pid] and not alive(stray.pid)  # killed and reaped by the block
        assert alive(worker)
    finally:
        pool.close()
