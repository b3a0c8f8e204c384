"""Game clocks as bots see them: a time control (``TimeControl``, the text of ``--tc`` and of a
spec's ``tc=``) and the clocks of a game at one move (``Clock``, in ``Limits.clock``).

cutechess-cli's ``tc=`` is the model: ``MOVES/BASE+INC`` (``BASE`` seconds for every ``MOVES``
of the seat's own moves, refilled after each period, plus ``INC`` seconds after each move),
``BASE+INC`` (one period for the whole game, Fischer increment), ``BASE`` and ``inf`` (no clock).
The referee keeps the clocks (``arena.referee.clock``); ``Clock.budget`` is the share of its
clock a built-in search bot spends on one move (``docs/tournaments.md`` "Game clocks").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from arena.errors import ConfigError

#: own moves a budget assumes are left when the time control has no ``MOVES/`` period
MOVES_LEFT = 30
#: share of the increment a budget spends on top of its share of the clock
INCREMENT_SHARE = 0.75
#: the most of what is left on its clock a budget spends on one move
MAX_SHARE = 0.5
#: the most of what is left a budget spends on the last move of a ``MOVES/`` period (a refill follows)
LAST_SHARE = 0.75
#: the accepted forms, for error messages
TC_FORMS = "MOVES/BASE+INC, BASE+INC, BASE or inf (seconds, e.g. 40/60+0.6, 10+0.1, inf)"

_TC = re.compile(r"^(?:(\d+)/)?([0-9]*\.?[0-9]+(?:e[+-]?\d+)?)(?:\+([0-9]*\.?[0-9]+(?:e[+-]?\d+)?))?$")


@dataclass(frozen=True)
class TimeControl:
    """A game clock's time control (seconds).

    Attributes:
        base: seconds on the clock at the start (and added at each refill); ``None``: no clock
            (``inf``).
        increment: seconds added to the clock after each of the seat's own moves (Fischer).
        moves: own moves per period: after every ``moves`` of them ``base`` seconds are added
            again; ``None``: one period for the whole game.
    """

    base: float | None
    increment: float = 0.0
    moves: int | None = None

    @classmethod
    def parse(cls, text: object) -> TimeControl:
        """The time control of ``text`` (``40/60+0.6``, ``10+0.1``, ``60``, ``inf``).

        Raises:
            ConfigError: anything else, a base that is not > 0, a period of 0 moves, or a
                number past one day.
        """
        raw = str(text).strip().lower()
        if raw in ("inf", "infinite"):
            return INFINITE
        found = _TC.match(raw)
        if found is None:
            raise ConfigError(f"bad time control {str(text)!r}; accepted: {TC_FORMS}")
        moves, base, inc = found.group(1), float(found.group(2)), float(found.group(3) or 0)
        if not (0 < base <= 86_400 and 0 <= inc <= 86_400 and math.isfinite(base + inc)):
            raise ConfigError(f"bad time control {str(text)!r}: base must be > 0 and at most 86400 seconds, "
                              f"increment 0 to 86400; accepted: {TC_FORMS}")
        if moves is not None and not 1 <= int(moves) <= 10_000:
            raise ConfigError(f"bad time control {str(text)!r}: MOVES must be 1 to 10000; accepted: {TC_FORMS}")
        return cls(base, inc, None if moves is None else int(moves))

    @property
    def infinite(self) -> bool:
        """No clock (``inf``)."""
        return self.base is None

    def text(self) -> str:
        """The canonical text (``parse`` reads it back): ``40/60+0.6``, ``10+0.1``, ``60``, ``inf``."""
        if self.base is None:
            return "inf"
        period = f"{self.moves}/" if self.moves else ""
        return f"{period}{self.base:g}" + (f"+{self.increment:g}" if self.increment else "")

    def __str__(self) -> str:
        return self.text()


#: no clock
INFINITE = TimeControl(None)


def check_tc(text: object) -> str:
    """``text`` as the canonical time control text (``TimeControl.text``).

    Raises:
        ConfigError: as ``TimeControl.parse``.
    """
    return TimeControl.parse(text).text()


@dataclass(frozen=True)
class Clock:
    """Every seat's clock when a bot is asked to move (``Limits.clock``); one entry per 0-based
    seat, ``None`` for a seat without a clock (``inf``: time odds).

    Attributes:
        remaining: seconds left on each seat's clock (never below 0 here).
        increment: seconds each seat gets after each of its moves.
        moves_to_go: own moves each seat has left in its period before the refill (``None``:
            no ``MOVES/`` period).
    """

    remaining: tuple[float | None, ...]
    increment: tuple[float, ...]
    moves_to_go: tuple[int | None, ...]

    def budget(self, seat: int) -> float | None:
        """Seconds a search bot in 0-based ``seat`` spends on this move: its clock shared among
        the moves left (``moves_to_go``, else ``MOVES_LEFT``) plus ``INCREMENT_SHARE`` of its
        increment, at most ``MAX_SHARE`` of what is left; ``None``: the seat has no clock."""
        left = self.remaining[seat] if 0 <= seat < len(self.remaining) else None
        if left is None:
            return None
        to_go = self.moves_to_go[seat] or MOVES_LEFT
        share = left / to_go + INCREMENT_SHARE * self.increment[seat]
        return max(0.0, min(share, MAX_SHARE * left if to_go > 1 else LAST_SHARE * left))

    def __str__(self) -> str:
        def one(seat: int) -> str:
            left = self.remaining[seat]
            if left is None:
                return "inf"
            togo = self.moves_to_go[seat]
            return f"{left:.3f}s" + (f"+{self.increment[seat]:g}" if self.increment[seat] else "") + \
                (f" ({togo} to go)" if togo else "")
        return " / ".join(one(s) for s in range(len(self.remaining)))
