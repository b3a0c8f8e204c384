"""``arena run --cluster``: Dask workers that leave and come back (``ClusterPool``'s bookkeeping
of the workers it gives up on, ``dask_connect.WorkerEvents``), and a client set up halfway.

The clusters here are not ``local:N``'s own: one whose nanny restarts its worker at a fixed
port (the same address), one with Dask's default ``allowed-failures`` (a lost worker's tasks
wait for a worker at its address instead of failing). Sizes are small: the machine is shared.
"""

import contextlib
import logging
import signal
import socket
import sqlite3
import time
from types import SimpleNamespace

import pytest

from arena.results.store import load_games
from arena.tournament import build, run_tournament
from arena.tournament.dask_connect import LOCAL_CONFIG, WorkerEvents
from arena.tournament.worker import WorkerSetup

distributed = pytest.importorskip("distributed")

BROKEN = "tests/fixtures/broken_bots.py#"
NIM = dict(game="nim", params={"pile": "12"}, opening_plies=0)


def run(tmp_path, cluster, **values):
    cfg = build(dict(results=str(tmp_path / "results"), name="t", cluster=cluster, **values))
    return run_tournament(cfg)


@contextlib.contextmanager
def local_cluster(config, **kwargs):
    import dask
    with dask.config.set(config):
        cluster = distributed.LocalCluster(threads_per_worker=1, processes=True, dashboard_address=":0",
                                           memory_limit=0, silence_logs=logging.ERROR, **kwargs)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


class Hung(BaseException):
    """A run past its time limit (a ``BaseException``: no ``except Exception`` swallows it)."""


@contextlib.contextmanager
def time_limit(seconds):
    """Fail instead of hanging (a run that never ends is the defect some tests pin)."""
    def expired(signum, frame):
        raise Hung(f"the run did not end within {seconds}s")
    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_a_worker_restarted_at_the_same_address_gets_work_again(tmp_path):
    """The only Dask worker listens at a fixed port; each game SIGKILLs it the first time it
    plays, and its nanny starts a new one at the same address. The address was given up on
    with the dead server, not for the run: the new server plays the replays (before, the run
    waited ``WORKER_TIMEOUT`` for a worker and ended in ``ClusterError``)."""
    marks = tmp_path / "marks"
    marks.mkdir()
    with local_cluster(LOCAL_CONFIG, n_workers=1, host="127.0.0.1", worker_port=_free_port()) as address, \
            time_limit(300):
        store = tmp_path / "results" / "t.sqlite"  # the replayed game's record stored before the next kill
        summary = run(tmp_path, address, bots=["random", f"{BROKEN}KillParent:dir={marks},store={store}"], games=2,
                      retries=1, **NIM)
    assert summary.stored == summary.total == 2 and not summary.faults and summary.workers_replaced >= 2
    assert set(load_games(summary.path).termination) == {"last_stone"} and len(list(marks.glob("parent-*"))) == 2
    attempts = sqlite3.connect(summary.path).execute("SELECT attempts FROM games ORDER BY game_id").fetchall()
    assert attempts == [(2,), (2,)]


@pytest.mark.slow
def test_a_game_that_keeps_killing_its_worker_ends_on_a_default_scheduler(tmp_path):
    """Dask's default ``allowed-failures`` (3): a lost worker's tasks wait for a worker at its
    address, never ``KilledWorker``. The bot SIGKILLs its Dask worker in every game; the client
    sees the worker gone, the scheduler's ``remove-worker`` event says it was processing the
    game's task, so the loss counts: with one retry each game is a ``crash`` blamed on nobody
    (before, the loss counted as "not begun" and the games were replayed for ever)."""
    config = LOCAL_CONFIG | {"distributed.scheduler.allowed-failures": 3}
    with local_cluster(config, n_workers=2) as address, time_limit(300):
        summary = run(tmp_path, address, bots=["random", f"{BROKEN}KillParent"], games=2, retries=1, **NIM)
    games = load_games(summary.path)
    assert set(games.termination) == {"crash"} and games.fault_seat.isna().all()
    assert summary.faults == {"crash": 2}
    attempts = sqlite3.connect(summary.path).execute("SELECT attempts FROM games ORDER BY game_id").fetchall()
    assert attempts == [(2,), (2,)]


@pytest.mark.slow
def test_a_scheduler_dropped_after_connecting_closes_the_client_and_local_cluster(tmp_path, monkeypatch):
    """The scheduler drops while the run subscribes to its topics (after the bots are shipped):
    the error goes up, and the client, the ``local:1`` cluster with its worker process, and
    Dask's log redirect are closed (before, only a failure to ship the bots closed them)."""
    from arena.tournament import cluster
    made = []

    def connect(address):
        made.append(real_connect(address))
        made[-1][0].subscribe_topic = dropped  # this client's only, once connected
        return made[-1]

    def dropped(topic, handler):
        raise OSError("the scheduler dropped")

    real_connect = cluster.connect
    monkeypatch.setattr(cluster, "connect", connect)
    loggers = [logging.getLogger(name) for name in ("distributed", "distributed.client", "tornado")]
    before = [(logger.handlers[:], logger.propagate) for logger in loggers]
    try:
        with pytest.raises(OSError, match="the scheduler dropped"):
            run(tmp_path, "local:1", bots=["random", "greedy"], games=2, **NIM)
        (client, local), = made
        assert client.status == "closed" and local.status.name == "closed"
        assert [(logger.handlers, logger.propagate) for logger in loggers] == before
    finally:
        for client, local in made:
            client.close()
            local.close()


