"""Rich consoles for the commands: wide tables when the output is piped or redirected.

Rich draws for 80 columns when stdout is not a terminal, wrapping cells ("interact/ion");
``make_console`` gives a width of ``COLUMNS`` if set, else the terminal's, else 160.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

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
    """A rich console on stdout (or stderr) with the width of ``console_width``."""
    return console_class()(stderr=stderr, width=console_width(sys.stderr if stderr else sys.stdout))


#: ``--wide`` of ``arena run`` and ``arena report``
WIDE_HELP = ("every column of the report's tables, whatever the terminal's width (default: a table wider than "
             "the terminal leaves out its least useful columns, pentanomial and draws first, and says which)")
