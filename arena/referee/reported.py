"""What a bot reports of its search, checked where it enters the referee's records.

A bot's ``last_stats`` (``bots.base.SearchStats``; an ``exec:`` or isolated engine's comes from
its ``info`` lines, ``arena.engine.client``) is the bot's word, not the arena's: a hostile or
buggy bot may report ``nodes`` of 2**63 and more (beyond SQLite's integers: the store would
raise ``OverflowError``), a negative depth, a NaN evaluation, a ``str``, or a property that
raises. ``reported`` is the one boundary: every figure stored with a move passes it.

- ``nodes``, ``depth``: an ``int`` (or an integral finite ``float``); above ``MAX_FIGURE``
  (2**63 − 1) it is stored clipped to it; 0 is "not reported" (``SearchStats``' defaults);
  negative or another type is dropped.
- ``evaluation``: a finite real number of magnitude at most ``MAX_EVALUATION``; anything else
  (NaN, ±inf, 10**400, a ``str``) is dropped.

A dropped figure is stored as NULL (never as 0). Each clipped or dropped figure is noted in
the log (``arena.referee``: the tournament log) once per bot object and field, not once per
move (a worker keeps its bot objects from game to game).

``MoveLogs`` reads a bot's ``last_log`` (a network player's telemetry and transcript) after each
``choose``: kept as JSON text with the game's record (``GameRecord.log``).
"""

from __future__ import annotations

import json
import logging
import math
from numbers import Integral, Real
from typing import Any, NamedTuple

log = logging.getLogger("arena.referee")

#: the largest ``nodes`` or ``depth`` stored (SQLite's largest integer)
MAX_FIGURE = 2**63 - 1
#: the largest magnitude of a stored evaluation (the bot's own units)
MAX_EVALUATION = 1e300
#: (bot object id, bot label, field) already noted in the log
_NOTED: set[tuple[int, str, str]] = set()


class Reported(NamedTuple):
    """A bot's ``last_stats`` as stored with its move: ``nodes`` (count), ``depth`` (plies),
    ``evaluation`` (the bot's units); ``None``: not reported (stored as NULL, never as 0)."""

    nodes: int | None
    depth: int | None
    evaluation: float | None


#: figures of a bot that reports none
UNREPORTED = Reported(None, None, None)


def _note(bot: Any, field: str, value: Any, action: str) -> None:
    label = str(getattr(bot, "label", None) or type(bot).__name__)
    key = (id(bot), label, field)
    if key in _NOTED or len(_NOTED) > 10_000:
        return
    _NOTED.add(key)
    log.warning("bot %s reported %s %s: %s (noted once per bot and figure)", label, field, _shown(value), action)


def _shown(value: Any) -> str:
    """``repr(value)``, at most 60 characters."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a hostile __repr__, or an int beyond the int-to-text limit
        return f"a {type(value).__name__} that cannot be shown"
    return text if len(text) <= 60 else text[:57] + "..."


def _count(bot: Any, field: str, value: Any) -> int | None:
    """``nodes``/``depth``: an integer in 1..MAX_FIGURE, ``None`` for 0 or dropped."""
    if type(value) is int and 0 <= value <= MAX_FIGURE:  # the usual figure, without the numbers ABCs' checks
        return value or None
    if isinstance(value, bool) or not isinstance(value, (Integral, Real)):
        if value is not None:
            _note(bot, field, value, "not a number, dropped")
        return None
    if not isinstance(value, Integral) and not (math.isfinite(value) and float(value).is_integer()):
        _note(bot, field, value, "not a whole number, dropped")
        return None
    number = int(value) if isinstance(value, Integral) else int(float(value))
    if number < 0:
        _note(bot, field, value, "negative, dropped")
        return None
    if number > MAX_FIGURE:
        _note(bot, field, value, f"stored clipped to {MAX_FIGURE}")
        return MAX_FIGURE
    return number or None


def _evaluation(bot: Any, value: Any) -> float | None:
    if value is None:
        return None
    if type(value) is float and math.isfinite(value) and abs(value) <= MAX_EVALUATION:  # the usual figure
        return value
    if isinstance(value, bool) or not isinstance(value, Real):
        _note(bot, "evaluation", value, "not a number, dropped")
        return None
    try:
        number = float(value)
    except (OverflowError, ValueError):
        number = math.inf
    if not (math.isfinite(number) and abs(number) <= MAX_EVALUATION):
        _note(bot, "evaluation", value, "not a finite number within ±1e300, dropped")
        return None
    return number


def reported(bot: Any) -> Reported:
    """The bot's ``last_stats`` as checked figures (module docstring); ``UNREPORTED`` when it
    has none, or when reading them raises (a property of the bot's own). Never raises."""
    try:
        st = getattr(bot, "last_stats", None)  # ReportsStats, without isinstance's protocol check (25 µs a ply)
        if st is None:
            return UNREPORTED
        nodes, depth = getattr(st, "nodes", None), getattr(st, "depth", None)
        evaluation = getattr(st, "evaluation", None)
    except Exception:  # noqa: BLE001 - the bot's code: its figures are not reported
        return UNREPORTED
    try:
        return Reported(_count(bot, "nodes", nodes), _count(bot, "depth", depth), _evaluation(bot, evaluation))
    except Exception:  # noqa: BLE001 - a Real subclass whose arithmetic raises
        _note(bot, "last_stats", type(st).__name__, "unreadable, dropped")
        return UNREPORTED


#: characters of one move's log text kept (a larger one is replaced by a note of its size)
MAX_LOG = 1_000_000


class MoveLogs:
    """The ``last_log`` of each move of one game (``bots.base.Player``), read after each
    ``choose`` with one ``getattr``: a dict set anew by the bot is kept as JSON text with the
    move's 0-based ``ply`` and ``seat``; ``None``, or the object kept at the seat's last move
    (a bot that did not set it this move), is not. A log that JSON cannot write (a NaN, an
    object) or longer than ``MAX_LOG`` characters is replaced by a note of why, in the log
    (``arena.referee``) once per bot. ``text()``: the game's ``GameRecord.log``."""

    __slots__ = ("entries", "last")

    def __init__(self, seats: int) -> None:
        self.entries: list[str] = []
        self.last: list[Any] = [None] * seats

    def take(self, bot: Any, ply: int, seat: int) -> None:
        """Keep the bot's ``last_log`` for the move of ``seat`` at ``ply``. Never raises."""
        try:
            entry = getattr(bot, "last_log", None)
        except Exception:  # noqa: BLE001 - a property of the bot's own that raises: no log
            return
        if entry is None or entry is self.last[seat]:
            return
        self.last[seat] = entry
        try:
            if type(entry) is not dict:
                raise TypeError(f"a {type(entry).__name__}, not a dict")
            text = json.dumps(entry, allow_nan=False, ensure_ascii=False)
            if len(text) > MAX_LOG:
                raise ValueError(f"{len(text)} characters, over {MAX_LOG}")
        except Exception as exc:  # noqa: BLE001 - whatever the bot put there: a note instead
            _note(bot, "last_log", type(entry).__name__, f"not stored ({type(exc).__name__})")
            text = json.dumps({"dropped": f"{type(exc).__name__}: {exc}"[:200]})
        self.entries.append(f'{{"ply": {ply}, "seat": {seat}, "log": {text}}}')

    def text(self) -> str | None:
        """The game's logs as one JSON list, or ``None`` when no move was logged."""
        return None if not self.entries else "[" + ", ".join(self.entries) + "]"
