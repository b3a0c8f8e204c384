"""TrueSkill ratings kept incrementally with the tournament (``docs/statistics.md`` "Ratings of
a field"; issue 14).

Ratings are updated in ``game_id`` order (``arena.results.ratings``), so the result never depends on
the order games finished in. The runner rates the **contiguous prefix** of game ids: game
``P + 1`` is rated once games ``1..P`` are rated and it is stored; a game finishing early waits.
What it rated is stored beside the games:

- ``rating_state`` (one row): ``version``, ``env`` (the TrueSkill parameters, JSON),
  ``prefix`` ``P`` (games ``1..P`` rated), ``rated`` (games rated, = ``P``) and ``ratings``
  (JSON ``{label: [mu, sigma, games]}`` in the order the bots were met) and ``search`` (the
  per-bot search sums of those games, ``arena.results.aggregates.search_sums``: a report adds only the
  moves of the games beyond the prefix);
- ``rating_history``: each bot's rating after each rated game and seat (``game_id``, ``seat``,
  ``bot``: the 0-based place of the bot's label in ``ratings``, ``mu``, ``sigma``, ``games``:
  the bot's rating after that game), for the rating-progression plot, stored a block of games
  a row (``History``, ``HISTORY_SCHEMA``): a million games' history is some dozens of rows
  written at once, where a row a game and seat took SQLite 4-6 s to insert.

A report reads the state and rates only the stored games beyond ``P``. A state that is missing
(a store written before this table existed) or stale (another ``version`` or environment, or a
games count that disagrees) is rebuilt; games that continue ``P`` without a gap (games copied
or merged into the store, a run's games stored after its last save) join it. Either is stored
by the report when it can take the run lock (``arena.results.snapshot.current``): the next report rates nothing again.
While a run holds the lock the report rates in memory and writes nothing.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Iterable, Sequence

import trueskill

import numpy as np

from arena.errors import ResultsError
from arena.results.reading import unreadable
from arena.results.ratings import rate_one
from arena.results.aggregates import merge_sums, search_sums
from arena.results.rating_history import History, read_blocks, thinned, write_history

log = logging.getLogger("arena.results.ratings")

#: Bumped when the stored state's meaning changes; another version is stale and rebuilt
#: (2: the search sums gained the sum of squared node counts; 3: the history keeps the bot's
#: place in ``ratings`` instead of its label; 4: the history is stored in blocks of games).
VERSION = 4

#: ``rating_history``: a row per block of history rows (``History.encode``): ``first`` and
#: ``last`` game id of the block, its ``rows``, ``ints`` (zlib of the columns ``game_id`` int64,
#: ``seat`` int8, ``bot`` int32, ``games`` int64, one after the other) and ``floats`` (``mu``
#: then ``sigma``, float64), all little-endian
HISTORY_SCHEMA = """CREATE TABLE IF NOT EXISTS rating_history (
    first INTEGER PRIMARY KEY, last INTEGER NOT NULL, rows INTEGER NOT NULL, ints BLOB NOT NULL,
    floats BLOB NOT NULL)"""

SCHEMA = """
CREATE TABLE IF NOT EXISTS rating_state (
    id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, env TEXT NOT NULL,
    prefix INTEGER NOT NULL, rated INTEGER NOT NULL, ratings TEXT NOT NULL, search TEXT NOT NULL);
""" + HISTORY_SCHEMA + ";\n"

#: history rows stored per ``rating_history`` row at most
BLOCK = 1 << 17


def env_key(env: trueskill.TrueSkill) -> str:
    """The environment's parameters as stored (a state of another environment is stale)."""
    return json.dumps([env.mu, env.sigma, env.beta, env.tau, env.draw_probability])


