"""The same bot gets the same verdict with and without ``--isolation process``
(``docs/engine-protocol.md`` "Faults": the same terminations as for Python bots): an
exception's detail names the bot's file and line either way, a bot's ``KeyboardInterrupt`` or
``GeneratorExit`` is an ``exception``, and a bot that wipes the state it was given changes
nothing."""

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from arena.referee.play import last_frame
from arena.tournament import build, run_tournament
from tests.fixtures.hostile_bots import HELPER_LINE

FAULTY = Path(__file__).parents[1] / "fixtures" / "hostile_bots.py"
#: "process" starts an isolated engine per bot: slow
ISOLATIONS = ["none"] + ([pytest.param("process", marks=pytest.mark.slow)] if sys.platform.startswith("linux") else [])


def play(tmp_path, cls, isolation, games=2):
    results = tmp_path / isolation
    cfg = build(dict(game="interaction", bots=["random", f"bad={FAULTY}#{cls}"], format="gauntlet", games=games,
                     workers=1, name=cls, results=str(results), isolation=isolation, opening_plies=0, retries=0))
    summary = run_tournament(cfg)
    assert summary.stored == summary.total == games
    db = sqlite3.connect(summary.path)
    rows = db.execute("SELECT seats, termination, fault_seat, fault_detail FROM games ORDER BY game_id").fetchall()
    db.close()
    return [(json.loads(s), t, f, d) for s, t, f, d in rows]


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_exception_detail_names_the_bot_file_and_line(tmp_path, isolation):
    for seats, termination, fault_seat, detail in play(tmp_path, "KeyErrorInHelper", isolation):
        assert termination == "exception" and seats[fault_seat] == "bad", (termination, detail)
        assert detail.startswith("KeyError: 'missing-key'"), detail
        frame = last_frame(detail)
        assert frame == f'File "{FAULTY}", line {HELPER_LINE}, in lookup', detail


@pytest.mark.parametrize("isolation", ISOLATIONS)
@pytest.mark.parametrize("cls,name", [("Interrupter", "KeyboardInterrupt"), ("GeneratorExiter", "GeneratorExit")])
def test_base_exceptions_of_a_bot_are_exception(tmp_path, isolation, cls, name):
    for seats, termination, fault_seat, detail in play(tmp_path, cls, isolation):
        assert termination == "exception" and seats[fault_seat] == "bad", (termination, detail)
        assert detail.startswith(name), detail
        assert last_frame(detail) is not None and str(FAULTY) in last_frame(detail), detail


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_a_bot_wiping_the_state_it_was_given_changes_nothing(tmp_path, isolation):
    for _seats, termination, fault_seat, detail in play(tmp_path, "StateWiper", isolation):
        assert fault_seat is None and termination not in ("exception", "crash", "bad_move", "illegal_move"), \
            (termination, detail)
