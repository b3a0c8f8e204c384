"""Ricochet rounds: solutions, text, too-easy rule, ties, end (docs/rules/ricochet.md)."""

from __future__ import annotations

import random

import pytest

import arena.games
from arena.errors import IllegalMoveError, MoveSyntaxError, PuzzleSyntaxError
from arena.games import SIMULTANEOUS, TERMINAL, Answer
from arena.games.ricochet import Board, Puzzle, Solution, slide, too_easy
from arena.games.ricochet.board import CENTRE, parse_square as SQ
from bots.ricochet import solve_optimal

BOARD = "1A,2B,4A,3B"


def open_board(**cells: str) -> Board:
    """An empty board (outer walls and the central block only) with the given cell tokens."""
    rows = [["0"] * 16 for _ in range(16)]
    for sq, token in cells.items():
        c = SQ(sq)
        rows[15 - c // 16][c % 16] = token
    return Board.from_map("\n".join(" ".join(r) for r in rows))


def test_passing_over_the_target_does_not_count():
    board = open_board(e5="0RC", p5="0GT")  # targets in the open: robots can slide over them
    p = Puzzle(board, (SQ("a5"), SQ("a1"), SQ("a16"), SQ("p16")), "RC")
    assert p.apply("RE")[0] == SQ("p5")  # slid over e5
    assert p.check("RE") is None
    q = Puzzle(board, (SQ("a5"), SQ("f1"), SQ("a16"), SQ("p16")), "RC")
    assert q.check("GN RE") is None  # green goes to f16, red still slides past e5
    r = Puzzle(board, (SQ("a5"), SQ("f5"), SQ("a16"), SQ("p16")), "RC")
    assert r.check("RE") == (SQ("e5"), SQ("f5"), SQ("a16"), SQ("p16"))  # stops on it: valid
    assert r.check("RE RW") is None  # must end on it
    assert r.check("") is None and Puzzle(board, r.check("RE"), "RC").check("") is not None


def test_solution_needs_the_right_robot_and_vortex_takes_any():
    board = Board.parse(BOARD)
    p = Puzzle.parse(f"{BOARD} R:c5,G:k12,B:a1,Y:p16 RC")
    sol = solve_optimal(p).solution
    assert p.check(sol) is not None
    wrong = Puzzle(board, (p.robots[1], p.robots[0], *p.robots[2:]), "RC")  # green where red was
    # the same moves with colours swapped: green reaches RC, which does not count
    swapped = Solution.parse(" ".join({"R": "G", "G": "R"}.get(str(m)[0], str(m)[0]) + str(m)[1] for m in sol))
    assert wrong.apply(swapped)[1] == board.targets["RC"] and wrong.check(swapped) is None
    v = Puzzle(board, p.robots, "V")
    for robot in range(4):
        for d in range(4):
            robots = list(p.robots)
            to = slide(board, tuple(robots), robot, d)
            if to == board.targets["V"]:
                assert v.check(Solution.parse("RGBY"[robot] + "NESW"[d])) is not None
    vsol = solve_optimal(v).solution
    assert v.check(vsol) is not None
    assert p.check("RN RN RN") is None  # a move that does not move its robot is invalid
    assert p.check("KN") is None and p.check("XX") is None


def test_puzzle_text_round_trips_and_rejects_bad_text():
    p = Puzzle.parse(f"{BOARD.lower()} y:p16,b:a1,g:k12,r:c5 rc")
    assert str(p) == f"{BOARD} R:c5,G:k12,B:a1,Y:p16 RC"
    assert str(Puzzle.parse(f"{BOARD} R:c5,G:k12,B:a1,Y:p16,K:d4 V")).endswith("K:d4 V")
    for bad in ["", "x", f"{BOARD} R:c5,G:k12,B:a1 RC", f"{BOARD} R:c5,G:c5,B:a1,Y:p16 RC",
                f"{BOARD} R:h8,G:k12,B:a1,Y:p16 RC", f"{BOARD} R:c5,G:k12,B:a1,Y:p16 ZZ",
                "1A,2B R:c5,G:k12,B:a1,Y:p16 RC", f"{BOARD} R:c5,G:k12,B:a1,Y:q16 RC"]:
        with pytest.raises(PuzzleSyntaxError):
            Puzzle.parse(bad)
    assert str(Solution.parse("rn ge  rs")) == "RN GE RS" and str(Solution.parse("")) == ""
    with pytest.raises(MoveSyntaxError):
        Solution.parse("RN,GE")


def test_state_text_round_trips_exactly():
    game = arena.games.make("ricochet", players=3, robots=5)
    state = game.initial_state(5)
    text = state.to_text()
    assert text.split()[3].startswith("stack=") and text.split()[4] == "chips=-;-;-"
    assert text.endswith("round=0") and ",K:" in text.split()[1]
    assert game.parse_state(text).to_text() == text
    example = f"{BOARD} R:c5,G:k12,B:a1,Y:p16 RC stack=GT,V,YH chips=BQ,RH;- round=2"
    assert arena.games.make("ricochet").parse_state(example).to_text() == example
    assert state.to_move == SIMULTANEOUS and state.legal_moves() == []
    assert game.parse_move(state, "-") is None
    assert str(game.parse_move(state, "rn gs")) == "RN GS"


def test_initial_state_places_robots_and_reveals_a_hard_enough_chip():
    game = arena.games.make("ricochet")
    for seed in range(30):
        s = game.initial_state(seed)
        assert len(set(s.robots)) == 4
        assert not any(c in CENTRE or c in s.board.target_at for c in s.robots)
        assert len(s.stack) == 16 and not too_easy(s.puzzle)
        assert s.to_text() == game.initial_state(seed).to_text()


def test_too_easy_chips_go_back_without_counting_a_round():
    game = arena.games.make("ricochet", board=BOARD)
    board = Board.parse(BOARD)
    red_on_rc = (board.targets["RC"], SQ("k12"), SQ("a1"), SQ("p16"))
    s = game._reveal(board, red_on_rc, ("RC", "GT", "BQ"), ((), ()), 3)
    assert s.target != "RC" and "RC" in s.stack and s.round == 3
    assert s.to_text() == game._reveal(board, red_on_rc, ("RC", "GT", "BQ"), ((), ()), 3).to_text()
    # every chip left too easy: the game ends
    end = game._reveal(board, red_on_rc, ("RC",), ((), ()), 3)
    assert end.to_move == TERMINAL and end.outcome().termination == "stack_exhausted"


def state_of(text, **params):
    game = arena.games.make("ricochet", **params)
    return game, game.parse_state(text)


PUZ = f"{BOARD} R:c5,G:k12,B:a1,Y:p16 RC"


def test_shortest_wins_and_robots_stay_where_the_winner_left_them():
    game, s = state_of(f"{PUZ} stack=GT,BQ chips=-;- round=0")
    best = solve_optimal(s.puzzle).solution
    longer = Solution.parse("GN " + str(best))  # a valid but longer answer (green moves first)
    assert s.puzzle.check(longer) is not None
    nxt = s.play([Answer(longer), Answer(best)])
    assert nxt.last_status == ("valid", "won")
    assert nxt.last_round == f"RC 1 {best}"
    assert nxt.chips == ((), ("RC",)) and nxt.round == 1
    assert nxt.robots == s.puzzle.apply(best)


def test_tie_rules():
    text = f"{PUZ} stack=GT,BQ chips=YH;- round=1"
    _, s = state_of(text)
    sol = solve_optimal(s.puzzle).solution
    assert s.play([Answer(sol), Answer(sol)]).last_status == ("valid", "won")  # fewer chips
    _, s = state_of(f"{PUZ} stack=GT,BQ chips=-;- round=1")
    assert s.play([Answer(sol), Answer(sol)]).last_status == ("won", "valid")  # lower seat
    _, s = state_of(text, ties="first")
    fast = s.play([Answer(sol, seconds=0.5), Answer(sol, seconds=0.9)])
    assert fast.last_status == ("won", "valid")
    assert s.play([Answer(sol, seconds=0.9), Answer(sol, seconds=0.5)]).last_status == ("valid", "won")


def test_bad_answers_count_as_no_answer():
    _, s = state_of(f"{PUZ} stack=GT,BQ chips=-;-;- round=4", players=3)
    sol = solve_optimal(s.puzzle).solution
    nxt = s.play([Answer("RN"), Answer(sol, error="late"), Answer(None)])
    assert nxt.last_status == ("invalid", "late", "none")
    assert nxt.last_round == "RC - -" and nxt.robots == s.robots and nxt.round == 5
    assert "RC" in (nxt.target,) + nxt.stack and nxt.chips == ((), (), ())
    assert nxt.to_text() == s.play([Answer("garbage!"), Answer(None), Answer(None)]).to_text()
    with pytest.raises(IllegalMoveError):
        s.play([Answer(sol)])


def test_end_conditions():
    seven = ",".join(["GT", "BQ", "YH", "GQ", "YT", "BC", "RH"])
    _, s = state_of(f"{PUZ} stack=V chips={seven};- round=9")
    sol = solve_optimal(s.puzzle).solution
    end = s.play([Answer(sol), Answer(None)])
    assert end.is_terminal() and end.outcome().termination == "chips"
    assert end.outcome().scores == (8, 0) and end.outcome().ranks == (1, 2)
    with pytest.raises(IllegalMoveError):
        end.play([Answer(None), Answer(None)])
    _, s = state_of(f"{PUZ} stack=V chips=-;- round=39")
    end = s.play([Answer(None), Answer(None)])
    assert end.outcome().termination == "max_rounds" and end.outcome().ranks == (1, 1)
    _, s = state_of(f"{PUZ} stack=- chips=GT round=12", players=1)  # one player: until chips run out
    end = s.play([Answer(sol)])
    assert end.outcome().termination == "chips" and end.outcome().scores == (2,)
    game = arena.games.make("ricochet")
    assert game.parse_state(end.to_text().replace("chips=GT,RC", "chips=GT,RC;-")).is_terminal()


def test_random_answers_sometimes_win():
    game = arena.games.make("ricochet", players=3)
    rng = random.Random(1)
    won = 0
    for seed in range(20):
        s = game.initial_state(seed)
        while not s.is_terminal():
            s = s.play([Answer(s.random_answer(rng)) for _ in range(3)])
            won += "won" in s.last_status
    assert won > 0
