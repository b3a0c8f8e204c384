"""Hostile bots against the OS fences of ``--isolation process`` (issue 29; bots in
``tests/fixtures/hostile_os.py``): each loses by a fault, its opponent is never blamed, every
stored game replays under the rules, and nothing of a bot is left behind (files, processes), even
after a SIGKILL of the runner's whole process group. Also: the store's files are the runner's
alone; the runner never imports an isolated bot file; a bot that hangs while loading is a
one-line error naming the seconds; a slow ``reset`` is a ``timeout`` loss."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import arena.games
from arena.engine.users import COUNT, FIRST_UID
from arena.errors import BotSpecError
from arena.tournament import build, field_check, run_tournament
from tests.machine import owned

HOSTILE = Path(__file__).parents[1] / "fixtures" / "hostile_os.py"
ROOT = Path(__file__).parents[2]
pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux fences"),
              pytest.mark.skipif(os.geteuid() != 0, reason="users of their own: the arena runs as root")]


def config(results: Path, bot: str, isolation: str = "process", games: int = 2, **extra):
    values = dict(game="interaction", bots=["random", f"bad={HOSTILE}#{bot}"], format="gauntlet", games=games,
                  workers=1, name="t", results=str(results), isolation=isolation, opening_plies=0, retries=0)
    return build({**values, **extra})


def stored(db_file: Path) -> list[tuple[list[str], str, int | None, str]]:
    """(seats, termination, fault seat, fault detail) of each stored game, after checking that
    its moves replay under the rules from its seed."""
    game = arena.games.make("interaction")
    db = sqlite3.connect(db_file)
    from arena.results.packed import register

    register(db)  # the moves view's functions
    try:
        rows = db.execute("SELECT game_id, seed, seats, termination, fault_seat, fault_detail FROM games").fetchall()
        for game_id, seed, *_ in rows:
            state = game.initial_state(seed)
            for (move,) in db.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)):
                assert move in map(str, state.legal_moves()), (game_id, move)
                state = state.play(game.parse_move(state, move))
    finally:
        db.close()
    return [(json.loads(seats), t, f, d) for _, _, seats, t, f, d in rows]


@pytest.fixture
def public_results():
    path = Path(tempfile.mkdtemp(prefix="arena-test-results-", dir="/var/tmp"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def assert_hostile_loses(db_file: Path, reasons: tuple[str, ...] = ("exception",)) -> None:
    games = stored(db_file)
    assert games
    for seats, termination, fault_seat, detail in games:
        assert fault_seat is not None and seats[fault_seat] == "bad", (termination, detail)  # never the innocent
        assert termination in reasons, (termination, detail)


@pytest.fixture(autouse=True)
def own(owner, public):
    """Every test here marks what it starts (``owner``) and makes its engines' private
    directories in a temporary folder of its own (``public``): the checks of what is left
    count this test's processes and files, never another test's or run's beside it."""
    return owner, public


def present(items, test) -> list:
    """The items for which ``test`` holds; one that vanishes meanwhile (``OSError``: a process
    that ended, a file removed) is left out."""
    out = []
    for item in items:
        try:
            if test(item):
                out.append(item)
        except OSError:
            pass
    return out


def dynamic(uid: int) -> bool:
    """Whether ``uid`` is one of the dynamic users (an isolated bot's)."""
    return FIRST_UID <= uid < FIRST_UID + COUNT


def dynamic_processes(own) -> list[int]:
    """Pids of live processes of this test (``own``) running as a dynamic user (an isolated
    bot's)."""
    return present(owned(own[0]), lambda pid: dynamic(os.stat(f"/proc/{pid}").st_uid))


def dynamic_files(own) -> list[str]:
    """Files in this test's temporary folder (``own``) owned by a dynamic user (left by an
    isolated bot)."""
    paths = [os.path.join(folder, name) for folder, dirs, files in os.walk(own[1]) for name in dirs + files]
    return present(paths, lambda path: dynamic(os.lstat(path).st_uid))


@pytest.mark.slow
@pytest.mark.parametrize("sig", ["KILL", "STOP"])
def test_a_bot_cannot_signal_the_other_engine_of_its_worker(tmp_path, sig, own):
    summary = run_tournament(config(tmp_path, f"SignalSibling:sig={sig}"))
    assert summary.stored == summary.total == 2
    assert_hostile_loses(summary.path)  # PermissionError: the other engine is another user's
    assert not dynamic_processes(own)


@pytest.mark.slow
def test_a_bot_cannot_lock_the_store_and_the_run_completes(public_results):
    """The results folder is world-readable and outside ``/tmp`` (which the bot's own hides):
    only the files' mode stops the bot. The bot finds the folder on its own run's command line,
    not on another's: a process started first with ``--results`` (another run on the machine,
    its store as private) is not the bot's target, and the permission error names this run's
    folder."""
    results = public_results / "results"
    decoy = public_results / "decoy"
    for folder in (results, decoy):
        folder.mkdir(mode=0o755)
        folder.chmod(0o755)
    (decoy / "t.sqlite").write_text("")
    (decoy / "t.sqlite").chmod(0o600)
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "--results", str(decoy)])
    try:
        r = _run_lock_store(results)
    finally:
        other.kill()
        other.wait()
    assert r.returncode == 0, r.stderr
    assert_hostile_loses(results / "t.sqlite")
    for file in ("t.sqlite", "t.sqlite-wal", "t.sqlite-shm", "t.lock", "t.log"):
        path = results / file
        if path.exists():
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, file
    assert "PermissionError: [Errno 13] Permission denied: '" + str(results) in (results / "t.log").read_text()


