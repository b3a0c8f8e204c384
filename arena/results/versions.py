"""The versions of the software that decides a tournament's games, kept with them (table
``software``; ``docs/storage.md``): the arena's own, and for a game of a family the version of
the library that plays it (``openspiel:NAME``: the ``open-spiel`` distribution). An engine's
``id name`` is kept with its bot version instead (``bots.id_name``, and in its digest:
``arena.tournament.members``).

A run records the versions it plays under with the first game it stores (a run that stores
nothing records nothing): one row per component whenever its version differs from the last one
recorded, with the number of games stored before it. Resuming or extending a tournament under
another version of a library whose versions may play other games (``GUARDED``: OpenSpiel fixes
game rules between releases) is refused in one line naming both versions, unless the run
allows it (``--allow-version-change``); the report then says which versions the games were
played under (``played_under``). A store written before versions were recorded has no row: its
versions are unknown; a run records its own from then on, and says so in one line for OpenSpiel.
"""

from __future__ import annotations

import importlib.metadata
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import arena
from arena.errors import ResultsError

#: the ``software`` table: ``component`` (``arena``, ``open-spiel``), its ``version``, ``after``
#: (games stored before its first game), ``recorded`` (UTC ISO), ``allowed`` (1: a change of a
#: ``GUARDED`` component the run was allowed to make)
SOFTWARE_TABLE = ("CREATE TABLE IF NOT EXISTS software (component TEXT NOT NULL, version TEXT NOT NULL, "
                  "after INTEGER NOT NULL, recorded TEXT NOT NULL, allowed INTEGER NOT NULL DEFAULT 0)")
#: a game family (``PREFIX:NAME`` games) -> the distribution whose version decides its games
FAMILY_DISTRIBUTIONS = {"openspiel": "open-spiel"}
#: components whose change is refused unless allowed: a new version may play other games
GUARDED = frozenset(FAMILY_DISTRIBUTIONS.values())
#: the option that allows it
ALLOW_OPTION = "--allow-version-change"
#: the version of an installed library whose distribution metadata is missing (built from source)
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Recorded:
    """One row of ``software``: ``component`` ran at ``version`` from the game stored after
    ``after`` games on; ``allowed``: a change of a ``GUARDED`` component, allowed by the run."""

    component: str
    version: str
    after: int
    allowed: bool = False


def current(game: str) -> dict[str, str]:
    """The versions deciding the games of ``game`` in this process: ``arena``, and the library
    of a family's game (``openspiel:NAME`` -> ``open-spiel``; ``UNKNOWN`` without metadata)."""
    out = {"arena": arena.__version__}
    family, colon, _ = game.partition(":")
    distribution = FAMILY_DISTRIBUTIONS.get(family) if colon else None
    if distribution is not None:
        try:
            out[distribution] = importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            out[distribution] = UNKNOWN
    return out


def recorded(conn: sqlite3.Connection) -> list[Recorded]:
    """The rows of ``software`` in the order they were written (none in a store written before
    the table existed).

    Raises:
        sqlite3.Error: the database cannot be read (the callers name it).
    """
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='software'").fetchone():
        return []
    rows = conn.execute("SELECT component, version, after, allowed FROM software ORDER BY rowid").fetchall()
    return [Recorded(str(c), str(v), int(a), bool(al)) for c, v, a, al in rows]


@dataclass
class VersionCheck:
    """What a run on a stored tournament does about versions (``check``): ``rows`` to record
    with the first game it stores, ``notes`` for the user (one line each)."""

    rows: list[Recorded] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def check(name: str, stored: Sequence[Recorded], now: Mapping[str, str], games: int, allow: bool) -> VersionCheck:
    """Compare the versions ``now`` with those ``stored`` for a run on tournament ``name``,
    which holds ``games`` stored games.

    Returns:
        The rows to record (a component never recorded, or at another version) and the notes:
        one line when the version of a ``GUARDED`` component the stored games were played under
        is unknown (a store written before versions were recorded; the arena's own is recorded
        without a word), one per allowed change of a ``GUARDED`` component.

    Raises:
        ResultsError: a ``GUARDED`` component at another version than the stored games were
            played under, and ``allow`` not given (one line naming both versions).
    """
    out = VersionCheck()
    last = {row.component: row.version for row in stored}
    unknown = []
    for component, version in now.items():
        before = last.get(component)
        if before == version:
            continue
        guarded = component in GUARDED and before is not None and games > 0
        if guarded and not allow:
            raise ResultsError(
                f"tournament {name!r} was played under {component} {before}, this is {component} {version}: "
                f"its games may differ between versions; resume it with {component}=={before} installed, or give "
                f"{ALLOW_OPTION} to play on under {version} (the report then names both versions)")
        out.rows.append(Recorded(component, version, games, guarded))
        if guarded:
            out.notes.append(f"note: {component} {before} -> {version}: playing on under {version} ({ALLOW_OPTION}); "
                             "the report names both versions")
        elif before is None and games > 0 and component in GUARDED:
            unknown.append(f"{component} {version}")
    if unknown:
        out.notes.append(f"note: the version of {', '.join(c.split()[0] for c in unknown)} that {name!r}'s {games} "
                         "stored games were played under is not recorded (stored before the arena recorded it); "
                         "recorded from now on: " + ", ".join(unknown))
    return out


def record(conn: sqlite3.Connection, rows: Sequence[Recorded]) -> None:
    """Write ``rows`` to ``software`` (created if missing), in the caller's transaction."""
    conn.execute(SOFTWARE_TABLE)
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    conn.executemany("INSERT INTO software (component, version, after, recorded, allowed) VALUES (?, ?, ?, ?, ?)",
                     [(r.component, r.version, r.after, now, int(r.allowed)) for r in rows])


def stretches(rows: Sequence[Recorded], total: int) -> list[dict[str, Any]]:
    """Each recorded version with the games stored under it, of ``total`` stored games (in the
    order they were stored): ``component``, ``version``, ``games``, ``allowed``; the games
    stored before a component was first recorded come first, as version ``None``."""
    out: list[dict[str, Any]] = []
    by: dict[str, list[Recorded]] = {}
    for row in rows:
        by.setdefault(row.component, []).append(row)
    for component, seen in by.items():
        if seen[0].after > 0:
            out.append({"component": component, "version": None, "games": seen[0].after, "allowed": False})
        for i, r in enumerate(seen):
            end = seen[i + 1].after if i + 1 < len(seen) else total
            out.append({"component": component, "version": r.version, "games": max(0, end - r.after),
                        "allowed": r.allowed})
    return out


def played_under(stretched: Sequence[Mapping[str, Any]]) -> list[str]:
    """The report's lines on the versions the stored games were played under (``stretches``):
    one per component played under more than one, each version with its games, an allowed
    change marked. The arena's games stored before versions were recorded are not told (its
    built-in bots' versions already say when it changed)."""
    by: dict[str, list[Mapping[str, Any]]] = {}
    for row in stretched:
        if row["version"] is not None or row["component"] in GUARDED:
            by.setdefault(row["component"], []).append(row)
    lines = []
    for component, seen in by.items():
        if len(seen) < 2:
            continue
        parts = [(r["version"] or "not recorded") + f" ({r['games']} games"
                 + (f", {ALLOW_OPTION}" if r["allowed"] else "")
                 + (", stored before the arena recorded versions" if r["version"] is None else "") + ")"
                 for r in seen]
        lines.append(f"warning: the stored games were played under more than one version of {component}: "
                     + ", ".join(parts[:-1]) + f" and {parts[-1]}")
    return lines
