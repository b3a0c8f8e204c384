"""Void games in a run: a game whose bot's provider failed (``Termination.VOID``: a language
model's server down, ``arena.errors.ProviderFailure``) is no result.

The runner hands each finished game to ``VoidGames.take`` first. A void one is kept apart: its
row goes to the store's ``voids`` table (``arena.results.logs``: counted, with its transcript),
never to ``games``, so no rating, standing or pair sees it and the schedule is not told of it;
and the same game (its ``GameTask``: pairing, series, seed) is played again later in the run,
behind the games queued, as a lost worker's game is. A game void ``1 + retries`` times in one
run is left unplayed: the run ends without it, says so, and a resumed run plays it again (its
schedule never saw it).
"""

from __future__ import annotations

import logging
import sqlite3
from collections import Counter
from typing import TYPE_CHECKING, Any

from arena.referee import Termination
from arena.results.base import _fail, transaction
from arena.results.logs import add_voids, void_row
from arena.results.writing import finished_now

if TYPE_CHECKING:
    from arena.results.store import Store
    from arena.tournament.gamepool import Result
    from arena.tournament.series import GameTask

log = logging.getLogger("arena.runner")


class VoidGames:
    """The void games of one run: stored apart, replayed up to ``retries`` times each.

    Attributes:
        voided: void games this run stored (each attempt counts).
        left: games given up on in this run (void on every attempt); a resumed run plays them.
        per_bot: void games this run stored per bot label.
    """

    def __init__(self, retries: int) -> None:
        self.retries = max(0, retries)
        self.voided = self.left = 0
        self.per_bot: Counter[str] = Counter()
        self._tries: Counter[int] = Counter()  # game id -> void attempts in this run
        self._rows: list[dict[str, Any]] = []  # void rows not yet committed
        self._again: list[GameTask] = []  # tasks to play again

    def take(self, res: Result) -> bool:
        """Whether ``res`` is a void game; if so, it is kept (its row, and its task to play
        again or given up on) and the caller stores nothing of it."""
        record = res.record
        if record.outcome.termination != Termination.VOID:
            return False
        task = res.task
        self._rows.append(void_row(task.game_id, task.series, record, finished_now()))
        self.voided += 1
        seat = self._rows[-1]["seat"]
        self.per_bot.update({record.seats[seat]} if seat is not None else set(record.seats))
        self._tries[task.game_id] += 1
        first = (record.fault_detail or "").partition("\n")[0]
        if self._tries[task.game_id] > self.retries:
            self.left += 1
            log.warning("game %d: void %d time(s) (%s); left for a resumed run", task.game_id,
                        self._tries[task.game_id], first)
        else:
            self._again.append(task)
            log.warning("game %d: void (%s), to be played again", task.game_id, first)
        return True

    def again(self) -> list[GameTask]:
        """The void games' tasks to hand to the pool again (each once)."""
        tasks, self._again = self._again, []
        return tasks

    def commit(self, store: Store) -> None:
        """Write the void rows kept since the last call, in one transaction.

        Raises:
            ResultsError: the write failed.
        """
        if not self._rows:
            return
        rows, self._rows = self._rows, []
        try:
            with transaction(store.conn, store.path):
                add_voids(store.conn, rows)
        except sqlite3.Error as exc:
            raise _fail(store.path, exc, "write results database") from None

    def text(self) -> str | None:
        """One line on this run's void games, or ``None`` when there was none."""
        if not self.voided:
            return None
        bots = ", ".join(f"{label} {n}" for label, n in sorted(self.per_bot.items()))
        left = (f"; {self.left} game(s) void on every attempt were left unplayed: re-run the same command to "
                "play them") if self.left else ""
        return (f"void: {self.voided} game(s) voided by a provider failure ({bots}), stored apart and played "
                f"again{left}")
