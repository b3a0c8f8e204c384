"""``arena run --cluster``: the same games as the local pool, on a Dask cluster of 2 workers.

Most tests share one ``LocalCluster`` of 2 one-thread worker processes (set up as ``local:N``
sets its own: ``dask_connect.LOCAL_CONFIG``) reached by its ``tcp://`` address; the others start
``local:2`` themselves. Sizes are small: the machine is shared.
"""

import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from arena.errors import BotSpecError
from arena.results.store import load_games
from tests.tournament.cluster_helpers import BROKEN, ROOT, frame, run
from tests.tournament.cluster_helpers import stored as _stored

distributed = pytest.importorskip("distributed")
#: every test here starts or uses a Dask cluster (seconds each, half a minute for a lost worker)
pytestmark = pytest.mark.slow


#: per game: a small field and settings (Sandpile: 4 seats; Ricochet: the whole field races)
FIELDS = {
    "interaction": dict(bots=["random", "greedy"], games=4, opening_plies=2),
    "sandpile": dict(bots=["random", "greedy", "r2=random", "r3=random"], games=4, params={"rounds": "1"}),
    "ricochet": dict(bots=["ricochet-greedy", "random"], games=2, params={"max_rounds": "3"}),
}


def _local_cluster():
    from arena.tournament.dask_connect import local_cluster
    return local_cluster(2)


@pytest.fixture(scope="module")
def address():
    cluster = _local_cluster()
    yield cluster.scheduler_address
    cluster.close()


@pytest.fixture
def killable():
    """A cluster of its own for a test that SIGKILLs Dask workers: on a loaded machine the
    nannies' new workers can take longer to join than the next test waits (``WORKER_TIMEOUT``),
    so the module's shared cluster is kept out of it."""
    cluster = _local_cluster()
    yield cluster.scheduler_address
    cluster.close()






@pytest.mark.parametrize("game", sorted(FIELDS))
def test_same_games_as_the_local_pool(tmp_path, address, game):
    here = run(tmp_path, "2", game=game, **FIELDS[game])
    there = run(tmp_path, address, game=game, **FIELDS[game])
    assert there.played == there.total == here.total > 0
    g1, m1 = frame(here.path)
    g2, m2 = frame(there.path)
    assert g1.equals(g2) and m1.equals(m2)


def test_local_2_plays_the_same_games_and_logs_beside_the_store(tmp_path):
    here = run(tmp_path, "2", game="interaction", **FIELDS["interaction"])
    there = run(tmp_path, "local:2", game="interaction", **FIELDS["interaction"])
    assert frame(here.path)[0].equals(frame(there.path)[0]) and frame(here.path)[1].equals(frame(there.path)[1])
    log = there.path.with_suffix(".log").read_text()
    assert "cluster local:2" in log and "arena.worker INFO worker" in log


@pytest.mark.parametrize("bad,extra", [
    ("Raiser", {}), ("Illegal", {}), ("NonMove", {}), ("Exiter", {}), ("Suicide", {"retries": 1}),
    ("Burner", {"game_time": 1.0}), ("Sleeper", {"move_time": 0.1, "time_margin": 0.1}),
    ("Hog", {"memory_limit": 256}), ("ResetRaiser", {}), ("ResetKiller", {"retries": 0}),
    ("CloseAll", {"retries": 1}), ("Late:fault=kill,after=2", {"retries": 0}), ("Printer", {}),
])
def test_chaos_bots_end_as_on_the_local_pool(tmp_path, address, bad, extra):
    values = dict(game="nim", params={"pile": "12"}, bots=["random", f"bad={BROKEN}{bad}"], games=2, opening_plies=0,
                  **extra)
    here, there = run(tmp_path, "2", **values), run(tmp_path, address, **values)
    assert there.stored == there.total == 2 and there.faults == here.faults
    keep = ["game_id", "seats", "termination", "fault_seat", "ranks", "plies"]
    assert load_games(here.path)[keep].equals(load_games(there.path)[keep])


def test_an_exec_engine_reaches_the_workers_by_its_spec_string(tmp_path, address):
    """An external engine (``exec:`` spec) is started by the Dask worker's game child, on the
    worker's machine: the same games as on the local pool."""
    first = os.path.join(ROOT, "examples", "engines", "first_legal.sh")
    values = dict(game="interaction", bots=[f"first=exec:{first}", "random"], games=2, opening_plies=2)
    here, there = run(tmp_path, "2", **values), run(tmp_path, address, **values)
    assert there.played == 2 and not there.faults
    assert frame(here.path)[0].equals(frame(there.path)[0]) and frame(here.path)[1].equals(frame(there.path)[1])


