"""Worker log records through one multiprocessing-logging queue per worker (arena.tournament.logs)."""

import inspect
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from multiprocessing.connection import Connection

import pytest
from multiprocessing_logging import MultiProcessingHandler

from arena.tournament import build, run_tournament
from arena.tournament.logs import _RETIRED, WorkerLog, join_retired, receiving_threads

BROKEN = "tests/fixtures/broken_bots.py#"
ctx = multiprocessing.get_context("fork")


class Collect(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def arena_logger():
    """A handler on the ``arena`` logger, as a library caller would attach it."""
    logger, handler = logging.getLogger("arena"), Collect()
    saved = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(saved[0])
    logger.propagate = saved[1]


def _log_then_exit(handler, sizes):
    handler.install()
    for size in sizes:
        logging.getLogger("arena.worker").info("x" * size)
    handler.flush()
    os._exit(0)


def _log_forever(handler):
    handler.install()
    rnd = random.Random(os.getpid())
    while True:
        logging.getLogger("arena.worker").info("x" * rnd.choice([10, 1000, 70_000]))


def test_package_internals_this_module_relies_on():
    """Fails if multiprocessing-logging changes what arena/tournament/logs.py uses (see the
    version range in pyproject.toml)."""
    handler = WorkerLog("arena-log-test")
    try:
        assert isinstance(handler, MultiProcessingHandler)
        assert isinstance(handler.queue._reader, Connection) and isinstance(handler.queue._writer, Connection)
        assert isinstance(handler._receive_thread, threading.Thread) and handler._receive_thread.is_alive()
        assert handler._receive_thread.name == "arena-log-test"
        assert handler._is_closed is False
        assert hasattr(handler.queue._sem, "acquire")
        source = inspect.getsource(MultiProcessingHandler._receive)
        assert "self._is_closed" in source and "EOFError" in source  # the loop ends on closed + end-of-file
        assert "self.queue.get(" in source  # which releases the semaphore _send takes
        assert "self._send(" in inspect.getsource(MultiProcessingHandler.emit)
    finally:
        handler.retire()
        assert join_retired(10) == []


def test_records_of_a_worker_reach_the_callers_handler_then_its_thread_ends(arena_logger):
    sizes = [10, 1000, 70_000, 10]  # 70 KB: above the pipe's atomic write size
    handler = WorkerLog("arena-log-test")
    proc = ctx.Process(target=_log_then_exit, args=(handler, sizes), name="worker-under-test")
    proc.start()
    handler.forked()
    proc.join(30)
    handler.retire()
    assert join_retired(10) == []
    got = [r for r in arena_logger.records if r.name == "arena.worker"]
    assert [len(r.getMessage()) for r in got] == sizes  # flushed before os._exit, in order
    assert {r.processName for r in got} == {"worker-under-test"} and {r.process for r in got} == {proc.pid}
    assert not handler._receive_thread.is_alive() and handler.queue._reader.closed


def test_workers_killed_while_logging_leave_no_thread(arena_logger):
    """The prototype's loop: two workers alive, the older killed mid-record, its handler retired
    without waiting; each worker closed its inherited copies of the other's queue, so every
    receiving thread sees end-of-file."""
    live, most_retired = [], 0
    fds = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    start = time.monotonic()
    for i in range(20):
        handler = WorkerLog(f"arena-log-{i}")
        proc = ctx.Process(target=_log_forever, args=(handler,))
        proc.start()
        handler.forked()
        live.append((handler, proc))
        time.sleep(0.02)
        if len(live) >= 2:
            old, old_proc = live.pop(0)
            os.kill(old_proc.pid, signal.SIGKILL)
            old_proc.join()
            old_proc.close()  # its sentinel fd
            old.retire()
            most_retired = max(most_retired, len(_RETIRED))
    for handler, proc in live:
        os.kill(proc.pid, signal.SIGKILL)
        proc.join()
        proc.close()
        handler.retire()
    assert join_retired(30) == []
    assert receiving_threads() == []
    assert not [t for t in threading.enumerate() if t.name.startswith("arena-log-")]
    assert len(arena_logger.records) > 0
    assert most_retired < 20  # finished ones are reaped as others retire, not kept to the end
    if fds is not None:
        assert len(os.listdir("/proc/self/fd")) <= fds  # every queue's pipe closed
    assert time.monotonic() - start < 60  # generous: 2 s join timeouts each would be 40 s


def test_library_caller_gets_records_from_every_worker(tmp_path, arena_logger):
    """``run_tournament`` in the calling process: its handler on ``arena`` receives each worker's
    records, the replaced workers' included, named by process."""
    marks = tmp_path / "marks"
    marks.mkdir()
    cfg = build(dict(game="nim", params={"pile": "12"}, bots=["random", f"bad={BROKEN}KillOnce:dir={marks}"],
                     games=4, workers=2, results=str(tmp_path), opening_plies=0))
    summary = run_tournament(cfg)
    assert summary.stored == 4 and summary.workers_replaced == 4
    ready = [r for r in arena_logger.records if r.name == "arena.worker" and r.getMessage().startswith("worker ")]
    assert len(ready) == 2 + summary.workers_replaced  # one per worker process
    assert all(r.getMessage() == f"worker {r.process} ready" for r in ready)
    assert len({r.processName for r in ready}) == len(ready) and "MainProcess" not in {r.processName for r in ready}
    runner = [r for r in arena_logger.records if r.name == "arena.runner"]
    assert runner and {r.processName for r in runner} == {"MainProcess"}
    log = (tmp_path / f"{summary.name}.log").read_text()
    assert all(f"{r.processName} arena.worker INFO worker {r.process} ready" in log for r in ready)
    assert not [t for t in threading.enumerate() if t.name.startswith("arena-log-")]


def test_workers_flooding_the_log_then_killed_leave_no_logging_thread(tmp_path, arena_logger):
    before = set(threading.enumerate())
    cfg = build(dict(game="nim", params={"pile": "12"}, bots=["random", f"{BROKEN}LogAndDie"], games=4,
                     workers=2, retries=1, results=str(tmp_path), opening_plies=0))
    summary = run_tournament(cfg)
    assert summary.stored == 4 and summary.faults == {"crash": 4}
    assert set(threading.enumerate()) <= before and receiving_threads() == []
    assert any(r.getMessage().startswith("flood ") for r in arena_logger.records)


def _arena_run(tmp_path, *extra):
    import subprocess
    import sys
    root = __file__.rsplit("/tests/", 1)[0]
    args = [sys.executable, "-m", "arena", "run", "--game", "interaction", "--bot", "random", "--bot", "r2=random",
            "--games", "2", "--workers", "2", "--results", str(tmp_path), "-q", *extra]
    proc = subprocess.run(args, cwd=root, timeout=120, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stderr


@pytest.mark.slow
def test_run_verbose_shows_worker_records_on_the_console_default_quiet(tmp_path):
    quiet = _arena_run(tmp_path / "quiet")
    assert "arena.worker" not in quiet and "ready" not in quiet
    verbose = _arena_run(tmp_path / "verbose", "-v")
    lines = [line for line in verbose.splitlines() if "arena.worker: worker" in line and "ready" in line]
    assert len(lines) == 2 and all("ForkProcess-" in line for line in lines)
    assert "MainProcess arena.runner: run " in verbose


@pytest.mark.slow
def test_runs_in_a_row_of_dying_workers_never_hang_and_leave_no_logging_thread(tmp_path):
    """Workers killed while flooding the log, closing their fds, ending by os._exit or SIGKILL:
    25 runs in a row in one process, each returning with no logging thread left."""
    import subprocess
    import sys
    root = __file__.rsplit("/tests/", 1)[0]
    code = ("import threading, arena.games; arena.games.register('nim', 'tests.toy:Nim')\n"
            "from arena.tournament import build, run_tournament\n"
            "bad = ['LogAndDie', 'CloseStd', 'CloseAll', 'ExitZero', 'Suicide']\n"
            "for i in range(25):\n"
            f"    s = run_tournament(build(dict(game='nim', params={{'pile': '12'}}, format='gauntlet', "
            f"bots=['random'] + ['{BROKEN}' + b for b in bad], games=2, workers=2, retries=1, opening_plies=0, "
            f"results={str(tmp_path)!r} + f'/{{i}}')))\n"
            "    assert s.stored == s.total == 10, s\n"
            "    left = [t.name for t in threading.enumerate() if t is not threading.main_thread()]\n"
            "    assert not left, (i, left)\n"
            "print('runs', i + 1)\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, timeout=900, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "runs 25" in proc.stdout
