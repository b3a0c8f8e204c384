"""The referee's game clocks: one per seat, charged with each of the seat's sequential moves
(``docs/tournaments.md`` "Game clocks"; cutechess-cli's ``tc=`` is the model).

A seat's clock starts at its time control's base; each of its moves takes the move's seconds
off (its ``reset`` counted against its first move, as for ``--move-time``); then the increment
is added, and after every ``MOVES`` of its own moves the base again. A move that ends with the
clock below ``-time_margin`` loses by ``timeout``: an overrun within the margin is carried on
the clock, so the margin is the whole game's tolerance, not each move's. Opening plies and
simultaneous rounds (Ricochet, Solo races: their per-round ``think_time``) are never charged.
"""

from __future__ import annotations

from collections.abc import Sequence

from bots.clock import Clock, TimeControl


class GameClocks:
    """The clocks of one game, by 0-based seat (``None``: no clock for that seat).

    Args:
        controls: each seat's time control (``None`` or ``inf``: the seat is not timed).
    """

    def __init__(self, controls: Sequence[TimeControl | None]) -> None:
        self.controls = [None if tc is None or tc.infinite else tc for tc in controls]
        self.left: list[float | None] = [None if tc is None else tc.base for tc in self.controls]
        self.moves = [0] * len(self.controls)
        #: whether any seat has a clock
        self.timed = any(tc is not None for tc in self.controls)

    def allowed(self, seat: int) -> float | None:
        """Seconds on ``seat``'s clock now (may be below 0, within the margin), or ``None``."""
        return self.left[seat]

    def view(self) -> Clock:
        """Every seat's clock as bots see it (``Limits.clock``)."""
        def to_go(seat: int) -> int | None:
            tc = self.controls[seat]
            return None if tc is None or tc.moves is None else tc.moves - self.moves[seat] % tc.moves
        return Clock(tuple(None if x is None else max(0.0, x) for x in self.left),
                     tuple(0.0 if tc is None else tc.increment for tc in self.controls),
                     tuple(to_go(s) for s in range(len(self.controls))))

    def charge(self, seat: int, seconds: float) -> float | None:
        """Take a move of ``seconds`` off ``seat``'s clock, then add the increment (and the base
        at the end of a ``MOVES/`` period); the seconds left, or ``None`` for a seat without a
        clock. The caller judges the move against ``allowed`` before."""
        tc, left = self.controls[seat], self.left[seat]
        if tc is None or left is None:
            return None
        self.moves[seat] += 1
        left += tc.increment - seconds
        if tc.moves is not None and tc.base is not None and self.moves[seat] % tc.moves == 0:
            left += tc.base
        self.left[seat] = left
        return left

    def text(self, seat: int) -> str:
        """``seat``'s time control's text (``--tc`` or its spec's ``tc=``), for a fault's detail."""
        tc = self.controls[seat]
        return "inf" if tc is None else tc.text()
