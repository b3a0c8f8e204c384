"""Long report tables, fast: the same text rich and tabulate print, for tables of thousands of
rows (a 100-bot field has 4,950 pairings: rich lays out ~10,000 cells a second, tabulate
~30,000).

Both layouts depend on the rows only through each column's widest cell when the table fits
the width (rich narrows a column, and wraps its cells, only when it does not). So the
library lays out a **skeleton**: the header and, per column, the row of its widest cell; the
other rows are written in the same layout, one line each. The skeleton's own rows must appear
in the library's output exactly as this module writes them, or the whole table goes to the
library instead: a cell that would wrap, a line break, a tab or a control character, leading
or trailing blanks, a character whose width tabulate might count otherwise, or any other
difference gives the library's output, never a different one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import cached_property

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

#: Tables with at most this many rows are laid out by the library alone.
SHORT = 60
#: The width a ``wide`` table is measured in: wider than any report table.
WIDEST = 100_000
#: Characters besides ASCII that rich and tabulate (``wcwidth``) both count as one column.
NARROW = frozenset("–—σμ±½×·…é")


_EDGE_BLANK = re.compile(r"(?:^|\x00)\s|\s(?:\x00|$)")


def plain(cells: Sequence[str]) -> bool:
    """Whether every cell prints on one line as it is (no line break, tab or control
    character, no leading or trailing blank)."""
    return "".join(cells).isprintable() and not _EDGE_BLANK.search("\x00".join(cells))


def measure(cells: Sequence[str]) -> Callable[[str], int]:
    """How to count the columns a cell of ``cells`` takes: ``len`` when all are ASCII, else
    rich's ``cell_len``."""
    return len if "".join(cells).isascii() else cell_len


def skeleton_rows(columns: Sequence[Sequence[str]], widths: Sequence[Callable[[str], int]] | None = None) -> list[int]:
    """Indices (ascending) of the rows that hold each column's widest cell (the first of
    equals; ``widths``: how to count a cell of each column, ``measure`` when omitted): the
    rows the layout of a table that fits depends on."""
    keep: set[int] = set()
    for i, cells in enumerate(columns):
        if len(cells):
            width = widths[i] if widths is not None else measure(cells)
            sizes = [width(c) for c in cells]
            keep.add(sizes.index(max(sizes)))
    return sorted(keep)


class RowsTable:
    """A rich renderable: ``Table(title=..., caption=...)`` with one column per
    ``(header, right, min_width)`` and ``rows`` of text cells (printed as plain text, never as
    markup), printed as rich prints that table; ``wide``: at its natural width even where the
    console is narrower (lines longer than the console, no cell wrapped). A title wider than
    the table is printed on its own line above it (rich would wrap it to the table's width,
    a word or two a line)."""

    def __init__(self, title: str, caption: str | None, columns: Sequence[tuple[str, bool, int]],
                 rows: list[list[str]], wide: bool = False) -> None:
        self.title, self.caption, self.columns, self.rows = title, caption, list(columns), rows
        self.wide = wide
        self.titled = True  # the title inside the table (``__rich_console__`` decides)

    def table(self, rows: Iterable[Sequence[str]]) -> Table:
        """The rich ``Table`` of ``rows`` with this table's title (unless printed apart),
        caption and columns."""
        table = Table(title=self.title if self.titled else None, title_justify="left", caption=self.caption,
                      caption_justify="left")
        for header, right, min_width in self.columns:
            table.add_column(header, justify="right" if right else "left", overflow="fold", no_wrap=right,
                             min_width=min_width)
        for row in rows:
            table.add_row(*(Text(cell) for cell in row))
        return table

    @cached_property
    def _skeleton(self) -> tuple[list[Sequence[str]], list[Callable[[str], int]], list[int]]:
        """``(columns, how to count each column's cells, the skeleton's row indices)``, worked
        out once per table (the title's check and the fast layout both need them)."""
        columns: list[Sequence[str]] = list(zip(*self.rows)) if self.rows else []
        sizes = [measure(cells) for cells in columns]
        return columns, sizes, skeleton_rows(columns, sizes)

    def _layout_rows(self) -> list[Sequence[str]]:
        """Rows the table's width depends on: all of a short table, a long one's skeleton."""
        if len(self.rows) <= SHORT:
            return list(self.rows)
        return [self.rows[i] for i in self._skeleton[2]]

    def title_apart(self, console: Console, options: ConsoleOptions) -> bool:
        """Whether the title is wider than the table laid out in ``options`` (then printed
        on a line of its own, wrapped at the console's width)."""
        if not self.title:
            return False
        self.titled = False
        width = min(options.max_width, Measurement.get(console, options, self.table(self._layout_rows())).maximum)
        self.titled = True
        return cell_len(self.title) > width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if self.wide:
            natural = Measurement.get(console, options.update_width(WIDEST), self.table(self._layout_rows())).maximum
            options = options.update_width(max(options.max_width, natural))
        self.titled = not self.title_apart(console, options)
        if not self.titled:
            yield from console.render(Text(self.title, style="table.title", justify="default"), options)
        lines = self._fast(console, options) if len(self.rows) > SHORT else None
        if lines is None:
            yield from console.render(self.table(self.rows), options)
            return
        new_line = Segment.line()
        for line in lines:
            yield from line
            yield new_line

    def _fast(self, console: Console, options: ConsoleOptions) -> list[list[Segment]] | None:
        """The table's lines, or ``None`` when the library must lay it out."""
        columns, sizes, picked = self._skeleton
        if not all(plain(cells) for cells in columns):
            return None
        skeleton = self.table(self.rows[i] for i in picked)
        box = skeleton.box.substitute(options, safe=console.safe_box) if skeleton.box else None
        laid = list(Segment.split_lines(console.render(skeleton, options)))
        texts = ["".join(s.text for s in segments) for segments in laid]
        widths = _widths(texts, box) if box is not None else None
        if box is None or widths is None or len(widths) != len(self.columns) or min(widths) < 3:
            return None
        right = [r for _, r, _ in self.columns]

        def lines(row: Sequence[str], last: bool = False) -> list[str]:
            cells = [_cell_lines(console, c, w - 2, r, size) for c, w, r, size in zip(row, widths, right, sizes)]
            left, mid, end = (box.foot_left, box.foot_vertical, box.foot_right) if last else \
                (box.mid_left, box.mid_vertical, box.mid_right)
            return [left + mid.join(cell[k] if k < len(cell) else " " * w for cell, w in zip(cells, widths)) + end
                    for k in range(max(len(cell) for cell in cells))]

        expected = [text for k, i in enumerate(picked) for text in lines(self.rows[i], k == len(picked) - 1)]
        starts = [j for j in range(len(texts) - len(expected) + 1) if texts[j:j + len(expected)] == expected]
        if len(starts) != 1:
            return None
        j, last = starts[0], len(self.rows) - 1
        body = [[Segment(text)] for i, row in enumerate(self.rows) for text in lines(row, i == last)]
        return [*laid[:j], *body, *laid[j + len(expected):]]


