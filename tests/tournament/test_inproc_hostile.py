"""In-process hostile bots of issue 29: a move text that changes when read, bot objects whose
unpickling runs code, a ``__del__`` that blocks. Each run ends with the innocent bot never
blamed and every stored game replaying (``hostile.run_hostile``)."""

import os
import pickle
import time

import arena.games
import bots
from arena.cli.export import games_frame
from arena.referee import GameSettings, play_game, referee_check, to_wire
from arena.referee.messages import message_to_wire, Ply
from arena.referee.records import MoveRecord
from arena.tournament import build, run_tournament
from tests.fixtures import hostile_inproc as hi
from tests.tournament.hostile import assert_stored_is_replayed

FIXTURE = "tests/fixtures/hostile_inproc.py#"


def _run(tmp_path, bot, games=4, **extra):
    cfg = build(dict(game="interaction", bots=[f"c={FIXTURE}{bot}", "greedy"], games=games, workers=1,
                     results=str(tmp_path), **extra))
    summary = run_tournament(cfg)
    frame = games_frame(summary.path)
    assert_stored_is_replayed(frame, cfg.game, cfg.params)
    assert len(frame) == games and summary.mismatches == 0
    return summary, frame


def _plain(value):
    """``value`` is built of exact str/int/float/None and tuples only."""
    if type(value) is tuple:
        return all(_plain(v) for v in value)
    return value is None or type(value) in (str, int, float)


def test_a_changing_str_is_judged_on_its_characters():
    game = arena.games.make("interaction")
    for seed in range(10):
        rec = play_game(GameSettings(game, seed, labels=["c", "g"]), [hi.ChangingStr("legal"), bots.make("greedy")])
        assert rec.fault_seat is None and all(type(m) is str for m in rec.moves)
        assert referee_check(arena.games.make("interaction"), rec).mismatch is None
        junk = play_game(GameSettings(game, seed, labels=["c", "g"]), [hi.ChangingStr("junk"), bots.make("greedy")])
        assert junk.fault_seat == 0 and junk.outcome.termination == "bad_move" and "'zz'" in junk.fault_detail
        assert referee_check(arena.games.make("interaction"), junk).mismatch is None


def test_changing_str_in_a_tournament_blames_only_itself(tmp_path):
    summary, frame = _run(tmp_path / "legal", "ChangingStr:base=legal")
    assert frame.fault_seat.isna().all()
    summary, frame = _run(tmp_path / "junk", "ChangingStr:base=junk")
    assert set(frame.termination) == {"bad_move"}
    for row in frame.itertuples():
        assert row.seats[int(row.fault_seat)] == "c"


def test_records_are_plain_data_and_nothing_is_unpickled(tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    game = arena.games.make("interaction")
    for kind in ("str", "object"):
        hostile = hi.PickledMove(str(marks), kind)
        rec = play_game(GameSettings(game, 1, labels=["c", "g"]), [hostile, bots.make("greedy")])
        wire = to_wire(rec)
        pickle.loads(pickle.dumps(wire))  # what crosses is plain: loading it runs nothing
        assert all(_plain(v) for v in wire)
        if kind == "str":
            # its figures are not numbers (``Figure``): the boundary (``arena.referee.reported``)
            # drops them, without calling their __int__
            assert rec.fault_seat is None and rec.move_stats[0].nodes is None
            pickle.loads(pickle.dumps(message_to_wire(Ply(rec.moves[-1], rec.move_stats[-1]))))
        else:
            assert rec.outcome.termination == "bad_move" and rec.fault_seat == 0
    hostile = MoveRecord(0, 0, hi.ReduceText("e1N"), 0.0, hi.ReduceInt(3), hi.ReduceInt(1), hi.ReduceFloat(0.5))
    for obj in (hostile.move, hostile.nodes, hostile.depth, hostile.evaluation):
        obj.dir = str(marks)
    pickle.loads(pickle.dumps(message_to_wire(Ply("e1N", hostile))))
    assert os.listdir(marks) == []


def test_pickled_code_never_runs_in_the_runner(tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    summary, frame = _run(tmp_path / "str", f"PickledMove:dir={marks}")
    assert frame.fault_seat.isna().all()  # its move taken as plain text
    summary, frame = _run(tmp_path / "object", f"PickledMove:dir={marks},kind=object")
    assert set(frame.termination) == {"bad_move"}
    for row in frame.itertuples():
        assert row.seats[int(row.fault_seat)] == "c"
    assert not (marks / f"unpickled-{os.getpid()}").exists()
    assert os.listdir(marks) == []


def test_a_blocking_del_does_not_stall_the_workers(tmp_path):
    began = time.monotonic()
    summary, frame = _run(tmp_path, "BlockingDel", games=6, game_time=30)
    assert time.monotonic() - began < 60  # 6 games x 30 s if each waited on the bot's __del__
    assert frame.fault_seat.isna().all()
    assert not set(frame.termination) & {"game_time", "crash", "timeout"}
