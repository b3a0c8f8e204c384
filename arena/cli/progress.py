"""What ``arena run`` (and ``arena ladder``) show while a run plays: the notes on the bots'
versions and on moves thinking for long (``notes``), and the progress bar (``progress_observers``:
games stored, time, pace, time left, a two-bot match's score line). Observers of the library's
run (``arena.tournament.observers``); rich is imported when they are made.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from arena.tournament.observers import Observer
    from arena.tournament.pool import Result

__all__ = ["eta_text", "notes", "pace_text", "progress_observers"]


def notes(console: Console, thinking: bool = True) -> Observer:
    """Prints the run's notes on its bots' versions (``RunStart.notes``: a changed bot played
    again as a new version) on ``console``, one line each, before the first game; and with
    ``thinking``, a line for each move thinking for long (``observers.LONG_MOVE`` seconds, then
    at each doubling), with or without the progress bar."""
    from arena.tournament.observers import Observer, RunStart, Thinking

    class Notes(Observer):
        def started(self, start: RunStart) -> None:
            for line in start.notes:
                console.print(line, markup=False, highlight=False, soft_wrap=True)

        def thinking(self, move: Thinking) -> None:
            if thinking:
                console.print(f"note: {move.line()}", markup=False, highlight=False, soft_wrap=True)
    return Notes()


def progress_observers(console: Console) -> list[Observer]:
    """The run's progress bar on ``console``, from the moment the pool starts (0 games, the time
    running) to the run's end: the games stored of those planned, the time elapsed, games per
    second, the time left, and a two-bot match's score line (with the SPRT's state) as its
    description (``arena.tournament.live.MatchLine``)."""
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TaskID, TextColumn
    from rich.progress import Task, TimeElapsedColumn
    from rich.text import Text

    from arena.tournament.live import MatchLine
    from arena.tournament.observers import Observer, RunStart, RunSummary

    class Rate(ProgressColumn):
        """The run's pace (``pace_text``) and the time left (``eta_text``), from the games
        stored since the run started (``task.fields``: ``first`` stored before it, ``since``
        its start, ``time.monotonic``), not from rich's 30-second window: a game longer than
        that window showed ``0.0 games/s`` and no estimate."""

        def render(self, task: Task) -> Text:
            return Text(pace_text(*self.run(task)), style="progress.data.speed")

        @staticmethod
        def run(task: Task) -> tuple[float, float]:
            """The games stored since the run started and the seconds since."""
            return task.completed - task.fields.get("first", 0), time.monotonic() - task.fields.get("since",
                                                                                                     time.monotonic())

    class Eta(ProgressColumn):
        def render(self, task: Task) -> Text:
            left = None if task.total is None else task.total - task.completed
            return Text(f"ETA {eta_text(left, *Rate.run(task))}", style="progress.remaining")

    class Bar(Observer):
        """Drawn once the pool starts playing (a refused run, or one with nothing to play, draws
        nothing)."""

        def __init__(self, line: MatchLine) -> None:
            self.line = line
            self.start: RunStart | None = None
            self.drawn: tuple[Progress, TaskID] | None = None  # the bar and its one task, once drawn

        def started(self, start: RunStart) -> None:
            self.start = start
            self.since = time.monotonic()  # the pace counts from here (``Rate``)

        def playing(self) -> None:
            assert self.start is not None, "the runner calls started() before playing()"
            bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn(), Rate(), Eta(), console=console, transient=False)
            bar.start()
            self.drawn = bar, bar.add_task(escape(self.start.name), total=self.start.total,
                                           completed=self.start.done, first=self.start.done, since=self.since)

        def stored(self, result: Result) -> None:
            assert self.drawn is not None, "the runner calls playing() before stored()"
            bar, task = self.drawn
            line = self.line.line()
            bar.update(task, advance=1, description=None if line is None else escape(line))  # None: kept

        def finished(self, summary: RunSummary) -> None:
            if self.drawn is not None:
                self.drawn[0].stop()

    line = MatchLine()
    return [line, Bar(line)]


def pace_text(games: float, seconds: float) -> str:
    """The pace of ``games`` stored in ``seconds`` (wall): ``12.5 games/s`` at one a second or
    more, else the seconds a game (``8.4 s/game``), over two minutes the minutes
    (``3.2 min/game``); ``- games/s`` before the first game."""
    if games <= 0 or seconds <= 0:
        return "- games/s"
    rate = games / seconds
    if rate >= 1:
        return f"{rate:.1f} games/s"
    each = seconds / games
    return f"{each:.1f} s/game" if each < 120 else f"{each / 60:.1f} min/game"


def eta_text(left: float | None, games: float, seconds: float) -> str:
    """The time ``left`` games take at the pace of ``games`` in ``seconds``, ``H:MM:SS``
    (``-:--:--`` before the first game or without a total)."""
    if left is None or games <= 0 or seconds <= 0:
        return "-:--:--"
    total = round(max(left, 0) * seconds / games)
    return f"{total // 3600}:{total // 60 % 60:02d}:{total % 60:02d}"
