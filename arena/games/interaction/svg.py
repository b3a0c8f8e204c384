"""The Interaction board as SVG (``InteractionGame.render_svg``; rules: docs/rules/interaction.md
"Board"): 9x9 cells with the four corners clipped at 45°, the pocket line on rank 5, balls by
colour (Red, Blue, yellow neutrals) and the last move's cue-ball path with the balls it moved.
"""

from __future__ import annotations

from typing import Any

from arena.games.drawing import add, coordinates, points, static_layer, svg_root, to_text
from arena.games.interaction.geometry import CELLS, DIRECTIONS, FILES, PATH_CELLS, POCKET, SIZE
from arena.games.interaction.notation import SEAT_NAMES, parse_move_text
from arena.games.interaction.state import InteractionState, strikes

#: Pixels per cell and margin for the coordinates.
CELL = 40
MARGIN = 24
FILL = {1: "#d62728", 2: "#1f77b4", 3: "#f2c14e"}
KIND = {1: "red", 2: "blue", 3: "neutral"}


def _xy(cell: int) -> tuple[float, float]:
    """Centre of ``cell`` in pixels (rank 9 at the top)."""
    return MARGIN + (cell % SIZE + 0.5) * CELL, MARGIN + (SIZE - 1 - cell // SIZE + 0.5) * CELL


def _outline() -> list[tuple[float, float]]:
    """The board's octagon: a 9x9 square with each corner cell cut on its diagonal."""
    a, b = MARGIN, MARGIN + SIZE * CELL
    c = CELL
    return [(a + c, a), (b - c, a), (b, a + c), (b, b - c), (b - c, b), (a + c, b), (a, b - c), (a, a + c)]


def cue_path(before: InteractionState, move: Any) -> list[int]:
    """Cells the cue ball of ``move`` passes through from ``before``, its start first and the
    cell it stops on last ("A move" 2); ``[]`` for a pass or a move that is not legal there."""
    try:
        move = parse_move_text(str(move))
    except Exception:
        return []
    if move.is_pass:
        return []
    s = move.cell * 8 + move.direction
    momentum = strikes(before.board, before.occ, before.side).get(s)
    if not momentum:
        return []
    return [move.cell, *PATH_CELLS[s][:momentum]]


def render(state: InteractionState, last_move: Any = None, previous: InteractionState | None = None) -> str:
    """The SVG document of ``state``; see ``Game.render_svg`` for the arguments."""
    size = SIZE * CELL + 2 * MARGIN
    status = f"game over: {state.termination}" if state.termination else f"{SEAT_NAMES[state.side]} to move"
    title = f"Interaction, ply {state.ply}: Red {state.scores[0]}, Blue {state.scores[1]}; {status}"
    root = svg_root(size, size + 20, title, "interaction")
    if previous is not None and last_move is not None:
        _last_move(root, state, previous, last_move)
    for cell, piece in enumerate(state.board):
        if piece:
            x, y = _xy(cell)
            add(root, "circle", cx=x, cy=y, r=CELL * 0.38, fill=FILL[piece], stroke="#222",
                stroke_width=1.5, class_=f"ball {KIND[piece]}")
    add(root, "text", title.split(", ", 1)[1], x=MARGIN, y=size + 12, font_size=13, class_="status")
    return to_text(root, static_layer("interaction", _board))


def _board(root) -> None:
    """The table, cells, pockets and coordinates: the same in every picture."""
    add(root, "polygon", points=points(_outline()), fill="#2e7d4f", stroke="#5d4037", stroke_width=4,
        class_="table")
    for cell in CELLS:
        x, y = _xy(cell)
        add(root, "rect", x=x - CELL / 2, y=y - CELL / 2, width=CELL, height=CELL, fill="none",
            stroke="#1b5e20", stroke_width=0.5)
        if POCKET[cell]:
            add(root, "circle", cx=x, cy=y, r=CELL * 0.3, fill="#10221a", class_="pocket")
    coordinates(root, FILES, SIZE, CELL, MARGIN)


def _last_move(root, state: InteractionState, previous: InteractionState, last_move: Any) -> None:
    """The cue ball's path (a line with its direction named) and rings where balls left."""
    for cell, (was, now) in enumerate(zip(previous.board, state.board)):
        if was and was != now:
            x, y = _xy(cell)
            add(root, "circle", cx=x, cy=y, r=CELL * 0.38, fill="none", stroke=FILL[was],
                stroke_width=2, stroke_dasharray="4 3", class_="moved-from")
    path = cue_path(previous, last_move)
    if len(path) < 2:
        return
    line = add(root, "polyline", points=points([_xy(c) for c in path]), fill="none", stroke="#ffffff",
               stroke_width=3, stroke_linejoin="round", stroke_opacity=0.85, class_="path")
    move = parse_move_text(str(last_move))
    add(line, "title", f"{move}: cue ball {DIRECTIONS[move.direction]}, momentum {len(path) - 1}")
