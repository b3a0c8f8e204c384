"""The in-process hostile bots of issue 29 (``tests/fixtures/hostile_inproc.py``) under
``--isolation process``: there a move crosses the engine protocol as text, so a changing ``str``
and a move object whose pickling runs code are one line of text read once, and a ``__del__``
that blocks stalls only the bot's own engine (its next ``reset`` is late: a ``timeout`` loss for
it). In each run the innocent bot is never blamed and every stored game replays."""

import os
import sys
import time

import pandas as pd
import pytest

from tests.tournament.test_inproc_hostile import _run

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux") or os.geteuid() != 0,
                                 reason="--isolation process drops to users of their own: the arena runs as root")]


def _only_the_hostile_blamed(frame):
    for row in frame.itertuples():
        if not pd.isna(row.fault_seat):
            assert row.seats[int(row.fault_seat)] == "c", (row.termination, row.fault_detail)


@pytest.mark.parametrize("bot", ["ChangingStr:base=legal", "ChangingStr:base=junk"])
def test_a_changing_str_crosses_as_one_text(tmp_path, bot):
    summary, frame = _run(tmp_path, bot, isolation="process")
    _only_the_hostile_blamed(frame)


@pytest.mark.parametrize("kind", ["str", "object"])
def test_pickled_code_never_runs_in_the_runner_under_isolation(tmp_path, kind):
    marks = tmp_path / "marks"
    marks.mkdir()
    summary, frame = _run(tmp_path / "r", f"PickledMove:dir={marks},kind={kind}", isolation="process")
    _only_the_hostile_blamed(frame)
    assert not (marks / f"unpickled-{os.getpid()}").exists()


def test_a_blocking_del_costs_only_its_own_games(tmp_path):
    began = time.monotonic()
    summary, frame = _run(tmp_path, "BlockingDel", games=4, game_time=30, isolation="process")
    assert time.monotonic() - began < 4 * 30  # never every game's whole game time
    _only_the_hostile_blamed(frame)
    assert set(frame.termination) <= {"target", "repetition", "passes", "max_plies", "timeout"}
