"""Pairings: which bots meet (``docs/arena.md`` "Tournaments").

A pairing is a tuple of k bot labels (k = the game's number of players) in field order;
series.py turns it into games with rotated seats; ``arena.tournament.schedule`` plays them
(a format that decides its next games from the results is a ``Schedule`` class there).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from itertools import combinations

from arena.errors import ConfigError
from arena.numbers import check_choice


class Format(StrEnum):
    """A tournament format (``--format``; the value is the option's text)."""

    #: every k-subset of the field meets (``round_robin``)
    ROUND_ROBIN = "round-robin"
    #: the first bot, the challenger, meets every (k-1)-subset of the others (``gauntlet``)
    GAUNTLET = "gauntlet"


#: the accepted ``--format`` texts, in the order the error message lists them
FORMATS = tuple(f.value for f in Format)


def check_format(fmt: str) -> Format:
    """``fmt`` as a ``Format``.

    Raises:
        ConfigError: unknown format (the message lists the accepted ones).
    """
    return Format(check_choice("tournament format", fmt, FORMATS))


def round_robin(field: Sequence[str], k: int) -> list[tuple[str, ...]]:
    """Every k-subset of the field (every pair for two-player games), in field order."""
    return list(combinations(field, k))


def gauntlet(field: Sequence[str], k: int) -> list[tuple[str, ...]]:
    """The challenger (``field[0]``) against every (k-1)-subset of the others."""
    return [(field[0], *rest) for rest in combinations(field[1:], k - 1)]


def pairings(fmt: str, field: Sequence[str], k: int) -> list[tuple[str, ...]]:
    """The pairings of a tournament.

    Args:
        fmt: ``round-robin`` or ``gauntlet``.
        field: unique bot labels; for a gauntlet the first is the challenger.
        k: players per game.

    Raises:
        ConfigError: unknown format, or a field too small for one game (fill it first:
            ``--fill SPEC``).
    """
    kind = check_format(fmt)
    if len(field) < k:
        raise ConfigError(
            f"a {k}-player game needs at least {k} bots, got {len(field)}; "
            "add --bot SPEC or fill empty seats with --fill random (or another bot spec)"
        )
    if kind is Format.GAUNTLET and len(field) < 2:
        raise ConfigError("a gauntlet needs a challenger and at least one opponent (two --bot)")
    return round_robin(field, k) if kind is Format.ROUND_ROBIN else gauntlet(field, k)
