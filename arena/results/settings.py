"""The enumerated settings a tournament is stored with (``docs/storage.md``, ``settings``).

They live with the store because it reads them back; the tournament layer builds its
schedules from them (``arena.tournament.pairing``, ``arena.tournament.series``). ``Settings``
is the stored settings object, typed, with each default defined once; ``series_per_pairing``
rounds games to whole series for the schedules and the reports alike.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, Generic, TypeVar

from arena.errors import ResultsError
from arena.openings import OpeningsOrder


class Format(StrEnum):
    """A tournament format (``--format``; the value is the option's text)."""

    #: every k-subset of the field meets (``round_robin``)
    ROUND_ROBIN = "round-robin"
    #: the first bot, the challenger, meets every (k-1)-subset of the others (``gauntlet``);
    #: with ``--seeds N`` each of the first N meets every (k-1)-subset of the rest
    GAUNTLET = "gauntlet"
    #: a seeded single-elimination bracket (``arena.tournament.formats.Knockout``)
    KNOCKOUT = "knockout"
    #: rounds paired by score, no repeat pairings (``arena.tournament.formats.Swiss``)
    SWISS = "swiss"


#: the accepted ``--format`` texts, in the order the error message lists them
FORMATS = tuple(f.value for f in Format)


class Rotation(StrEnum):
    """How the seats of a series rotate (``--seat-rotation``; the value is the option's text)."""

    #: the k cyclic rotations of the pairing: k games a series
    CYCLIC = "cyclic"
    #: every order of the pairing: k! games a series
    ALL = "all"


#: the accepted texts, in the order error messages list them
ROTATIONS = tuple(r.value for r in Rotation)


def games_per_series(k: int, rotation: Rotation | str = Rotation.CYCLIC) -> int:
    """Games in one series of a ``k``-player pairing: one per seat order (``k`` cyclic
    rotations; ``k!`` orders with ``Rotation.ALL``).

    Raises:
        ValueError: an unknown rotation.
    """
    return math.factorial(k) if Rotation(rotation) is Rotation.ALL else k


def series_per_pairing(games: int, k: int, rotation: Rotation | str = Rotation.CYCLIC) -> int:
    """Series per pairing: ``games`` (per pairing) rounded up to whole series.

    Raises:
        ValueError: an unknown rotation.
    """
    return math.ceil(int(games) / games_per_series(k, rotation))


#: the JSON type of each known key of the stored settings -> how ``Settings`` holds it
_KINDS: dict[str, Callable[[Any], Any]] = {}


#: how the ``sprt`` option is held: its text in ``Settings``, its parsed spec in the tournament's config
S = TypeVar("S")


@dataclass(frozen=True)
class StoredOptions(Generic[S]):
    """The options that decide a tournament's games, in their stored order, each with its
    default defined here once: ``Settings`` (read back from a store) and
    ``arena.tournament.config.TournamentConfig`` (a tournament to run) both extend it. The
    config overrides the first layout's defaults that depend on the game (``game``, ``bots``,
    ``games``, ``opening_plies``); every later option's default is the same in both.

    Attributes (units: seconds, MiB, plies):
        game, params: the game's name and parameters.
        bots: the field's bot specs, in order.
        format, seat_rotation, openings_order: the enumerated options.
        games: games per pairing (``--games``); seed; opening_plies.
        move_time, move_nodes, game_time, time_margin, memory_limit: the limits (``None``: none).
        fill, sprt, until_ranked, tc, adjudicate, rounds, seeds, each, tau: the later options.
        openings: the positions of ``--openings`` (their text).
    """

    game: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    bots: tuple[str, ...] = ()
    format: Format = Format.ROUND_ROBIN
    games: int = 2
    seed: int = 1
    opening_plies: int = 0
    move_time: float | None = None
    move_nodes: int | None = None
    game_time: float | None = None
    time_margin: float = 0.5
    memory_limit: int | None = None
    seat_rotation: Rotation = Rotation.CYCLIC
    fill: str | None = None
    openings: tuple[str, ...] = ()
    openings_order: OpeningsOrder = OpeningsOrder.SEQUENTIAL
    sprt: S | None = None
    tau: float = 0.0
    until_ranked: float | None = None
    tc: str | None = None
    adjudicate: str | None = None
    rounds: int | None = None
    seeds: int = 1
    each: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Settings(StoredOptions[str]):
    """The settings a tournament is stored with (the ``settings`` column of ``tournament``,
    ``docs/storage.md``), typed; read with ``from_stored``, written back with ``to_stored``.

    A key left out of the stored settings takes the default here, the one place it is
    defined: the options added after the first layout are stored only when not at their
    default (``arena.tournament.config.TournamentConfig.identity``), so their defaults are
    the options' own; the first layout's keys are always stored, and their defaults here serve
    settings written without them (synthetic stores): no opening plies, one series of two games.
    Keys this arena does not know are kept in ``extra`` and written back as they were.

    Attributes (besides the options of ``StoredOptions``; ``sprt`` is its text):
        seeding: the bot seeding scheme (``arena.referee.SEEDING``; 1 in a store without it).
        keys: the stored keys, in their stored order (``to_stored`` writes those).
        extra: stored keys this arena does not know, with their values.
    """

    seeding: int = 1
    keys: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any] | None) -> Settings:
        """The settings of a stored ``settings`` JSON object (``None`` or ``{}``: every default).

        Raises:
            ResultsError: a known key with a value of the wrong kind (a damaged store).
        """
        stored = dict(stored or {})
        known = {f.name for f in fields(cls)} - {"keys", "extra"}
        values: dict[str, Any] = {}
        for key, value in stored.items():
            if key not in known:
                continue
            try:
                values[key] = _KINDS[key](value) if value is not None else None
            except (TypeError, ValueError) as exc:
                raise ResultsError(f"stored setting {key}={value!r} cannot be read ({exc})") from None
        return cls(**values, keys=tuple(stored), extra={k: v for k, v in stored.items() if k not in known})

    def to_stored(self) -> dict[str, Any]:
        """The stored JSON object: the keys it was read with, in their order (the options at
        their values, unknown keys as read); ``from_stored(s.to_stored()) == s``."""
        out: dict[str, Any] = {}
        for key in self.keys:
            out[key] = self.extra[key] if key in self.extra else _json(getattr(self, key))
        return out

    def replace(self, **changes: Any) -> Settings:
        """These settings with ``changes`` (stored with them: a key not stored before joins ``keys``)."""
        return dataclasses.replace(self, **changes, keys=tuple(dict.fromkeys([*self.keys, *changes])))

    @property
    def per_series(self) -> int:
        """Games in one series of a two-player pairing (``games_per_series``)."""
        return games_per_series(2, self.seat_rotation)

    def series(self, k: int = 2) -> int:
        """Series per pairing of ``k`` players: ``games`` rounded up to whole series, at least one."""
        return max(1, series_per_pairing(self.games, k, self.seat_rotation))


def _json(value: Any) -> Any:
    """A setting's value as JSON holds it."""
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return dict(value)
    return value


def _tuple(value: Any) -> tuple[str, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise TypeError("a list expected")
    return tuple(value)


def _mapping(value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise TypeError("an object expected")
    return dict(value)


_KINDS.update(game=str, params=_mapping, bots=_tuple, format=Format, games=int, seed=int, opening_plies=int,
              move_time=float, move_nodes=int, game_time=float, time_margin=float, memory_limit=int,
              seat_rotation=Rotation, fill=str, openings=_tuple, openings_order=OpeningsOrder, sprt=str, tau=float,
              until_ranked=float, tc=str, adjudicate=str, rounds=int, seeds=int, each=_mapping, seeding=int)
