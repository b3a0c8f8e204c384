"""Which OpenSpiel games rank by payoff (``arena.games.payoff``), and in what unit.

The rule (``docs/statistics.md`` "Payoffs"): a game ranks by payoff when OpenSpiel declares it
zero-sum (``GameType.Utility.ZERO_SUM``) and a game can pay more than one unit
(``min_utility() < -1`` or ``max_utility() > 1``): its returns are then amounts won from the
other seats, not a win, a draw or a loss. With its parameters: backgammon pays points (1, 2
for a gammon, 3 for a backgammon) with ``scoring_type=full_scoring`` only, goofspiel with
``returns_type=point_difference`` only. Every other OpenSpiel game (returns in [-1, 1], or not
zero-sum) ranks by places.

The unit is ``chips`` for the poker games, ``points`` otherwise. A seat that loses by a fault
pays the largest loss of one game, ``-min_utility()``. The big blind, for the milli-big-blinds
per hand of the reports: Kuhn and Leduc poker have no blinds, every hand starts with an ante
of 1 chip from each seat (OpenSpiel's ``kuhn_poker``, ``leduc_poker``), so the big blind is
taken as that ante, 1 chip; ``universal_poker`` posts its ``blind`` parameter (default
``100 100``), whose largest entry is the big blind. A repeated game of many hands
(``repeated_leduc_poker``) has no per-hand figure.
"""

from __future__ import annotations

from typing import Any

from arena.games.payoff import Payoff

#: OpenSpiel's poker games: their payoffs are chips
POKER = frozenset({"kuhn_poker", "leduc_poker", "universal_poker", "repeated_poker", "repeated_leduc_poker"})
#: the games whose hands start with an ante of 1 chip from each seat and no blinds
ANTE_ONE = frozenset({"kuhn_poker", "leduc_poker"})


def spiel_payoff(spiel: Any) -> Payoff | None:
    """The ``Payoff`` of a loaded ``pyspiel.Game`` (the module doc's rule), or ``None``: it
    ranks by places."""
    kind = spiel.get_type()
    if kind.utility.name != "ZERO_SUM":
        return None
    low, high = float(spiel.min_utility()), float(spiel.max_utility())
    if low >= -1 and high <= 1:
        return None
    name = kind.short_name
    big, blind = _big_blind(name, spiel)
    return Payoff("chips" if name in POKER else "points", forfeit=-low if low < 0 else high,
                  big_blind=big, blind=blind)


def _big_blind(name: str, spiel: Any) -> tuple[float | None, str]:
    """``(big blind in chips, what it is)``, or ``(None, "")`` where a game has no per-hand unit."""
    if name in ANTE_ONE:
        return 1.0, "the ante, 1 chip (no blinds)"
    if name == "universal_poker":
        text = str(spiel.get_parameters().get("blind", ""))
        blinds = [float(word) for word in text.split() if _number(word)]
        if blinds and max(blinds) > 0:
            return max(blinds), f"the largest blind, {max(blinds):g} chips (blind={text})"
    return None, ""


def _number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True