class FakeFuture:
    """A task in flight, as far as the worker bookkeeping looks: its key, and its status on a
    scheduler that lets the tasks of a lost worker wait (Dask's default)."""

    status = "pending"

    def __init__(self, key):
        self.key = key


class FakeClient:
    """The few calls ``ClusterPool`` makes to look at its workers, over a dict the test sets."""

    id = "fake-client"

    def __init__(self, workers):
        self.workers = workers

    def nthreads(self, callback_timeout=None):
        return dict(self.workers)

    def subscribe_topic(self, topic, handler):
        pass

    def cancel(self, futures):
        pass

    def run(self, *args, **kwargs):
        pass

    def close(self, timeout=None):
        pass


def test_a_worker_back_from_an_absence_gets_the_full_wait_at_its_next(monkeypatch):
    """A worker holding games missed one look (a late heartbeat) and was back at the next: a
    later absence waits ``POLL_SECONDS`` again before the worker is given up on (before, the
    first absence's time stayed and the later one was given up on at once)."""
    from arena.tournament import cluster
    addr, clock = "tcp://w:1", [0.0]
    client = FakeClient({addr: 1})
    monkeypatch.setattr(cluster, "connect", lambda address: (client, None))
    monkeypatch.setattr(cluster, "time", SimpleNamespace(monotonic=lambda: clock[0], sleep=time.sleep))
    pool = cluster.ClusterPool("tcp://fake:1", WorkerSetup("nim", {}, {}), 2, 10.0, None)
    future = FakeFuture("k1")
    pool.on_worker[addr], pool.batch_of[future], pool.where[future] = [future], [], addr

    def look(at, present):
        clock[0], client.workers, pool.asked = at, {addr: 1} if present else {}, -float("inf")
        return pool._check_workers({}, cluster.deque())

    look(0.0, False)  # gone at one look
    look(0.5, True)  # back at the next
    look(10.0, False)  # gone again: the wait starts here
    assert pool.on_worker.get(addr) == [future] and addr not in pool.lost
    look(10.0 + 2 * cluster.POLL_SECONDS, False)  # still gone: given up on
    assert addr not in pool.on_worker and addr in pool.lost
    pool.close()


def test_a_finished_task_whose_worker_died_before_the_client_looked_is_no_lost_cluster(monkeypatch):
    """A task ends (its done callback queued), then its worker dies before the client's loop
    reaches it: Dask has turned the future's status to "lost" (its result went with the
    worker). That is a task that ended: its game without a record is replayed, uncounted
    (before, "lost" fell through to ``ClusterError``, ending the run on a loaded machine)."""
    from arena.tournament import cluster
    addr = "tcp://w:1"
    client = FakeClient({addr: 1})
    monkeypatch.setattr(cluster, "connect", lambda address: (client, None))
    pool = cluster.ClusterPool("tcp://fake:1", WorkerSetup("nim", {}, {}), 2, 10.0, None)
    stored, unrecorded = (SimpleNamespace(game_id=n) for n in (1, 2))
    pool.tasks = {2: unrecorded}
    future = FakeFuture("k1")
    future.status = "lost"
    pool.on_worker[addr], pool.batch_of[future], pool.where[future], pool.epoch[future] = \
        [future], [stored, unrecorded], addr, 0
    pending, deaths = cluster.deque(), {}
    assert pool._task_done(future, deaths, pending) == []
    assert list(pending) == [unrecorded] and not deaths and future not in pool.batch_of
    pool.close()


def test_worker_events_tell_a_lost_game_from_a_retired_worker_and_count_servers():
    """``WorkerEvents`` over the ``all`` topic's events as ``Scheduler.remove_worker`` and
    ``add_worker`` log them (their shape checked against a live scheduler)."""
    added = []
    events = WorkerEvents(on_add=lambda: added.append(1))
    a, b = "tcp://10.0.0.1:4000", "tcp://10.0.0.2:4000"
    assert events.was_playing(a, ["k1"]) and events.server(a) == 0  # no word: counted as playing
    events((1.0, {"action": "remove-worker", "processing-tasks": {"k1"}, "expected": False, "worker": a}))
    events((1.0, {"action": "remove-worker", "processing-tasks": {"k2"}, "expected": True, "worker": b}))
    events((1.0, {"action": "add-client", "client": "Client-1"}))  # not a worker's: left out
    assert events.was_playing(a, ["k0", "k1"]) and not events.was_playing(a, ["k3"])  # k3 never reached it
    assert not events.was_playing(b, ["k2"])  # retired gracefully: its tasks had not failed
    events((2.0, {"action": "add-worker", "worker": a}))
    assert events.server(a) == 1 and events.server(b) == 0 and added == [1]
    assert events.was_playing(a, ["k3"])  # the new server's removal not seen: counted
