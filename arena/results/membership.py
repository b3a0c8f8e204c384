"""The ``bots`` table's rows, one per stored bot version (``arena.tournament.members``):
``Member`` and the ``Store`` methods that read and write them (``MemberRows``); and a league's
membership changes (table ``league``, ``arena.tournament.league``): bots retired, candidates
added and placed (``LeagueEvent``, ``league_events``).

The ``league`` table is made by the first run that records a change (as ``software`` is by the
first game stored): a store without it has had no change, and readers take it so; no layout
step is needed.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TypeVar

from arena.results.base import _fail
from arena.results.records import Member
from arena.results.writing import transaction

T = TypeVar("T")


#: the ``league`` table: one row per membership change, in the order they were made
LEAGUE_TABLE = ("CREATE TABLE IF NOT EXISTS league (id INTEGER PRIMARY KEY, bot TEXT NOT NULL, event TEXT NOT NULL, "
                "after INTEGER NOT NULL, recorded TEXT NOT NULL, detail TEXT)")
#: the changes a league records: a bot ``retired`` (never scheduled again), a ``candidate``
#: added (plays its placement gauntlet), a candidate ``joined`` the pool (its place settled)
EVENTS = ("retired", "candidate", "joined")


@dataclass(frozen=True)
class LeagueEvent:
    """One membership change of a league (a row of ``league``).

    Attributes:
        bot: the bot's name (its label without version: every version of it).
        event: one of ``EVENTS``.
        after: games stored when it was made.
        detail: a line for the reports (a candidate's spec, how its place was settled).
        id: the row's id (``None`` before it is stored).
    """

    bot: str
    event: str
    after: int
    detail: str | None = None
    id: int | None = None


def league_events(conn: sqlite3.Connection) -> list[LeagueEvent]:
    """The stored membership changes in the order they were made (none in a store without the
    ``league`` table).

    Raises:
        sqlite3.Error: the database cannot be read (the callers name it).
    """
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='league'").fetchone():
        return []
    rows = conn.execute("SELECT id, bot, event, after, detail FROM league ORDER BY id").fetchall()
    return [LeagueEvent(str(b), str(e), int(a), d, int(i)) for i, b, e, a, d in rows]


def read_league(db: str | Path) -> list[LeagueEvent]:
    """``league_events`` of the store at ``db``, read through a read-only connection.

    Raises:
        ResultsError: the file is missing, unreadable or no arena results database.
    """
    from arena.results.connect import connect_readonly
    conn = connect_readonly(db)
    try:
        return league_events(conn)
    except sqlite3.Error as exc:
        raise _fail(Path(db), exc, "read results database") from None
    finally:
        conn.close()


def statuses(events: Sequence[LeagueEvent]) -> dict[str, str]:
    """Each bot name a league's ``events`` name -> ``retired``, ``candidate`` (not placed yet)
    or ``active`` (a candidate that joined); the other bots are active."""
    out: dict[str, str] = {}
    for e in events:
        if e.event == "retired":
            out[e.bot] = "retired"
        elif out.get(e.bot) != "retired":
            out[e.bot] = "candidate" if e.event == "candidate" else "active"
    return out


class MemberRows:
    """``Store``'s methods on the ``bots`` and ``league`` tables (``conn`` and ``path`` are the
    store's), and its readers' one error."""

    conn: sqlite3.Connection
    path: Path

    def _reading(self, read: Callable[[sqlite3.Connection], T]) -> T:
        """``read(conn)``, its ``sqlite3.Error`` as the store's.

        Raises:
            ResultsError: the database cannot be read.
        """
        try:
            return read(self.conn)
        except sqlite3.Error as exc:
            raise _fail(self.path, exc, "read results database") from None

    def _read(self, sql: str) -> list[tuple]:
        """The rows of one query.

        Raises:
            ResultsError: the database cannot be read.
        """
        return self._reading(lambda conn: conn.execute(sql).fetchall())

    def name_engines(self, id_names: dict[str, str]) -> None:
        """Store the ``id name`` of engines a stored tournament has none for (one written
        before the column existed, or before the engine said one).

        Raises:
            ResultsError: the write failed.
        """
        missing = {label for (label,) in self._read("SELECT label FROM bots WHERE id_name IS NULL")}
        rows = [(name, label) for label, name in id_names.items() if label in missing]
        if rows:
            with transaction(self.conn, self.path):
                self.conn.executemany("UPDATE bots SET id_name = ? WHERE label = ?", rows)

    def members(self) -> list[Member]:
        """Every stored bot version, in the order they joined (``bots`` rows).

        Raises:
            ResultsError: the database cannot be read.
        """
        rows = self._read("SELECT position, label, spec, bot, version, digest, code, id_name FROM bots "
                          "ORDER BY position")
        return [Member(int(p), label, spec, bot, None if v is None else int(v), digest,
                       None if code is None else json.loads(code), id_name)
                for p, label, spec, bot, v, digest, code, id_name in rows]

    def add_members(self, new: Sequence[Member], adopted: Sequence[Member] = ()) -> None:
        """Store new bot versions, and give members stored before versions (same label) their
        first version, in one transaction.

        Raises:
            ResultsError: the write failed (nothing changed).
        """
        if not new and not adopted:
            return
        with transaction(self.conn, self.path):
            self.conn.executemany(
                "INSERT INTO bots (position, label, spec, bot, version, digest, code, id_name) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [_member_row(m) for m in new])
            self.conn.executemany(
                "UPDATE bots SET bot = ?, version = ?, digest = ?, code = ?, id_name = coalesce(id_name, ?) "
                "WHERE label = ?", [(m.bot, m.version, m.digest, json.dumps(m.code), m.id_name, m.label)
                                    for m in adopted])

    def drop_members(self, labels: Iterable[str]) -> None:
        """Remove stored bot versions that played no stored game (a refused run's new ones).

        Raises:
            ResultsError: the write failed.
        """
        labels = list(labels)
        if not labels:
            return
        played = {lab for (seats,) in self._read("SELECT DISTINCT seats FROM games") for lab in json.loads(seats)}
        with transaction(self.conn, self.path):
            self.conn.executemany("DELETE FROM bots WHERE label = ?", [(lab,) for lab in labels if lab not in played])

    def league(self) -> list[LeagueEvent]:
        """The stored membership changes (``league_events``).

        Raises:
            ResultsError: the database cannot be read.
        """
        return self._reading(league_events)

    def add_league(self, events: Sequence[LeagueEvent]) -> list[int]:
        """Store membership changes in one transaction (the ``league`` table made if missing);
        returns their row ids.

        Raises:
            ResultsError: the write failed (nothing changed).
        """
        if not events:
            return []
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        ids = []
        with transaction(self.conn, self.path):
            self.conn.execute(LEAGUE_TABLE)
            for e in events:
                cur = self.conn.execute(
                    "INSERT INTO league (bot, event, after, recorded, detail) VALUES (?, ?, ?, ?, ?)",
                    (e.bot, e.event, e.after, now, e.detail))
                ids.append(int(cur.lastrowid or 0))
        return ids

    def drop_league(self, ids: Iterable[int]) -> None:
        """Remove membership changes by row id (a refused run's).

        Raises:
            ResultsError: the write failed.
        """
        ids = list(ids)
        if ids:
            with transaction(self.conn, self.path):
                self.conn.executemany("DELETE FROM league WHERE id = ?", [(i,) for i in ids])


def _member_row(m: Member) -> tuple:
    return (m.position, m.label, m.spec, m.bot, m.version, m.digest, None if m.code is None else json.dumps(m.code),
            m.id_name)
