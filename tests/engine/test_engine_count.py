"""At most one engine process per seat per worker (fastchess #855): the engines of bots not in
the current game are closed, and a bot's engine is kept across its consecutive games."""

import sys
import threading
import time
from pathlib import Path

import pytest

import arena.games
from arena.engine import client
from arena.referee import GameSettings, play_game
from bots.registry import make

FIRST = Path(__file__).parents[2] / "examples" / "engines" / "first_legal.sh"


@pytest.fixture(autouse=True)
def _quit_engines():
    yield
    client.close_all()


def _play(bots, labels, prepare=True):
    if prepare:
        client.for_game(bots)
    game = arena.games.make("interaction")
    record = play_game(GameSettings(game, 3, labels=labels), bots)
    assert record.fault_seat is None, record.fault_detail
    return record


def _pid(bot):
    return bot.engine.proc.pid


def test_a_worker_keeps_the_engines_of_the_game_only_and_reuses_them():
    made = {label: (lambda label=label: make(f"{label}=exec:{FIRST}")) for label in "abc"}
    a, b = made["a"](), made["b"]()
    _play([a, b], ["a", "b"])
    first = {"a": _pid(a), "b": _pid(b)}
    a2, b2 = made["a"](), made["b"]()  # fresh bots each game, as a worker makes them; seats swapped
    _play([b2, a2], ["b", "a"])
    assert client.running() == 2
    assert {"a": _pid(a2), "b": _pid(b2)} == first  # each engine followed its bot to the other seat
    a3, c3 = made["a"](), made["c"]()
    _play([a3, c3], ["a", "c"])
    assert client.running() == 2
    assert _pid(a3) == first["a"]
    assert not _alive(first["b"])  # b is not in this game: its engine was closed


def test_without_for_game_the_engines_used_longest_ago_make_room():
    bots = {label: make(f"{label}=exec:{FIRST}") for label in "abc"}
    for pair in ("ab", "ac", "bc", "ca"):
        _play([bots[pair[0]], bots[pair[1]]], list(pair), prepare=False)
        assert client.running() <= 2


def test_a_bot_in_both_seats_has_two_engines():
    a1, a2 = make(f"a=exec:{FIRST}"), make(f"a=exec:{FIRST}")
    _play([a1, a2], ["a", "a-2"])
    assert client.running() == 2 and _pid(a1) != _pid(a2)


def _alive(pid):
    from tests.tournament.hostile import alive
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive(pid)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="--isolation process: Linux")
@pytest.mark.slow
def test_an_isolated_round_robin_of_five_bots_keeps_two_engines_per_worker(tmp_path):
    psutil = pytest.importorskip("psutil")
    from arena.tournament import build, run_tournament
    field = ["random", "greedy", "alphabeta:depth=1", "r2=random", "g2=greedy"]
    cfg = build(dict(game="interaction", bots=field, games=2, workers=1, results=str(tmp_path),
                     isolation="process", opening_plies=0))
    me, most, seen = psutil.Process(), 0, set()
    out: list = []
    runner = threading.Thread(target=lambda: out.append(run_tournament(cfg)), daemon=True)
    runner.start()

    def engines() -> list[int]:
        pids = []
        for proc in me.children(recursive=True):
            try:
                if "arena.engine" in proc.cmdline():
                    pids.append(proc.pid)
            except psutil.Error:  # ended meanwhile, or a zombie not yet reaped
                pass
        return pids
    while runner.is_alive():
        now = engines()
        most, seen = max(most, len(now)), seen | set(now)
        time.sleep(0.02)
    summary = out[0]
    assert summary.stored == summary.total == 20 and not summary.faults, summary.faults
    assert most == 2, most  # the two seats of the game being played (plus none idle)
    assert len(seen) < 2 * 20  # engines were reused across games
    assert not engines()
