"""Every row of the engine protocol's fault list (``docs/engine-protocol.md`` "Faults"), each
with a misbehaving engine (``misbehave.sh MODE``), played through ``arena.referee.play_game``."""

import os
import shlex
import sys
import threading
from pathlib import Path

import pytest

import arena.games
from arena.engine import process, stderr
from arena.engine.client import close_all
from arena.engine.process import MAX_LINE_BYTES
from arena.errors import BotSpecError
from arena.referee import play_game, GameSettings
from bots.base import Limits
from bots.registry import make, parse_spec

HERE = Path(__file__).parent
SCRIPT = HERE / "misbehave.sh"
FIRST = HERE.parents[1] / "examples" / "engines" / "first_legal.sh"


def engine(mode: str, options: str = "startup_timeout=3"):
    spec = f"bad=exec:{shlex.join([str(SCRIPT), mode])}" + (f":{options}" if options else "")
    return make(spec)


@pytest.fixture(autouse=True)
def _quit_engines():
    yield
    close_all()


def duel(bot, limits=Limits(time=0.3), game="interaction"):
    g = arena.games.make(game)
    other = make("random")
    return play_game(GameSettings(g, 5, labels=["bad", "random"], limits=limits, time_margin=0.5), [bot, other])


def test_exec_spec_parses_path_and_options():
    spec = parse_spec("e=exec:./engines/x.sh:depth=5,hash=16")
    assert (spec.label, spec.kind, spec.options) == ("e", "exec:./engines/x.sh", {"depth": "5", "hash": "16"})
    assert parse_spec("exec:/usr/bin/my engine").kind == "exec:/usr/bin/my engine"


def test_no_handshake_is_a_spec_error_before_any_game():
    with pytest.raises(BotSpecError, match="no aepok within 1s"):
        engine("silent", "startup_timeout=1")


def test_missing_executable_is_a_spec_error():
    with pytest.raises(BotSpecError, match="cannot execute"):
        make("x=exec:./no/such/engine")


def test_unknown_option_is_a_spec_error():
    with pytest.raises(BotSpecError, match="unknown option 'hash'; accepted: depth"):
        engine("fine", "hash=16")


def test_an_option_value_of_the_wrong_type_is_a_spec_error():
    """``depth`` is declared ``type int``: ``abc`` is refused before any game, as a Python bot's
    parameter would be."""
    with pytest.raises(BotSpecError, match="option 'depth' takes an int value; got 'abc'"):
        engine("fine", "depth=abc")


def test_garbage_lines_are_ignored_and_info_is_stored(caplog):
    caplog.set_level("INFO", logger="arena.worker.engine")
    bot = engine("garbage", "depth=3")
    record = duel(bot)
    assert record.fault_seat is None
    mine = [m for m in record.move_stats if m.seat == 0]
    assert mine and all((m.nodes, m.depth, m.evaluation) == (42, 3, 17.0) for m in mine)
    assert bot.last_stats.seconds == pytest.approx(0.005)  # info time 5 ms (the referee times the ply itself)
    assert "bad said: hello, arena" in caplog.text


def test_unparseable_bestmove_is_bad_move():
    record = duel(engine("badmove"))
    assert (record.outcome.termination, record.fault_seat, record.outcome.ranks) == ("bad_move", 0, (2, 1))


def test_bare_bestmove_is_bad_move_without_a_move():
    record = duel(engine("bare"))
    assert (record.outcome.termination, record.fault_seat) == ("bad_move", 0)
    assert record.fault_detail == "bestmove without a move"


def test_bestmove_not_among_legal_is_illegal_move():
    g = arena.games.make("interaction")
    assert "pass" not in {str(m) for m in g.initial_state(5).legal_moves()}
    record = duel(engine("illegal"))
    assert (record.outcome.termination, record.fault_seat) == ("illegal_move", 0)


def test_no_bestmove_in_time_is_timeout_and_the_engine_is_restarted():
    bot = engine("hang")
    record = duel(bot, Limits(time=0.2))
    assert (record.outcome.termination, record.fault_seat) == ("timeout", 0)
    assert bot.engine is None  # killed
    assert duel(engine("fine"), Limits(time=0.2)).fault_seat is None


def test_exit_mid_game_is_crash_and_the_next_game_gets_a_new_process():
    bot = engine("exit")
    record = duel(bot)
    assert (record.outcome.termination, record.fault_seat) == ("crash", 0)
    assert "exit code 1" in record.fault_detail
    record = duel(engine("exit"))  # restarted for the next game (and crashes again)
    assert record.outcome.termination == "crash"


def test_megabytes_on_stderr_never_block_the_engine(caplog):
    caplog.set_level("INFO", logger="arena.worker.engine")
    record = duel(engine("stderr"), Limits(time=20))
    assert record.fault_seat is None and record.outcome.termination not in ("timeout", "crash")
    assert "bad stderr: noise on standard error" in caplog.text
    assert "the rest is dropped" in caplog.text


