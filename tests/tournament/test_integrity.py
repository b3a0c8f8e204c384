"""A bot can neither change a stored result nor stop the tournament (issue 11): private states,
the runner's referee check, the fault rows. Each run ends with every stored outcome equal to a
replay of its stored moves (``hostile.run_hostile``)."""

import dataclasses

import pytest

import arena.games
import bots
from arena.referee import GameRecord, Private, last_frame, play_game, referee_check, GameSettings
from arena.referee.records import Termination, forfeit
from tests.fixtures import hostile_bots as hb
from tests.tournament.hostile import HOSTILE, assert_no_survivors, run_hostile


def play(bot, seed=3):
    game = arena.games.make("interaction")
    return game, play_game(GameSettings(game, seed, labels=["c", "greedy"]), [bot, bots.make("greedy")])


@pytest.mark.parametrize("bot", [hb.ScoreForger(), hb.TargetSetter(), hb.CacheForger(), hb.ResetTampering()])
def test_a_bot_changes_only_its_own_copy(bot):
    game, rec = play(bot)
    assert game.target == arena.games.make("interaction").target
    assert referee_check(arena.games.make("interaction"), rec).mismatch is None
    assert rec.fault_seat is None and rec.plies > 3  # played to a rule ending, not to a target of 1


def test_forged_scores_and_target_are_not_stored(tmp_path):
    for bot in ("ScoreForger", "TargetSetter", "CacheForger", "ResetTampering"):
        summary, frame = run_hostile(tmp_path / bot, bot, games=4)
        assert summary.mismatches == 0 and summary.faults == {}
        assert frame.fault_seat.isna().all()
        assert (frame.plies > 3).all()  # no game was decided by a target of 1


def test_private_state_is_a_copy_with_its_own_game():
    game = arena.games.make("interaction")
    state = game.initial_state(1)
    state = state.play(state.legal_moves()[0])
    view = Private(game)
    mine = view.state(state)
    assert mine is not state and mine.to_text() == state.to_text() and mine.game is view.game is not game
    mine.legal_moves().clear()
    mine.scores = (9, 9)
    mine.game.target = 1
    assert state.legal_moves() and state.scores != (9, 9) and game.target != 1
    assert view.state(state).game is view.game  # one game copy per seat per game


def test_referee_check_stores_what_the_moves_decide():
    game = arena.games.make("interaction")
    rec = play(hb._Second())[1]
    assert referee_check(game, rec).mismatch is None
    forged = dataclasses.replace(rec, moves=rec.moves[:5], outcome=forfeit(2, None, "target"))
    checked = referee_check(game, forged)
    assert checked.mismatch and checked.record.outcome.termination == Termination.UNFINISHED
    assert checked.record.outcome.ranks == (1, 1)
    extra = dataclasses.replace(rec, moves=rec.moves + ("a1-n",))
    checked = referee_check(game, extra)
    assert checked.mismatch and checked.record.moves == rec.moves and checked.record.outcome == rec.outcome
    bad = dataclasses.replace(rec, moves=rec.moves[:4] + ("zz",) + rec.moves[5:])
    checked = referee_check(game, bad)
    assert checked.record.outcome.termination == "illegal_move" and len(checked.record.moves) == 4
    state = game.initial_state(rec.seed)
    for text in rec.moves[:4]:
        state = state.play(game.parse_move(state, text))
    assert checked.record.fault_seat == state.to_move


def test_tampered_worker_record_is_corrected_and_counted(tmp_path, monkeypatch):
    """A record the worker got wrong (forged here in the runner's pool) is stored as replayed."""
    from arena.tournament import slot as pool_mod  # where the pool reads its workers
    from arena.referee import GameEnded
    real = pool_mod.message_from_wire

    def forge(values):
        ended = real(values)
        rec: GameRecord = ended.record
        if rec.fault_seat is None and rec.plies > 6:
            rec = dataclasses.replace(rec, moves=rec.moves[:6], outcome=forfeit(2, 1, "target"))
        return GameEnded(ended.game_id, rec)
    monkeypatch.setattr(pool_mod, "message_from_wire", forge)
    summary, frame = run_hostile(tmp_path, "_Second", games=2)
    assert summary.mismatches == 2
    assert set(frame.termination) == {"unfinished"} and (frame.plies == 6).all()
    log = (tmp_path / f"{summary.name}.log").read_text()
    assert log.count("referee check:") == 2


@pytest.mark.parametrize("bot,reason,extra", [
    ("Interrupter", "exception", {}),
    ("StrMove", "bad_move", {}),
    ("SlowReset", "timeout", {"move_time": 0.2, "time_margin": 0.1}),
])
def test_fault_rows(tmp_path, bot, reason, extra):
    summary, frame = run_hostile(tmp_path, bot, **extra)
    assert summary.faults == {reason: 2}
    for row in frame.itertuples():
        assert row.termination == reason and row.seats[row.fault_seat] == "c"