class Rater:
    """TrueSkill ratings updated game by game in ``game_id`` order (the arithmetic of
    ``arena.results.ratings``: ``update_1vs1`` for two distinct bots, the package's ``env.rate``
    otherwise; games of fewer than two seats change nothing and are not counted).

    ``add`` takes games in any order and rates the contiguous prefix of ids; ``rate`` rates one
    game now (the caller keeps the order).
    """

    def __init__(self, env: trueskill.TrueSkill, labels: Iterable[str] = (), prefix: int = 0,
                 ratings: dict[str, tuple[float, float]] | None = None, counts: dict[str, int] | None = None) -> None:
        self.env = env
        self.margin = trueskill.calc_draw_margin(env.draw_probability, 2, env)
        self.prefix = prefix
        self.ratings: dict[str, tuple[float, float]] = dict(ratings or {})
        self.counts: dict[str, int] = dict(counts or {})
        self.pending: dict[int, tuple[Sequence[str], Sequence[int], dict | None]] = {}
        self.saving = False  # the runner's rater: whether its state is still being stored
        self.unsaved: list[tuple] = []  # history rows rated since the last save (``flush``)
        self.search: dict[str, list] = {}  # per-bot search sums of the prefix (``aggregates.search_sums``)
        for label in labels:
            self.meet(label)

    def meet(self, label: str) -> None:
        """List ``label`` at the prior if not seen yet."""
        if label not in self.ratings:
            self.ratings[label] = (self.env.mu, self.env.sigma)
            self.counts[label] = 0

    def rate(self, game_id: int, seats: Sequence[str], ranks: Sequence[int]) -> list[tuple]:
        """Rate one game now (``arena.results.ratings.rate_one``); returns its history rows
        ``(game_id, seat, label, mu, sigma, games)`` (none for a game of fewer than two seats).

        Raises:
            ResultsError: ``seats`` and ``ranks`` differ in length.
        """
        return rate_one(self.env, self.margin, self.ratings, self.counts, game_id, seats, ranks)

    def rate_many(self, ids: Sequence[int], seats: Sequence[Sequence[str]], ranks: Sequence[Sequence[int]]) -> History:
        """Rate games now, in the order given (``rate`` of each); returns their history rows.
        ``arena.results.rating_kernel.LOOP_GAMES`` games or more, each between two distinct
        bots, are rated in its compiled loop, to the same bits.

        Raises:
            ResultsError: a game's ``seats`` and ``ranks`` differ in length.
        """
        from arena.results import rating_kernel

        pairs = self._pairs(seats, ranks) if len(ids) >= rating_kernel.LOOP_GAMES else None
        if pairs is None:
            rows: list[tuple] = []
            for game_id, seated, ranked in zip(np.asarray(ids).tolist(), seats, ranks):
                rows += self.rate(game_id, seated, ranked)
            return History.from_rows(rows, {label: i for i, label in enumerate(self.ratings)})
        both, result = pairs
        a, b = both[:, 0], both[:, 1]
        labels = list(self.ratings)
        mu = np.array([self.ratings[x][0] for x in labels], np.float64)
        sigma = np.array([self.ratings[x][1] for x in labels], np.float64)
        count = np.array([self.counts[x] for x in labels], np.int64)
        out_mu, out_sigma, out_count = rating_kernel.rate_pairs(a, b, result, mu, sigma, count, self.env.beta,
                                                                self.env.tau, self.margin)
        for i, label in enumerate(labels):
            self.ratings[label] = (float(mu[i]), float(sigma[i]))
            self.counts[label] = int(count[i])
        n = len(a)
        return History(np.repeat(np.asarray(ids, np.int64), 2), np.tile(np.array([0, 1], np.int8), n),
                       both.ravel(), out_mu.ravel(), out_sigma.ravel(), out_count.ravel())

    def _pairs(self, seats: Sequence[Sequence[str]], ranks: Sequence[Sequence[int]]) -> tuple | None:
        """For games each of two distinct bots: each game's two bots (games x 2 places in ``ratings``,
        bots not met before listed in the order ``rate`` meets them) and result (1, 0.5, 0);
        ``None`` when a game is of another kind. The distinct seat and rank lists (shared
        objects in a loaded games frame) are looked at once each."""
        n = len(seats)
        seat_keys, seat_first, seat_code = np.unique(np.fromiter(map(id, seats), np.int64, n), return_index=True,
                                                     return_inverse=True)
        rank_keys, rank_first, rank_code = np.unique(np.fromiter(map(id, ranks), np.int64, n), return_index=True,
                                                     return_inverse=True)
        seat_lists = [seats[i] for i in seat_first.tolist()]
        rank_lists = [ranks[i] for i in rank_first.tolist()]
        if any(len(s) != 2 or s[0] == s[1] for s in seat_lists) or any(len(r) != 2 for r in rank_lists):
            return None
        for i in np.argsort(seat_first, kind="stable").tolist():  # bots met in game order, then seat order
            for label in seat_lists[i]:
                self.meet(label)
        place = {label: i for i, label in enumerate(self.ratings)}
        both = np.array([[place[s[0]], place[s[1]]] for s in seat_lists], np.int32)[seat_code.ravel()]
        outcome = np.array([1.0 if r[0] < r[1] else 0.5 if r[0] == r[1] else 0.0 for r in rank_lists])
        return both, outcome[rank_code.ravel()]

    def add(self, game_id: int, seats: Sequence[str], ranks: Sequence[int], sums: dict | None = None) -> list[tuple]:
        """Take one stored game (``sums``: its per-bot search sums, ``arena.results.aggregates.game_sums``);
        rate every game of the contiguous prefix now complete and add its sums. Returns the
        history rows of the games rated (see ``rate``). A game at or below the prefix (already
        rated) is ignored."""
        if game_id <= self.prefix:
            return []
        self.pending[int(game_id)] = (list(seats), [int(r) for r in ranks], sums)
        rows: list[tuple] = []
        while self.prefix + 1 in self.pending:
            self.prefix += 1
            seats_, ranks_, sums_ = self.pending.pop(self.prefix)
            rows += self.rate(self.prefix, seats_, ranks_)
            if sums_:
                merge_sums(self.search, sums_)
        return rows

    def state_json(self) -> str:
        """The ratings as one JSON object: label -> [mu, sigma, games rated]."""
        return json.dumps({label: [mu, sigma, self.counts[label]] for label, (mu, sigma) in self.ratings.items()})


