"""The enumerated settings a tournament is stored with (``docs/storage.md``, ``settings``).

They live with the store because it reads them back; the tournament layer builds its
schedules from them (``arena.tournament.pairing``, ``arena.tournament.series``).
"""

from __future__ import annotations

from enum import StrEnum


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
