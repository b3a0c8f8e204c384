"""Options shared by the commands: accepted ranges and one range check with one message for
every command (``arena run``, ``arena play``, ``arena solve``): ``--seed -1 is out of range;
accepted: 0 to ...``; and the one parser of ``-p key=value`` game parameters (``parse_params``).
"""

from __future__ import annotations

import math
from typing import Any, overload

from arena.errors import ConfigError

MAX_SEED = 2**63 - 1

#: the most digits of a count read from text (a score, a ply, a round, a layout number): 18
#: digits stay below 2**63 (SQLite's integers) and far below Python's int-to-string limit
#: (4,300 digits), so no number read from a position, a move or a config line can overflow.
MAX_DIGITS = 18

#: (low, high) accepted per numeric option (units: seconds, MiB, plies, nodes).
RANGES: dict[str, tuple[float, float]] = {
    "games": (1, 1_000_000),
    "workers": (1, 512),
    "seed": (0, MAX_SEED),
    "opening_plies": (0, 10_000),
    "move_time": (0.001, 86_400),
    "move_nodes": (1, 10**15),
    "game_time": (0.01, 7 * 86_400),
    "time_margin": (0, 3_600),
    "memory_limit": (16, 16 * 1024 * 1024),
    "retries": (0, 100),
    "time_limit": (0.001, 86_400),
    "rounds": (1, 10_000),
    "seeds": (1, 10_000),
    "concurrency": (1, 1024),
}
INTEGER = {"games", "workers", "seed", "opening_plies", "move_nodes", "memory_limit", "retries", "rounds", "seeds",
           "concurrency"}


def natural(text: str) -> int | None:
    """``text`` (e.g. ``"12"``) as a non-negative integer when it is 1 to ``MAX_DIGITS`` ASCII
    digits ``0``-``9``, else ``None``: a sign, a space, ``"²"`` or ``"٣"`` (digits to
    ``str.isdigit``, not to ``int``) or 19 digits and more are not a count. The one test of
    a count in text for every game's ``parse_state``/``parse_move``; the caller raises its
    own ``ArenaError`` subclass naming the field on ``None``.
    """
    if 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def check_number(key: str, value: Any) -> int | float | None:
    """``value`` (text from a command line, or a TOML number) of the option ``key`` (a key of
    ``RANGES``, e.g. ``"move_time"``), converted and range-checked; ``None`` stays ``None``.

    Raises:
        ConfigError: not a number (an integer for ``INTEGER`` keys), NaN, or outside the range;
            the message names the option and the accepted range.
    """
    if value is None:
        return None
    lo, hi = RANGES[key]
    low, high = _num(lo), _num(hi)
    kind = "an integer" if key in INTEGER else "a number"
    option = f"--{key.replace('_', '-')}"
    try:
        if isinstance(value, bool):
            raise ValueError
        num = int(value) if key in INTEGER and not isinstance(value, float) else float(value)
        if key in INTEGER and num != int(num):
            raise ValueError
    except (TypeError, ValueError, OverflowError):
        raise ConfigError(f"{option} {value!r} is not {kind}; accepted: {low} to {high}") from None
    if not (lo <= num <= hi) or num != num:
        raise ConfigError(f"{option} {value} is out of range; accepted: {low} to {high}")
    return int(num) if key in INTEGER else float(num)


@overload
def check_int(key: str, value: None) -> None: ...
@overload
def check_int(key: str, value: str | int) -> int: ...
def check_int(key: str, value: str | int | None) -> int | None:
    """``check_number`` for a key of ``INTEGER`` (``"seed"``, ``"memory_limit"``, ...), typed: an
    ``int``, or ``None`` for ``None``.

    Raises:
        ConfigError: as ``check_number``.
    """
    num = check_number(key, value)
    return None if num is None else int(num)


@overload
def check_float(key: str, value: None) -> None: ...
@overload
def check_float(key: str, value: str | float) -> float: ...
def check_float(key: str, value: str | float | None) -> float | None:
    """``check_number`` for a key outside ``INTEGER`` (``"move_time"``, ``"time_margin"``, ...),
    typed: a ``float`` (seconds), or ``None`` for ``None``.

    Raises:
        ConfigError: as ``check_number``.
    """
    num = check_number(key, value)
    return None if num is None else float(num)


def parse_params(items: list[str] | None) -> dict[str, str]:
    """``key=value`` strings (``-p`` of ``arena run`` and ``arena play``) as a dict.

    Raises:
        ConfigError: an item without ``=``, or a key given twice.
    """
    out: dict[str, str] = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"bad game parameter {item!r}; expected key=value, e.g. -p target=5")
        if key.strip() in out:
            raise ConfigError(f"game parameter {key.strip()!r} given twice (-p {key.strip()}={out[key.strip()]}, "
                              f"-p {item.strip()}); give it once")
        out[key.strip()] = value.strip()
    return out


def check_choice(what: str, value: Any, accepted: tuple[str, ...]) -> Any:
    """``value`` if it is one of ``accepted`` (a tournament format, a seat rotation...).

    Raises:
        ConfigError: ``unknown <what> 'x'; accepted: a, b``.
    """
    if value not in accepted:
        raise ConfigError(f"unknown {what} {value!r}; accepted: {', '.join(accepted)}")
    return value


def parse_anchor(text: str | None) -> tuple[str, float] | None:
    """``--anchor BOT=ELO`` as ``(BOT, ELO)``, ``--anchor BOT`` as ``(BOT, 0)`` (the ratings
    relative to a base bot, as fastchess gives Elo against a base); ``None`` stays ``None``
    (mean 0). Here, not in ``arena.stats.field`` (numpy): ``arena run`` checks it before any
    heavy import.

    Raises:
        ConfigError: an empty bot, or an Elo that is not a finite number.
    """
    if text is None:
        return None
    if "=" not in str(text) and str(text).strip():  # a base bot: the others' Elo relative to it
        return str(text).strip(), 0.0
    bot, eq, value = str(text).rpartition("=")
    try:
        elo = float(value)
    except ValueError:
        elo = math.nan
    if not eq or not bot.strip() or not math.isfinite(elo):
        raise ConfigError(f"bad --anchor {text!r}; accepted: BOT=ELO, a stored bot's label and a number, "
                          "e.g. --anchor greedy=1500, or BOT alone (rated 0: the others relative to it)")
    return bot.strip(), elo
