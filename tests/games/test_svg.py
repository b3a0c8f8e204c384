"""``Game.render_svg``: each built-in game draws well-formed SVG with the expected elements."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import arena.games
from arena.games import Answer
from arena.games.ricochet.puzzle import Solution
from arena.games.ricochet.svg import answer_paths, describe_target
from tests.toy import Nim

NS = {"s": "http://www.w3.org/2000/svg"}


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def _with_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{{{NS['s']}}}{tag}") if cls in e.get("class", "").split()]


def test_default_is_no_drawing():
    game = Nim()
    assert game.render_svg(game.initial_state()) is None


def test_interaction_start_position():
    game = arena.games.make("interaction")
    root = _parse(game.render_svg(game.initial_state()))
    assert len(_with_class(root, "circle", "red")) == 2
    assert len(_with_class(root, "circle", "blue")) == 2
    assert len(_with_class(root, "circle", "neutral")) == 10
    assert len(_with_class(root, "circle", "pocket")) == 9  # a5..i5
    outline = _with_class(root, "polygon", "table")[0].get("points").split()
    assert len(outline) == 8  # a square with its four corners clipped
    assert not _with_class(root, "polyline", "path")


def test_interaction_cue_path_of_worked_example_4():
    # docs/rules/interaction.md "Worked examples" 4: a7S runs a6 a5 a4 a3 a2, turns E at the
    # a1 cushion, b2 c2 (momentum 7) and strikes Blue on d2.
    game = arena.games.make("interaction")
    before = game.parse_state("#.......#/........./R......../........./........./........./........./"
                              "...B...../#.......# r 0 0 10")
    after = before.play(game.parse_move(before, "a7S"))
    root = _parse(game.render_svg(after, "a7S", before))
    path = _with_class(root, "polyline", "path")
    assert len(path) == 1
    assert len(path[0].get("points").split()) == 8  # a7 and the 7 cells entered
    assert "momentum 7" in path[0].find("s:title", NS).text
    assert len(_with_class(root, "circle", "moved-from")) == 2  # a7 (Red) and d2 (Blue) left
    assert len(_with_class(root, "circle", "blue")) == 1


def _sandpile_topple():
    game = arena.games.make("sandpile")
    rng = random.Random(5)
    state = game.initial_state()
    while state.phase != "topple":
        state = state.play(rng.choice(state.legal_moves()))
    move = state.legal_moves()[0]
    return game, state, move, state.play(move)


def test_sandpile_stacks_and_topple_highlight():
    game, before, move, after = _sandpile_topple()
    root = _parse(game.render_svg(after, str(move), before))
    pieces = _with_class(root, "rect", "piece")
    assert len(pieces) == sum(len(s) for s in after.board)
    assert len(_with_class(root, "rect", "top")) == sum(1 for s in after.board if s)
    toppled = _with_class(root, "rect", "toppled")
    assert [r.find("s:title", NS).text.split(":")[0] for r in toppled] == [move.cell]
    dest = set(before.rules.dest[before.player][before.rules.index[move.cell]])
    assert len(_with_class(root, "rect", "received")) == len(dest)
    assert len(_with_class(root, "rect", "unstable")) == len(after.unstable())
    colours = {e.get("fill") for e in pieces}
    assert len(colours) >= 2


def test_ricochet_board_robots_targets_and_answer_paths():
    game = arena.games.make("ricochet", board="1A,2B,4A,3B")
    before = game.parse_state("1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC stack=GT,V chips=-;- round=0")
    from bots.ricochet import solve_bfs

    solution = solve_bfs(before.puzzle, max_depth=6)
    assert solution
    answers = [Answer(solution), Answer(None)]
    after = before.play(answers)
    root = _parse(game.render_svg(after, [str(solution), "-"], before))
    assert len(_with_class(root, "circle", "robot")) == 4
    assert len(_with_class(root, "g", "target")) == 17
    assert len(_with_class(root, "g", "current")) == 1
    assert len(_with_class(root, "circle", "round-target")) == 1  # the target just solved
    assert len(_with_class(root, "line", "wall")) > 64  # the outer edge alone is 64 cell sides
    answer = _with_class(root, "g", "answer")
    assert [g.get("data-seat") for g in answer] == ["0"]
    assert len(_with_class(answer[0], "polyline", "path")) == len(solution)
    # the stored round record gives the winner's path too
    assert answer_paths(before, after.last_round)[0][0] == 0
    assert answer_paths(before, ["RN RN RN RN RN RN", "-"]) == []  # not a solution: no path
    assert describe_target("RC") == "red circle" and describe_target("V").startswith("vortex")
    assert Solution.parse(after.last_round.split(" ", 2)[2]) == solution


def test_the_cached_board_layer_draws_what_building_it_in_the_root_draws(monkeypatch):
    """``drawing.static_layer``: the Interaction board is serialized once and spliced after the
    title; the text is the one of the board built element by element in the root there."""
    from arena.games import drawing
    from arena.games.interaction import svg

    game = arena.games.make("interaction")
    state = game.initial_state(3)
    after = state.play(state.legal_moves()[0])
    cases = [(state,), (after, str(state.legal_moves()[0]), state)]
    cached = [svg.render(*args) for args in cases]
    roots = []

    def root(*args):
        roots.append(drawing.svg_root(*args))
        return roots[-1]

    def in_root(key, build):
        holder = ET.Element("g")
        build(holder)
        for i, child in enumerate(holder):
            roots[-1].insert(1 + i, child)  # right after the title
        return ""

    monkeypatch.setattr(svg, "svg_root", root)
    monkeypatch.setattr(svg, "static_layer", in_root)
    assert [svg.render(*args) for args in cases] == cached


def test_the_serializer_writes_what_elementtree_writes(monkeypatch):
    """``drawing.to_text`` (a plain-tree writer) gives ``ET.tostring``'s text, escaping
    included, for a tree with awkward text and for the pictures of each built-in game."""
    from arena.games import drawing

    root = drawing.svg_root(10, 10, 'a "title" & <more>', "x")
    drawing.add(root, "text", "tab\there & <b>", x=1.5, data_note='q"uote\nline')
    drawing.add(drawing.add(root, "g"), "rect", width=2)
    assert drawing.to_text(root) == ET.tostring(root, encoding="unicode")
    compared = []
    original = drawing._write

    def checked(el, out):
        start = len(out)
        original(el, out)
        assert "".join(out[start:]) == ET.tostring(el, encoding="unicode")
        compared.append(el.tag)

    monkeypatch.setattr(drawing, "_write", checked)
    monkeypatch.setattr(drawing, "_STATIC", {})  # the board layers are serialized again, checked
    game = arena.games.make("interaction")
    state = game.initial_state(5)
    rng = random.Random(5)
    for _ in range(6):
        previous, move = state, rng.choice(state.legal_moves())
        state = state.play(move)
        game.render_svg(state, str(move), previous)
    for name, params in (("sandpile", {"rounds": 1}), ("ricochet", {"max_rounds": 2})):
        other = arena.games.make(name, **params)
        other.render_svg(other.initial_state(5))
    assert {"svg", "circle", "polyline", "rect", "text", "title"} <= set(compared)
