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
(``docs/statistics.md`` "SPRT"). ``Knockout`` and ``Swiss`` are in
``arena.tournament.formats``, whose ``make_schedule`` makes any format from the settings. What a
format adds to a run's end (an SPRT's state, the word ``arena list`` shows) is its own:
``Schedule.finish`` and ``Schedule.stopped``, so the runner names no format.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from arena.games import Game
from arena.stats.sprt import SprtSpec, SprtTally, parse
from arena.results.membership import LeagueEvent
from arena.results.store import Store, StoredGame, save_sprt
from arena.tournament.live import points_of
from arena.tournament import pairing
from arena.tournament.pairing import Format
from arena.tournament.series import GameTask, SeriesSettings, fixed_tasks

if TYPE_CHECKING:
    from arena.tournament.observers import RunSummary


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
    #: the format may stop before ``total`` by a rule of its own (an SPRT, ``--until-ranked``):
    #: the run's log then says "at most" so many games are left
    stops_early: bool = False

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

    def owns(self, game: StoredGame) -> bool:
        """Whether a stored game is one this schedule plays (for progress: a stored tournament
        may hold games of bots or versions outside today's field). Default: every game."""
        return True

    def storable(self, task: GameTask) -> bool:
        """Whether a finished game may be stored (and ``add``-ed) now. A format whose decision
        depends on the order results come in holds the later ones back: the runner keeps such a
        game until this turns True, and drops it when the format is ``done`` first. Default:
        always."""
        return True

    def planned(self) -> list[GameTask]:
        """Every game of a format that lists its games up front, in game-id order.

        Raises:
            TypeError: a format that decides its games as it goes (the default).
        """
        raise TypeError(f"a {type(self).__name__} schedule does not list its games up front")

    def stopped(self) -> str | None:
        """The rule that ended the format before it played out, in a word or two (``arena
        list`` shows it: ``SPRT: H1``, ``settled``), asked once it is ``done``; ``None`` (the
        default) for a format that plays out."""
        return None

    def changes(self) -> list[LeagueEvent]:
        """Membership changes the format made since it was last asked (a league's candidate
        that joined its pool: ``arena.tournament.league``), for the runner to store with the
        games that made them. Default: none."""
        return []

    def finish(self, summary: RunSummary, store: Store) -> None:
        """The format's part of a run's end (called once, after the observers were told): what
        it adds to the run's ``summary`` and stores with the tournament in ``store`` (an
        SPRT's state). Default: nothing.

        Raises:
            ResultsError: a write failed.
        """
        return None


class FixedPairings(Schedule):
    """Every pairing plays ``settings.games`` games (whole series), in round order: series 0 of
    every pairing, then series 1... (``series.fixed_tasks``). Subclasses give the pairings.

    A stored game is one of this schedule's when its series and seats are those of one of its
    games (``owns``): a stored tournament may hold other games (a bot's earlier versions, bots
    no longer in the field), which count for nothing here. A game keeps the id it has in round
    order unless an id of a game it has not played is taken by a stored game (a field that grew
    or changed): then the games it releases take ids after the last stored one, in round order.
    """

    def __init__(self, game: Game, labels: Sequence[str], settings: SeriesSettings) -> None:
        super().__init__(game, labels, settings)
        self.tasks: list[GameTask] = fixed_tasks(game, self.pairings(), settings)
        self.total = len(self.tasks)
        self._index = {(t.series, t.seats): i for i, t in enumerate(self.tasks)}
        self._stored: set[int] = set()  # indexes in ``tasks`` of the games stored
        self._ids: set[int] = set()  # ids of every stored game (this schedule's or not)
        self._next = 0  # index in ``tasks`` of the first game not released yet
        self._next_id: int | None = None  # the next id when renumbering (decided at the first release)

    @abstractmethod
    def pairings(self) -> list[tuple[str, ...]]:
        """The pairings (k-tuples of labels in field order), in the order their series play.

        Raises:
            ConfigError: a field too small for the format.
        """

    def planned(self) -> list[GameTask]:
        return self.tasks

    def owns(self, game: StoredGame) -> bool:
        """Whether ``game`` is one of this schedule's games (its series and seats)."""
        return (game.series, game.seats) in self._index

    def add(self, game: StoredGame) -> None:
        self._ids.add(game.game_id)
        index = self._index.get((game.series, game.seats))
        if index is not None:
            self._stored.add(index)

    def next_games(self, limit: int) -> list[GameTask]:
        out: list[GameTask] = []
        if self._next_id is None:
            taken = any(t.game_id in self._ids for i, t in enumerate(self.tasks) if i not in self._stored)
            self._next_id = max(self._ids, default=0) + 1 if taken else 0
        while not self.done and self._next < len(self.tasks) and len(out) < limit:
            if self._next not in self._stored:
                task = self.tasks[self._next]
                if self._next_id:
                    task, self._next_id = replace(task, game_id=self._next_id), self._next_id + 1
                out.append(task)
            self._next += 1
        return out

    @property
    def done(self) -> bool:
        return len(self._stored) == len(self.tasks)


class RoundRobin(FixedPairings):
    """Every k-subset of the field meets (every pair in a 2-player game)."""

    def pairings(self) -> list[tuple[str, ...]]:
        return pairing.pairings(Format.ROUND_ROBIN, self.labels, self.game.num_players)


class Gauntlet(FixedPairings):
    """The first bot (the challenger) meets every (k-1)-subset of the others; with ``seeds``
    (``--seeds N``), each of the first N meets every (k-1)-subset of the bots after them."""

    def __init__(self, game: Game, labels: Sequence[str], settings: SeriesSettings, seeds: int = 1) -> None:
        self.seeds = seeds
        super().__init__(game, labels, settings)

    def pairings(self) -> list[tuple[str, ...]]:
        return pairing.pairings(Format.GAUNTLET, self.labels, self.game.num_players, self.seeds)


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

    stops_early = True

    def __init__(self, game: Game, labels: Sequence[str], settings: SeriesSettings, sprt: SprtSpec | str) -> None:
        super().__init__(game, labels, settings)
        self.tally = SprtTally(parse(sprt) if isinstance(sprt, str) else sprt)

    def add(self, game: StoredGame) -> None:
        if self.owns(game):  # a stored tournament's other games (another version's) are not this match's
            self.tally.add(game.series, points_of(self.labels[0], game.seats, game.ranks))
        super().add(game)

    @property
    def done(self) -> bool:
        return self.tally.decided_at is not None or super().done

    def status(self) -> str:
        return self.tally.line()

    def storable(self, task: GameTask) -> bool:
        return not self.done and task.series <= self.tally.pairs  # every earlier pair counted

    def stopped(self) -> str:
        """``SPRT: H1`` / ``SPRT: H0`` (``inconclusive`` at ``--games``)."""
        return f"SPRT: {self.tally.result}"

    def finish(self, summary: RunSummary, store: Store) -> None:
        """The SPRT's state into ``summary.sprt`` and the store (``save_sprt``)."""
        summary.sprt = self.tally.state()
        save_sprt(store, summary.sprt)