def test_a_bestmove_line_over_the_cap_is_named_too_long_not_a_timeout():
    """A 10 MB ``bestmove`` line: the fault says the line was too long and gives the cap (it
    used to read as "no bestmove within 1.33s", the runner re-scanning the growing line)."""
    bot = engine("longline")
    record = duel(bot, Limits(time=0.3))
    assert (record.outcome.termination, record.fault_seat) == ("bad_move", 0)
    assert f"longer than the {MAX_LINE_BYTES} byte cap (1 MiB), starting 'bestmove aaa" in record.fault_detail
    assert bot.engine is None  # killed


def test_a_chatty_engine_is_drained_in_few_reads_and_log_records(caplog, monkeypatch):
    """20,000 short standard-error lines per move: the drain reads them in chunks of many lines
    (not one read each) and logs the first 64 KiB in a few records, each line still prefixed."""
    caplog.set_level("INFO", logger="arena.worker.engine")
    reads = []
    real_read = os.read

    def counting_read(fd, n):
        data = real_read(fd, n)
        if threading.current_thread().name.startswith("engine-stderr-"):
            reads.append(len(data))
        return data
    monkeypatch.setattr(process.os, "read", counting_read)
    bot = engine("chatty")
    g = arena.games.make("interaction")
    bot.reset(g, 0, 1)
    bot.choose(g.initial_state(0), Limits(time=30))
    bot.close()  # the drain reads to the end of the pipe
    total = sum(reads)
    assert total >= 20000 * len("debug line 0\n")
    # about 20 reads here (2,000 before: a read per few lines); a loaded machine batches more, not less
    assert len(reads) < 1000, f"{len(reads)} reads for {total} bytes"
    records = [r for r in caplog.records if "bad stderr: debug line" in r.getMessage()]
    logged = "\n".join(r.getMessage() for r in records).split("\n")
    assert logged[:3] == ["bad stderr: debug line 0", "bad stderr: debug line 1", "bad stderr: debug line 2"]
    assert all(line.startswith("bad stderr: debug line ") for line in logged) and len(logged) > 3000
    assert len(records) < 200  # about 4,000 lines logged, one record each before
    assert "the rest is dropped" in caplog.text


def test_process_is_kept_across_games():
    first = make(f"sh=exec:{FIRST}")
    duel(first)
    pid = first.engine.proc.pid
    second = make(f"sh=exec:{FIRST}")
    duel(second)
    assert second.engine.proc.pid == pid


def test_ricochet_rounds_solution_and_no_answer():
    py = shlex.join([sys.executable, "-m", "arena.engine", "ricochet-greedy"])
    solver, shell = make(f"solver=exec:{py}"), make(f"sh=exec:{FIRST}")
    g = arena.games.make("ricochet", players=2, max_rounds=3)
    record = play_game(GameSettings(g, 3, labels=["solver", "sh"], limits=Limits(time=5)), [solver, shell])
    rounds = [m for m in record.move_stats if m.status is not None]
    assert {m.status for m in rounds if m.seat == 1} == {"none"}  # bestmove -
    assert any(m.status == "won" for m in rounds if m.seat == 0)  # bestmove RN GE ...
    assert record.outcome.ranks[0] == 1


def test_ricochet_timeout_is_late_for_that_round_and_the_engine_comes_back():
    g = arena.games.make("ricochet", players=2, max_rounds=2)
    hang = engine("hang")
    record = play_game(GameSettings(g, 3, labels=["solver", "bad"], limits=Limits(time=0.2)),
                       [make("ricochet-greedy"), hang])
    statuses = [m.status for m in record.move_stats if m.seat == 1 and m.status is not None]
    assert statuses == ["late", "late"]  # the second round was asked of a restarted engine
    assert record.fault_seat is None  # a round's fault voids that answer only


def test_stderr_without_newlines_is_logged_cut_at_the_cap(caplog):
    """3 MB on standard error and never a newline: the log gets one line cut at 1,000
    characters and the note that the rest is dropped; nothing piles up waiting for a newline."""
    caplog.set_level("INFO", logger="arena.worker.engine")
    r, w = os.pipe()
    drain = threading.Thread(target=stderr.drain, args=(r, "quiet"))
    drain.start()
    for _ in range(48):
        os.write(w, b"x" * 65536)
    os.close(w)
    drain.join(30)
    os.close(r)
    messages = [rec.getMessage() for rec in caplog.records if rec.name == "arena.worker.engine"]
    assert messages == ["quiet stderr: " + "x" * 1000, "quiet stderr: more than 65536 bytes; the rest is dropped"]