def test_a_lost_dask_worker_has_its_game_replayed(tmp_path, killable):
    """The bot SIGKILLs its Dask worker the first time it plays each game: the scheduler fails
    the task, the client submits it again, the nanny's new worker plays it to a normal end."""
    marks = tmp_path / "marks"
    marks.mkdir()
    summary = run(tmp_path, killable, game="nim", params={"pile": "12"},
                  bots=["random", f"{BROKEN}KillParent:dir={marks}"], games=2, opening_plies=0)
    assert summary.stored == summary.total == 2 and summary.workers_replaced >= 2
    games = load_games(summary.path)
    assert set(games.termination) == {"last_stone"} and len(list(marks.iterdir())) == 2
    attempts = sqlite3.connect(summary.path).execute("SELECT attempts FROM games ORDER BY game_id").fetchall()
    assert attempts == [(2,), (2,)]


def test_games_waiting_behind_a_lost_game_are_replayed_without_counting(tmp_path, killable):
    """Each worker holds several games (one playing, the next in its game worker's pipe); each
    game SIGKILLs its worker the first time it plays. With one retry, a game must die only
    while playing: one counted loss each (attempts 2), none a crash, though the games waiting
    behind were lost with their worker too."""
    marks = tmp_path / "marks"
    marks.mkdir()
    store = tmp_path / killable.replace(":", "-").replace("/", "") / "t.sqlite"  # run's results file
    # the bot kills once the game before it on that worker is stored (its record sent): under
    # load a fixed pause was not always enough, and a record lost with its worker is counted
    # against that game (``ClusterPool._give_up``), which would make it a crash here
    summary = run(tmp_path, killable, game="nim", params={"pile": "12"},
                  bots=["random", f"{BROKEN}KillParent:dir={marks},store={store}"], games=4, opening_plies=0,
                  retries=1)
    assert summary.path == store
    assert summary.stored == summary.total == 4 and not summary.faults
    games = load_games(summary.path)
    assert set(games.termination) == {"last_stone"} and len(list(marks.glob("parent-*"))) == 4
    attempts = sqlite3.connect(summary.path).execute("SELECT attempts FROM games ORDER BY game_id").fetchall()
    assert attempts == [(2,)] * 4


def test_a_game_that_keeps_losing_its_dask_worker_is_a_crash(tmp_path, killable):
    summary = run(tmp_path, killable, game="nim", params={"pile": "12"}, bots=["random", f"{BROKEN}KillParent"],
                  games=2, opening_plies=0, retries=1)
    games = load_games(summary.path)
    assert set(games.termination) == {"crash"} and games.fault_seat.isna().all()
    assert summary.faults == {"crash": 2}


def test_short_games_in_batches_are_the_same_games_as_the_local_pool(tmp_path, address):
    """Enough short games that several travel in one Dask task: still the local pool's games."""
    values = dict(game="nim", params={"pile": "12"}, bots=["random", "r2=random"], games=60, opening_plies=0)
    here, there = run(tmp_path, "2", **values), run(tmp_path, address, **values)
    assert there.stored == there.total == 60
    assert frame(here.path)[0].equals(frame(there.path)[0]) and frame(here.path)[1].equals(frame(there.path)[1])


def test_a_worker_lost_mid_batch_costs_one_counted_attempt(tmp_path, killable):
    """A Dask worker SIGKILLed deep in a run of short games (several to a task): the games of
    its batches that had ended are stored once (their records came as they ended), the game
    playing is replayed and counted, those not begun replayed without counting: every game
    once, one counted loss in all."""
    marks = tmp_path / "marks"
    marks.mkdir()
    summary = run(tmp_path, killable, game="nim", params={"pile": "12"}, retries=1, opening_plies=0,
                  bots=["random", f"{BROKEN}KillParentAfter:dir={marks},games=30"], games=60)
    assert (marks / "killed").exists()
    assert summary.stored == summary.total == 60 and not summary.faults and summary.workers_replaced >= 1
    attempts = [a for (a,) in sqlite3.connect(summary.path).execute("SELECT attempts FROM games")]
    assert len(attempts) == 60 and sum(attempts) == 61


def test_a_frozen_dask_worker_is_given_up_on_and_its_game_replayed(tmp_path, killable, monkeypatch):
    """The bot SIGSTOPs its Dask worker once: the scheduler sees nothing wrong (the worker's
    connection stays open), so the client must not wait for it for ever. After the stall bound
    (game time and margins per attempt, and the slack, cut here to keep the test short) it
    gives up on that worker: the frozen game is replayed on the other, counted (attempts 2),
    the games queued behind it replayed without counting, and the run completes."""
    import arena.tournament.cluster as cluster
    monkeypatch.setattr(cluster, "STALL_SLACK", 5.0)
    marks = tmp_path / "marks"
    marks.mkdir()
    start = time.monotonic()
    try:
        summary = run(tmp_path, killable, game="nim", params={"pile": "12"}, game_time=2.0, retries=1,
                      bots=["random", f"{BROKEN}StopParent:dir={marks}"], games=4, opening_plies=0)
    finally:
        if (marks / "stopped").exists():
            os.kill(int((marks / "stopped").read_text()), signal.SIGCONT)
    assert time.monotonic() - start < 120  # the bound (12 s here), with room for a loaded machine
    assert summary.stored == summary.total == 4 and not summary.faults and summary.workers_replaced >= 1
    assert set(load_games(summary.path).termination) == {"last_stone"}
    attempts = [a for (a,) in sqlite3.connect(summary.path).execute("SELECT attempts FROM games ORDER BY game_id")]
    assert sorted(attempts) == [1, 1, 1, 2]


