"""Series: the games of each pairing, with a shared opening and rotated seats.

Each series of a pairing plays one seeded start (``seed``: initial position and the random
opening plies; or a position of an openings file) once per seat order, so every bot sits in
every seat equally often (``docs/arena.md`` "Tournaments": cyclic rotation, k games for k
players; ``all``: the k! orders). Game ids run 1, 2, ... round by round: series 0 of every
pairing, then series 1... so an interrupted run has a spread of pairings, and more games per
pairing only append series (ids continue).

Seeds (all ``arena.referee.derive_seed``, so any game can be re-run from what is stored): a
pairing is first ``oriented`` (seeding scheme 3: its bots' names sorted, a name being the label
without version, ``arena.tournament.members``); series ``s`` has seed
``derive_seed(tournament seed, "series", *oriented names, s)``, its seat orders are the
rotations of the oriented pairing, and the bot on each seat of the game with 0-based index ``i``
in its series gets ``derive_seed(series seed, "bot", i, name)`` (``arena.referee.bot_seeds``),
so two copies of a stochastic bot never replay one game with the seats swapped
(``docs/statistics.md`` "Games must be distinct"). The games of a pairing are therefore the same
in whichever field it is played, and every version of a bot plays the same series.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from pathlib import Path
from typing import Any

from arena.errors import ArenaError, ConfigError
from arena.games import Game
from arena.numbers import check_choice
from arena.openings import OpeningsOrder, check_openings_order, series_start
from arena.referee import SEEDING, bot_seeds, derive_seed, random_opening
from arena.results.settings import ROTATIONS, Rotation



@dataclass(frozen=True)
class GameTask:
    """One game to play.

    Attributes:
        game_id: 1-based, deterministic for a configuration.
        series: 0-based series index within its pairing.
        pairing: the pairing's labels, ``oriented``.
        seats: bot labels by 0-based seat.
        seed: the series seed (shared by the games of a series): initial position and
            opening plies.
        opening: forced opening plies in the game's notation.
        index: 0-based index of the game in its series (its seat order in the rotation).
        seeds: each seat's bot seed (``arena.referee.bot_seeds``).
        start: the series' position text from an openings file, or ``None`` (the game's
            ``initial_state(seed)``).
    """

    game_id: int
    series: int
    pairing: tuple[str, ...]
    seats: tuple[str, ...]
    seed: int
    opening: tuple[str, ...]
    index: int = 0
    seeds: tuple[int, ...] = ()
    start: str | None = None


def check_rotation(rotation: Rotation | str) -> Rotation:
    """``rotation`` as a ``Rotation``.

    Raises:
        ConfigError: unknown rotation (the message lists the accepted ones).
    """
    return Rotation(check_choice("seat rotation", rotation, ROTATIONS))


def seat_orders(pairing: Sequence[Any], rotation: Rotation | str = Rotation.CYCLIC) -> list[tuple[Any, ...]]:
    """The seat orders of one series: the k cyclic rotations, or all k! permutations.

    Raises:
        ConfigError: unknown rotation.
    """
    p = tuple(pairing)
    if check_rotation(rotation) is Rotation.ALL:
        return list(permutations(p))
    return [p[i:] + p[:i] for i in range(len(p))]


def series_count(games: int, k: int, rotation: Rotation | str = Rotation.CYCLIC) -> int:
    """Series per pairing: ``games`` rounded up to whole series."""
    return math.ceil(games / len(seat_orders(range(k), rotation)))


def read_openings(path: str | os.PathLike[str], game: Game) -> tuple[str, ...]:
    """The positions of an openings file: one position text a line in the game's own notation
    (``Game.parse_state``); blank lines and comments are skipped. A comment is a line whose
    first word is ``#`` (``#`` then a space, or ``#`` alone): an Interaction position itself
    starts with ``#``, the board's corner.

    Returns:
        The position lines, stripped, in file order.

    Raises:
        ConfigError: unreadable file, no position, or a line that is not a position of the
            game or is already over (the message names the file and the 1-based line).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read openings file {str(path)!r}: {getattr(exc, 'strerror', None) or exc}") from None
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.split()[0] == "#":
            continue
        try:
            over = game.parse_state(line).is_terminal()
        except ArenaError as exc:
            raise ConfigError(f"{path}:{number}: not a position of {game.name}: {exc}") from None
        if over:
            raise ConfigError(f"{path}:{number}: the game is already over in this position")
        out.append(line)
    if not out:
        raise ConfigError(f"openings file {str(path)!r} has no position "
                          "(one position text a line; '# ' starts a comment)")
    return tuple(out)


