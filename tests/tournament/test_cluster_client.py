"""``arena run --cluster`` from the client's side: the client killed mid-run and resumed,
Ctrl-C at the terminal, a refused scheduler address, the scheduler lost mid-run, and the
scheduler's log after a run. Each test starts its own cluster (``local:2`` or a
``dask scheduler`` and worker in processes of their own)."""

import os
import signal
import subprocess
import sys
import time

import pytest
from arena.results.store import load_games
from arena.tournament import build, run_tournament
from tests.tournament.cluster_helpers import BROKEN, ROOT, frame, run
from tests.tournament.cluster_helpers import stored as _stored

distributed = pytest.importorskip("distributed")
#: every test here starts a Dask cluster
pytestmark = pytest.mark.slow


def test_client_killed_mid_run_resumes_every_game_once(tmp_path):
    psutil = pytest.importorskip("psutil")
    values = dict(game="nim", params={"pile": "30"}, bots=["random", f"s={BROKEN}Slow:ms=5"], games=30, name="k",
                  results=str(tmp_path), opening_plies=2)
    code = ("import arena.games; arena.games.register('nim', 'tests.toy:Nim')\n"
            "from arena.tournament import build, run_tournament\n"
            f"run_tournament(build({values!r} | {{'cluster': 'local:2'}}))\n")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    db, deadline = tmp_path / "k.sqlite", time.monotonic() + 120
    try:
        while time.monotonic() < deadline and _stored(db) < 3 and proc.poll() is None:
            time.sleep(0.2)
        family = psutil.Process(proc.pid).children(recursive=True)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    assert 3 <= _stored(db) < 30, proc.stderr.read()[-2000:]
    gone, alive = psutil.wait_procs(family, timeout=30)
    assert not alive  # the Dask workers and the games' children end with the client
    resumed = run_tournament(build(values | {"workers": 2}))  # on the local pool
    games = load_games(resumed.path)
    assert resumed.stored == 30 and list(games.game_id) == list(range(1, 31))
    fresh = run_tournament(build(values | {"workers": 2, "results": str(tmp_path / "fresh")}))
    assert frame(fresh.path)[0].equals(frame(resumed.path)[0])


