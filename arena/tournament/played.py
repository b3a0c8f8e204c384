"""Storing the games of ``arena play`` (a person's among them): each game joins a named
tournament of the results folder through the runner's own store path, so that ``arena report``,
``arena list`` and ``arena report --across`` read it as any other.

A played tournament holds one game (one series) per ``arena play``, game ids 1, 2, 3... in the
order they were played. Its stored settings are the game, its parameters and the field so far
(``bots``: every spec that played, in the order they joined); a bot is a member with a version
as in a run (``arena.tournament.members``: the same spec and code are the same member, a changed
one a new version ``label@2``), and the software versions are recorded with the first game
stored under them (``arena.results.versions``). The rating state is kept as the runner keeps it
(``arena.results.rating_state``). A tournament of another game or parameters, or one written by
``arena run``, is refused under that name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import ResultsError
from arena.games import Game
from arena.referee import GameRecord
from arena.results import rating_state
from arena.results.aggregates import game_sums
from arena.results.ratings import make_env
from arena.results.records import Member
from arena.results.store import Store
from arena.results.versions import check as check_versions, current as current_versions
from arena.tournament.members import identify, resolve, stored_counts
from bots.registry import BotSpec

#: the stored settings' key that marks a tournament of ``arena play`` games
PLAYED_KEY = "played"


@dataclass
class Played:
    """A played tournament opened for one game (``open_played``; ``store_game`` then ``close``).

    Attributes:
        store: the open store (it holds the tournament's run lock).
        name: the tournament's name.
        labels: each seat's stored label (its bot's version), by 0-based seat.
        new: bot versions stored with the game (first games of a bot or of a new version).
        notes: one line each for the user (a changed bot, the versions).
        software: software versions to record with the game.
    """

    store: Store
    name: str
    labels: tuple[str, ...]
    new: list[Member] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    software: list[Any] = field(default_factory=list)

    def close(self) -> None:
        """Close the store (and drop a database that ``open_played`` created if no game was stored)."""
        if self.store.created and not self.store.done_ids():
            self.store.abandon()
        else:
            self.store.close()


def _settings(game: Game, bots: Sequence[str]) -> dict[str, Any]:
    return {"game": game.name, "params": dict(game.params), "bots": list(bots), PLAYED_KEY: True}


def open_played(results: str | Path, name: str, game: Game, specs: Sequence[BotSpec]) -> Played:
    """Open (or create) played tournament ``name`` in ``results`` for a game of ``game`` between
    ``specs`` (by 0-based seat), before the game is played: a refusal costs nobody a game.

    Raises:
        ResultsError: the folder or database cannot be opened or is locked by another run, or
            the tournament holds games of another game, other parameters, or of ``arena run``
            (one line naming the difference).
    """
    store = Store.open(results, name)
    try:
        return _prepare(store, name, game, specs)
    except BaseException:
        if store.created:
            store.abandon()
        else:
            store.close()
        raise


def _prepare(store: Store, name: str, game: Game, specs: Sequence[BotSpec]) -> Played:
    stored = store.stored()
    if stored is not None:
        settings = stored[0]
        if not settings.get(PLAYED_KEY):
            raise ResultsError(f"tournament {name!r} was written by arena run, not arena play; give arena play "
                               "another --name")
        want = _settings(game, [])
        for key in ("game", "params"):
            if settings.get(key) != want[key]:
                raise ResultsError(f"tournament {name!r} holds games of {key} {settings.get(key)!r}, not "
                                   f"{want[key]!r}; give another --name")
    members = store.members()
    games = store.results()
    unique = list({s.label: s for s in specs}.values())  # a bot in two seats is one member
    res = resolve(members, [(s, identify(s)) for s in unique], stored_counts(g.seats for g in games))
    versions = check_versions(name, store.software(), current_versions(game.name), len(games), allow=False)
    played = Played(store, name, tuple(res.labels[s.label] for s in specs), res.new, res.notes + versions.notes,
                    versions.rows)
    if stored is None:
        store.begin(name, game.name, dict(game.params), game.num_players, 0, _settings(game, []), [], 0)
    return played


def store_game(played: Played, record: GameRecord) -> int:
    """Store ``record`` (its seats the stored labels, ``Played.labels``) as the next game, with
    the bot versions it brings and the software versions; rate it into the stored rating state.
    Returns the game's id.

    Raises:
        ResultsError: the write failed (the game is not stored).
    """
    store = played.store
    members = store.members() + played.new
    game_id = max(store.done_ids(), default=0) + 1
    store.add_members(played.new)
    store.set_settings({**(store.stored() or ({}, 0))[0], "bots": [m.spec for m in members]}, game_id)
    store.add_games([(game_id, game_id - 1, record, 1)], None, played.software)
    stored = [(g.game_id, g.seats, g.ranks) for g in store.results() if g.game_id != game_id]
    num_players = len(record.seats)
    rater = rating_state.keeper(store.conn, store.path, make_env(), [m.label for m in members], stored, num_players)
    rater.unsaved += rater.add(game_id, record.seats, record.outcome.ranks, game_sums(record.seats, record.move_stats))
    rating_state.flush(store.conn, store.path, rater)
    played.new, played.software = [], []
    return game_id