@dataclass(frozen=True)
class SeriesSettings:
    """What decides the games of a series (the tournament's settings that schedules share).

    Attributes:
        games: games per pairing (fixed formats: rounded up to whole series).
        seed: the tournament seed; series seeds derive from it and the pairing's labels.
        opening_plies: seeded random plies at the start of every series (after the file's
            position when ``openings`` are given).
        rotation: the seat orders of a series.
        openings: position texts (``read_openings``); series ``s`` plays ``series_start``.
        openings_order: the order series take ``openings`` in.
        seeding: the bot seeding scheme (``arena.referee.bot_seeds``): the current one, or that
            of a tournament stored before it.
        names: ``(label, name)`` of the labels whose seeds use another name: a bot version's
            label and the bot's label without version (``me@2``, ``me``).
        order: under seeding schemes 1 and 2, the names in the order the bots joined the
            tournament (a pairing is oriented that way; empty: as given).
    """

    games: int
    seed: int
    opening_plies: int = 0
    rotation: Rotation = Rotation.CYCLIC
    openings: tuple[str, ...] = ()
    openings_order: OpeningsOrder = OpeningsOrder.SEQUENTIAL
    seeding: int = SEEDING
    names: tuple[tuple[str, str], ...] = ()
    order: tuple[str, ...] = ()

    def per_series(self, k: int) -> int:
        """Games in one series of a ``k``-player pairing."""
        return len(seat_orders(range(k), self.rotation))

    def name(self, label: str) -> str:
        """The name ``label`` takes its seeds by (the label without version)."""
        return dict(self.names).get(label, label)


def oriented(pairing: Sequence[str], settings: SeriesSettings) -> tuple[str, ...]:
    """The pairing in the order its series' seeds and seat orders are taken from: by name
    (seeding scheme 3), else by the order the bots joined (``settings.order``; as given when
    empty or for a name not in it)."""
    if settings.seeding >= 3:
        return tuple(sorted(pairing, key=lambda label: (settings.name(label), label)))
    if not settings.order:
        return tuple(pairing)
    rank = {name: i for i, name in enumerate(settings.order)}
    return tuple(sorted(pairing, key=lambda label: rank.get(settings.name(label), len(rank))))


def series_games(game: Game, pairing: Sequence[str], series: int, first_id: int,
                 settings: SeriesSettings) -> list[GameTask]:
    """The games of series ``series`` (0-based) of one pairing, with ids from ``first_id``.

    Raises:
        ConfigError: unknown rotation or openings order.
    """
    start = series_start(settings.openings, settings.openings_order, settings.seed, series)
    pairing = oriented(pairing, settings)
    sseed = derive_seed(settings.seed, "series", *map(settings.name, pairing), series)
    plies = settings.opening_plies
    opening = tuple(random_opening(game, sseed, plies, start)) if plies else ()
    return [GameTask(first_id + index, series, pairing, seats, sseed, opening, index,
                     bot_seeds(sseed, index, [settings.name(label) for label in seats], settings.seeding), start)
            for index, seats in enumerate(seat_orders(pairing, settings.rotation))]


def schedule(
    game: Game,
    pairings: Sequence[tuple[str, ...]],
    games: int,
    seed: int,
    opening_plies: int = 0,
    rotation: Rotation | str = Rotation.CYCLIC,
    *,
    openings: Sequence[str] = (),
    openings_order: OpeningsOrder | str = OpeningsOrder.SEQUENTIAL,
    seeding: int = SEEDING,
) -> list[GameTask]:
    """Every game of a fixed-pairings tournament, in game-id order: series 0 of every pairing,
    then series 1... (``series_games``; arguments as ``SeriesSettings``).

    Raises:
        ConfigError: unknown rotation or openings order.
    """
    settings = SeriesSettings(games, seed, opening_plies, check_rotation(rotation), tuple(openings),
                              check_openings_order(openings_order), seeding)
    return fixed_tasks(game, pairings, settings)


def fixed_tasks(game: Game, pairings: Sequence[tuple[str, ...]], settings: SeriesSettings) -> list[GameTask]:
    """Every game of the ``pairings`` (``settings.games`` each, whole series), ids 1, 2... in
    round order: series 0 of every pairing, then series 1...

    Raises:
        ConfigError: unknown rotation or openings order.
    """
    tasks: list[GameTask] = []
    for s in range(series_count(settings.games, game.num_players, settings.rotation)):
        for pairing in pairings:
            tasks += series_games(game, pairing, s, len(tasks) + 1, settings)
    return tasks