def ensure_tables(conn: sqlite3.Connection) -> None:
    """Create the rating tables if missing (inside the caller's transaction)."""
    for statement in SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)


def write_rows(conn: sqlite3.Connection, rater: Rater, rows: Sequence[tuple] | History) -> None:
    """Add the history of ``rater``'s games: rows ``(game_id, seat, label, mu, sigma, games)`` or
    a ``History`` (``bot``: the label's place in ``rater.ratings``), in ``BLOCK``s (inside the
    caller's transaction)."""
    if len(rows):
        history = rows if isinstance(rows, History) else History.from_rows(
            rows, {label: i for i, label in enumerate(rater.ratings)})
        write_history(conn, history, BLOCK)


def write(conn: sqlite3.Connection, rater: Rater, rows: Sequence[tuple] | History, reset: bool = False) -> None:
    """Store the rater's state and new history ``rows`` (inside the caller's transaction);
    ``reset`` clears the history first (a rebuild)."""
    if reset:  # a rebuild: tables of another layout go too
        conn.execute("DROP TABLE IF EXISTS rating_state")
        conn.execute("DROP TABLE IF EXISTS rating_history")
    ensure_tables(conn)
    write_rows(conn, rater, rows)
    conn.execute("INSERT OR REPLACE INTO rating_state VALUES (1, ?, ?, ?, ?, ?, ?)",
                 (VERSION, env_key(rater.env), rater.prefix, rater.prefix, rater.state_json(),
                  json.dumps(rater.search)))


def read(conn: sqlite3.Connection, env: trueskill.TrueSkill, labels: Iterable[str] = ()) -> Rater | None:
    """The stored state as a ``Rater``, or ``None`` when missing or stale (another version or
    environment, or a stored-games count up to the prefix that is not the prefix: games
    stored without being rated).

    Raises:
        ResultsError: unreadable database.
    """
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='rating_state'").fetchone():
            return None
        try:
            row = conn.execute("SELECT version, env, prefix, rated, ratings, search FROM rating_state "
                               "WHERE id = 1").fetchone()
        except sqlite3.OperationalError:  # another layout (an older arena's): stale
            return None
        if row is None or row[0] != VERSION or row[1] != env_key(env):
            return None
        stored = conn.execute("SELECT count(*) FROM games WHERE game_id BETWEEN 1 AND ?", (row[2],)).fetchone()[0]
    except sqlite3.Error as exc:
        raise unreadable(conn, exc) from None
    if stored != row[2] or row[3] != row[2]:
        return None
    data = json.loads(row[4])
    rater = Rater(env, (), row[2], {k: (v[0], v[1]) for k, v in data.items()}, {k: int(v[2]) for k, v in data.items()})
    rater.search = json.loads(row[5])
    for label in labels:
        rater.meet(label)
    return rater