def test_a_bot_file_reaches_the_workers_with_the_modules_it_imports_from_beside_it(tmp_path, address):
    """A module file and a package beside the bot file (what its version follows) are shipped
    before it: the same games as on the local pool."""
    folder = tmp_path / "bot"
    (folder / "shippkg").mkdir(parents=True)
    (folder / "shipbot.py").write_text("import shiprule\nfrom shippkg import pick\n\n\nclass Bot:\n"
                                       "    def choose(self, state, limits):\n"
                                       "        return pick.first(shiprule.moves(state))\n")
    (folder / "shiprule.py").write_text("def moves(state):\n    return state.legal_moves()\n")
    (folder / "shippkg" / "__init__.py").write_text("")
    (folder / "shippkg" / "pick.py").write_text("def first(moves):\n    return moves[-1]\n")
    values = dict(game="nim", params={"pile": "12"}, bots=["random", f"me={folder / 'shipbot.py'}#Bot"], games=2,
                  opening_plies=0)
    here, there = run(tmp_path, "2", **values), run(tmp_path, address, **values)
    assert there.played == 2 and not there.faults
    assert frame(here.path)[0].equals(frame(there.path)[0]) and frame(here.path)[1].equals(frame(there.path)[1])


def test_a_bot_file_that_cannot_be_shipped_is_refused(tmp_path, address):
    bot = tmp_path / "json.py"  # the module name of an installed module
    bot.write_text("class Bot:\n    def choose(self, state, limits):\n        return state.legal_moves()[0]\n")
    with pytest.raises(BotSpecError, match="cannot be shipped to the cluster: module 'json' is installed"):
        run(tmp_path, address, game="nim", bots=["random", f"{bot}#Bot"], games=2)
    results = tmp_path / address.replace(":", "-").replace("/", "")  # run's results directory
    assert not list(results.glob("t.sqlite*")) and not (results / "t.log").exists()  # refused: no new results file


@pytest.mark.parametrize("args,message", [
    (["--cluster", "local:2", "--workers", "2"], "--cluster and --workers are exclusive"),
    (["--cluster", "host:8786"], "bad --cluster 'host:8786'; accepted: tcp://host:port"),
    (["--cluster", "local:0"], "bad --cluster 'local:0'"),
    (["--cluster", "tcp://127.0.0.1:8786", "--isolation", "process"], "--isolation process runs with --workers or"),
    (["--cluster", "tcp://127.0.0.1:9"], "cannot reach the Dask scheduler at tcp://127.0.0.1:9"),
])
def test_cluster_option_errors_are_one_line(tmp_path, args, message):
    r = subprocess.run([sys.executable, "-m", "arena", "run", "--bot", "random", "--bot", "greedy", "--games", "2",
                        "--results", str(tmp_path), "-q", *args], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1 and message in r.stderr
    assert "Traceback" not in r.stderr + r.stdout





@pytest.mark.parametrize("client_lag", [0.0, 0.05])
def test_a_worker_killed_from_outside_among_fast_games_leaves_the_run_to_the_other(tmp_path, killable, monkeypatch,
                                                                                   client_lag):
    """dask/distributed #5234 as the arena met it: many fast games (several to a task), one of
    the two Dask workers SIGKILLed from outside mid-run. The games it held are replayed (on the
    other worker, or the nanny's new one): every game stored once, no ``ClusterError``.
    ``client_lag``: the client looks at each ended task that many seconds late (a loaded
    machine), so tasks that ended on the killed worker are seen with Dask's status "lost"
    (their results went with it); before that status was a normal end, it ended the run."""
    import threading

    from arena.tournament import cluster
    task_done = cluster.ClusterPool._task_done

    def late(pool, *args):
        time.sleep(client_lag)
        return task_done(pool, *args)

    monkeypatch.setattr(cluster.ClusterPool, "_task_done", late)
    store = tmp_path / killable.replace(":", "-").replace("/", "") / "t.sqlite"
    with distributed.Client(killable, set_as_default=False) as client:
        pids = client.run(os.getpid)
    victim, killed = sorted(pids.values())[0], []

    def kill_mid_run():
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and _stored(store) < 40:
            time.sleep(0.05)
        os.kill(victim, signal.SIGKILL)
        killed.append(_stored(store))

    killer = threading.Thread(target=kill_mid_run, daemon=True)
    killer.start()
    summary = run(tmp_path, killable, game="nim", params={"pile": "12"}, bots=["random", "r2=random"],
                  games=400, opening_plies=0, retries=1)
    killer.join()
    assert killed and killed[0] < 400  # killed mid-run
    games = load_games(summary.path)
    assert summary.stored == summary.total == 400 and list(games.game_id) == list(range(1, 401))
    assert not summary.faults  # one counted loss at most per game, within retries
    assert set(games.termination) == {"last_stone"}
