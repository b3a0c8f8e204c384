"""Payoffs: a game whose outcome is an amount won or lost (chips, points), not only a place.

Most games are ranked by places (``Outcome.ranks``: win, draw, loss). A game whose scores are
amounts that one seat wins from another (poker's chips, backgammon's points with gammons, a
matrix game's payoffs) declares a ``Payoff``: the reports then rank its bots by their mean
payoff per game, with intervals over duplicate series, instead of by places
(``docs/statistics.md`` "Payoffs"). The payoff of a seat in a game is its ``Outcome.scores``
entry, in the game's unit.

A game declares it as ``Game.payoff`` (a class attribute, or an instance attribute where it
depends on the parameters: OpenSpiel's backgammon pays points with ``scoring_type=full_scoring``
only). ``None``, the default: the game ranks by places.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Payoff:
    """What a game's payoffs are (``Game.payoff``).

    Attributes:
        unit: the unit of ``Outcome.scores``, plural, e.g. ``"chips"``, ``"points"``.
        forfeit: what a seat that loses by a fault pays (a positive amount in ``unit``),
            shared equally by the other seats; ``None``: games ended by a fault are left out
            of the payoff statistics (counted apart). OpenSpiel's games: the largest loss of
            one game (``-min_utility()``).
        big_blind: the size of the big blind in ``unit`` (poker), so the reports also give the
            payoff in milli-big-blinds per hand (``1000 * chips / big_blind``); ``None``: no
            per-hand unit.
        blind: one line saying what the big blind is (``"the ante, 1 chip"``).

    Raises (constructor):
        ValueError: an empty unit, a negative or non-finite forfeit, or a big blind that is
            not a positive finite number.
    """

    unit: str
    forfeit: float | None = None
    big_blind: float | None = None
    blind: str = ""

    def __post_init__(self) -> None:
        if not self.unit.strip():
            raise ValueError("a payoff needs a unit, e.g. 'chips' or 'points'")
        if self.forfeit is not None and not (math.isfinite(self.forfeit) and self.forfeit >= 0):
            raise ValueError(f"forfeit {self.forfeit!r}: accepted: a finite amount >= 0, or None")
        if self.big_blind is not None and not (math.isfinite(self.big_blind) and self.big_blind > 0):
            raise ValueError(f"big blind {self.big_blind!r}: accepted: a finite amount > 0, or None")

    def mbb(self, amount: float) -> float:
        """``amount`` (``unit`` per hand) in milli-big-blinds per hand; NaN without a big blind."""
        return math.nan if self.big_blind is None else 1000.0 * amount / self.big_blind

    def describe(self) -> str:
        """One line: the unit, the big blind and the forfeit rule, e.g. ``chips; big blind:
        the ante, 1 chip; a fault pays 13 chips``."""
        parts = [self.unit]
        if self.big_blind is not None:
            parts.append(f"big blind: {self.blind or f'{self.big_blind:g} {self.unit}'}")
        parts.append(f"a fault pays {self.forfeit:g} {self.unit}" if self.forfeit is not None
                     else "games lost by a fault are left out")
        return "; ".join(parts)


def payoff_of(game: Any) -> Payoff | None:
    """The ``Payoff`` a game declares (``game.payoff``), ``None`` when it ranks by places."""
    found = getattr(game, "payoff", None)
    return found if isinstance(found, Payoff) else None