def _widths(texts: list[str], box) -> list[int] | None:
    """The column widths (padding included) of the table whose top edge is among ``texts``."""
    for text in texts:
        if text.startswith(box.top_left) and text.endswith(box.top_right) and len(text) > 2:
            widths = [cell_len(part) for part in text[len(box.top_left):-len(box.top_right)].split(box.top_divider)]
            if box.get_top(widths) == text:
                return widths
    return None


def _cell_lines(console: Console, cell: str, width: int, right: bool, size: Callable[[str], int]) -> list[str]:
    """A cell's lines in a column ``width`` wide (padding excluded) as rich writes them: one
    line when it fits, else wrapped (a right-aligned, no-wrap column: folded) by rich's own
    ``Text.wrap``; each with one blank either side. ``size``: ``len`` for an ASCII column,
    else ``cell_len``."""
    if size is len and len(cell) <= width:
        return [" " + (cell.rjust(width) if right else cell.ljust(width)) + " "]
    n = cell_len(cell)
    if n <= width:
        return [" " + (" " * (width - n) + cell if right else cell + " " * (width - n)) + " "]
    wrapped = Text(cell).wrap(console, width, justify="right" if right else "left", overflow="fold", no_wrap=right)
    out = []
    for line in wrapped:
        pad = " " * (width - cell_len(line.plain))
        out.append(" " + (pad + line.plain if right else line.plain + pad) + " ")
    return out


def markdown_table(columns: Sequence[str], rows: list[list[str]], right: Sequence[bool]) -> str:
    """``pandas.DataFrame(rows, columns=columns).to_markdown(index=False,
    disable_numparse=True, colalign=...)`` (tabulate's pipe table), the same text."""
    import pandas as pd

    def library(picked: Iterable[Sequence[str]]) -> str:
        frame = pd.DataFrame(list(picked), columns=list(columns), dtype=object)
        return frame.to_markdown(index=False, disable_numparse=True,
                                 colalign=["right" if r else "left" for r in right])

    cells = list(zip(*rows)) if rows else []
    if len(rows) <= SHORT or not all(plain(col) and set("".join(col)) <= _NARROW for col in [*cells, columns]):
        return library(rows)
    picked = skeleton_rows(cells, [len] * len(cells))
    widths = [max(len(h) + 2, *(len(c) for c in col)) for h, col in zip(columns, cells)]

    def line(row: Sequence[str]) -> str:
        return "| " + " | ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, right)) + " |"

    laid = library(rows[i] for i in picked).split("\n")
    expected = [line(rows[i]) for i in picked]
    if laid[2:] != expected or laid[0] != line(list(columns)):
        return library(rows)
    return "\n".join([*laid[:2], *(line(row) for row in rows)])


_NARROW = NARROW | frozenset(chr(i) for i in range(32, 127))
