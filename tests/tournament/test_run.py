"""Running tournaments: determinism, resume, refusal of a changed or concurrent run."""

import os
import signal
import subprocess
import sys
import time

import pytest

from arena.errors import ConfigError, ResultsError
from arena.results.store import load_games, load_moves, load_tournament
from arena.tournament import build, run_tournament

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BROKEN = "tests/fixtures/broken_bots.py#"


def nim(tmp_path, **extra):
    values = dict(game="nim", params={"pile": "21"}, bots=["random", "r2=random", "r3=random"], games=4,
                  workers=2, results=str(tmp_path), opening_plies=2)
    values.update(extra)
    return build(values)


def frame(path):
    games = load_games(path).drop(columns=["seconds"])
    moves = load_moves(path).drop(columns=["seconds"])
    return games, moves


def test_same_seed_same_games_whatever_the_worker_count(tmp_path):
    one = run_tournament(nim(tmp_path / "a", workers=1, name="t"))
    two = run_tournament(nim(tmp_path / "b", workers=2, name="t"))
    g1, m1 = frame(one.path)
    g2, m2 = frame(two.path)
    assert len(g1) == one.total == 12
    assert g1.equals(g2) and m1.equals(m2)
    other = run_tournament(nim(tmp_path / "c", seed=2, name="t"))
    assert not frame(other.path)[1].equals(m1)


def test_rerun_resumes_and_default_name_is_stable(tmp_path):
    cfg = nim(tmp_path)
    assert cfg.run_name() == nim(tmp_path, workers=1).run_name()  # workers do not change the games
    assert cfg.run_name() == nim(tmp_path, games=6).run_name()  # --games extends the same tournament
    assert cfg.run_name() != nim(tmp_path, seed=2).run_name()
    first = run_tournament(cfg)
    again = run_tournament(cfg)
    assert first.played == 12 and again.played == 0 and again.stored == 12
    import sqlite3
    conn = sqlite3.connect(first.path)
    conn.execute("DELETE FROM games WHERE game_id IN (3, 7)")
    conn.commit()
    conn.close()
    before = frame(first.path)
    resumed = run_tournament(cfg)
    assert resumed.played == 2 and resumed.stored == 12
    after = frame(first.path)
    assert sorted(after[0].game_id) == list(range(1, 13))
    assert after[0][~after[0].game_id.isin([3, 7])].reset_index(drop=True).equals(before[0].reset_index(drop=True))


def test_changed_settings_under_a_name_are_refused(tmp_path):
    run_tournament(nim(tmp_path, name="x"))
    with pytest.raises(ResultsError, match="different settings .*seed"):
        run_tournament(nim(tmp_path, name="x", seed=9))
    assert len(load_games(tmp_path / "x.sqlite")) == 12


def test_fill_and_four_player_games(tmp_path):
    with pytest.raises(ConfigError, match="--fill"):
        run_tournament(nim(tmp_path, bots=["random", "random"], params={"players": "4"}))
    s = run_tournament(nim(tmp_path, bots=["a=random", "b=random"], params={"players": "4", "pile": "30"},
                           fill="random"))
    info = load_tournament(s.path)
    assert list(info["bots"]) == ["a", "b", "random", "random#2"] and info["num_players"] == 4
    games = load_games(s.path)
    assert len(games) == 4 and all(len(seats) == 4 for seats in games.seats)


def test_gauntlet(tmp_path):
    s = run_tournament(nim(tmp_path, bots=["c=random", "random", "random"], format="gauntlet", games=2))
    games = load_games(s.path)
    assert len(games) == 4 and all("c" in seats for seats in games.seats)


@pytest.mark.parametrize("key,value,accepted", [("games", 0, "1 to"), ("games", -5, "1 to"), ("workers", 0, "1 to"),
                                                ("move_time", -1, "to"), ("memory_limit", 1, "16 to"),
                                                ("games", "many", "integer"), ("opening_plies", 10**9, "0 to")])
def test_bad_numbers_name_the_range(tmp_path, key, value, accepted):
    with pytest.raises(ConfigError, match=accepted):
        nim(tmp_path, **{key: value})


def _script(args: str) -> list[str]:
    code = ("import arena.games; arena.games.register('nim', 'tests.toy:Nim')\n"
            "from arena.tournament import build, run_tournament\n"
            f"run_tournament(build(dict({args})))\n")
    return [sys.executable, "-c", code]


