"""The game browser's queries (``arena serve``): one page of stored games matching a filter,
the choices a filter offers, and the cheap change mark a live page polls.

Every query reads through a read-only connection in short statements (no transaction held
between them: a run writing the store is never held up, ``docs/storage.md`` "Readers beside
a run"). A page is found by keyset (``game_id`` below or above the page's edge, newest first),
so the first page of a 100,000-game store reads the newest matching rows and stops; the match
count is one scan of the columns filtered on (no move is unpacked).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from arena.results.connect import _reading

#: Games on a page of the browser.
PAGE = 50
#: Columns a page returns, per game.
COLUMNS = ("game_id", "series", "seats", "ranks", "scores", "termination", "fault_seat", "plies",
           "opening_plies", "opening", "seconds", "finished")


@dataclass(frozen=True)
class GameFilter:
    """What the browser shows: every field ``None`` (or empty) matches every game.

    Attributes:
        bot: a bot label that plays the game (any seat, or ``seat``).
        seat: the 0-based seat ``bot`` sits at; without ``bot``: ignored.
        opening: the opening's JSON text as stored (``games.opening``, ``"[]"``: none).
        termination: how the game ended (``normal``, ``timeout``, ``crash``...).
        min_plies: at least this many plies (opening included).
        max_plies: at most this many plies.
    """

    bot: str | None = None
    seat: int | None = None
    opening: str | None = None
    termination: str | None = None
    min_plies: int | None = None
    max_plies: int | None = None

    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition on ``games`` and its parameters (``"1"`` when nothing is filtered)."""
        parts: list[str] = []
        args: list[Any] = []
        if self.bot:
            if self.seat is not None:
                parts.append("json_extract(seats, ?) = ?")
                args += [f"$[{int(self.seat)}]", self.bot]
            else:  # the label's JSON text opening an element of the list (json.dumps: "[" or ", " before
                # it; a quote inside a label is always escaped, so the match is exact): no JSON parsed
                parts.append("(instr(seats, ?) > 0 OR instr(seats, ?) > 0)")
                args += ["[" + json.dumps(self.bot), " " + json.dumps(self.bot)]
        if self.opening is not None and self.opening != "":
            parts.append("opening = ?")
            args.append(self.opening)
        if self.termination:
            parts.append("termination = ?")
            args.append(self.termination)
        if self.min_plies is not None:
            parts.append("plies >= ?")
            args.append(int(self.min_plies))
        if self.max_plies is not None:
            parts.append("plies <= ?")
            args.append(int(self.max_plies))
        return (" AND ".join(parts) or "1"), args


@dataclass(frozen=True)
class GamePage:
    """One page of the browser, newest game first.

    Attributes:
        games: the page's games, one dict each (``COLUMNS``; ``seats``, ``ranks``, ``scores``
            decoded from JSON).
        matching: how many stored games match the filter.
        older: the ``before`` of the next (older) page, or ``None`` at the end.
        newer: the ``after`` of the previous (newer) page, or ``None`` on the first.
    """

    games: list[dict[str, Any]] = field(default_factory=list)
    matching: int = 0
    older: int | None = None
    newer: int | None = None


def _row(values: tuple) -> dict[str, Any]:
    row = dict(zip(COLUMNS, values))
    for key in ("seats", "ranks", "scores"):
        row[key] = json.loads(row[key])
    return row


def game_page(db: Any, flt: GameFilter, before: int | None = None, after: int | None = None,
              size: int = PAGE) -> GamePage:
    """The games matching ``flt``, ``size`` at most, newest first: those with ids below
    ``before``, or the page just newer than ``after``, or the newest.

    Raises:
        ResultsError: unreadable database.
    """
    cond, args = flt.where()
    cols = ", ".join(COLUMNS)
    with _reading(db) as conn:
        if after is not None:  # the newer page: the ``size`` ids just above ``after``, shown newest first
            rows = conn.execute(f"SELECT {cols} FROM games WHERE {cond} AND game_id > ? ORDER BY game_id LIMIT ?",
                                [*args, int(after), size]).fetchall()[::-1]
        else:
            edge = [int(before)] if before is not None else []
            rows = conn.execute(f"SELECT {cols} FROM games WHERE {cond}{' AND game_id < ?' if edge else ''} "
                                "ORDER BY game_id DESC LIMIT ?", [*args, *edge, size]).fetchall()
        matching = conn.execute(f"SELECT count(*) FROM games WHERE {cond}", args).fetchone()[0]
        games = [_row(r) for r in rows]
        older = newer = None
        if games:
            low, high = games[-1]["game_id"], games[0]["game_id"]
            if conn.execute(f"SELECT 1 FROM games WHERE {cond} AND game_id < ? LIMIT 1", [*args, low]).fetchone():
                older = low
            if conn.execute(f"SELECT 1 FROM games WHERE {cond} AND game_id > ? LIMIT 1", [*args, high]).fetchone():
                newer = high
    return GamePage(games, int(matching), older, newer)


def filter_choices(db: Any) -> dict[str, list]:
    """What the filters offer: ``bots`` (the stored versions' labels, in the order they
    joined), ``terminations`` and ``openings`` (JSON texts) as stored, each with its games,
    most games first (``[value, games]``).

    Raises:
        ResultsError: unreadable database.
    """
    with _reading(db) as conn:
        bots = [r[0] for r in conn.execute("SELECT label FROM bots ORDER BY position")]
        ends = conn.execute("SELECT termination, count(*) AS n FROM games GROUP BY termination "
                            "ORDER BY n DESC").fetchall()
        openings = conn.execute("SELECT opening, count(*) AS n FROM games GROUP BY opening "
                                "ORDER BY n DESC LIMIT 200").fetchall()
    return {"bots": bots, "terminations": [list(r) for r in ends], "openings": [list(r) for r in openings]}


def change_mark(db: Any) -> tuple[int, int]:
    """``(games stored, the highest game id)`` read in one short statement: what a live page
    compares to know a game was stored (the run commits games in batches; either grows).

    Raises:
        ResultsError: unreadable database.
    """
    with _reading(db) as conn:
        count, last = conn.execute("SELECT count(*), coalesce(max(game_id), 0) FROM games").fetchone()
    return int(count), int(last)


def data_version(conn: sqlite3.Connection) -> int:
    """``PRAGMA data_version`` of an open connection: changes when another connection (the
    run) commits; the cheapest look at whether the store changed."""
    return int(conn.execute("PRAGMA data_version").fetchone()[0])
