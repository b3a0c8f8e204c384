"""Faulty bots lose with a distinct reason while the tournament completes (docs/arena.md "Contracts / Faults")."""

import pytest

from arena.results.store import Store, load_games, load_moves
from arena.tournament import build, run_tournament
from tests.registered import register_game

BROKEN = "tests/fixtures/broken_bots.py#"


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch):
    register_game(monkeypatch, "nim", "tests.toy:Nim")


def run_field(tmp_path, bad, **extra):
    cfg = build(dict(game="nim", params={"pile": "12"}, bots=["random", f"bad={BROKEN}{bad}"], games=2,
                     workers=2, results=str(tmp_path), opening_plies=0, **extra))
    summary = run_tournament(cfg)
    assert summary.stored == summary.total == 2
    return summary, load_games(summary.path)


def bad_seat(row):
    return row.seats.index("bad")


@pytest.mark.parametrize("bad,reason,extra", [
    ("Raiser", "exception", {}),
    ("Illegal", "illegal_move", {}),
    ("NonMove", "bad_move", {}),
    ("Exiter", "exit", {}),
    ("Suicide", "crash", {"retries": 1}),
    ("Burner", "game_time", {"game_time": 1.0}),
    ("Sleeper", "timeout", {"move_time": 0.1, "time_margin": 0.1}),
    ("Hog", "memory", {"memory_limit": 256}),
    ("ResetRaiser", "exception", {}),
    ("ResetKiller", "crash", {"retries": 0}),
])
def test_faulty_bot_loses_with_its_reason(tmp_path, bad, reason, extra):
    summary, games = run_field(tmp_path, bad, **extra)
    for row in games.itertuples():
        seat = bad_seat(row)
        assert row.termination == reason
        assert row.fault_seat == seat
        assert row.ranks[seat] == 2 and row.ranks[1 - seat] == 1
    assert summary.faults == {reason: 2}


