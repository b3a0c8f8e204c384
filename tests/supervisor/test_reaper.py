"""``arena.reaper``: the fallback's kill by environment token, and the run guard's cgroup and
watchdog (a SIGKILL of the holder leaves no process of its cgroup); ``arena.results.store`` files are
the runner's alone."""

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena import reaper
from arena.results.store import Store
from arena.results.files import PRIVATE_MODE

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc: Linux")
ROOT = Path(__file__).parents[2]


def _gone(pid: int, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split(") ")[1].startswith("Z"):
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


def test_the_fallback_kills_every_process_carrying_the_runs_token():
    token = f"test-{os.getpid()}-{time.time_ns()}"
    marked = subprocess.Popen(["sleep", "60"], env={**os.environ, reaper.RUN_TOKEN_ENV: token}, start_new_session=True)
    other = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        reaper.kill_marked(token)
        assert _gone(marked.pid) and marked.wait(5) == -signal.SIGKILL
        assert other.poll() is None  # not the run's
    finally:
        other.kill()
        other.wait()


@pytest.mark.skipif(os.geteuid() != 0, reason="cgroups: as root")
def test_a_sigkilled_holder_leaves_nothing_in_its_cgroup(tmp_path):
    code = ("import subprocess, sys, time\nfrom arena import reaper\nwith reaper.run_guard() as group:\n"
            "    print(group or '', flush=True)\n"
            "    p = subprocess.Popen(['sleep', '600'], start_new_session=True,\n"
            "                         preexec_fn=lambda: reaper.join(group))\n"
            "    print(p.pid, flush=True)\n    time.sleep(600)\n")
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert holder.stdout is not None
    group, pid = holder.stdout.readline().strip(), int(holder.stdout.readline())
    if not group:
        holder.kill()
        holder.wait()
        pytest.skip("no cgroup v2 with cgroup.kill here: the fallback is tested above")
    holder.kill()  # SIGKILL: the watchdog sees its pipe end
    holder.wait()
    assert _gone(pid)
    deadline = time.monotonic() + 10
    while os.path.exists(group) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(group)


def test_the_stores_files_are_the_runners_alone(tmp_path):
    (tmp_path / "t.log").write_text("")
    (tmp_path / "t.log").chmod(0o644)  # as a run before this rule left it
    store = Store.open(tmp_path, "t")
    try:
        store.conn.execute("CREATE TABLE IF NOT EXISTS probe (x)")
        for name in ("t.sqlite", "t.sqlite-wal", "t.sqlite-shm", "t.lock", "t.log"):
            path = tmp_path / name
            if path.exists():
                assert stat.S_IMODE(path.stat().st_mode) == PRIVATE_MODE, name
    finally:
        store.close()


#: two ``--workers 2`` runs in one process whose start method is ``forkserver`` (Python 3.14's
#: default): the worker log queues start ``multiprocessing``'s resource tracker under it
FORKSERVER_RUNS = """
import multiprocessing, sys
multiprocessing.set_start_method("forkserver")
from arena.cli.app import main
for name in ("a", "b"):
    try:
        main(["run", "--bot", "random", "--bot", "greedy", "--games", "4", "--workers", "2", "--name", name,
              "--results", sys.argv[1], "-q"])
    except SystemExit as exc:
        assert not exc.code, exc.code
"""


#: a run in a process whose default start method is fork, with a spawn context inside it (Dask's
#: ``LocalCluster`` starts its workers so), then the resource tracker used after the run
SPAWN_IN_A_RUN = """
import multiprocessing, os
from multiprocessing import resource_tracker
from arena import reaper
if __name__ == "__main__":
    multiprocessing.set_start_method("fork")
    with reaper.run_guard():
        child = multiprocessing.get_context("spawn").Process(target=os.getpid)
        child.start()
        child.join()
    resource_tracker.ensure_running()
"""


def test_a_spawn_context_in_a_run_leaves_the_resource_tracker_alone():
    """The tracker is started before the run's processes are marked, whatever the default start
    method: a spawn context in the run (``--cluster local:N``) does not start it marked, so the
    run's watchdog does not kill it ("process died unexpectedly, relaunching")."""
    done = subprocess.run([sys.executable, "-c", SPAWN_IN_A_RUN], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "resource_tracker" not in done.stderr, done.stderr

@pytest.mark.slow  # two runs in a Python of their own: 10 s
def test_forkserver_runs_leave_the_resource_tracker_alone(tmp_path):
    """Neither the pool's sweep of stray children nor the watchdog of the run kills the
    interpreter's resource tracker: no "Some resources might leak" warning, no process killed
    as a bot's, and both runs complete."""
    done = subprocess.run([sys.executable, "-c", FORKSERVER_RUNS, str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "resource_tracker" not in done.stderr and "leak" not in done.stderr, done.stderr
    assert done.stdout.count("4/4 stored") == 2, done.stdout
    for name in ("a", "b"):
        assert "killed" not in (tmp_path / f"{name}.log").read_text()


HELPERS_IN_A_SWEEP = """
from multiprocessing import forkserver, resource_tracker
from arena.os_guard import orphans_reaped
with orphans_reaped() as killed:
    resource_tracker.ensure_running()
    forkserver.ensure_running()
assert not killed, killed
helpers = (resource_tracker._resource_tracker._pid, forkserver._forkserver._forkserver_pid)
resource_tracker.ensure_running()  # the same tracker: a killed one is started again, with a warning
forkserver.ensure_running()  # the same fork server: after a sweep reaped it, ChildProcessError
assert (resource_tracker._resource_tracker._pid, forkserver._forkserver._forkserver_pid) == helpers
"""


def test_a_sweep_of_stray_children_spares_the_interpreters_helpers():
    """The resource tracker and the fork server started inside ``orphans_reaped`` are the
    interpreter's: the sweep at its end leaves them running."""
    done = subprocess.run([sys.executable, "-W", "error", "-c", HELPERS_IN_A_SWEEP], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
