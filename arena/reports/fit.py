"""Fit a report table to the terminal: drop columns from the right, with a note, rather than
let rich wrap numbers mid-way ("46.1–60." / "3%")."""

from __future__ import annotations

import pandas as pd

#: Characters a rich table adds per column (padding and a border) and once (the last border).
PER_COLUMN, FRAME = 3, 1


def needed_width(column: str, cells: list[str], numeric: bool) -> int:
    """The narrowest a column can be without breaking a number or a word: the header and the
    longest cell for numbers (never wrapped), the longest word for text (wrapped at spaces)."""
    if numeric:
        return max([len(str(column)), *(len(c) for c in cells)])
    return max([*(len(w) for w in str(column).split()), *(len(w) for c in cells for w in str(c).split()), 1])


def fit_columns(shown: pd.DataFrame, right: list[bool], width: int | None
                ) -> tuple[pd.DataFrame, list[bool], list[str]]:
    """``shown`` (display cells, ``arena.reports.display.display_frame``) without its
    right-most columns until it fits ``width`` characters; the first column always stays.

    Returns (the columns kept, their right-align flags, the names of the columns dropped).
    ``width`` ``None`` keeps every column.
    """
    cols = list(shown.columns)
    need = [needed_width(c, shown[c].astype(str).tolist(), r) + PER_COLUMN for c, r in zip(cols, right)]
    dropped: list[str] = []
    while width is not None and len(cols) > 1 and sum(need) + FRAME > width:
        dropped.insert(0, str(cols.pop()))
        need.pop()
    return shown[cols], right[:len(cols)], dropped


def dropped_note(dropped: list[str], width: int | None) -> str | None:
    """The caption naming the columns left out, or ``None``."""
    if not dropped:
        return None
    return (f"left out to fit {width} columns: {', '.join(dropped)} "
            "(a wider terminal, COLUMNS=160, or the CSV files show them)")
