"""Solo Interaction (docs/rules/interaction.md "Solo Interaction"): rules, text, layouts."""

from __future__ import annotations

import pytest

import arena.games
from arena.errors import ConfigError, IllegalMoveError, PositionSyntaxError
from arena.games.interaction.layouts import LAYOUTS
from arena.games.interaction.solo import SoloSolution
from bots.solo_search import breadth_first_count, count_solutions

EMPTY = ["#.......#"] + ["........."] * 7 + ["#.......#"]


def position(ply: int = 0, **balls: str) -> str:
    """Position text with ``balls`` like ``e1="R"`` (cell name -> piece letter)."""
    rows = [list(r) for r in EMPTY]
    for name, piece in balls.items():
        rows[9 - int(name[1])]["abcdefghi".index(name[0])] = piece
    return "/".join("".join(r) for r in rows) + f" r 0 0 {ply}"


def game(**params):
    return arena.games.make("interaction-solo", **params)


def test_example_1_pockets_and_clears():
    st = game().parse_state(position(10, e1="R", e4="Y"))
    after = st.play("e1N")
    assert after.termination == "cleared" and after.outcome().scores == (-11,)
    assert after.to_text().endswith("r 1 0 11")


def test_first_move_may_not_pocket():
    # the rulebook's first-turn rule binds the solo game's first move only (ply 0): the
    # two-player game's "plies 0 and 1" are one move per player [pinned decision]
    at_start = game().parse_state(position(0, e1="R", e4="Y"))
    assert "e1N" not in map(str, at_start.legal_moves())
    with pytest.raises(IllegalMoveError):
        at_start.play("e1N")
    second = game().parse_state(position(1, e1="R", e4="Y"))
    assert "e1N" in map(str, second.legal_moves())


def test_scores_when_not_cleared():
    g = game(layout=1, max_plies=2)
    st = g.initial_state()
    moves = count_solutions(st, max_depth=10).moves
    end = st.run(moves[:2])
    assert end.termination == "max_plies"
    assert end.outcome().scores == (-(2 + end.neutrals),) and end.outcome().ranks == (1,)
    stalled = game().parse_state(position(3, a2="R", b3="Y"))  # a2 NE: momentum 0, no other move
    legal = stalled.legal_moves()
    assert stalled.is_terminal() == (not legal)


def test_position_text_rules():
    g = game()
    with pytest.raises(PositionSyntaxError):
        g.parse_state(position(0, e1="R", e4="Y", c3="B"))  # a blue ball
    with pytest.raises(PositionSyntaxError):
        g.parse_state(position(0, e4="Y"))  # no red ball
    with pytest.raises(PositionSyntaxError):
        g.parse_state(position(0, e1="R", e4="Y").replace(" r ", " b "))
    text = LAYOUTS[2].text
    assert g.parse_state(text).to_text() == text
    assert g.parse_state(text.split()[0]).to_text() == text  # a board alone: r 0 0 0
    with pytest.raises(ConfigError):
        game(layout=0)
    with pytest.raises(ConfigError):
        game(layout=7)


def test_solution_text_round_trips():
    sol = SoloSolution.parse("e1N h6nw")
    assert str(sol) == "e1N h6NW" and SoloSolution.of(str(sol)) == sol


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda lay: f"layout{lay.number}")
def test_layout_figures_are_the_solvers(layout):
    """Each shipped layout's "N balls, M moves, K solutions" is what the solver proves, and a
    plain breadth-first search over the game's own moves agrees."""
    st = game(layout=layout.number).initial_state()
    r = count_solutions(st)
    assert (st.neutrals, r.length, r.solutions, r.optimal) == (layout.balls, layout.moves, layout.solutions, True)
    assert st.run(r.moves).termination == "cleared"
    if layout.number <= 2:
        assert breadth_first_count(st, layout.moves) == (layout.moves, layout.solutions)


@pytest.mark.slow
@pytest.mark.parametrize("number", [3, 4, 5, 6])
def test_layout_figures_agree_with_plain_bfs(number):
    """The longer layouts' minimum and solution count by plain breadth-first search over the
    game's own moves (layouts 1 and 2: ``test_layout_figures_are_the_solvers``)."""
    layout = LAYOUTS[number - 1]
    st = game(layout=number).initial_state()
    assert breadth_first_count(st, layout.moves) == (layout.moves, layout.solutions)


def test_layouts_rise_in_difficulty():
    assert len(LAYOUTS) == 6
    slack = [lay.moves - lay.balls for lay in LAYOUTS]
    assert slack == sorted(slack) and LAYOUTS[0].balls < LAYOUTS[-1].balls
    assert str(LAYOUTS[0]) == "3 balls, 4 moves, 10 solutions"


def test_arena_games_prints_the_layouts(capsys, monkeypatch):
    from arena.cli.app import main

    monkeypatch.setenv("COLUMNS", "250")
    try:
        main(["games"])
    except SystemExit as exc:
        assert not exc.code
    out = capsys.readouterr().out
    assert "interaction-solo-race" in out
    for lay in LAYOUTS:
        assert f"layout={lay.number}: {lay}" in out
