"""Pairings: which bots meet (``docs/arena.md`` "Tournaments").

A pairing is a tuple of k bot labels (k = the game's number of players) in field order;
series.py turns it into games with rotated seats. A new format is one small function here.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from arena.errors import ConfigError
from arena.numbers import check_choice

FORMATS = ("round-robin", "gauntlet")



def check_format(fmt: str) -> str:
    """``fmt`` if it is a tournament format (``FORMATS``).

    Raises:
        ConfigError: unknown format (the message lists the accepted ones).
    """
    return check_choice("tournament format", fmt, FORMATS)


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
    check_format(fmt)
    if len(field) < k:
        raise ConfigError(
            f"a {k}-player game needs at least {k} bots, got {len(field)}; "
            "add --bot SPEC or fill empty seats with --fill random (or another bot spec)"
        )
    if fmt == "gauntlet" and len(field) < 2:
        raise ConfigError("a gauntlet needs a challenger and at least one opponent (two --bot)")
    return round_robin(field, k) if fmt == "round-robin" else gauntlet(field, k)
