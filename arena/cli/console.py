"""Rich consoles for the commands: wide tables when the output is piped or redirected, and
every text printed as it is.

Rich draws for 80 columns when stdout is not a terminal, wrapping cells ("interact/ion");
``make_console`` gives a width of ``COLUMNS`` if set, else the terminal's, else 160.

Rich reads ``[...]`` in a printed string as markup by default: a path, a bot's spec or an
engine's message holding ``[/b]`` ended the command in a ``MarkupError`` traceback, and one
holding ``[bold]`` lost those characters. A console of ``make_console`` reads no markup, in
strings nor in table cells and titles: what the commands print is the user's text, verbatim.
Styles are given as styles: ``console.print(text, style="dim")``, or ``styled`` for a line of
styled and plain parts.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

#: Columns used when the stream is not a terminal and ``COLUMNS`` is not set.
PIPE_WIDTH = 160


def console_width(stream) -> int | None:
    """Columns for ``stream``: ``COLUMNS`` if a positive integer, ``None`` (rich asks the
    terminal) on a terminal, else ``PIPE_WIDTH``."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        if stream.isatty():
            return None
    except (AttributeError, ValueError):
        pass
    return PIPE_WIDTH


@lru_cache(maxsize=1)
def console_class() -> type[Console]:
    """``ArenaConsole``: a rich console that lets ``arena.cli.app.main`` end quietly with exit
    code 0 when the reader of a pipe leaves (``arena report NAME | head``); rich itself exits
    with 1. Made on first use: rich is imported only by the commands that print with it
    (``arena solve`` starts without it)."""
    from rich.console import Console

    class ArenaConsole(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    return ArenaConsole


def make_console(stderr: bool = False) -> Console:
    """A rich console on stdout (or stderr) with the width of ``console_width``, reading no
    markup (``[...]`` in a printed string or a table cell is printed as it is)."""
    return console_class()(stderr=stderr, width=console_width(sys.stderr if stderr else sys.stdout), markup=False)


def styled(*parts: str | tuple[str, str]) -> Text:
    """One line of parts: a string is printed as it is, a ``(text, style)`` pair in that rich
    style (``"bold"``, ``"dim"``, ``"yellow"``...); the text of no part is read as markup, on
    any console (a library caller's own with markup on too)."""
    from rich.text import Text

    return Text.assemble(*parts)


#: ``--wide`` of ``arena run`` and ``arena report``
WIDE_HELP = ("every column of the report's tables, whatever the terminal's width (default: a table wider than "
             "the terminal leaves out its least useful columns, pentanomial and draws first, and says which)")