def test_killed_worker_game_is_replayed_once(tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    summary, games = run_field(tmp_path, f"KillOnce:dir={marks}")
    assert list(games.game_id) == [1, 2]
    assert set(games.termination) == {"last_stone"}  # replayed to a normal end
    assert summary.workers_replaced == 2
    import sqlite3
    attempts = sqlite3.connect(summary.path).execute("SELECT attempts FROM games ORDER BY game_id").fetchall()
    assert attempts == [(2,), (2,)]
    moves = load_moves(summary.path)
    assert not moves.duplicated(["game_id", "ply", "seat"]).any()


def test_printing_bot_is_not_at_fault_and_output_goes_to_log(tmp_path, capfd):
    summary, games = run_field(tmp_path, "Printer")
    assert games.fault_seat.isna().all() and set(games.termination) == {"last_stone"}
    out, err = capfd.readouterr()
    assert "PRINTED" not in out + err and "RAW-FD" not in out + err
    log = (tmp_path / f"{summary.name}.log").read_text()
    assert "PRINTED-TO-STDOUT" in log and "PRINTED-TO-STDERR" in log and "RAW-FD-1" in log
    assert "ForkProcess" in log and "arena.worker INFO worker" in log  # worker records, through its log queue


def test_spamming_bot_output_is_capped_per_worker(tmp_path):
    from arena.os_guard import OUTPUT_CAP, TRUNCATED
    summary, games = run_field(tmp_path, "Spammer")
    assert games.fault_seat.isna().all() and set(games.termination) == {"last_stone"}
    log = (tmp_path / f"{summary.name}.log").read_bytes()
    # ~2 MB per move over several moves; at most OUTPUT_CAP per worker process (2 workers) reach the log
    assert len(log) < 2 * OUTPUT_CAP + 100_000
    assert log.count(TRUNCATED.strip()) >= 1


def _dead_on_arrival(*args):
    import os
    os._exit(3)


def test_workers_that_cannot_start_stop_the_run(tmp_path, monkeypatch):
    import arena.tournament.slot as slot
    from arena.errors import ConfigError
    monkeypatch.setattr(slot, "worker_main", _dead_on_arrival)
    with pytest.raises(ConfigError, match="keep dying outside any game"):
        run_field(tmp_path, "Raiser")


def test_workers_killed_while_logging_never_hang_the_run(tmp_path):
    import subprocess
    import sys
    root = __file__.rsplit("/tests/", 1)[0]
    code = ("import arena.games; arena.games.register('nim', 'tests.toy:Nim')\n"
            "from arena.tournament import build, run_tournament\n"
            f"s = run_tournament(build(dict(game='nim', params={{'pile': '12'}}, bots=['random', "
            f"'{BROKEN}LogAndDie'], games=6, workers=2, retries=1, results={str(tmp_path)!r})))\n"
            "assert s.stored == s.total == 6, s\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, timeout=120, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_run_leaves_no_thread_or_queue_behind(tmp_path):
    import multiprocessing.util
    import threading
    before = set(threading.enumerate())

    def at_exit():  # finalizers interpreter exit runs (a queue's feeder join among them)
        return {key for key in multiprocessing.util._finalizer_registry if key[0] is not None}
    finalizers = at_exit()
    run_field(tmp_path, "Suicide", retries=0)
    assert set(threading.enumerate()) <= before  # nothing left for interpreter exit to join
    assert at_exit() <= finalizers


@pytest.mark.slow
def test_runs_with_dying_workers_always_exit(tmp_path):
    """Workers ending by os._exit, SIGKILL or closing fds 1 and 2 never keep `arena run` from exiting
    (it hung about 1 run in 5 at interpreter exit, on the logging queue's feeder thread)."""
    import subprocess
    import sys
    root = __file__.rsplit("/tests/", 1)[0]
    for i in range(10):
        args = [sys.executable, "-m", "arena", "run", "--format", "gauntlet", "--bot", "greedy",
                "--bot", f"{BROKEN}ExitZero", "--bot", f"{BROKEN}Suicide", "--bot", f"{BROKEN}CloseStd",
                "--games", "2", "--move-time", "0.2", "--workers", "1", "--results", str(tmp_path / str(i)), "-q"]
        proc = subprocess.run(args, cwd=root, timeout=60, capture_output=True, text=True, check=False)
        assert proc.returncode == 0, proc.stderr[-2000:]


@pytest.mark.parametrize("fault,reason,extra", [
    ("sleep", "timeout", {"move_time": 0.1, "time_margin": 0.1}),
    ("burn", "game_time", {"game_time": 1.0}),
    ("kill", "crash", {"retries": 0}),
])
def test_game_lost_to_a_kill_keeps_its_plies(tmp_path, fault, reason, extra):
    summary, games = run_field(tmp_path, f"Late:fault={fault},after=2", **extra)
    moves = load_moves(summary.path)
    for row in games.itertuples():
        seat = bad_seat(row)
        assert row.termination == reason and row.fault_seat == seat
        assert row.plies in (4, 5)  # the bad bot's 2 moves and the opponent's, up to its 3rd move
        mine = moves[(moves.game_id == row.game_id)]
        assert list(mine.ply) == list(range(row.plies))
        assert list(mine[mine.seat == seat].move) == ["1", "1"]


def test_worker_dying_in_a_game_is_that_games_crash_not_a_startup_failure(tmp_path):
    """A bot closing every fd kills its worker (the result cannot be sent) after the game began:
    the game is replayed, then lost as a ``crash``; the run finishes."""
    summary, games = run_field(tmp_path, "CloseAll", retries=1)
    for row in games.itertuples():
        assert row.termination == "crash" and row.fault_seat == bad_seat(row)
    assert summary.faults == {"crash": 2}


def test_runaway_allocation_is_memory_by_default(tmp_path, monkeypatch):
    """No --memory-limit: the default (half the physical memory over the workers) still catches it."""
    from arena.tournament import config
    monkeypatch.setattr(config, "physical_memory_mib", lambda: 1024)  # default: 1024 / 2 / 2 workers
    summary, games = run_field(tmp_path, "Hog")
    assert set(games.termination) == {"memory"}
    import sqlite3
    details = [d for (d,) in sqlite3.connect(summary.path).execute("SELECT fault_detail FROM games")]
    assert details and all("limit 256 MiB" in d for d in details), details
    # the first line is one sentence (the report's fault line); a traceback, if any, follows it
    assert all(d.startswith("MemoryError (limit 256 MiB)") and "Traceback" not in d.splitlines()[0]
               for d in details), details


def test_run_help_states_the_real_defaults():
    from typer.testing import CliRunner
    from arena.cli.app import app
    out = " ".join(CliRunner().invoke(app, ["run", "--help"]).output.replace("│", " ").split())
    assert "500 × (move time + margin)" in out and "half the physical memory" in out


@pytest.mark.parametrize("isolation", ["none", pytest.param("process", marks=pytest.mark.slow)])
def test_an_exception_text_no_codec_writes_or_of_megabytes_is_stored_bounded(tmp_path, isolation):
    """A bot's exception whose text has lone surrogates (the store's UTF-8 cannot encode them)
    or is 5 MB long loses by ``exception`` like any other, its text escaped and bounded
    (``arena.referee.records.fault_text``): the run ends, the games are stored."""
    from arena.referee.records import DETAIL_LINE, DETAIL_TRACE

    for bad in ("SurrogateRaiser", "HugeRaiser"):
        out = tmp_path / bad
        cfg = build(dict(game="interaction", bots=["random", f"bad={BROKEN}{bad}"], games=2, workers=2,
                         results=str(out), isolation=isolation))
        summary = run_tournament(cfg)
        assert summary.stored == summary.total == 2
        games = load_games(summary.path)
        for row in games.itertuples():
            assert row.termination == "exception" and row.fault_seat == bad_seat(row)
        with Store.open(out, summary.name) as store:
            details = [d for (d,) in store.conn.execute("SELECT fault_detail FROM games")]
        for detail in details:
            assert len(detail) <= DETAIL_LINE + 1 + DETAIL_TRACE
            assert detail.encode("utf-8")  # storable and printable
        if bad == "SurrogateRaiser":
            assert all("\\udcff" in d.splitlines()[0] for d in details), details
