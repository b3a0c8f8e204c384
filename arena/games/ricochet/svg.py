"""The Ricochet Robots board as SVG (``RicochetGame.render_svg``; rules: docs/rules/ricochet.md
"Board", "Robots and moves", "A round"): walls, the walled central block, the 17 targets by
code (``RC`` = red circle ... ``V`` vortex), the robots, and the path of each answer of the
last round from the robots' cells before it.
"""

from __future__ import annotations

from typing import Any

from arena.games.drawing import add, coordinates, points, svg_root, to_text
from arena.games.ricochet.board import CENTRE, COLOURS, SIZE
from arena.games.ricochet.puzzle import Solution, slide

CELL = 28
MARGIN = 22
ROBOT_FILL = {"R": "#d62728", "G": "#2ca02c", "B": "#1f77b4", "Y": "#e6b800", "K": "#222222"}
#: Stroke colour of each seat's answer path (seat 0 first).
SEAT_STROKE = ("#6a1b9a", "#00838f", "#ef6c00", "#ad1457", "#283593", "#558b2f", "#4e342e", "#37474f")
SHAPE_NAMES = {"C": "circle", "T": "triangle", "Q": "square", "H": "hexagon"}


def _xy(cell: int) -> tuple[float, float]:
    return MARGIN + (cell % SIZE + 0.5) * CELL, MARGIN + (SIZE - 1 - cell // SIZE + 0.5) * CELL


def answer_paths(previous: Any, last_move: Any) -> list[tuple[int, list[list[int]]]]:
    """(0-based seat, [[cells of one robot move, start first], ...]) of each answer that is a
    valid solution of ``previous``'s round. ``last_move`` is the answers by seat (``"-"`` or
    ``None``: no answer) or the stored round record ``"<chip> <seat or -> <solution or ->"``."""
    puzzle = getattr(previous, "puzzle", None)
    if puzzle is None or last_move is None:
        return []
    if isinstance(last_move, str):
        parts = last_move.split(" ", 2)
        if len(parts) < 3 or parts[1] == "-":
            return []
        answers = {int(parts[1]): parts[2]}
    else:
        answers = dict(enumerate(last_move))
    out = []
    for seat, text in answers.items():
        if text in (None, "-", ""):
            continue
        try:
            moves = Solution.of(text)
        except Exception:
            continue
        if puzzle.check(moves) is None:
            continue
        robots, legs = list(puzzle.robots), []
        for m in moves:
            start = robots[m.robot]
            robots[m.robot] = slide(puzzle.board, tuple(robots), m.robot, m.direction)
            legs.append([start, robots[m.robot]])
        out.append((seat, legs))
    return out


def render(state: Any, last_move: Any = None, previous: Any = None) -> str:
    """The SVG document of ``state``; see ``Game.render_svg`` for the arguments."""
    side = SIZE * CELL + 2 * MARGIN
    chips = " ".join(str(len(c)) for c in state.chips)
    title = (f"Ricochet Robots, round {state.round}: target {state.target or '-'} "
             f"({describe_target(state.target) if state.target else 'game over'}); chips by seat {chips}")
    root = svg_root(side, side + 20, title, "ricochet")
    add(root, "rect", x=MARGIN, y=MARGIN, width=SIZE * CELL, height=SIZE * CELL, fill="#fbfaf5", stroke="#999")
    for cell in range(SIZE * SIZE):
        x, y = _xy(cell)
        add(root, "rect", x=x - CELL / 2, y=y - CELL / 2, width=CELL, height=CELL,
            fill="#d9d9d9" if cell in CENTRE else "none", stroke="#ddd", stroke_width=0.5)
    _targets(root, state)
    _walls(root, state.board.walls)
    if previous is not None and getattr(previous, "target", None):
        x, y = _xy(state.board.targets[previous.target])
        ring = add(root, "circle", cx=x, cy=y, r=CELL * 0.45, fill="none", stroke="#7b1fa2", stroke_width=2.5,
                   class_="round-target")
        add(ring, "title", f"last round's target {previous.target}: {describe_target(previous.target)}")
        for seat, legs in answer_paths(previous, last_move):
            g = add(root, "g", class_="answer", data_seat=seat)
            add(g, "title", f"seat {seat}'s answer")
            shift = (seat - 1.5) * 2.5
            for start, end in legs:
                (x0, y0), (x1, y1) = _xy(start), _xy(end)
                add(g, "polyline", points=points([(x0 + shift, y0 + shift), (x1 + shift, y1 + shift)]),
                    fill="none", stroke=SEAT_STROKE[seat % len(SEAT_STROKE)], stroke_width=2.5,
                    stroke_linecap="round", class_="path")
    for i, cell in enumerate(state.robots):
        x, y = _xy(cell)
        add(root, "circle", cx=x, cy=y, r=CELL * 0.36, fill=ROBOT_FILL[COLOURS[i]], stroke="#000",
            stroke_width=1.5, class_=f"robot {COLOURS[i]}")
        add(root, "text", COLOURS[i], x=x, y=y + 4, text_anchor="middle", font_size=11, fill="#fff", font_weight="bold")
    coordinates(root, [chr(97 + f) for f in range(SIZE)], SIZE, CELL, MARGIN, font_size=11, rank_font_size=10)
    add(root, "text", title.split(": ", 1)[1], x=MARGIN, y=side + 12, font_size=13, class_="status")
    return to_text(root)


def describe_target(code: str) -> str:
    """``"RC"`` -> ``"red circle"``; ``"V"`` -> ``"vortex, any robot"`` ("Board": colours R G B Y,
    shapes C T Q H)."""
    if code == "V":
        return "vortex, any robot"
    colour = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}[code[0]]
    return f"{colour} {SHAPE_NAMES[code[1]]}"


def _targets(root, state: Any) -> None:
    for code, cell in state.board.targets.items():
        x, y = _xy(cell)
        current = code == state.target
        fill = "#7b1fa2" if code == "V" else ROBOT_FILL[code[0]]
        g = add(root, "g", class_="target current" if current else "target", opacity=1 if current else 0.45)
        add(g, "title", f"{code}: {describe_target(code)}")
        if current:
            add(g, "rect", x=x - CELL / 2 + 1, y=y - CELL / 2 + 1, width=CELL - 2, height=CELL - 2, fill="none",
                stroke="#000", stroke_width=2.5, stroke_dasharray="3 2")
        add(g, "text", code, x=x, y=y + 4, text_anchor="middle", font_size=10, font_weight="bold", fill=fill)


def _walls(root, walls: tuple[int, ...]) -> None:
    """Walls as thick lines: each cell's north (1) and east (2) sides, plus the outer edge."""
    for cell, mask in enumerate(walls):
        x, y = _xy(cell)
        h = CELL / 2
        if mask & 1:
            add(root, "line", x1=x - h, y1=y - h, x2=x + h, y2=y - h, stroke="#333", stroke_width=3, class_="wall")
        if mask & 2:
            add(root, "line", x1=x + h, y1=y - h, x2=x + h, y2=y + h, stroke="#333", stroke_width=3, class_="wall")
        if cell // SIZE == 0 and mask & 4:
            add(root, "line", x1=x - h, y1=y + h, x2=x + h, y2=y + h, stroke="#333", stroke_width=3, class_="wall")
        if cell % SIZE == 0 and mask & 8:
            add(root, "line", x1=x - h, y1=y - h, x2=x - h, y2=y + h, stroke="#333", stroke_width=3, class_="wall")
