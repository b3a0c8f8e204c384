"""The rating history kept with the rating state (``arena.results.rating_state``): each bot's
TrueSkill rating after each rated game, for the rating-progression plot.

``History`` holds history rows as columns (numpy arrays); the table ``rating_history`` stores
them a block of games a row (``rating_state.HISTORY_SCHEMA``), so storing the history of a
million games is a few dozen inserts, and reading it back (``read_history``) decodes the
blocks with numpy and thins them there.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields

import numpy as np

from arena.columns import Columns

#: the integer columns of a block, in stored order, with their little-endian types
_INTS = (("game_id", "<i8"), ("seat", "<i1"), ("bot", "<i4"), ("games", "<i8"))


@dataclass(frozen=True)
class History(Columns):
    """History rows as columns, one entry a row, in (``game_id``, ``seat``) order: ``game_id``,
    ``seat`` (0-based), ``bot`` (the 0-based place of the bot's label among the rating state's
    labels), ``mu``, ``sigma`` and ``games`` (the bot's games rated after this one)."""

    game_id: np.ndarray
    seat: np.ndarray
    bot: np.ndarray
    mu: np.ndarray
    sigma: np.ndarray
    games: np.ndarray

    @classmethod
    def from_rows(cls, rows: Sequence[tuple], place: Mapping[str, int]) -> History:
        """From rows ``(game_id, seat, label, mu, sigma, games)``, each label taken as its place."""
        if not rows:
            return cls.empty()
        g, seat, label, mu, sigma, n = zip(*rows)
        return cls(np.array(g, np.int64), np.array(seat, np.int64), np.array([place[x] for x in label], np.int64),
                   np.array(mu, np.float64), np.array(sigma, np.float64), np.array(n, np.int64))

    @classmethod
    def empty(cls) -> History:
        ints, floats = np.zeros(0, np.int64), np.zeros(0, np.float64)
        return cls(ints, ints, ints, floats, floats, ints)

    def rows(self, labels: Sequence[str]) -> list[tuple]:
        """As rows ``(game_id, seat, label, mu, sigma, games)``, ``labels`` naming the places."""
        names = np.array(list(labels), dtype=object)[self.bot] if len(self) else []
        return list(zip(self.game_id.tolist(), self.seat.tolist(), list(names), self.mu.tolist(),
                        self.sigma.tolist(), self.games.tolist()))

    def encode(self) -> tuple[int, int, int, bytes, bytes]:
        """One ``rating_history`` row: ``(first, last, rows, ints, floats)``."""
        ints = b"".join(getattr(self, name).astype(kind).tobytes() for name, kind in _INTS)
        floats = self.mu.astype("<f8").tobytes() + self.sigma.astype("<f8").tobytes()
        return (int(self.game_id[0]), int(self.game_id[-1]), len(self), zlib.compress(ints, 1), floats)

    @classmethod
    def decode(cls, rows: int, ints: bytes, floats: bytes) -> History:
        """A ``rating_history`` row back (raises ``ValueError`` or ``zlib.error`` when damaged)."""
        raw = zlib.decompress(ints)
        cols, at = {}, 0
        for name, kind in _INTS:
            width = np.dtype(kind).itemsize
            cols[name] = np.frombuffer(raw, kind, rows, at).astype(np.int64)
            at += width * rows
        mu = np.frombuffer(floats, "<f8", rows, 0).astype(np.float64)
        sigma = np.frombuffer(floats, "<f8", rows, 8 * rows).astype(np.float64)
        return cls(cols["game_id"], cols["seat"], cols["bot"], mu, sigma, cols["games"])


def concat(parts: Sequence[History]) -> History:
    """The rows of ``parts``, one after the other."""
    if not parts:
        return History.empty()
    if len(parts) == 1:
        return parts[0]
    return History(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(History)))


def write_history(conn: sqlite3.Connection, history: History, block: int) -> None:
    """Store ``history`` (games beyond any stored before) in rows of at most ``block`` history
    rows, a game never split (inside the caller's transaction; raises ``sqlite3.Error``)."""
    at = 0
    while at < len(history):
        end = min(at + block, len(history))
        if end < len(history):  # end the block at a game's first row
            end = at + max(1, int(np.searchsorted(history.game_id[at:end], history.game_id[end], "left")))
        conn.execute("INSERT OR REPLACE INTO rating_history VALUES (?,?,?,?,?)",
                     history.part(slice(at, end)).encode())
        at = end


def read_blocks(conn: sqlite3.Connection, upto: int) -> History:
    """The stored history rows of games ``1..upto``, in (game_id, seat) order (raises
    ``sqlite3.Error``, ``ValueError`` or ``zlib.error`` on a damaged table)."""
    parts = [History.decode(n, ints, floats) for n, ints, floats in conn.execute(
        "SELECT rows, ints, floats FROM rating_history WHERE first <= ? ORDER BY first", (upto,))]
    history = concat(parts)
    if len(history) and history.game_id[-1] > upto:
        history = history.part(history.game_id <= upto)
    return history


def thinned(history: History, steps: Mapping[int, tuple[int, int]]) -> History:
    """Each bot's rows whose ``games`` is 1, a multiple of its step or its last (``steps``:
    bot place -> (step, last); a bot not in it keeps its every row)."""
    if not len(history):
        return history
    size = int(history.bot.max()) + 1
    step, last = np.ones(size, np.int64), np.full(size, -1, np.int64)
    for bot, (st, la) in steps.items():
        if 0 <= bot < size:
            step[bot], last[bot] = max(1, int(st)), int(la)
    n = history.games
    return history.part((n == 1) | (n % step[history.bot] == 0) | (n == last[history.bot]))