def _ignores_sigint(pid: int) -> bool:
    """Whether process ``pid`` ignores SIGINT (``SigIgn`` in its /proc status)."""
    with open(f"/proc/{pid}/status") as f:
        ignored = next(int(line.split()[1], 16) for line in f if line.startswith("SigIgn:"))
    return bool(ignored >> (signal.SIGINT - 1) & 1)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_at_the_terminal_stops_a_local_cluster_run_in_one_line(tmp_path):
    """A Ctrl-C goes to the whole foreground process group: the Dask workers of ``local:N``
    (those started with the cluster, and one the nanny starts again after a kill) ignore it,
    and the run stops as with ``--workers``: the stored games kept, one line, no traceback."""
    psutil = pytest.importorskip("psutil")
    db = tmp_path / "c.sqlite"
    # Python's Ctrl-C handler as in a terminal's foreground job, also when this test runs where
    # SIGINT is ignored (a background job: the child would inherit that, and arena keeps it)
    foreground = ("import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
                  "runpy.run_module('arena', run_name='__main__', alter_sys=True)")
    proc = subprocess.Popen([sys.executable, "-c", foreground, "run", "--cluster", "local:2", "--bot", "random",
                             "--bot", f"s={BROKEN}Slow:ms=20", "--games", "5000", "--name", "c",
                             "--results", str(tmp_path), "-q"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # its own process group, as a shell's foreground job

    def dask_workers() -> list:
        found = []
        for child in psutil.Process(proc.pid).children():
            try:
                if "spawn_main" in " ".join(child.cmdline()):
                    found.append(child)
            except psutil.Error:  # ended meanwhile (the killed worker, a zombie until reaped)
                pass
        return found

    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and _stored(db) < 2 and proc.poll() is None:
            time.sleep(0.2)
        first = dask_workers()
        assert len(first) == 2 and all(_ignores_sigint(w.pid) for w in first)
        first[0].kill()  # the nanny starts a new worker: its preload ignores SIGINT too
        again: list = []
        while time.monotonic() < deadline and proc.poll() is None:
            again = [w for w in dask_workers() if w.pid != first[0].pid and w.pid != first[1].pid]
            try:
                if again and _ignores_sigint(again[0].pid):
                    break
            except OSError:  # ended meanwhile
                pass
            time.sleep(0.2)
        assert again and _ignores_sigint(again[0].pid)
        assert proc.poll() is None, "the run ended before its Ctrl-C"  # 5,000 games: minutes on a quiet machine
        stored = _stored(db)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err[-3000:]
    assert "Traceback" not in out + err and "KeyboardInterrupt" not in out + err, err[-3000:]
    assert "interrupted: finished games are stored" in out, (out, err)  # as with --workers
    assert stored <= _stored(db) < 5000
    games = load_games(db)
    assert games.game_id.is_unique


def test_a_refused_scheduler_address_fails_at_once(tmp_path):
    """Nothing listens on the port: the connection is refused, said at once (Dask's client
    would retry for its whole timeout)."""
    import socket

    from arena.errors import ClusterError
    from arena.tournament.dask_connect import connect
    with socket.socket() as s:  # a port nothing listens on once closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ClusterError, match=f"connection refused by 127.0.0.1 port {port}"):
        connect(f"tcp://127.0.0.1:{port}")
    with pytest.raises(ClusterError, match="unknown host 'nohost.invalid'"):
        connect("tcp://nohost.invalid:8786")


def scheduler_address(scheduler_file, seconds: float = 60) -> str:
    """The address a Dask scheduler started with ``--scheduler-file`` wrote there, polled for
    up to ``seconds`` (a loaded machine starts it slowly)."""
    import json
    deadline = time.monotonic() + seconds
    while not scheduler_file.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    return json.loads(scheduler_file.read_text())["address"]


def test_a_cluster_lost_mid_run_is_one_line_and_the_run_resumes_locally(tmp_path):
    """`dask scheduler` and `dask worker` started as a user would; the scheduler is killed
    after a few games: exit 2 with one line, the stored games stay, the same command with
    --workers finishes the tournament."""
    scheduler_file = tmp_path / "scheduler.json"
    env = {**os.environ, "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"}
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--no-dashboard",
                                  "--port", "0", "--scheduler-file", str(scheduler_file)], cwd=ROOT, env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        address = scheduler_address(scheduler_file)
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                   "--no-dashboard"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        args = ["run", "--game", "nim", "-p", "pile=30", "--bot", "random", "--bot", f"{BROKEN}Slow:ms=5",
                "--games", "30", "--name", "c", "--results", str(tmp_path), "-q"]
        code = ("import sys, arena.games; arena.games.register('nim', 'tests.toy:Nim')\n"
                "from arena.cli.app import main\nmain(sys.argv[1:])\n")
        run = subprocess.Popen([sys.executable, "-c", code, *args, "--cluster", address], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        db, deadline = tmp_path / "c.sqlite", time.monotonic() + 120
        while time.monotonic() < deadline and _stored(db) < 3 and run.poll() is None:
            time.sleep(0.2)
        scheduler.kill()
        out, err = run.communicate(timeout=120)
        assert run.returncode == 2, err
        assert err.startswith("error: lost the Dask cluster at") and err.count("\n") == 1, err
    finally:
        for proc in (scheduler, worker):
            if proc is not None:
                proc.kill()
                proc.wait()
    kept = _stored(db)
    assert 3 <= kept < 30
    subprocess.run([sys.executable, "-c", code, *args, "--workers", "2"], cwd=ROOT, check=True, timeout=300,
                   capture_output=True)
    games = load_games(db)
    assert list(games.game_id) == list(range(1, 31))


def _end(proc: subprocess.Popen) -> None:
    """Stop a process this test started: SIGTERM, then SIGKILL after 20 s."""
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def test_a_run_leaves_no_critical_line_in_the_schedulers_log(tmp_path):
    """A `dask scheduler` and a `dask worker` (no nanny: one process each, both this test's own)
    on 127.0.0.1, one short run: the client leaves its event topics before it closes, so the
    scheduler never writes the client's removal to a closed connection (two CRITICAL
    tracebacks each run before)."""
    scheduler_file, log = tmp_path / "scheduler.json", tmp_path / "scheduler.log"
    with open(log, "w") as out:
        scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--no-dashboard",
                                      "--host", "127.0.0.1", "--port", "0", "--scheduler-file", str(scheduler_file)],
                                     cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    worker = None
    try:
        address = scheduler_address(scheduler_file)
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                   "--no-dashboard", "--no-nanny", "--host", "127.0.0.1"], cwd=ROOT,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        summary = run(tmp_path, address, bots=["random", "greedy"], games=2)
        assert summary.played == 2
        deadline = time.monotonic() + 60  # the scheduler logs the client's removal as it ends: no timing
        while "Close client connection" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        text = log.read_text()
        assert "Close client connection" in text, text
        assert "CRITICAL" not in text, text
    finally:
        for proc in (worker, scheduler):
            if proc is not None:
                _end(proc)
