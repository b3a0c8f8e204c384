"""The checks of ``arena run``'s clock, adjudication, format and engine options (``--tc``,
``--adjudicate``, ``--rounds``, ``--seeds``, ``--each``, ``--trace-engines``), kept beside
``arena.tournament.config``, which calls them: each option's text checked and made canonical
(the settings identity stores that), and the checks that need the game and the field.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.errors import ConfigError
from arena.referee import Adjudication
from bots.clock import TimeControl, check_tc

#: own moves per seat, and seats, that the default ``--game-time`` of a game clock allows for
CLOCK_GAME_MOVES, CLOCK_GAME_SEATS = 250, 4


def checked(given: dict[str, Any]) -> None:
    """Check and make canonical, in place, the options of this module that ``given`` holds:
    ``adjudicate`` (rule texts -> ``Adjudication.text``), ``each`` (``check_each``),
    ``trace_engines`` and ``allow_version_change`` (bools), ``tc`` (``TimeControl.text``; ``inf``
    is no clock: ``None``).

    Raises:
        ConfigError: a bad rule, ``--each`` item or time control (one line naming the forms), a
            ``trace_engines`` or ``allow_version_change`` that is not a bool.
    """
    if given.get("adjudicate") is not None:
        rules = given["adjudicate"]
        given["adjudicate"] = Adjudication.parse([rules] if isinstance(rules, str) else rules).text() or None
    if "each" in given:
        given["each"] = check_each(given["each"])
    for switch in ("trace_engines", "allow_version_change"):
        if switch in given and not isinstance(given[switch], bool):  # a TOML 3 or "yes" is no switch
            raise ConfigError(f"{switch} must be true or false, got {given[switch]!r}")
    if "tc" in given:
        given["tc"] = check_tc(given["tc"])
        if given["tc"] == "inf":  # no clock: the default
            given["tc"] = None


def check_each(value: Any) -> dict[str, str]:
    """``--each`` values (``key=value`` texts, or a TOML table) as a dict, keys sorted.

    Raises:
        ConfigError: not ``key=value``, an empty key or value, or one holding ``,`` ``:`` ``=``.
    """
    if isinstance(value, dict):
        items: list[tuple[Any, Any]] = list(value.items())
    else:
        items = [(key, text) for key, _, text in (str(v).partition("=") for v in
                                                   ([value] if isinstance(value, str) else value))]
    out: dict[str, str] = {}
    for key, text in items:
        key = str(key).strip()
        text = (str(text).lower() if isinstance(text, bool) else str(text)).strip()
        if not key or not text or any(c in key + text for c in ",:="):
            raise ConfigError(f"bad --each {key}={text!r}; accepted: key=value, an option every engine (and every "
                              "Python bot that declares it) gets, e.g. --each depth=3 (no , : or = in either)")
        out[key] = text
    return dict(sorted(out.items()))


def check_with_field(fmt: str, rounds: int | None, seeds: int, sprt: str | None, adjudicate: str | None,
                     bots: int, game_name: str, players: int) -> None:
    """The options that depend on the format, the field (``bots``) and the game (``players``):
    ``--rounds`` goes with ``--format swiss``, ``--seeds`` with a gauntlet (fewer seeds than
    bots), ``--sprt`` not with knockout or Swiss, ``--adjudicate resign=``/``draw=`` with
    two-player games only.

    Raises:
        ConfigError: the first option out of place.
    """
    if rounds is not None and fmt != "swiss":
        raise ConfigError(f"--rounds goes with --format swiss (got --format {fmt})")
    if seeds != 1 and fmt != "gauntlet":
        raise ConfigError(f"--seeds goes with --format gauntlet (got --format {fmt})")
    if sprt is not None and fmt in ("knockout", "swiss"):
        raise ConfigError(f"--sprt is a two-bot match; it does not go with --format {fmt}")
    if fmt == "gauntlet" and seeds > 1 and seeds >= bots:
        raise ConfigError(f"--seeds {seeds}: a gauntlet of {bots} bots has 1 to {max(1, bots - 1)} seeds "
                          "(each seed meets the bots after the seeds)")
    if adjudicate is not None and players != 2 and Adjudication.parse(adjudicate).scored:
        raise ConfigError(f"--adjudicate resign= and draw= read two-player games; {game_name} has {players} "
                          "players (max-plies=N applies to any game)")


def clock_game_time(controls: Sequence[str | None], margin: float) -> float:
    """Seconds of a game whose seats (at most ``CLOCK_GAME_SEATS``) each spend the longest of
    ``controls`` (time control texts; ``None``, ``inf``: none) over ``CLOCK_GAME_MOVES`` own
    moves, plus their margins; 0 without a clock."""
    longest = 0.0
    for text in controls:
        tc = None if text is None else TimeControl.parse(text)
        if tc is None or tc.base is None:
            continue
        periods = 1 + (CLOCK_GAME_MOVES // tc.moves if tc.moves else 0)
        longest = max(longest, tc.base * periods + tc.increment * CLOCK_GAME_MOVES + margin)
    return CLOCK_GAME_SEATS * longest
