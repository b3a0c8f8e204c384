"""What a two-bot match shows while it runs: the cutechess-style score line and the SPRT.

``MatchWatch`` takes every stored game of a two-bot, 2-player match (from the first bot's
side) and keeps

- the live line ``Score of new vs base: W - L - D [score] n  Elo ±  LOS`` over every stored
  game (pentanomial over the complete pairs, ``arena.reports.elo``), and
- with ``--sprt``, an ``arena.sprt.SprtTally`` fed in pair order, which says when to stop.

The runner calls ``watch_for(cfg, labels, games)`` once (stored games of a resumed run
included), then ``add`` after each stored game; nothing here touches the pool or the store.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from arena.stats.elo import match_stats
from arena.stats.sprt import SprtTally, parse


def points_of(label: str, seats: Sequence[str], ranks: Sequence[int]) -> float:
    """Points of ``label`` in one game: 1 for first place alone, ½ for a shared first place,
    0 below first (``docs/statistics.md`` "Two-player results")."""
    rank = int(ranks[list(seats).index(label)])
    return 0.0 if rank != 1 else 1.0 / sum(1 for r in ranks if int(r) == 1)


@dataclass
class MatchWatch:
    """Running counts of a two-bot match from ``labels[0]``'s side; ``sprt`` when enabled."""

    labels: tuple[str, str]
    sprt: SprtTally | None = None
    wdl: list[int] = field(default_factory=lambda: [0, 0, 0])
    _series: dict[int, list[float]] = field(default_factory=dict)

    def add(self, series: int, seats: Sequence[str], ranks: Sequence[int]) -> bool:
        """Count one stored game; True when the SPRT has decided (the run should stop)."""
        pts = points_of(self.labels[0], seats, ranks)
        self.wdl[0 if pts == 1 else 1 if pts == 0.5 else 2] += 1
        self._series.setdefault(int(series), []).append(pts)
        return self.sprt.add(series, pts) if self.sprt is not None else False

    @property
    def decided(self) -> bool:
        return self.sprt is not None and self.sprt.decided_at is not None

    def stats(self):
        """``arena.reports.elo.MatchStats`` of every game counted so far."""
        penta, single = [0] * 5, [0, 0, 0]
        for pts in self._series.values():
            if len(pts) == 2:
                penta[int(round(2 * sum(pts)))] += 1
            else:
                for p in pts:
                    single[int(round(2 * p))] += 1
        w, d, l_ = self.wdl
        return match_stats(penta, single, (w, d, l_))

    def line(self) -> str:
        """``Score of A vs B: W - L - D [s] n  Elo +x ± e  LOS p%`` (cutechess-cli's order:
        wins, losses, draws), then the SPRT's state when enabled."""
        st = self.stats()
        w, d, l_ = self.wdl
        text = f"Score of {self.labels[0]} vs {self.labels[1]}: {w} - {l_} - {d} [{st.score:.3f}] {st.games}"
        if st.games:
            err = "" if not math.isfinite(st.elo_error) else f" ± {st.elo_error:.1f}"
            text += f"  Elo {st.elo:+.1f}{err}  LOS {100 * st.los:.1f}%"
        if self.sprt is not None:
            text += "  " + self.sprt.line()
        return text


def watch_for(cfg, labels: Sequence[str], num_players: int, stored=None) -> MatchWatch | None:
    """A ``MatchWatch`` for a two-bot field of a 2-player game (else None), with the stored
    games of a resumed run counted in game-id order (``stored``: the store's games frame)."""
    if num_players != 2 or len(labels) != 2:
        return None
    tally = SprtTally(parse(cfg.sprt)) if getattr(cfg, "sprt", None) else None
    watch = MatchWatch((labels[0], labels[1]), tally)
    if stored is not None:
        for g in stored.sort_values("game_id").itertuples(index=False):
            watch.add(g.series, g.seats, g.ranks)
    return watch