def read_history(conn: sqlite3.Connection, upto: int, steps: dict[str, tuple[int, int]] | None = None) -> list[tuple]:
    """Stored history rows ``(game_id, seat, label, mu, sigma, games)`` of games ``1..upto``,
    in (game_id, seat) order. ``steps``: label -> (step, last): keep only a bot's rows whose
    ``games`` is 1, a multiple of ``step`` or ``last`` (a thinned history).

    Raises:
        ResultsError: unreadable database.
    """
    import zlib

    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='rating_history'").fetchone():
            return []
        labels = list(json.loads(conn.execute("SELECT ratings FROM rating_state WHERE id = 1").fetchone()[0]))
        history = read_blocks(conn, upto)
        if steps:
            place = {label: i for i, label in enumerate(labels)}
            history = thinned(history, {place[lab]: st for lab, st in steps.items() if lab in place})
        if len(history) and int(history.bot.max()) >= len(labels):
            raise ValueError("a history row of a bot the state does not list")
    except (sqlite3.Error, TypeError, ValueError, zlib.error) as exc:
        raise unreadable(conn, exc) from None
    return history.rows(labels)


def save(conn: sqlite3.Connection, path: str | os.PathLike, rater: Rater, rows: Sequence[tuple],
         reset: bool = False) -> None:
    """Store the state and new history ``rows`` in one transaction of the run's connection.

    Raises:
        ResultsError: the write failed (the games stay; the next report rebuilds the state).
    """
    try:
        conn.execute("BEGIN IMMEDIATE")
        write(conn, rater, rows, reset)
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise ResultsError(f"cannot write results database {str(path)!r}: {exc}") from None


def keeper(conn: sqlite3.Connection, path: str | os.PathLike, env: trueskill.TrueSkill, labels: Sequence[str],
           stored: Iterable[tuple[int, Sequence[str], Sequence[int]]] | None, seats: int = 2) -> Rater:
    """The runner's rater: the stored state (rebuilt from ``stored``, the ``(game_id, seats,
    ranks)`` of the stored games, when missing or stale), with the stored games beyond its
    prefix taken in (``Rater.add``), and saved. ``rater.saving`` is False when the save failed
    (a full disk...): the run goes on and the stored state, consistent up to its own prefix,
    is completed by the next report.

    Raises:
        ResultsError: unreadable database.
    """
    rater = read(conn, env, labels)
    reset = rater is None
    rater = rater or Rater(env, labels)
    start = rater.prefix
    rows: list[tuple] = []
    for game_id, seated, ranks in stored or ():
        rows += rater.add(game_id, seated, ranks)
    if rater.prefix > start:  # stored games joined the prefix: add their moves (one SQL pass)
        merge_sums(rater.search, search_sums(conn, seats, after=start, upto=rater.prefix))
    rater.saving = True
    if reset or rows:
        rater.saving = save_quietly(conn, path, rater, rows, reset)
    return rater


def flush(conn: sqlite3.Connection, path: str | os.PathLike, rater: Rater) -> None:
    """Store the rater's state and its ``unsaved`` history rows (``save_quietly``) if it is
    still saving; the rows are dropped either way (a failed save stops saving: the stored
    state stays consistent up to its own prefix)."""
    if rater.saving and rater.unsaved:
        rater.saving = save_quietly(conn, path, rater, rater.unsaved)
    rater.unsaved = []


def save_quietly(conn: sqlite3.Connection, path: str | os.PathLike, rater: Rater, rows: Sequence[tuple],
                 reset: bool = False) -> bool:
    """``save``, returning False instead of raising (the rating state is a cache of the games:
    a failed write loses nothing the next report cannot rebuild)."""
    try:
        save(conn, path, rater, rows, reset)
        return True
    except ResultsError as exc:
        log.warning("rating state not stored (the next report rebuilds it): %s", exc)
        return False