def test_second_run_on_the_same_name_is_refused(tmp_path):
    args = (f"game='nim', params={{'pile': '30'}}, bots=['random', '{BROKEN}Slow:ms=200'], games=4, workers=1, "
            f"results={str(tmp_path)!r}, name='busy'")
    proc = subprocess.Popen(_script(args), cwd=ROOT)
    try:
        deadline = time.monotonic() + 120  # a loaded machine may take many seconds to start it
        while not (tmp_path / "busy.log").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "the first run ended before the second started"
        with pytest.raises(ResultsError, match="already being run"):
            run_tournament(build(eval(f"dict({args})")))
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.slow
def test_resume_after_killing_the_whole_run_many_times(tmp_path):
    # long enough that 20 kills at 0.3-1.2 s come before the end (about 10 s of play on two quiet
    # cores): a run that starts fast (the runner loads no pandas) once finished after 4 kills
    args = (f"game='nim', params={{'pile': '30'}}, bots=['random', 'r2=random', 'r3=random', "
            f"'s={BROKEN}Slow:ms=4'], games=160, workers=2, results={str(tmp_path)!r}, name='k'")
    import random
    rng = random.Random(4)
    kills = 0
    for _ in range(60):  # kill at random moments until 20 kills (a run may also finish first)
        if kills >= 20:
            break
        proc = subprocess.Popen(_script(args), cwd=ROOT)
        try:
            proc.wait(timeout=rng.uniform(0.3, 1.2))
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            kills += 1
        if (tmp_path / "k.sqlite").exists():
            import sqlite3
            conn = sqlite3.connect(tmp_path / "k.sqlite")
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            conn.close()
    assert kills >= 20
    final = run_tournament(build(eval(f"dict({args})")))
    games, moves = load_games(final.path), load_moves(final.path)
    assert list(games.game_id) == list(range(1, final.total + 1))
    assert (moves.groupby("game_id").size() == games.set_index("game_id").plies).all()
    fresh = run_tournament(build(eval(f"dict({args})") | {"results": str(tmp_path / "fresh")}))
    assert frame(fresh.path)[0].equals(frame(final.path)[0])


@pytest.mark.slow
@pytest.mark.parametrize("signum, exit_code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_stops_cleanly_keeping_finished_games(tmp_path, signum, exit_code):
    """Ctrl-C, and SIGTERM alike (it ended the run at once, without the resume hint)."""
    # the Gated bot blocks after its first 60 moves in each worker until the gate file exists, so the
    # run is still going when the signal comes however starved this test process is (a plain slow bot
    # once let the run finish first on a loaded machine: exit 0)
    games, gate = 200, tmp_path / "gate"
    bots = ["random", f"{BROKEN}Gated:ms=10,after=60"]
    code = ("import arena.games; arena.games.register('nim', 'tests.toy:Nim')\n"
            "from arena.cli.app import main\n"
            f"main(['run', '--game', 'nim', '-p', 'pile=30', '--bot', {bots[0]!r}, '--bot', {bots[1]!r}, "
            f"'--games', '{games}', '--workers', '2', '--name', 'c', '--results', {str(tmp_path)!r}, '-q'])\n")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=os.environ | {"ARENA_TEST_GATE": str(gate)},
                            # Ctrl-C's default action even when this test runs as a background job
                            # (a shell starts those with SIGINT ignored, and children inherit it)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    db = tmp_path / "c.sqlite"
    import sqlite3
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if db.exists() and sqlite3.connect(db).execute(
                "SELECT count(*) FROM sqlite_master WHERE name='games'").fetchone()[0]:
            if sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone()[0] >= 5:
                break
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == exit_code, err
    assert "interrupted: finished games are stored; re-run the same command to resume" in out
    assert "Traceback" not in out + err
    stored = load_games(db)
    assert 5 <= len(stored) < games and stored.game_id.is_unique
    # this process has no ARENA_TEST_GATE, so the resumed run's bots play freely
    resumed = run_tournament(build(dict(game="nim", params={"pile": "30"}, bots=bots,
                                        games=games, workers=2, name="c", results=str(tmp_path))))
    assert resumed.stored == games and resumed.played == games - len(stored)
