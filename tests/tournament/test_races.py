"""A racer that never answers (Ricochet, Solo Interaction race; in-process bots) is cut off by
the move time as a sequential move is (``docs/arena.md`` "Contracts / Faults"): the pool kills
its worker after the grace of max(1 s, move time) past move time + margin, the hung seat loses
(``timeout``), the rounds before stand, and nothing it ran is left."""

import time

import pandas as pd
import pytest

from arena.results.store import load_moves
from arena.tournament import build, run_tournament
from tests.tournament.hostile import (
    assert_no_survivors,
    assert_stored_is_replayed,
    games_frame,
)

BROKEN = "tests/fixtures/broken_bots.py#"
#: far above the move deadline (0.5 + 0.5 + grace 1 s = 2 s): before the fix only this stopped a hung racer
GAME_TIME = 60.0


@pytest.mark.parametrize("game,other", [("ricochet", "ricochet-greedy"),
                                        ("interaction-solo-race", "interaction-solo-greedy")])
def test_a_hung_racer_loses_by_timeout_long_before_the_game_time(tmp_path, game, other):
    marks = tmp_path / "marks"
    marks.mkdir()
    cfg = build({"game": game, "bots": [other, f"hung={BROKEN}HungRacer:after=1,dir={marks}"], "games": 2,
                 "workers": 2, "results": str(tmp_path / "run"), "move_time": 0.5, "time_margin": 0.5,
                 "game_time": GAME_TIME})
    began = time.monotonic()
    summary = run_tournament(cfg)
    elapsed = time.monotonic() - began
    assert summary.stored == summary.total == 2
    assert summary.faults == {"timeout": 2}
    assert elapsed < GAME_TIME / 2, f"the run took {elapsed:.0f}s: the hung racer was stopped by the game time"
    games = games_frame(summary.path)
    assert_stored_is_replayed(games, cfg.game, cfg.params)  # the stored round and the fault replay as stored
    for row in games.itertuples():
        seat = row.seats.index("hung")
        assert row.termination == "timeout" and row.fault_seat == seat, row
        assert row.ranks[seat] == 2 and row.ranks[1 - seat] == 1  # the other racer wins the game
        assert row.plies == 1 and len(row.moves) == 1  # the round it sat out stands
        assert row.seconds < GAME_TIME / 2
    assert len(list(marks.glob("*.pid"))) >= 2  # each game's hung racer wrote its worker's pid
    assert_no_survivors(marks)


@pytest.mark.slow
def test_an_isolated_hung_racer_only_loses_its_rounds(tmp_path):
    """Under ``--isolation process`` the racer is an engine whose client keeps the deadline: a
    round it does not answer in time is ``late`` for that round only, the game goes on to its
    end (the pool's watchdog leaves such a round alone). (An isolated bot cannot write outside
    its private directory: no pid marks here; ``tests/engine`` checks its processes.) With no
    time margin the engine's deadline (move time + max(1 s, move time) after ``go``) is no
    earlier than the watchdog's would be: timed by the pool, the game was lost (``timeout``)."""
    cfg = build({"game": "ricochet", "params": {"max_rounds": "2"}, "games": 2, "workers": 2,
                 "isolation": "process", "bots": ["ricochet-greedy", f"hung={BROKEN}HungRacer:after=0"],
                 "results": str(tmp_path / "run"), "move_time": 0.5, "time_margin": 0.0, "game_time": GAME_TIME})
    summary = run_tournament(cfg)
    assert summary.stored == summary.total == 2 and summary.faults == {}
    games, moves = games_frame(summary.path), load_moves(summary.path)
    assert_stored_is_replayed(games, cfg.game, cfg.params)
    for row in games.itertuples():
        seat = row.seats.index("hung")
        assert row.termination == "max_rounds" and pd.isna(row.fault_seat), row
        mine = moves[(moves.game_id == row.game_id) & (moves.seat == seat)]
        assert list(mine.status) == ["late", "late"]  # the second round asked of a restarted engine
