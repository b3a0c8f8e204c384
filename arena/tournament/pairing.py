"""Pairings: which bots meet (``docs/arena.md`` "Tournaments").

A pairing is a tuple of k bot labels (k = the game's number of players) in field order;
series.py turns it into games with rotated seats; ``arena.tournament.schedule`` plays them
(a format that decides its next games from the results is a ``Schedule`` class there).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from arena.errors import ConfigError
from arena.numbers import check_choice
from arena.results.settings import FORMATS, Format


def check_format(fmt: Format | str) -> Format:
    """``fmt`` as a ``Format``.

    Raises:
        ConfigError: unknown format (the message lists the accepted ones).
    """
    return Format(check_choice("tournament format", fmt, FORMATS))


def round_robin(field: Sequence[str], k: int) -> list[tuple[str, ...]]:
    """Every k-subset of the field (every pair for two-player games), in field order."""
    return list(combinations(field, k))


def gauntlet(field: Sequence[str], k: int, seeds: int = 1) -> list[tuple[str, ...]]:
    """Each of the first ``seeds`` bots (the challengers; cutechess-cli's ``-seeds``) against
    every (k-1)-subset of the bots after them; the seeds never meet each other."""
    return [(seed, *rest) for seed in field[:seeds] for rest in combinations(field[seeds:], k - 1)]


def pairings(fmt: Format | str, field: Sequence[str], k: int, seeds: int = 1) -> list[tuple[str, ...]]:
    """The pairings of a fixed-pairings tournament.

    Args:
        fmt: ``round-robin`` or ``gauntlet``.
        field: unique bot labels; for a gauntlet the first ``seeds`` are the challengers.
        k: players per game.
        seeds: a gauntlet's challengers (``--seeds``).

    Raises:
        ConfigError: unknown format or one that has no fixed pairings, a field too small for one
            game (fill it first: ``--fill SPEC``), or a gauntlet without a bot beside its seeds.
    """
    kind = check_format(fmt)
    if len(field) < k:
        raise ConfigError(
            f"a {k}-player game needs at least {k} bots, got {len(field)}; "
            "add --bot SPEC or fill empty seats with --fill random (or another bot spec)"
        )
    if kind not in (Format.ROUND_ROBIN, Format.GAUNTLET):
        raise ConfigError(f"format {kind} has no fixed pairings; it decides them from the results")
    if kind is Format.GAUNTLET and len(field) < 2:
        raise ConfigError("a gauntlet needs a challenger and at least one opponent (two --bot)")
    if kind is Format.GAUNTLET and len(field) - seeds < k - 1:
        raise ConfigError(f"--seeds {seeds} leaves {len(field) - seeds} bot(s) to meet; a {k}-player gauntlet "
                          f"needs at least {k - 1} bot(s) after its seeds")
    return round_robin(field, k) if kind is Format.ROUND_ROBIN else gauntlet(field, k, seeds)
