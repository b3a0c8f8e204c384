"""The progress bar's pace and time left for slow games (issue 41: a long OpenSpiel run showed
``0.0 games/s`` and no estimate: rich's speed looks at a 30-second window, empty when a game
takes longer)."""

from __future__ import annotations

import io

from rich.console import Console

from arena.cli.progress import eta_text, pace_text, progress_observers as _progress_observers


def test_the_pace_reads_in_games_a_second_or_the_time_a_game():
    assert pace_text(30, 2.0) == "15.0 games/s"
    assert pace_text(1, 1.0) == "1.0 games/s"
    assert pace_text(3, 25.5) == "8.5 s/game"  # 0.12 games/s
    assert pace_text(2, 400.0) == "3.3 min/game"  # 200 s a game
    assert pace_text(0, 50.0) == "- games/s"


def test_the_time_left_is_the_games_left_at_the_runs_pace():
    assert eta_text(90, 10, 600.0) == "1:30:00"  # 60 s a game, 90 left
    assert eta_text(7, 2, 3.0) == "0:00:10"  # 1.5 s a game
    assert eta_text(5, 0, 40.0) == "-:--:--" and eta_text(None, 3, 9.0) == "-:--:--"


def test_the_bar_shows_the_pace_of_a_game_slower_than_riches_window(monkeypatch):
    """Two games stored 100 s apart, the bar drawn once: rich's window speed would be 0."""
    from arena.cli import progress as run_module
    from arena.tournament.observers import RunStart

    now = [1000.0]
    monkeypatch.setattr(run_module.time, "monotonic", lambda: now[0])
    out = io.StringIO()
    console = Console(file=out, width=200, force_terminal=False)
    line, bar = _progress_observers(console)

    class Schedule:
        def owns(self, game):
            return True

        def status(self):
            return None

    start = RunStart("slow", ("a", "b", "c"), 2, (), 12, Schedule(), 0, ())
    line.started(start)
    bar.started(start)
    bar.playing()  # the pool started: the bar is drawn at 0/12
    for _ in range(2):
        now[0] += 100.0
        bar.stored(None)
    drawn, _ = bar.drawn
    pace, eta = (str(column.render(drawn.tasks[0])) for column in drawn.columns[-2:])
    bar.finished(None)
    assert (pace, eta) == ("100.0 s/game", "ETA 0:16:40")  # 10 left at 100 s each
