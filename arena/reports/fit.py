"""Fit a report table to the terminal: drop columns, with a note, rather than let rich wrap
numbers mid-way ("46.1–60." / "3%").

The least useful columns go first (``DROP_FIRST``: the pentanomial counts, draw shares, the
average opponent, the TrueSkill figures beside the Elo...), then the right-most ones; what a
reader of a rating list needs (the bot, its Elo and interval, LOS or CFS, games, score) stays
as long as it can. ``arena report --wide`` and ``arena run --wide`` keep every column.
"""

from __future__ import annotations

import pandas as pd

#: Characters a rich table adds per column (padding and a border) and once (the last border).
PER_COLUMN, FRAME = 3, 1

#: Per table, the displayed headers (``arena.reports.display.display_frame``) dropped first,
#: in this order, when the table is too wide; the other columns then go from the right.
DROP_FIRST: dict[str, tuple[str, ...]] = {
    "ratings": ("σ", "μ", "draws", "Av.Op", "v", "rank"),
    "leaderboard": ("engine", "σ", "μ"),
    "pairs": ("pentanomial", "draws", "pairs", "±", "nElo", "p (Holm)", "test", "W-L-D", "p"),
    "first_move": ("pair CI", "score CI", "p (Holm)", "draws", "score %", "W-L-D", "95% CI"),
}


def needed_width(column: str, cells: list[str], numeric: bool) -> int:
    """The narrowest a column can be without breaking a number or a word: the header and the
    longest cell for numbers (never wrapped), the longest word for text (wrapped at spaces)."""
    if numeric:
        return max([len(str(column)), *(len(c) for c in cells)])
    return max([*(len(w) for w in str(column).split()), *(len(w) for c in cells for w in str(c).split()), 1])


def fit_columns(shown: pd.DataFrame, right: list[bool], width: int | None, name: str = ""
                ) -> tuple[pd.DataFrame, list[bool], list[str]]:
    """``shown`` (display cells of table ``name``, ``arena.reports.display.display_frame``)
    without some columns until it fits ``width`` characters: those ``DROP_FIRST`` names for the
    table, in its order, then the right-most; the first column always stays.

    Returns (the columns kept, their right-align flags, the names of the columns dropped, in
    the table's order). ``width`` ``None`` keeps every column.
    """
    cols = [str(c) for c in shown.columns]
    need = {c: needed_width(c, shown[c].astype(str).tolist(), r) + PER_COLUMN for c, r in zip(cols, right)}
    order = [c for c in DROP_FIRST.get(name, ()) if c in need] + cols[:0:-1]
    dropped: set[str] = set()
    for col in order:
        if width is None or sum(n for c, n in need.items() if c not in dropped) + FRAME <= width:
            break
        dropped.add(col)
    keep = [i for i, c in enumerate(cols) if c not in dropped]
    return shown.iloc[:, keep], [right[i] for i in keep], [c for c in cols if c in dropped]


def dropped_note(dropped: list[str], width: int | None) -> str | None:
    """The caption naming the columns left out, or ``None``."""
    if not dropped:
        return None
    return (f"left out to fit {width} columns: {', '.join(dropped)} "
            "(--wide, a wider terminal or the CSV files show them)")
