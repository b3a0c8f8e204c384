"""What the schedules played in rounds share (``adaptive.UntilRanked``, ``placement.Placement``):
each round is a list of game tasks, decided once every game of the rounds before it is stored,
from those games alone; a task is handed out once, and not at all when its game is stored
already (a resumed run)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Generic, TypeVar

import numpy as np

from arena.results.store import StoredGame
from arena.tournament.live import points_of
from arena.tournament.series import GameTask

#: what a round asks a series of: a pairing's index, an opponent's label
P = TypeVar("P")

#: a game of a schedule by its (series, seats): the same series of the same pairing is the same game
Key = tuple[int, tuple[str, ...]]


def release(tasks: Sequence[GameTask], stored: Mapping[Key, StoredGame], released: set[Key],
            limit: int) -> list[GameTask]:
    """At most ``limit`` of ``tasks`` (a round, in order) neither stored nor released before;
    ``released`` gets their keys."""
    out: list[GameTask] = []
    for task in tasks:
        if len(out) >= limit:
            break
        key = (task.series, task.seats)
        if key not in stored and key not in released:
            released.add(key)
            out.append(task)
    return out


def stored_games(rounds: Sequence[Sequence[GameTask]], stored: Mapping[Key, StoredGame]) -> list[StoredGame]:
    """The stored games of the rounds' tasks, in round and task order."""
    return [stored[key] for tasks in rounds for t in tasks if (key := (t.series, t.seats)) in stored]


def seats_and_points(labels: Sequence[str], games: Sequence[StoredGame]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per 2-player game: the place in ``labels`` of the bot in seat 0 and of the bot in seat 1
    (int arrays), and seat 0's points (1 a win, 0.5 a draw, 0 a loss)."""
    pos = {label: i for i, label in enumerate(labels)}
    seat0 = np.array([pos[g.seats[0]] for g in games], np.int64)
    seat1 = np.array([pos[g.seats[1]] for g in games], np.int64)
    points = np.array([points_of(g.seats[0], g.seats, g.ranks) for g in games], float)
    return seat0, seat1, points


class InRounds(ABC, Generic[P]):
    """The rounds of a schedule (module docstring): ``add``, ``done`` and ``next_games`` of
    ``arena.tournament.schedule.Schedule``'s protocol. A subclass calls ``_start_rounds`` in its
    constructor and gives ``owns``, the first round (``_first_round``), the decision after a
    round (``_next_round``) and how a round's series become tasks (``_new_round``).

    Attributes:
        finished: no round follows (the last decision said so).
    """

    def _start_rounds(self) -> None:
        self._stored: dict[Key, StoredGame] = {}
        self._rounds: list[list[GameTask]] = []  # the tasks of every round decided
        self._released: set[Key] = set()
        self.finished = False

    @abstractmethod
    def owns(self, game: StoredGame) -> bool:
        """Whether ``game`` is one of the schedule's games."""

    @abstractmethod
    def _first_round(self) -> list[tuple[P, int]]:
        """Round 0: ``(what, series)`` each, in order."""

    @abstractmethod
    def _next_round(self) -> list[tuple[P, int]] | None:
        """The next round decided from the games of the rounds so far (all stored), or ``None``
        when no round follows."""

    @abstractmethod
    def _new_round(self, wanted: list[tuple[P, int]]) -> None:
        """Append a round of ``wanted`` (``(what, series)`` each) to ``_rounds``."""

    def add(self, game: StoredGame) -> None:
        if self.owns(game):
            self._stored[(game.series, tuple(game.seats))] = game

    @property
    def done(self) -> bool:
        self._advance()
        return self.finished

    def next_games(self, limit: int) -> list[GameTask]:
        self._advance()
        if self.finished or not self._rounds:
            return []
        return release(self._rounds[-1], self._stored, self._released, limit)

    def played(self) -> int:
        """Games of its rounds stored."""
        return len(stored_games(self._rounds, self._stored))

    def _advance(self) -> None:
        """Decide every round whose predecessors are all stored (round 0 first)."""
        if self.finished:
            return
        if not self._rounds:
            self._new_round(self._first_round())
        while all((t.series, t.seats) in self._stored for t in self._rounds[-1]):
            wanted = self._next_round()
            if wanted is None:
                self.finished = True
                return
            self._new_round(wanted)
