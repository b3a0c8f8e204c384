"""The checks of ``arena run``'s options, kept beside ``arena.tournament.config``, whose
``build`` calls them: each option's value checked and made canonical (``checked_options``:
numbers coerced, the enumerated settings as their enums, ``--tc``, ``--adjudicate``, ``--each``,
``--sprt`` as their canonical texts or specs, which the settings identity stores), and the
checks that need the game and the field (``check_with_field``, ``check_until_ranked``).
Every refusal is a ``ConfigError`` of one line naming what is accepted.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from arena.engine.sandbox import ISOLATIONS, Isolation
from arena.errors import ConfigError
from arena.numbers import RANGES, check_choice, check_number
from arena.openings import check_openings_order
from arena.referee import Adjudication
from arena.results.settings import Format
from arena.tournament.pairing import check_format
from arena.tournament.series import check_rotation
from bots.clock import TimeControl, check_tc

if TYPE_CHECKING:
    from arena.stats.sprt import SprtSpec
    from arena.tournament.config import TournamentConfig

#: own moves per seat, and seats, that the default ``--game-time`` of a game clock allows for
CLOCK_GAME_MOVES, CLOCK_GAME_SEATS = 250, 4
NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-")
#: the longest tournament name, characters: its files are NAME plus a suffix of up to ~50
#: characters (``.first_move_openings.csv``, a report file's temporary ``.NAME....tmp``), and a
#: file name has at most 255 bytes on Linux
NAME_MAX = 120


#: a number's types: a TOML number, or the command line's text (``check_number`` reads it)
_NUMBER: tuple[type, ...] = (int, float, str)
_TEXT: tuple[type, ...] = (str,)
_RULE_TEXT = "a rule string or a list of them, e.g. [\"max-plies=200\"]"
_EACH_TEXT = "key=value strings, or a table of strings, numbers or booleans, e.g. {depth = 3}"
#: the type each setting of ``build`` takes (a TOML file's values, the command line's texts),
#: and its words in a refusal; a list's or a table's items are checked by ``check_types`` too.
#: Not here: the numbers of ``RANGES`` (``check_number`` refuses any other type, naming the range),
#: ``bots`` and ``engines`` (``spec_list``), ``name`` (``checked_options``: a bad name), the
#: switches ``trace_engines``, ``allow_version_change`` and ``llm_cache`` (``checked``: true or false).
TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "game": (_TEXT, "a game name (a string)"), "params": ((dict,), "a table, e.g. [params] target = 5"),
    "fill": (_TEXT, "a bot spec (a string, e.g. 'random')"),
    "results": ((str, os.PathLike), "the path of the results directory (a string)"),
    "openings": ((str, os.PathLike), "the path of an openings file (a string)"),
    "openings_file": ((str, os.PathLike), "the path of an openings file (a string)"),
    "format": (_TEXT, "a string: round-robin, gauntlet, knockout or swiss"),
    "seat_rotation": (_TEXT, "a string: cyclic or all"), "isolation": (_TEXT, "a string: none or process"),
    "openings_order": (_TEXT, "a string: sequential or random"),
    "cluster": (_TEXT, "an address (a string: tcp://host:port or local:N)"),
    "sprt": (_TEXT, "an SPRT text (a string, e.g. \"elo0=0,elo1=10\")"),
    "tc": (_NUMBER, "a time control (a string, e.g. \"40/60+0.6\", or a number of seconds)"),
    "tau": (_NUMBER, "a number"), "until_ranked": (_NUMBER, "a number"),
    "adjudicate": ((str, list, tuple), _RULE_TEXT), "each": ((str, list, tuple, dict), _EACH_TEXT),
}


def type_name(value: Any) -> str:
    """A value's type in a TOML file's words (``an integer``, ``a table``...)."""
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string", dict: "a table",
             list: "a list", tuple: "a list"}
    return next((n for t, n in names.items() if isinstance(value, t)), f"a {type(value).__name__}")


def check_types(given: dict[str, Any]) -> None:
    """Refuse a value of ``given`` (``build``'s settings) whose type its setting does not take
    (``TYPES``): a boolean for a number, a number for a path, a list holding a list...

    Raises:
        ConfigError: the first such value, in one line naming the type accepted.
    """
    for key, value in given.items():
        if key in TYPES and not _fits(key, value):
            option = {"bots": "--bot", "params": "--param"}.get(key, "--" + key.replace("_", "-"))
            with about(key):
                raise ConfigError(f"{option} must be {TYPES[key][1]}, got {type_name(value)}")


def _fits(key: str, value: Any) -> bool:
    """``value`` is of a type ``key`` takes (``TYPES``), and so are its items: ``adjudicate``'s
    strings, ``each``'s strings (a list) or scalars (a table). ``sprt`` also takes a parsed
    ``SprtSpec`` (its module, numpy's, imported only then)."""
    kinds = TYPES[key][0]
    if key == "sprt" and not isinstance(value, str):
        from arena.stats.sprt import SprtSpec

        return isinstance(value, SprtSpec)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        return False
    if key in ("adjudicate", "each") and isinstance(value, (list, tuple)):
        return all(isinstance(item, str) for item in value)
    if key == "each" and isinstance(value, dict):
        return all(isinstance(item, (str, int, float)) for item in value.values())
    return True


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
    for switch in ("trace_engines", "allow_version_change", "llm_cache"):
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


def check_with_field(fmt: Format, rounds: int | None, seeds: int, sprt: SprtSpec | None, adjudicate: str | None,
                     bots: int, game_name: str, players: int) -> None:
    """The options that depend on the format, the field (``bots``) and the game (``players``):
    ``--rounds`` goes with ``--format swiss``, ``--seeds`` with a gauntlet (fewer seeds than
    bots), ``--sprt`` not with knockout or Swiss, ``--adjudicate resign=``/``draw=`` with
    two-player games only.

    Raises:
        ConfigError: the first option out of place.
    """
    if rounds is not None and fmt is not Format.SWISS:
        raise ConfigError(f"--rounds goes with --format swiss (got --format {fmt})")
    if seeds != 1 and fmt is not Format.GAUNTLET:
        raise ConfigError(f"--seeds goes with --format gauntlet (got --format {fmt})")
    if sprt is not None and fmt in (Format.KNOCKOUT, Format.SWISS):
        raise ConfigError(f"--sprt is a two-bot match; it does not go with --format {fmt}")
    if fmt is Format.GAUNTLET and seeds > 1 and seeds >= bots:
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


def spec_list(key: str, value: Any) -> tuple[str, ...]:
    """``value`` (``bots`` or ``engines``) as a tuple of spec strings; ``None``: empty.

    Raises:
        ConfigError: not a list of strings (a lone string would split into one-letter specs).
    """
    if value is None:
        return ()
    if isinstance(value, str) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{key} must be a list of bot spec strings (e.g. ['random', 'greedy']), got {value!r}")
    return tuple(value)


def checked_options(given: dict[str, Any], accepted: Sequence[str]) -> dict[str, Any]:
    """The options of ``build`` that need no game checked (``accepted``: the settings it
    takes), in place: numbers coerced, ``format``, ``seat_rotation``, ``openings_order`` and
    ``isolation`` as their enums, ``sprt`` as an ``arena.stats.sprt.SprtSpec``, the rest
    canonical (``checked``).

    Raises:
        ConfigError: as ``build``.
    """
    unknown = sorted(set(given) - set(accepted))
    if unknown:
        raise ConfigError(f"unknown setting {unknown[0]!r}; accepted: {', '.join(accepted)}")
    check_types(given)
    for key in RANGES:
        if key in given:
            with about(key):
                given[key] = check_number(key, given[key])
    for key, check in ENUMERATED.items():
        if key in given:
            with about(key):
                given[key] = check(given[key])
    if "cluster" in given:
        with about("cluster"):
            _check_cluster_options(given)
    name = given.get("name")
    if name is not None and (not isinstance(name, str) or not name or not set(name) <= NAME_CHARS
                             or name.startswith(".") or len(name) > NAME_MAX):
        with about("name"):
            shown = name if not isinstance(name, str) or len(name) <= 60 else f"{name[:40]}... ({len(name)} characters)"
            raise ConfigError(f"bad tournament name {shown!r}; use at most {NAME_MAX} ASCII letters, digits and "
                              "_ . + - (not starting with .)")
    if "tau" in given:
        with about("tau"):
            given["tau"] = check_tau(given["tau"])
    if given.get("until_ranked") is not None:
        with about("until_ranked"):
            given["until_ranked"] = check_confidence(given["until_ranked"])
    for key in ("adjudicate", "each", "trace_engines", "allow_version_change", "llm_cache", "tc"):  # checked's, each
        if key in given:
            with about(key):
                part = {key: given[key]}
                checked(part)
                given[key] = part[key]
    if given.get("sprt") is not None:
        with about("sprt"):
            given["sprt"] = check_sprt(given["sprt"])
    return given


def check_isolation(value: Any) -> Isolation:
    """``--isolation`` as an ``arena.engine.sandbox.Isolation``.

    Raises:
        ConfigError: unknown isolation (the message lists the accepted ones).
    """
    return Isolation(check_choice("isolation", value, ISOLATIONS))


def check_sprt(value: Any) -> SprtSpec:
    """``--sprt`` as an ``arena.stats.sprt.SprtSpec`` (a spec is taken as it is; ``sprt``,
    numpy, is imported on use).

    Raises:
        ConfigError: a bad SPRT text (one line naming the accepted form).
    """
    from arena.stats.sprt import SprtSpec, parse

    return value if isinstance(value, SprtSpec) else parse(value)


#: the enumerated settings and their checks: each takes the option's text (or the enum) and
#: returns the enum (``StrEnum``: stored as the text, so stored settings stay the same)
ENUMERATED: dict[str, Callable[[Any], StrEnum]] = {
    "format": check_format, "seat_rotation": check_rotation, "isolation": check_isolation,
    "openings_order": check_openings_order}


@contextlib.contextmanager
def about(setting: str) -> Iterator[None]:
    """Tag a ``ConfigError`` raised inside with the setting it refused (``ConfigError.setting``,
    unless a check nearer the value set it): a TOML file's key can then be named."""
    try:
        yield
    except ConfigError as exc:
        if exc.setting is None:
            exc.setting = setting
        raise


def _check_cluster_options(given: dict[str, Any]) -> None:
    """``--cluster`` checked against ``--workers`` and ``--isolation``; ``local:N`` sets the
    workers (the default ``--memory-limit`` shares this machine among the N Dask workers).

    Raises:
        ConfigError: exclusive options, or a bad address.
    """
    if "workers" in given:
        raise ConfigError("--cluster and --workers are exclusive: --workers N plays on local processes, "
                          "--cluster tcp://host:port or local:N on a Dask cluster")
    given["cluster"], local = check_cluster(given["cluster"])
    if local:
        given["workers"] = local
    elif given.get("isolation", Isolation.NONE) is not Isolation.NONE:  # its command: this machine's Python
        raise ConfigError("--isolation process runs with --workers or --cluster local:N only; on a cluster of "
                          "one's own each game already runs in a watched child of its Dask worker")


def check_cluster(address: Any) -> tuple[str, int | None]:
    """``(address, N)`` for ``local:N`` (N worker processes on this machine), ``(address, None)``
    for ``tcp://host:port`` (a running Dask scheduler).

    Raises:
        ConfigError: anything else.
    """
    text = str(address).strip()
    kind, _, rest = text.partition(":")
    if kind == "local" and rest.strip().isdigit() and 1 <= int(rest) <= 256:
        return f"local:{int(rest)}", int(rest)
    host, _, port = text.removeprefix("tcp://").rpartition(":")
    if text.startswith("tcp://") and host and port.isdigit() and 0 < int(port) < 65536:
        return text, None
    raise ConfigError(f"bad --cluster {text!r}; accepted: tcp://host:port (a Dask scheduler) or local:N "
                      "(N worker processes on this machine, 1 to 256)")


def _as_float(value: Any) -> float:
    """``float(value)``, or NaN for a value that is no number (the caller names what is accepted)."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def check_confidence(value: Any) -> float:
    """``--until-ranked``: a number strictly between 0.5 and 1.

    Raises:
        ConfigError: anything else.
    """
    level = _as_float(value)
    if not 0.5 < level < 1:
        raise ConfigError(f"bad --until-ranked {value!r}; accepted: a confidence between 0.5 and 1 "
                          "(default 0.95: the whole order holds with probability 0.95)")
    return level


def check_until_ranked(cfg: TournamentConfig, players: int) -> None:
    """``--until-ranked`` ranks a round-robin of a 2-player game without ``--sprt``.

    Raises:
        ConfigError: another game, format or stopping rule.
    """
    if players != 2:
        raise ConfigError(f"--until-ranked ranks the field of a 2-player game; {cfg.game} has {players} players")
    if cfg.format is not Format.ROUND_ROBIN:
        raise ConfigError(f"--until-ranked plays a round-robin; --format {cfg.format} is another format")
    if cfg.sprt is not None:
        raise ConfigError("--until-ranked and --sprt are two stopping rules; give one")
    if len(cfg.bots) < 2:
        raise ConfigError("--until-ranked needs a field of at least two bots")


def check_tau(value: Any) -> float:
    """``--tau``: a finite number >= 0.

    Raises:
        ConfigError: anything else.
    """
    tau = _as_float(value)
    if not (math.isfinite(tau) and tau >= 0):
        raise ConfigError(f"bad --tau {value!r}; accepted: a number >= 0 (TrueSkill dynamics factor, default 0)")
    return tau
