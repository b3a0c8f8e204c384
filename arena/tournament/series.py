"""Series: the games of each pairing, with a shared opening and rotated seats.

Each series of a pairing plays one seeded start (``seed``: initial position and the random
opening plies) once per seat order, so every bot sits in every seat equally often
(``spec/arena.md`` "Tournaments": cyclic rotation, k games for k players; ``all``: the k!
orders). Game ids run 1, 2, ... round by round: series 0 of every pairing, then series 1...
so an interrupted run has a spread of pairings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

from arena.games import Game
from arena.numbers import check_choice
from arena.referee import derive_seed, random_opening

ROTATIONS = ("cyclic", "all")


@dataclass(frozen=True)
class GameTask:
    """One game to play.

    Attributes:
        game_id: 1-based, deterministic for a configuration.
        series: 0-based series index within its pairing.
        pairing: the pairing's labels in field order.
        seats: bot labels by 0-based seat.
        seed: the game's seed (shared by the games of a series).
        opening: forced opening plies in the game's notation.
    """

    game_id: int
    series: int
    pairing: tuple[str, ...]
    seats: tuple[str, ...]
    seed: int
    opening: tuple[str, ...]


def check_rotation(rotation: str) -> str:
    """``rotation`` if it is a seat rotation (``ROTATIONS``).

    Raises:
        ConfigError: unknown rotation (the message lists the accepted ones).
    """
    return check_choice("seat rotation", rotation, ROTATIONS)


def seat_orders(pairing: Sequence[str], rotation: str = "cyclic") -> list[tuple[str, ...]]:
    """The seat orders of one series: the k cyclic rotations, or all k! permutations.

    Raises:
        ConfigError: unknown rotation.
    """
    check_rotation(rotation)
    p = tuple(pairing)
    if rotation == "all":
        return list(permutations(p))
    return [p[i:] + p[:i] for i in range(len(p))]


def series_count(games: int, k: int, rotation: str = "cyclic") -> int:
    """Series per pairing: ``games`` rounded up to whole series."""
    return math.ceil(games / len(seat_orders(range(k), rotation)))


def schedule(
    game: Game,
    pairings: Sequence[tuple[str, ...]],
    games: int,
    seed: int,
    opening_plies: int = 0,
    rotation: str = "cyclic",
) -> list[GameTask]:
    """Every game of a tournament, in game-id order.

    Args:
        game: the game (random openings are played on it).
        pairings: from ``pairing.pairings``.
        games: games per pairing, rounded up to whole series.
        seed: the tournament seed; series seeds derive from it and the pairing's labels.
        opening_plies: seeded random plies at the start of every series.
        rotation: ``cyclic`` or ``all``.
    """
    n_series = series_count(games, game.num_players, rotation)
    tasks: list[GameTask] = []
    for s in range(n_series):
        for pairing in pairings:
            sseed = derive_seed(seed, "series", *pairing, s)
            opening = tuple(random_opening(game, sseed, opening_plies)) if opening_plies else ()
            for seats in seat_orders(pairing, rotation):
                tasks.append(GameTask(len(tasks) + 1, s, tuple(pairing), seats, sseed, opening))
    return tasks
