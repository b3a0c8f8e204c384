"""Schedules: a tournament format decides its next games from the results stored so far.

A ``Schedule`` is told each stored game (``add``) and answers ``next_games(limit)``: games ready
to play now, possibly none while it waits for games in flight; ``done`` once it needs no more.
The runner (``arena.tournament.runner``) asks it, hands the games to the pool, stores each
record and tells the schedule, the way cutechess's tournament classes answer ``nextPair``.

A schedule is deterministic: the same stored games, in any order, give the same next games.
Resuming a run is replaying its stored games into a new schedule. A schedule releases each
game once; games released to a run that stopped before storing them are released again by
the next run's schedule (it never saw them).

Formats here: ``RoundRobin`` and ``Gauntlet`` (fixed pairings, every game known up front:
``series.schedule``), and ``SprtMatch``, a two-bot match that stops when its SPRT decides
(``docs/statistics.md`` "SPRT"). ``make_schedule`` picks one from the settings.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from arena.games import Game
from arena.stats.sprt import SprtTally, parse
from arena.store import StoredGame
from arena.tournament.live import points_of
from arena.tournament import pairing
from arena.tournament.pairing import Format
from arena.tournament.series import GameTask, SeriesSettings, schedule


class Schedule(ABC):
    """A tournament format. Subclasses set ``total`` and implement ``add``, ``next_games`` and
    ``done``.

    Attributes:
        game: the game played.
        labels: the field's unique bot labels, in field order.
        settings: what decides each series (seeds, openings, seat rotation).
        total: the games the format plans (an upper bound for one that may stop early); for
            progress and the stored tournament's ``total_games``.
    """

    total: int = 0

    def __init__(self, game: Game, labels: Sequence[str], settings: SeriesSettings) -> None:
        self.game, self.labels, self.settings = game, tuple(labels), settings

    @abstractmethod
    def add(self, game: StoredGame) -> None:
        """Take one stored game (played now, or stored by an earlier run)."""

    @abstractmethod
    def next_games(self, limit: int) -> list[GameTask]:
        """At most ``limit`` games to play now, never one released or stored before; ``[]``
        while the format waits for games in flight, or when ``done``."""

    @property
    @abstractmethod
    def done(self) -> bool:
        """True when the format needs no more games (games still in flight are dropped)."""

    def status(self) -> str | None:
        """One line on the format's own state for a live display (SPRT: its LLR), or ``None``."""
        return None

    def storable(self, task: GameTask) -> bool:
        """Whether a finished game may be stored (and ``add``-ed) now. A format whose decision
        depends on the order results come in holds the later ones back: the runner keeps such a
        game until this turns True, and drops it when the format is ``done`` first. Default:
        always."""
        return True


class FixedPairings(Schedule):
    """Every pairing plays ``settings.games`` games (whole series), in game-id order: series 0 of
    every pairing, then series 1... (``series.schedule``). Subclasses give the pairings."""

    def __init__(self, game: Game, labels: Sequence[str], settings: SeriesSettings) -> None:
        super().__init__(game, labels, settings)
        s = settings
        self.tasks: list[GameTask] = schedule(game, self.pairings(), s.games, s.seed, s.opening_plies, s.rotation,
                                              openings=s.openings, openings_order=s.openings_order, seeding=s.seeding)
        self.total = len(self.tasks)
        self._stored: set[int] = set()
        self._left = {t.game_id for t in self.tasks}  # not stored yet
        self._next = 0  # index in ``tasks`` of the first game not released yet

    @abstractmethod
    def pairings(self) -> list[tuple[str, ...]]:
        """The pairings (k-tuples of labels in field order), in the order their series play.

        Raises:
            ConfigError: a field too small for the format.
        """

    def add(self, game: StoredGame) -> None:
        self._stored.add(game.game_id)
        self._left.discard(game.game_id)

    def next_games(self, limit: int) -> list[GameTask]:
        out: list[GameTask] = []
        while not self.done and self._next < len(self.tasks) and len(out) < limit:
            task = self.tasks[self._next]
            if task.game_id not in self._stored:
                out.append(task)
            self._next += 1
        return out

    @property
    def done(self) -> bool:
        return not self._left


class RoundRobin(FixedPairings):
    """Every k-subset of the field meets (every pair in a 2-player game)."""

    def pairings(self) -> list[tuple[str, ...]]:
        return pairing.pairings(Format.ROUND_ROBIN, self.labels, self.game.num_players)


class Gauntlet(FixedPairings):
    """The first bot (the challenger) meets every (k-1)-subset of the others."""

    def pairings(self) -> list[tuple[str, ...]]:
        return pairing.pairings(Format.GAUNTLET, self.labels, self.game.num_players)


class SprtMatch(RoundRobin):
    """A two-bot match of a 2-player game that stops when the SPRT on game pairs decides
    (``arena.stats.sprt.SprtTally``, fed from the first bot's side in pair order), at most
    ``settings.games`` games.

    The stored games are the same whatever the timing: a game is ``storable`` only once every
    earlier pair is stored, so the tournament is the pairs up to the deciding one, in order;
    games of later pairs that finished first are held by the runner and, once the test has
    decided, never stored (``docs/statistics.md`` "SPRT (early stop)").

    Raises (constructor):
        ConfigError: a bad SPRT text.
    """

    def __init__(self, game: Game, labels: Sequence[str], settings: SeriesSettings, sprt: str) -> None:
        super().__init__(game, labels, settings)
        self.tally = SprtTally(parse(sprt))

    def add(self, game: StoredGame) -> None:
        super().add(game)
        self.tally.add(game.series, points_of(self.labels[0], game.seats, game.ranks))

    @property
    def done(self) -> bool:
        return self.tally.decided_at is not None or super().done

    def status(self) -> str:
        return self.tally.line()

    def storable(self, task: GameTask) -> bool:
        return not self.done and task.series <= self.tally.pairs  # every earlier pair counted


def make_schedule(fmt: Format, game: Game, labels: Sequence[str], settings: SeriesSettings,
                  sprt: str | None = None) -> Schedule:
    """The schedule of a format: ``SprtMatch`` when ``sprt`` is given (a two-bot field), else
    ``RoundRobin`` or ``Gauntlet``.

    Raises:
        ConfigError: bad SPRT text, rotation or openings order.
    """
    if sprt is not None:
        return SprtMatch(game, labels, settings, sprt)
    return RoundRobin(game, labels, settings) if fmt is Format.ROUND_ROBIN else Gauntlet(game, labels, settings)
