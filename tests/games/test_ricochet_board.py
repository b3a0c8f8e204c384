"""Ricochet board assembly and slides (docs/rules/ricochet.md "Board", "Robots and moves")."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from arena.errors import PositionSyntaxError
from arena.games.ricochet.board import (
    CENTRE, OPPOSITE, STEP, TARGETS, WALL_BIT, Board, all_assemblies, parse_square, square_name,
)
from arena.games.ricochet.puzzle import Puzzle, slide

DATA = json.loads((Path(__file__).parents[2] / "arena/games/ricochet/quadrants.json").read_text())["quadrants"]
SQ = parse_square


def rotate_cell(cell: int) -> int:
    """The cell a quarter turn clockwise of the whole board takes ``cell`` to."""
    row, col = 15 - cell // 16, cell % 16
    row, col = col, 15 - row
    return (15 - row) * 16 + col


def rotate_mask(mask: int) -> int:
    return sum(WALL_BIT[(d + 1) % 4] for d in range(4) if mask & WALL_BIT[d])


def test_nw_quadrant_reproduces_the_data():
    for name, q in DATA.items():
        others = [n for n in ("1A", "2A", "3A", "4A") if n[0] != name[0]]
        board = Board.assemble([name] + others)
        for r, c, sides in q["walls"]:
            cell = (15 - r) * 16 + c
            for s in sides:
                assert board.walls[cell] & WALL_BIT["NESW".index(s)], (name, r, c, s)
        for r, c, t in q["targets"]:
            assert board.targets[t] == (15 - r) * 16 + c


def test_hand_checked_rotations():
    # 1A's red circle is data row 6 col 3: NW d10; NE (90 cw) -> local (3,1) -> j13;
    # SE (180) -> local (1,4) -> m15 - 8 = m7; SW (270) -> local (4,6) -> g4.
    assert Board.parse("1A,2A,3A,4A").targets["RC"] == SQ("d10")
    assert Board.parse("2A,1A,3A,4A").targets["RC"] == SQ("j13")
    assert Board.parse("2A,3A,1A,4A").targets["RC"] == SQ("m7")
    assert Board.parse("2A,3A,4A,1A").targets["RC"] == SQ("g4")
    # 1A's (6,3) walls S,W: at NE they face W,N; at SE N,E; at SW E,S
    assert Board.parse("2A,1A,3A,4A").walls[SQ("j13")] & (8 | 1) == 9
    assert Board.parse("2A,3A,1A,4A").walls[SQ("m7")] & (1 | 2) == 3
    assert Board.parse("2A,3A,4A,1A").walls[SQ("g4")] & (2 | 4) == 6


@pytest.mark.parametrize("name", random.Random(4).sample(all_assemblies(), 24))
def test_rotating_the_board_rotates_the_assembly(name):
    a = Board.parse(name)
    q = name.split(",")
    b = Board.parse(",".join(q[3:] + q[:3]))  # whole board a quarter turn clockwise
    for cell in range(256):
        assert b.walls[rotate_cell(cell)] == rotate_mask(a.walls[cell])
    assert {t: rotate_cell(c) for t, c in a.targets.items()} == b.targets


def test_every_assembly_is_well_formed():
    names = all_assemblies()
    assert len(names) == 384 == len(set(names))
    for name in names:
        board = Board.parse(name)
        assert sorted(board.targets) == sorted(TARGETS)
        for cell in range(256):
            for d in range(4):
                n = cell + STEP[d]
                edge = (d == 0 and cell >= 240) or (d == 2 and cell < 16) or \
                    (d == 1 and cell % 16 == 15) or (d == 3 and cell % 16 == 0)
                if edge:
                    assert board.walls[cell] & WALL_BIT[d]
                else:  # two-sided walls
                    assert bool(board.walls[cell] & WALL_BIT[d]) == bool(board.walls[n] & WALL_BIT[OPPOSITE[d]])
        for cell in CENTRE:
            assert board.walls[cell] == 15
        for t, cell in board.targets.items():  # every target sits in a corner of two walls
            w = board.walls[cell]
            assert (w & 5) and (w & 10), (name, t, square_name(cell))


def test_random_board_is_seeded():
    a = Board.random(random.Random(9)).name
    assert a == Board.random(random.Random(9)).name and a in all_assemblies()


def test_custom_map_round_trips():
    board = Board.parse("1A,2B,4A,3B")
    again = Board.from_map(board.to_map())
    assert again == board
    token = again.name
    assert token.startswith("map:") and " " not in token
    assert Board.parse(token) == board
    p = Puzzle(again, (0, 1, 2, 3), "RC")
    assert str(Puzzle.parse(str(p))) == str(p)
    # a small custom layout: empty board with one target, walls made two-sided
    rows = [["0"] * 16 for _ in range(16)]
    rows[15 - 4][2] = "2V"  # c5: wall east, vortex
    custom = Board.from_map("\n".join(" ".join(r) for r in rows))
    assert custom.targets == {"V": SQ("c5")}
    assert custom.walls[SQ("d5")] & 8
    with pytest.raises(PositionSyntaxError):
        Board.from_map("0 0\n0 0")
    with pytest.raises(PositionSyntaxError):
        Board.parse("1A,1B,4A,3B")


def empty_board(**cells: str) -> Board:
    rows = [["0"] * 16 for _ in range(16)]
    for sq, token in cells.items():
        c = SQ(sq)
        rows[15 - c // 16][c % 16] = token
    rows[0][0] = rows[0][0] + "V" if "V" not in cells.values() else rows[0][0]
    return Board.from_map("\n".join(" ".join(r) for r in rows))


def test_slides_stop_at_walls_robots_and_centre():
    board = empty_board(e3="2")  # a wall east of e3
    far = (SQ("p16"), SQ("o16"), SQ("n16"))
    assert slide(board, (SQ("a1"),) + far, 0, 0) == SQ("a16")  # the outer edge
    assert slide(board, (SQ("a8"),) + far, 0, 1) == SQ("g8")  # the central block h8
    assert slide(board, (SQ("h1"),) + far, 0, 0) == SQ("h7")
    assert slide(board, (SQ("i16"),) + far, 0, 2) == SQ("i10")
    assert slide(board, (SQ("a3"),) + far, 0, 1) == SQ("e3")  # the wall east of e3
    assert slide(board, (SQ("p3"),) + far, 0, 3) == SQ("f3")  # the same wall, two-sided
    blockers = (SQ("a3"), SQ("a9"), SQ("p16"), SQ("c3"))
    assert slide(board, blockers, 0, 0) == SQ("a8")  # stops next to a robot
    assert slide(board, blockers, 0, 1) == SQ("b3")
    assert slide(board, blockers, 3, 3) == SQ("b3")
    assert slide(board, blockers, 0, 3) == SQ("a3")  # does not move


def naive_slide(board, robots, r, d):
    cell = robots[r]
    while not board.walls[cell] & WALL_BIT[d] and cell + STEP[d] not in robots:
        cell += STEP[d]
    return cell


def test_slides_match_step_by_step_walk():
    rng = random.Random(3)
    free = [c for c in range(256) if c not in CENTRE]
    for _ in range(300):
        board = Board.random(rng)
        robots = tuple(rng.sample(free, 5))
        for r in range(5):
            for d in range(4):
                assert slide(board, robots, r, d) == naive_slide(board, robots, r, d)


def test_square_names():
    assert square_name(SQ("c5")) == "c5" and SQ("P16") == 255 and SQ("a1") == 0
    for bad in ("q1", "a0", "a17", "", "5c"):
        with pytest.raises(PositionSyntaxError):
            SQ(bad)
