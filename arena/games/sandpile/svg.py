"""The Sandpile board as SVG (``Sandpile.render_svg``; rules: docs/rules/sandpile.md "Board,
players, pieces", "Toppling phase"): each cell's stack drawn bottom to top in its colours with
its height, unstable stacks (more than 3) dashed, the last placement or toppling highlighted
(the toppled cell and the cells that received its pieces).
"""

from __future__ import annotations

from typing import Any

from arena.games.drawing import add, coordinates, svg_root, to_text
from arena.errors import MoveSyntaxError
from arena.games.sandpile.rules import LETTERS, SIDES, STABLE_MAX, Phase, parse_move
from arena.games.sandpile.state import SandpileState

CELL = 60
MARGIN = 24
#: Colour of each player's pieces, A B C D.
FILL = {"A": "#d62728", "B": "#1f77b4", "C": "#2ca02c", "D": "#ff9f1c"}
#: Height of one piece in a drawn stack, pixels (stacks taller than fit are squeezed).
PIECE = 6


def changed_cells(state: SandpileState, last_move: Any, previous: SandpileState | None) -> tuple[set, set]:
    """(cells the last move acted on, cells that received a toppled piece), as indices: a
    placement's cell, or a toppled cell and its four destinations ("Toppling phase")."""
    try:
        move = parse_move(str(last_move)) if last_move is not None else None
    except MoveSyntaxError:
        move = None
    if move is None or move.cell not in state.rules.index:
        return set(), set()
    i = state.rules.index[move.cell]
    if move.kind == "topple" and previous is not None:
        return {i}, set(previous.rules.dest[previous.player][i])
    return {i}, set()


def render(state: SandpileState, last_move: Any = None, previous: SandpileState | None = None) -> str:
    """The SVG document of ``state``; see ``Game.render_svg`` for the arguments."""
    n = state.rules.size
    side = n * CELL + 2 * MARGIN
    to_move = "over" if state.phase == Phase.OVER else f"{LETTERS[state.player]} ({SIDES[state.player]}) to move"
    totals = " ".join(f"{LETTERS[p]} {t}" for p, t in enumerate(state.totals()))
    title = f"Sandpile, round {state.round}, {state.phase}: {to_move}; totals {totals}"
    root = svg_root(side, side + 20, title, "sandpile")
    acted, received = changed_cells(state, last_move, previous)
    toppled = str(last_move or "").strip().lower().startswith("x")  # as rules.parse_move reads it
    for i, stack in enumerate(state.board):
        x = MARGIN + (i % n) * CELL
        y = MARGIN + (n - 1 - i // n) * CELL
        cls = "cell" + (" toppled" if i in acted and toppled else " placed" if i in acted else "") \
            + (" received" if i in received else "") + (" unstable" if len(stack) > STABLE_MAX else "")
        fill = "#fff3c4" if i in acted else "#e8f4ff" if i in received else "#f7f7f7"
        cell = add(root, "rect", x=x, y=y, width=CELL, height=CELL, fill=fill, stroke="#999", class_=cls)
        add(cell, "title", f"{state.rules.names[i]}: {stack or 'empty'} (bottom to top)")
        if len(stack) > STABLE_MAX:
            add(root, "rect", x=x + 2, y=y + 2, width=CELL - 4, height=CELL - 4, fill="none",
                stroke="#b71c1c", stroke_width=2, stroke_dasharray="5 3")
        if i in acted:
            add(root, "rect", x=x + 1, y=y + 1, width=CELL - 2, height=CELL - 2, fill="none",
                stroke="#e65100" if toppled else "#6d4c41", stroke_width=3, class_="highlight")
        _stack(root, stack, x, y)
    coordinates(root, [chr(97 + f) for f in range(n)], n, CELL, MARGIN)
    add(root, "text", title.split(", ", 1)[1], x=MARGIN, y=side + 12, font_size=13, class_="status")
    return to_text(root)


def _stack(root, stack: str, x: float, y: float) -> None:
    """Pieces as bars from the cell's bottom up, the top one widest; the height as a number."""
    if not stack:
        return
    step = min(PIECE, (CELL - 22) / len(stack))
    for k, letter in enumerate(stack):
        top = k == len(stack) - 1
        width = CELL - 16 if top else CELL - 24
        add(root, "rect", x=x + (CELL - width) / 2, y=y + CELL - 6 - (k + 1) * step, width=width,
            height=max(step - 1, 1.5) if not top else step + 4, fill=FILL[letter], stroke="#333",
            stroke_width=0.5, class_=f"piece {letter}" + (" top" if top else ""))
    add(root, "text", f"{stack[-1]}{len(stack)}", x=x + 4, y=y + 13, font_size=11, class_="height")
