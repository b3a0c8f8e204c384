"""What a run shows while it runs: a two-bot match's cutechess-style score line, or the
schedule's own status line (``--until-ranked``: the current order and the least certain pair).

``MatchWatch`` takes every stored game of a two-bot, 2-player match (from the first bot's
side) and keeps the live line ``Score of new vs base: W - L - D [score] n  Elo ±  LOS`` over
every stored game (pentanomial over the complete pairs, ``arena.stats.elo``). ``MatchLine``
is the run's observer (``arena.tournament.observers``) that keeps one, stored games of a
resumed run included, and adds the schedule's own state (``SprtMatch``: the SPRT's LLR).
Nothing here touches the pool or the store, nor decides when to stop (``arena.tournament.schedule``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from arena.results.standings import points as points_of  # noqa: F401 (its name here for the schedules)
from arena.stats.elo import match_stats
from arena.tournament.observers import Observer, RunStart

if TYPE_CHECKING:
    from arena.tournament.pool import Result


@dataclass
class MatchWatch:
    """Running counts of a two-bot match from ``labels[0]``'s side."""

    labels: tuple[str, str]
    wdl: list[int] = field(default_factory=lambda: [0, 0, 0])
    _series: dict[int, list[float]] = field(default_factory=dict)

    def add(self, series: int, seats: Sequence[str], ranks: Sequence[int]) -> None:
        """Count one stored game (``series``: its 0-based series; ``ranks`` by 0-based seat)."""
        pts = points_of(self.labels[0], seats, ranks)
        self.wdl[0 if pts == 1 else 1 if pts == 0.5 else 2] += 1
        self._series.setdefault(int(series), []).append(pts)

    def stats(self):
        """``arena.stats.elo.MatchStats`` of every game counted so far."""
        penta, single = [0] * 5, [0, 0, 0]
        for pts in self._series.values():
            if len(pts) == 2:
                penta[int(round(2 * sum(pts)))] += 1
            else:
                for p in pts:
                    single[int(round(2 * p))] += 1
        w, d, l_ = self.wdl
        return match_stats(penta, single, (w, d, l_))

    def line(self, status: str | None = None) -> str:
        """``Score of A vs B: W - L - D [s] n  Elo +x ± e  LOS p%`` (cutechess-cli's order:
        wins, losses, draws), then ``status`` (the schedule's state, e.g. the SPRT's) if any."""
        st = self.stats()
        w, d, l_ = self.wdl
        text = f"Score of {self.labels[0]} vs {self.labels[1]}: {w} - {l_} - {d} [{st.score:.3f}] {st.games}"
        if st.games:
            err = "" if not math.isfinite(st.elo_error) else f" ± {st.elo_error:.1f}"
            text += f"  Elo {st.elo:+.1f}{err}  LOS {100 * st.los:.1f}%"
        return text + (f"  {status}" if status else "")


class MatchLine(Observer):
    """The live line of a run (``line``): a two-bot, 2-player match's score line, else the
    schedule's status (``None`` when it has none)."""

    def __init__(self) -> None:
        self.watch: MatchWatch | None = None
        self.start: RunStart | None = None

    def started(self, start: RunStart) -> None:
        self.start = start
        if start.num_players == 2 and len(start.labels) == 2:
            self.watch = MatchWatch((start.labels[0], start.labels[1]))
            for g in start.stored:
                if start.schedule.owns(g):  # not an earlier version's games, nor another bot's
                    self.watch.add(g.series, g.seats, g.ranks)

    def stored(self, result: Result) -> None:
        if self.watch is not None:
            self.watch.add(result.task.series, result.task.seats, result.record.outcome.ranks)

    def line(self) -> str | None:
        """The score line and the schedule's status; for a larger field the schedule's status
        alone (an adaptive ranking's current order and least certain pair); else ``None``."""
        if self.start is None:
            return None
        if self.watch is None:
            return self.start.schedule.status()
        return self.watch.line(self.start.schedule.status())