def _run_lock_store(results: Path) -> subprocess.CompletedProcess:
    """``arena run`` of ``random`` against ``LockStore``, isolated, storing in ``results``."""
    bad = f"bad={HOSTILE}#LockStore"
    return subprocess.run([sys.executable, "-m", "arena", "run", "--bot", "random", "--bot", bad,
                           "--format", "gauntlet", "--games", "2", "--isolation", "process", "--results", str(results),
                           "--name", "t", "--opening-plies", "0", "-q"],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.slow
def test_a_bot_cannot_list_or_write_its_opponents_directory(tmp_path, own):
    summary = run_tournament(config(tmp_path, "PeekOpponent"))
    assert summary.stored == summary.total == 2
    assert_hostile_loses(summary.path)
    assert not dynamic_files(own) and not dynamic_processes(own)


@pytest.mark.slow
def test_a_bot_filling_its_tmp_hits_the_cap_and_leaves_nothing(tmp_path, own):
    summary = run_tournament(config(tmp_path, "FillTmp:mib=200"))
    assert summary.stored == summary.total == 2
    assert_hostile_loses(summary.path)
    details = [d for *_, d in stored(summary.path)]
    assert all("OSError" in d and ("too large" in d or "No space" in d) for d in details), details
    assert not dynamic_files(own) and not dynamic_processes(own)


@pytest.mark.slow
def test_a_slow_reset_is_a_timeout_loss_not_a_refused_run(tmp_path):
    summary = run_tournament(config(tmp_path, "SlowReset:seconds=12", games=1))
    assert summary.stored == summary.total and summary.faults == {"timeout": summary.total}
    assert_hostile_loses(summary.path, ("timeout",))


def survivors(own, marker: str) -> list[int]:
    """Live processes of this test (``own``) that are the shell ``SetsidSurvivor`` starts: its
    command line ends in ``# marker`` (the runner's own has ``marker=...`` in its ``--bot``)."""
    return present(owned(own[0]), lambda pid: f"# {marker}".encode() in Path(f"/proc/{pid}/cmdline").read_bytes())


@pytest.mark.slow
@pytest.mark.parametrize("isolation", ["none", "process"])
def test_no_setsid_grandchild_outlives_a_sigkill_of_the_runners_group(tmp_path, isolation, own):
    marker = f"arena-hostile-{os.getpid()}-{isolation}"
    bad = f"bad={HOSTILE}#SetsidSurvivor:marker={marker}"
    runner = subprocess.Popen(
        [sys.executable, "-m", "arena", "run", "--bot", "random", "--bot", bad,
         "--format", "gauntlet", "--games", "200", "--isolation", isolation, "--results", str(tmp_path / "r"),
         "--name", "t", "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 120
        while not survivors(own, marker) and runner.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert survivors(own, marker), "the bot never started its grandchild"
    finally:
        os.killpg(runner.pid, signal.SIGKILL)
        runner.wait()
    deadline = time.monotonic() + 20  # the reaper's sweep, then each isolated process's parent-death signal
    while (survivors(own, marker) or dynamic_processes(own)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert survivors(own, marker) == []
    assert not dynamic_processes(own)


@pytest.mark.slow
def test_the_runner_never_imports_an_isolated_bot_file(tmp_path, public_results):
    log = public_results / "imports"
    log.mkdir(mode=0o777)
    log.chmod(0o777)
    bot = public_results / "b_spy.py"
    bot.write_text(f"import os\nopen('{log}/' + str(os.getpid()), 'w').write(str(os.geteuid()))\n"
                   "class Spy:\n    def choose(self, state, limits):\n        return state.legal_moves()[0]\n")
    bot.chmod(0o644)
    summary = run_tournament(build(dict(game="interaction", bots=["random", f"spy={bot}#Spy"], games=2, workers=1,
                                        results=str(tmp_path / "r"), isolation="process", name="t")))
    assert summary.stored == summary.total == 2 and not summary.faults
    importers = {int(p.name): p.read_text() for p in log.iterdir()}
    assert importers and os.getpid() not in importers
    assert all(uid != "0" for uid in importers.values()), importers  # only dropped engines imported it


def test_a_bot_hanging_in_its_constructor_is_a_one_line_error_in_process(tmp_path, monkeypatch):
    monkeypatch.setattr(field_check, "LOAD_TIMEOUT", 1.0)
    with pytest.raises(BotSpecError, match=r"'bad=.*HangingInit' was not made within 1s"):
        run_tournament(config(tmp_path, "HangingInit", isolation="none"))
    assert not list(tmp_path.glob("*.sqlite"))


def test_a_bot_file_hanging_at_import_is_a_one_line_error_in_process(tmp_path, monkeypatch):
    monkeypatch.setattr(field_check, "LOAD_TIMEOUT", 1.0)
    bot = tmp_path / "b_hang.py"
    bot.write_text("import time\nwhile True:\n    time.sleep(1)\n")
    with pytest.raises(BotSpecError, match=r"was not made within 1s \(its module import and constructor\)"):
        run_tournament(build(dict(game="interaction", bots=["random", f"h={bot}#H"], games=1,
                                  results=str(tmp_path / "r"), name="t")))


@pytest.mark.slow
def test_a_bot_hanging_in_its_constructor_is_a_one_line_error_isolated(tmp_path, own):
    with pytest.raises(BotSpecError, match=r"'bad=.*HangingInit' was not loaded within 10s"):
        run_tournament(config(tmp_path, "HangingInit"))
    assert not dynamic_processes(own)
