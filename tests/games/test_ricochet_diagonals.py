"""Ricochet Robots' coloured diagonal barriers (docs/rules/ricochet.md "Second edition:
coloured diagonal barriers"): hand-made boards for each rule, text, seeded placement."""

from __future__ import annotations

import pytest

import arena.games
from arena.errors import ConfigError, PositionSyntaxError, PuzzleSyntaxError
from arena.games.ricochet.board import CENTRE, Board, format_diagonals, parse_diagonals, parse_square
from arena.games.ricochet.puzzle import Puzzle, slide

SQ = parse_square
R, G, B, Y, K = range(5)
N, E, S, W = range(4)
FAR = {"R": "a16", "G": "b16", "B": "c16", "Y": "d16", "K": "e16"}


def board(diag: str = "", **walls: str) -> Board:
    """An empty board (a vortex on p1) with walls ``{square: hex mask}`` and barriers."""
    rows = [["0"] * 16 for _ in range(16)]
    for sq, token in walls.items():
        c = SQ(sq)
        rows[15 - c // 16][c % 16] = token
    rows[15][15] = rows[15][15] + "V"
    return Board.from_map("\n".join(" ".join(r) for r in rows)).with_diagonals(parse_diagonals(diag))


def robots(**cells: str) -> tuple[int, ...]:
    """Robot cells R G B Y (K when given), the others parked on rank 16."""
    place = {**FAR, **{k.upper(): v for k, v in cells.items()}}
    names = "RGBYK" if "K" in {k.upper() for k in cells} else "RGBY"
    return tuple(SQ(place[c]) for c in names)


def test_same_colour_passes_straight_through():
    b = board("c5/R")
    assert slide(b, robots(r="c2"), R, N) == SQ("c15")  # red passes; the parked robots are on rank 16


def test_other_colours_deflect_each_way():
    b = board("c5/R,k5\\R")
    # '/' turns N->E, E->N, S->W, W->S
    assert slide(b, robots(g="c2"), G, N) == SQ("k1")  # then k5 '\' turns it south
    assert slide(b, robots(g="a5"), G, E) == SQ("c15")
    assert slide(b, robots(g="c9"), G, S) == SQ("a5")
    # '\' turns N->W, W->N, S->E, E->S
    assert slide(b, robots(b="k2"), B, N) == SQ("c1")  # then c5 '/' turns it south
    assert slide(b, robots(b="p5"), B, W) == SQ("k16")
    assert slide(b, robots(b="k9"), B, S) == SQ("p5")
    assert slide(b, robots(b="g5"), B, E) == SQ("k1")


def test_black_robot_always_deflects():
    for colour in "RGBY":
        b = board(f"c5/{colour}")
        assert slide(b, robots(k="c2"), K, N) == SQ("p5")
        mover = "RGBY".index(colour)
        end = SQ("c16") if colour == "B" else SQ("c15")  # blue's parking cell is c16
        assert slide(b, robots(**{colour.lower(): "c2"}), mover, N) == end  # its colour passes


def test_chain_of_barriers_in_one_move():
    b = board("c3/G,h3\\B,h6/Y,m6/G")
    # red from c1 north: c3 '/' -> east, h3 '\' -> south? no: east into '\' turns south
    assert slide(b, robots(r="c1"), R, N) == SQ("h1")
    # yellow from a6 east: passes h6 (its colour), m6 '/' turns it north
    assert slide(b, robots(y="a6"), Y, E) == SQ("m16")
    # red from a6 east: h6 '/' turns north
    assert slide(b, robots(r="a6"), R, E) == SQ("h7")  # the central block h8 stops it on h7


def test_stop_on_the_barrier_only_when_blocked_right_after_the_turn():
    b = board("c5/R")
    # a robot on d5 blocks the first step after the turn: green stops on the barrier's cell
    assert slide(b, robots(g="c2", b="d5"), G, N) == SQ("c5")
    # a robot further on: green stops before it, past the barrier
    assert slide(b, robots(g="c2", b="f5"), G, N) == SQ("e5")
    # a wall right after the turn: it stays on the barrier's cell
    walled = board("c5/R", c5="2")
    assert slide(walled, robots(g="c2"), G, N) == SQ("c5")
    # a robot on the barrier's cell blocks like any robot: green stops before it
    assert slide(b, robots(g="c2", b="c5"), G, N) == SQ("c4")


def test_a_robot_on_a_barrier_leaves_it_undeflected():
    b = board("c5/R")
    assert slide(b, robots(g="c5"), G, N) == SQ("c15")
    assert slide(b, robots(g="c5"), G, W) == SQ("a5")


def test_endless_loops_are_illegal_unless_a_robot_stops_them():
    # four barriers make a closed circuit c3 -> c6 -> f6 -> f3 -> c3
    b = board("c3\\R,c6/R,f6\\R,f3/R")
    path, loops = b.path(G, SQ("d3"), W)
    assert loops
    p = Puzzle(b, robots(g="d3"), "V")
    assert slide(b, p.robots, G, W) == SQ("d3")  # no move: an endless loop
    assert all(m.robot != G or m.direction != W for m, _ in p.moves_from(p.robots))
    # a robot on the circuit stops it: a legal move
    assert slide(b, robots(g="d3", b="f4"), G, W) == SQ("f5")
    assert slide(b, robots(g="d3", b="f5"), G, W) == SQ("f6")  # blocked right after the turn


def test_text_round_trips():
    text = "1A,2B,4A,3B diag=e5/R,k11\\G R:c5,G:k12,B:a1,Y:p16 RC"
    p = Puzzle.parse(text)
    assert str(p) == text and p.board.diagonals == {SQ("e5"): ("/", "R"), SQ("k11"): ("\\", "G")}
    assert format_diagonals(parse_diagonals("K11\\g,e5/r")) == "e5/R,k11\\G"
    m = p.board.to_map()
    assert "0/R" in m.split() or any(t.endswith("/R") for t in m.split())
    assert Board.from_map(m) == p.board and Board.from_map(m).to_map() == m
    assert Board.parse(p.board.name) == Board.parse("1A,2B,4A,3B")  # the name has no barriers
    for bad in ("1A,2B,4A,3B diag=e5|R R:c5,G:k12,B:a1,Y:p16 RC", "1A,2B,4A,3B diag=e5/X R:c5,G:k12,B:a1,Y:p16 RC",
                "1A,2B,4A,3B diag=d10/R R:c5,G:k12,B:a1,Y:p16 RC"):  # d10: 1A's red circle
        with pytest.raises(PuzzleSyntaxError):
            Puzzle.parse(bad)
    with pytest.raises(PositionSyntaxError):
        board().with_diagonals({SQ("h8"): ("/", "R")})


def test_seeded_placement_per_quadrant():
    game = arena.games.make("ricochet", diagonals=3, board="1A,2B,4A,3B")
    one, again = game.initial_state(7), game.initial_state(7)
    assert one.to_text() == again.to_text() and one.to_text() != game.initial_state(8).to_text()
    cells = list(one.board.diagonals)
    assert len(cells) == 12
    for qf, qr in ((0, 8), (8, 8), (8, 0), (0, 0)):
        assert sum(1 for c in cells if qf <= c % 16 < qf + 8 and qr <= c // 16 < qr + 8) == 3
    near = {t + df + 16 * dr for t in list(one.board.target_at) + list(CENTRE)
            for df in (-1, 0, 1) for dr in (-1, 0, 1)}
    assert not near & set(cells)
    assert not set(one.robots) & set(cells)
    assert game.parse_state(one.to_text()).to_text() == one.to_text()
    plain = arena.games.make("ricochet", board="1A,2B,4A,3B").initial_state(7)
    assert not plain.board.diagonals and "diag=" not in plain.to_text()
    with pytest.raises(ConfigError):
        arena.games.make("ricochet", diagonals=1, diag="e5/R")


def test_random_games_with_barriers_end_and_round_trip():
    import random

    from arena.games import Answer

    game = arena.games.make("ricochet", diagonals=2, robots=5, max_rounds=8)
    for seed in range(3):
        rng = random.Random(seed)
        state = game.initial_state(seed)
        while not state.is_terminal():
            assert game.parse_state(state.to_text()).to_text() == state.to_text()
            state = state.play([Answer(state.random_answer(rng)) for _ in range(2)])
        assert state.outcome() is not None
