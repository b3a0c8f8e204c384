"""The Ricochet bench's yardstick, Fogleman's C solver (``arena/bench/ricochet_c.py``): which
puzzles it can take, how a puzzle is handed to it, and a wrong ``ARENA_RICOCHET_C``. The C
solver itself is built outside the repository: the test that runs it needs
``ARENA_RICOCHET_C`` and is skipped without it."""

from __future__ import annotations

import os

import pytest

from arena.bench import ricochet_c
from arena.bench.ricochet import c_puzzles, random_puzzles
from arena.errors import ConfigError
from arena.games.ricochet import Puzzle


def test_c_puzzles_are_the_random_puzzles_it_can_take_in_order():
    some = c_puzzles(40)
    assert len(some) == 40 and all(ricochet_c.fits(p) for p in some)
    drawn = [p for p in random_puzzles(60) if ricochet_c.fits(p)]
    assert [str(p) for p in some] == [str(p) for p in drawn[:40]]  # the same draw, vortex ones left out
    assert c_puzzles(10) == some[:10]
    assert not ricochet_c.fits(Puzzle.parse("1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 V"))
    assert not ricochet_c.fits(Puzzle.parse("1A,2B,4A,3B diag=e5/R R:c5,G:k12,B:a1,Y:p16 RC"))


def test_the_c_grid_runs_from_the_top_row_with_the_goal_robot_first():
    p = Puzzle.parse("1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 BT")
    solver = ricochet_c.CSolver.__new__(ricochet_c.CSolver)  # no library needed to fill its input
    game = solver.game(p)
    assert ricochet_c._index(0) == 240 and ricochet_c._index(255) == 15  # a1 bottom left, p16 top right
    assert list(game.robots) == [ricochet_c._index(c) for c in (p.robots[2], p.robots[0], p.robots[1], p.robots[3])]
    assert game.token == ricochet_c._index(p.goal)
    for cell, wall in enumerate(p.board.walls):  # same wall bits; robots marked
        assert game.grid[ricochet_c._index(cell)] == wall | (0x10 if cell in p.robots else 0)


def test_a_wrong_library_is_one_line_naming_what_is_accepted(monkeypatch, tmp_path):
    monkeypatch.delenv(ricochet_c.ENV, raising=False)
    assert ricochet_c.from_env() is None
    monkeypatch.setenv(ricochet_c.ENV, str(tmp_path / "missing.so"))
    with pytest.raises(ConfigError, match="ARENA_RICOCHET_C=.*accepted: the shared library built from"):
        ricochet_c.from_env()


@pytest.mark.skipif(not os.environ.get(ricochet_c.ENV),
                    reason="needs ARENA_RICOCHET_C, a build of fogleman/Ricochet's ricochet.c")
def test_the_arena_and_the_c_solver_agree_on_optimal_lengths():
    from arena.bench.ricochet import versus_c

    c = ricochet_c.from_env()
    assert c is not None
    rounds, lengths = versus_c(c, c_puzzles(30), 1)  # raises RuntimeError on a disagreement
    assert len(rounds[0][0]) == len(rounds[0][1]) == 30 and max(lengths) >= 5
