"""The ``go`` line of the engine protocol (``docs/engine-protocol.md`` "Game clocks"): a
move's limits, and from version 2 every seat's game clock, both ways (``Go.line``, ``parse_go``)."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from bots.base import Limits
from bots.clock import Clock

#: the first protocol version whose engines read the game clocks of ``go`` (``aepok 2``)
CLOCKS_VERSION = 2


def _number(text: str, kind: type) -> Any:
    try:
        return kind(text)
    except ValueError:
        return None


class Go(NamedTuple):
    """``go [movetime MS] [nodes N] [depth D] [timeK MS incK MS ...] [movestogo N]`` (seconds
    here; ``None`` = no limit). The clock fields are version 2's: ``timeK`` / ``incK`` the
    milliseconds left on seat K's clock and its increment (a seat without a clock has none),
    ``movestogo`` the engine's own moves left before its clock's refill.

    Attributes:
        time, nodes, depth: the move's limits. times, incs: per 0-based seat, seconds (``None``:
        no clock); empty without clocks. movestogo: own moves to the refill, or ``None``.
    """

    time: float | None = None
    nodes: int | None = None
    depth: int | None = None
    times: tuple[float | None, ...] = ()
    incs: tuple[float, ...] = ()
    movestogo: int | None = None

    @classmethod
    def of(cls, limits: Limits, seat: int, version: int = CLOCKS_VERSION) -> Go:
        """The ``go`` of a move under ``limits`` for the engine in 0-based ``seat``: the clocks
        as they are to a version 2 engine; a version 1 engine, which reads no clock, gets its
        budget on the clock as the move time (``Limits.budgeted``)."""
        clock = limits.clock
        if clock is None:
            return cls(limits.time, limits.nodes, limits.depth)
        if version < CLOCKS_VERSION:
            return cls(limits.budgeted(seat).time, limits.nodes, limits.depth)
        togo = clock.moves_to_go[seat] if 0 <= seat < len(clock.moves_to_go) else None
        return cls(limits.time, limits.nodes, limits.depth, clock.remaining, clock.increment, togo)

    def line(self) -> str:
        """The ``go`` line: ``movetime`` in whole milliseconds (at least 1), ``nodes``,
        ``depth`` in plies, then the clocks in whole milliseconds; only the limits that are set."""
        parts = ["go"]
        if self.time is not None:
            parts += ["movetime", str(max(1, int(self.time * 1000)))]
        if self.nodes is not None:
            parts += ["nodes", str(int(self.nodes))]
        if self.depth is not None:
            parts += ["depth", str(int(self.depth))]
        for seat, (left, inc) in enumerate(zip(self.times, self.incs)):
            if left is not None:
                parts += [f"time{seat}", str(max(0, int(left * 1000))), f"inc{seat}", str(int(inc * 1000))]
        if self.movestogo is not None:
            parts += ["movestogo", str(int(self.movestogo))]
        return " ".join(parts)

    def limits(self, seat: int) -> Limits:
        """These limits as a bot in 0-based ``seat`` sees them (``Limits.clock`` when the line
        had clock fields; ``movestogo`` is the seat's own)."""
        if not self.times:
            return Limits(self.time, self.nodes, self.depth)
        togo = tuple(self.movestogo if s == seat else None for s in range(len(self.times)))
        return Limits(self.time, self.nodes, self.depth, Clock(self.times, self.incs, togo))


_CLOCK_FIELD = re.compile(r"^(time|inc)(\d{1,2})$")
#: the most seats a ``go`` line's clocks name (``timeK`` with K below it)
MAX_SEATS = 64


def parse_go(line: str) -> Go:
    """A ``go`` line's limits; unknown words (UCI's ``wtime``...) and bad numbers are skipped."""
    words = line.split()[1:]
    out: dict[str, Any] = {}
    times: dict[int, float] = {}
    incs: dict[int, float] = {}
    for key, value in zip(words, words[1:]):
        if key == "movetime":
            ms = _number(value, float)
            out["time"] = None if ms is None or not ms >= 0 else ms / 1000.0
        elif key in ("nodes", "depth", "movestogo"):
            out[key] = _number(value, int)
        else:
            found = _CLOCK_FIELD.match(key)
            ms = _number(value, float) if found else None
            if found and ms is not None and ms >= 0 and ms != float("inf") and int(found.group(2)) < MAX_SEATS:
                (times if found.group(1) == "time" else incs)[int(found.group(2))] = ms / 1000.0
    if times:
        seats = max(times) + 1
        out["times"] = tuple(times.get(s) for s in range(seats))
        out["incs"] = tuple(incs.get(s, 0.0) for s in range(seats))
    if out.get("movestogo") is not None and out["movestogo"] < 1:
        out["movestogo"] = None
    return Go(**out)
