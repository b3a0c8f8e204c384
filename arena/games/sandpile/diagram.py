"""The Sandpile board diagram of ``arena play`` (``SandpileState.diagram``).

Reads a state's public fields only and imports no state module: ``state.py`` imports this
module, nothing imports back.
"""

from __future__ import annotations

from arena.games.sandpile.rules import LETTERS, SIDES, Phase


def diagram(s) -> str:
    """The picture of ``s`` (a ``SandpileState``): board (top piece and height per cell, top rank
    first) and the game's counters, as lines of text."""
    n, rules = s.rules.size, s.rules
    lines = []
    for r in range(n - 1, -1, -1):
        cells = (f"{st[-1]}{len(st)}" if st else " ." for st in s.board[r * n:(r + 1) * n])
        lines.append(f"{r + 1:>2} " + " ".join(cells))
    lines.append("   " + " ".join(f" {chr(97 + f)}" for f in range(n)))
    mover = "-" if s.phase == Phase.OVER else f"{LETTERS[s.player]} ({SIDES[s.player]})"
    lines.append(f"round {s.round}/{rules.rounds}  phase {s.phase}  to move {mover}  step {s.step}  wrap {rules.wrap}")
    holders = "".join(LETTERS[p] for p in range(4) if s.holds_bonus(p)) or "-"
    lines.append(f"bonus held by {holders}  placed {','.join(map(str, s.placed))}  "
                 f"tops now {','.join(map(str, s.tops()))}")
    rounds = " | ".join(",".join(map(str, r)) for r in s.scores) or "-"
    lines.append(f"round scores {rounds}  totals {','.join(map(str, s.totals()))}")
    return "\n".join(lines)
