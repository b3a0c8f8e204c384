"""The ``bots`` table's rows, one per stored bot version (``arena.tournament.members``):
``Member`` and the ``Store`` methods that read and write them (``MemberRows``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

from arena.results.records import Member
from arena.results.writing import transaction


class MemberRows:
    """``Store``'s methods on the ``bots`` table (``conn``, ``path`` and ``_read`` are the store's)."""

    conn: sqlite3.Connection
    path: Path

    def _read(self, sql: str) -> list[tuple]:
        raise NotImplementedError

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


def _member_row(m: Member) -> tuple:
    return (m.position, m.label, m.spec, m.bot, m.version, m.digest, None if m.code is None else json.dumps(m.code),
            m.id_name)
