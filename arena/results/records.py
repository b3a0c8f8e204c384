"""The frozen values the store's reader returns (``arena.results.reader``): a stored game's
outcome (``StoredGame``), a bot version (``Member``), the stored tournament (``Tournament``,
its settings typed: ``arena.results.settings.Settings``), the run's view of it
(``StoredTournament``) and the ratings after every stored game (``RatingSnapshot``).

Plain values, no database: the schedules, the reports and ``arena list`` read them alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from arena.results.settings import Settings


@dataclass(frozen=True)
class StoredGame:
    """The outcome of one stored game, as a schedule, the standings and the run's observers
    read it.

    Attributes:
        game_id: 1-based game id.
        series: 0-based series index within its pairing.
        seats: bot labels by 0-based seat.
        ranks: each seat's rank, 1 = first (ties share a rank).
    """

    game_id: int
    series: int
    seats: tuple[str, ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class Member:
    """One stored version of a bot (a row of the ``bots`` table).

    Attributes:
        position: 0-based order in which the versions joined the tournament.
        label: the label its games are stored under (``version_label``).
        spec: the spec text it was given as.
        bot: the bot's label without version (``None``: stored before versions).
        version: 1-based (``None``: stored before versions).
        digest: ``Identity.digest`` (``None``: stored before versions).
        code: ``Identity.code`` (``None``: stored before versions).
        id_name: an engine's ``id name``.
    """

    position: int
    label: str
    spec: str
    bot: str | None = None
    version: int | None = None
    digest: str | None = None
    code: dict[str, Any] | None = None
    id_name: str | None = None

    @property
    def base(self) -> str:
        """The bot's label without version."""
        return self.bot or self.label


class StoredTournament(NamedTuple):
    """What a run finds stored (``arena.results.store.Store.stored``).

    Attributes:
        settings: the stored settings object, as stored (JSON values; ``typed`` reads it).
        total_games: the games the last run planned.
    """

    settings: dict[str, Any]
    total_games: int

    @property
    def typed(self) -> Settings:
        """``settings`` as ``Settings``.

        Raises:
            ResultsError: a damaged setting.
        """
        return Settings.from_stored(self.settings)


@dataclass(frozen=True)
class Tournament:
    """A stored tournament's row, its bots and the software its games were played under
    (``arena.results.reader.read_tournament``).

    Attributes:
        name, game: as stored; params: the game's parameters.
        num_players: seats per game; seed: the tournament's seed.
        settings: the stored settings, typed.
        bots: label -> spec, in the order the versions joined.
        id_names: label -> an engine's ``id name`` (the bots that have one).
        versions: label -> ``{"bot", "version", "digest", "code"}`` (``arena.tournament.members``).
        software: the versions the stored games were played under (``arena.results.versions.stretches``).
        total_games: the games the last run planned; created: ISO 8601 UTC.
    """

    name: str
    game: str
    params: Mapping[str, Any]
    num_players: int
    seed: int
    settings: Settings
    bots: Mapping[str, str]
    id_names: Mapping[str, str] = field(default_factory=dict)
    versions: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    software: Sequence[Any] = ()
    total_games: int = 0
    created: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The dict of ``arena.results.reading.load_tournament`` (settings as stored)."""
        return {"name": self.name, "game": self.game, "params": dict(self.params), "num_players": self.num_players,
                "seed": self.seed, "settings": self.settings.to_stored(), "bots": dict(self.bots),
                "id_names": dict(self.id_names), "versions": {k: dict(v) for k, v in self.versions.items()},
                "software": list(self.software), "total_games": self.total_games, "created": self.created}


@dataclass(frozen=True)
class RatingSnapshot:
    """TrueSkill ratings and per-bot search sums after every stored game
    (``arena.results.snapshot.current``).

    Attributes:
        ratings: label -> (mu, sigma), in the order the bots were met.
        counts: label -> games rated.
        search: label -> the search sums of ``arena.results.aggregates.SEARCH_SUMS``.
        prefix: the games ``1..prefix`` whose history is stored (0: none).
        extra: history rows ``(game_id, seat, label, mu, sigma, games)`` of the games beyond it.
    """

    ratings: Mapping[str, tuple[float, float]]
    counts: Mapping[str, int]
    search: Mapping[str, list]
    prefix: int = 0
    extra: tuple[tuple, ...] = ()
