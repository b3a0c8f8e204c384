"""``arena run``'s progress (issue 41): the bar is drawn at 0 games with the time elapsed as soon
as the pool starts, not when the first game ends; a move thinking for long is a note on stderr,
with ``-q`` too."""

from __future__ import annotations

import io

from rich.console import Console

from arena.cli.run import _progress_observers
from arena.tournament import observers
from arena.tournament.observers import RunStart, Thinking
from arena.tournament.schedule import RoundRobin
from arena.tournament.series import SeriesSettings
from tests.cli_run import run_cli
from tests.tournament.test_progress import WAITER


def test_the_bar_is_drawn_at_zero_games_with_the_time_elapsed_when_the_pool_starts():
    import arena.games

    game = arena.games.make("interaction")
    schedule = RoundRobin(game, ["a", "b"], SeriesSettings(4, 1, 2))
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120, color_system=None)
    line, bar = _progress_observers(console)
    start = RunStart("t", ("a", "b"), 2, [], schedule.total, schedule)
    for observer in (line, bar):
        observer.started(start)
    assert out.getvalue() == ""  # nothing before the pool starts (a refused run draws nothing)
    bar.playing()
    try:
        bar.drawn[0].refresh()
        assert "0/4" in out.getvalue() and "0:00:0" in out.getvalue()  # no game ended yet
    finally:
        bar.finished(None)


def test_a_long_move_is_a_note_on_stderr_with_q(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(observers, "LONG_MOVE", 0.5)
    (tmp_path / "waiter.py").write_text(WAITER)
    release = tmp_path / "release"

    class Release(observers.Observer):  # frees the bot once the run has said it thinks
        def thinking(self, move: Thinking) -> None:
            release.touch()

    import arena.cli.run as run_module
    notes = run_module._notes
    monkeypatch.setattr(run_module, "_notes", lambda console, thinking=True: _Both(notes(console, thinking), Release()))
    code, out, err = run_cli(["run", "--bot", f"me={tmp_path / 'waiter.py'}#Waiter:release={release}",
                              "--bot", "random", "--games", "2", "--workers", "1", "--opening-plies", "0",
                              "--results", str(tmp_path), "--name", "t", "-q"], capsys)
    assert code in (0, None)
    assert "note: game 1: me (seat 0) has been thinking for" in err
    assert "no --move-time or --tc bounds a move: only --game-time 600 s ends the game" in err


class _Both(observers.Observer):
    """Two observers as one."""

    def __init__(self, *each: observers.Observer) -> None:
        self.each = each

    def started(self, start):
        for o in self.each:
            o.started(start)

    def thinking(self, move):
        for o in self.each:
            o.thinking(move)