def test_reset_time_counts_against_the_first_move():
    class Slow:
        def reset(self, game, seat, seed):
            import time
            time.sleep(0.3)

        def choose(self, state, limits):
            return state.legal_moves()[0]
    game = arena.games.make("interaction")
    from bots.base import Limits
    rec = play_game(GameSettings(game, 3, labels=["c", "g"], limits=Limits(time=0.05), time_margin=0.1),
                    [Slow(), bots.make("greedy")])
    assert rec.outcome.termination == "timeout" and rec.fault_seat == 0 and "for a 0.05s move" in rec.fault_detail


def test_exception_stores_the_traceback_with_the_bots_line(tmp_path):
    summary, frame = run_hostile(tmp_path, "DeepRaiser")
    detail = frame.fault_detail.iloc[0]
    assert detail.splitlines()[0] == "ValueError: deep bug"
    frame_line = last_frame(detail)
    assert "hostile_bots.py" in frame_line and "in helper" in frame_line
    assert "Traceback (most recent call last)" in (tmp_path / f"{summary.name}.log").read_text()


def test_a_forking_bot_loses_and_the_run_completes(tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    summary, frame = run_hostile(tmp_path / "run", f"Forker:dir={marks}")
    assert summary.stored == summary.total == 2 and not summary.interrupted
    assert summary.faults == {"crash": 2}
    for row in frame.itertuples():
        assert row.seats[row.fault_seat] == "c" and "forked the worker" in row.fault_detail
    assert_no_survivors(marks)


def test_a_fork_whose_copy_ended_before_the_worker_looked_is_still_caught(tmp_path):
    """The copy marks its game and exits at its first hook; the worker, finding no running copy
    (an exited child shows no command line), must still stop at the mark, not play on: else the
    next game's copy overwrites the mark and the game before is stored as if nothing happened."""
    summary, frame = run_hostile(tmp_path, "GoneForker", games=4)
    assert summary.stored == summary.total == 4 and not summary.interrupted
    assert summary.faults == {"crash": 4}
    for row in frame.itertuples():
        assert row.seats[row.fault_seat] == "c" and "forked the worker" in row.fault_detail


@pytest.mark.slow
def test_a_setsid_grandchild_does_not_outlive_the_run(tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    summary, frame = run_hostile(tmp_path / "run", f"SetsidForker:dir={marks}")
    assert summary.stored == 2
    assert len(list(marks.glob("*.pid"))) == 4  # a child and a grandchild per game
    assert_no_survivors(marks, seconds=0.5)


@pytest.mark.slow
def test_dispatch_spreads_games_over_the_workers(tmp_path):
    """Two hung games on two workers run side by side: about one --game-time, not two."""
    import time
    t0 = time.monotonic()
    summary, frame = run_hostile(tmp_path, "Sleeper", games=2, workers=2, game_time=4.0)
    wall = time.monotonic() - t0
    assert summary.faults == {"game_time": 2}
    assert wall < 2 * 4.0, f"{wall:.1f}s: the games ran one after the other"


def test_fill_hands_out_round_robin():
    from arena.tournament.pool import Pool

    class FakeSlot:
        def __init__(self):
            self.tasks = []
            self.status = __import__("arena.supervisor", fromlist=["new_status"]).new_status()
            self.proc = type("P", (), {"is_alive": lambda self: True})()

        def playing(self):
            return None

        def give(self, tasks):
            self.tasks.append(list(tasks))  # one message of several games
            return True
    from collections import deque
    pool = Pool.__new__(Pool)
    from arena.supervisor import Deadlines
    pool.slots, pool.mean_seconds, pool.deadlines = [FakeSlot() for _ in range(3)], None, Deadlines()
    pool.at_once = 1  # one game at a time in each worker (no network seats: arena.tournament.threads)
    pool._fill(deque(range(5)))
    assert [s.tasks for s in pool.slots] == [[[0, 3]], [[1, 4]], [[2]]]


def test_report_shows_the_last_frame_of_a_traceback(tmp_path):
    from arena.reports.render import load
    from arena.reports.tables import faults
    summary, _ = run_hostile(tmp_path, "DeepRaiser")
    detail = faults(load(summary.path).games).detail.iloc[0]
    assert detail.startswith("ValueError: deep bug (File ") and "hostile_bots.py" in detail and "in helper" in detail
    assert "\n" not in detail


@pytest.mark.slow
def test_arena_run_with_a_forking_bot_exits_0_and_leaves_no_process(tmp_path):
    import subprocess
    import sys
    marks = tmp_path / "marks"
    marks.mkdir()
    proc = subprocess.run([sys.executable, "-m", "arena", "run", "--game", "interaction", "--bot",
                           f"c=tests/fixtures/hostile_bots.py#Forker:dir={marks}", "--bot", "greedy", "--games", "2",
                           "--workers", "1", "--results", str(tmp_path / "run")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "crash" in proc.stdout
    assert_no_survivors(marks)


def test_a_fork_in_the_next_game_behind_an_unread_result_is_a_crash(tmp_path):
    """The race of a forking bot in the game after one whose result the runner has not read
    yet: ``FORKED`` names the second game while the first is still first in flight. The first
    game's result stands, the second is lost by the forking seat (``crash``), not left to time out."""
    import time
    from collections import deque

    from arena.tournament.pool import Pool, WorkerSlot
    from arena.tournament.series import GameTask
    from arena.tournament.worker import WorkerSetup
    from bots.registry import parse_spec

    marks = tmp_path / "marks"
    marks.mkdir()
    specs = {s.label: s for s in (parse_spec(f"c={HOSTILE}Forker:dir={marks}"), parse_spec("greedy"))}
    setup = WorkerSetup(game="interaction", params={}, specs=specs)
    pool = Pool(setup, workers=1, num_players=2, game_time=60.0, move_time=0.5)
    first = GameTask(1, 0, ("greedy", "c"), ("greedy", "greedy"), 1, ())
    second = GameTask(2, 0, ("greedy", "c"), ("c", "greedy"), 1, ())
    list(pool.run([], keep=True))  # the pool's subreaper and its own children, as in a run
    try:
        pool.slots = [WorkerSlot(pool.ctx, setup, False)]
        slot = pool.slots[0]
        assert slot.give([first]) and slot.give([second])
        deadline = time.monotonic() + 60
        while slot.status.forked < 0 and time.monotonic() < deadline:  # nobody reads the pipe meanwhile
            time.sleep(0.02)
        assert slot.status.forked == 2 and slot.tasks[0] is first
        pending = deque()
        results = pool._check(0, pending, {})
        assert [r.task.game_id for r in results] == [1, 2] and not pending
        assert results[0].record.outcome.termination not in ("crash", "timeout")
        assert results[1].record.outcome.termination == "crash" and results[1].record.fault_seat == 0
        assert "forked the worker" in results[1].record.fault_detail
    finally:
        pool.close()
    assert_no_survivors(marks)


def test_a_fork_marked_in_a_game_already_sent_keeps_that_games_plies(tmp_path):
    """The worker missed the copy (gone before its scan), sent the game and began the next:
    the forking seat still loses (``crash``) with the plies of its own game before the fork,
    not those in the ply buffer (the next game's)."""
    import time
    from collections import deque

    from arena.tournament.pool import Pool, WorkerSlot
    from arena.tournament.series import GameTask
    from arena.tournament.worker import WorkerSetup
    from bots.registry import parse_spec

    specs = {s.label: s for s in (parse_spec(f"s={HOSTILE}Sleeper"), parse_spec("greedy"))}
    setup = WorkerSetup(game="interaction", params={}, specs=specs)
    pool = Pool(setup, workers=1, num_players=2, game_time=60.0)
    first = GameTask(1, 0, ("greedy", "s"), ("greedy", "greedy"), 1, ())
    second = GameTask(2, 0, ("greedy", "s"), ("s", "greedy"), 1, ())  # hangs at its first move
    list(pool.run([], keep=True))
    try:
        pool.slots = [WorkerSlot(pool.ctx, setup, False)]
        slot = pool.slots[0]
        assert slot.give([first]) and slot.give([second])
        deadline = time.monotonic() + 60
        while slot.status.game != 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        slot.status.fork_seat, slot.status.fork_ply, slot.status.forked = 1, 3, 1  # as a copy in game 1 would
        pending = deque()
        results = pool._check(0, pending, {})
        assert [r.task.game_id for r in results] == [1] and pending == deque([second])
        record = results[0].record
        assert record.outcome.termination == "crash" and record.fault_seat == 1
        assert record.plies == 3 and [m.ply for m in record.move_stats] == [0, 1, 2]
    finally:
        pool.close()


@pytest.mark.parametrize("isolation", ["none", "process"])
@pytest.mark.slow
def test_bots_made_to_check_the_field_leave_no_process(tmp_path, isolation):
    """A bot that starts a ``setsid`` sleeper when it is made and at each ``reset``: the one
    the runner makes to check the field, and under ``--isolation process`` the engine it
    starts once to load the bot (before any worker exists), are swept as the workers' are."""
    marks = tmp_path / "marks"
    marks.mkdir()
    summary, frame = run_hostile(tmp_path / "run", f"SetupSetsid:dir={marks},at=reset", isolation=isolation)
    assert summary.stored == 2
    # in-process: the check's bot (in a child of the runner), then its workers' bots. Isolated:
    # the runner never makes the bot, and its engines (users of their own, with a private /tmp)
    # cannot write here; their processes are checked by tests/engine/test_hostile_os.py
    assert len(list(marks.glob("*.pid"))) >= 3 if isolation == "none" else not list(marks.glob("*.pid"))
    assert_no_survivors(marks, seconds=1.0)
