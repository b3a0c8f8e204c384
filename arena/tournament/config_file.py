"""The TOML file of ``arena run --config``: the run's options, and ``[[engine]]`` tables that
join external engines to the field (``docs/arena.md`` "Tournaments"; ``docs/guide.md`` "Your own engine").
"""

from __future__ import annotations

import os
import re
import shlex
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.tournament.config import TournamentConfig


@dataclass(frozen=True)
class ConfigFile:
    """A TOML file's settings (``read_config``).

    Attributes:
        path: the file, as given.
        values: the settings, as ``load_toml`` returns them (``build``'s keys).
        written: each setting -> its key as the file writes it (``move-time``, ``bot``,
            ``[[engine]]``).
    """

    path: str
    values: dict[str, Any]
    written: dict[str, str]

    def explain(self, exc: ConfigError, overridden: Iterable[str] = ()) -> ConfigError:
        """``exc`` (from ``build``) in the words of the file when a value it refused came from
        it: the settings' command-line option names (``--move-time``) read as the file's keys
        (``move_time``), and the file named, e.g. ``config file 'a.toml': move_time -1 is out of
        range; ...``. ``overridden``: the settings the command line gave (their options stay).
        An error about no setting of the file is returned as it is."""
        from_file = {k: w for k, w in self.written.items() if k not in set(overridden)}
        message, named = str(exc), False
        for setting, key in from_file.items():
            pattern = re.compile(rf"(?<![\w-]){re.escape(_option(setting))}(?![\w-])")
            message, count = pattern.subn(key.replace("\\", "\\\\"), message)
            named = named or bool(count)
        if exc.setting in from_file and not named:
            message = f"key {from_file[exc.setting]}: {message}"
        elif not named:
            return exc
        out = ConfigError(f"config file {self.path!r}: {message}")
        out.setting = exc.setting
        return out


def _option(setting: str) -> str:
    """The ``arena run`` option of a setting (``move_time`` -> ``--move-time``)."""
    return {"bots": "--bot", "params": "--param", "candidates": "--candidate"}.get(setting,
                                                                                  "--" + setting.replace("_", "-"))


def load_toml(path: str | os.PathLike) -> dict[str, Any]:
    """The settings of a TOML file (same keys as the options, ``-`` or ``_``; ``[params]``;
    ``[[engine]]`` tables as bot specs under ``engines``, which ``build`` adds to ``bots``:
    ``--bot`` given on the command line replaces the file's ``bots``, not its engines).

    Raises:
        ConfigError: unreadable file, bad TOML, or an unknown key.
    """
    return read_config(path).values


def read_config(path: str | os.PathLike) -> ConfigFile:
    """``load_toml``'s settings with the keys as the file writes them (``ConfigFile``).

    Raises:
        ConfigError: as ``load_toml``.
    """
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read config file {str(path)!r}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"bad TOML in config file {str(path)!r}: {exc}") from None
    except ValueError:  # an integer of more than 4,300 digits (Python's int-from-text limit)
        raise ConfigError(f"bad TOML in config file {str(path)!r}: an integer too long to read") from None
    known = {f.name for f in fields(TournamentConfig)} - {"openings_file"} | {"bot", "param", "candidate"}
    out: dict[str, Any] = {}
    written: dict[str, str] = {}
    engines = data.pop("engine", None)
    for key, value in data.items():
        k = key.replace("-", "_")
        if k not in known:
            raise ConfigError(f"unknown key {key!r} in config file {str(path)!r}; "
                              f"accepted: {', '.join(sorted(known - {'bot', 'param', 'candidate'}))}")
        name = {"bot": "bots", "param": "params", "candidate": "candidates"}.get(k, k)
        if name in out:
            raise ConfigError(f"key {key!r} given twice in config file {str(path)!r} (spelled with '-' and '_'); "
                              "keep one")
        out[name] = value
        written[name] = key
    if "openings" in out:
        if not isinstance(out["openings"], str):
            raise ConfigError(f"config file {str(path)!r}: openings must be the path of an openings file")
        out["openings"] = str(Path(path).parent / out["openings"])  # relative to the TOML file
    if "params" in out and not isinstance(out["params"], dict):
        raise ConfigError(f"config file {str(path)!r}: params must be a table, e.g. [params] target = 5")
    if "bots" in out:  # one string is a field of one bot, never a tournament: refused as the wrong type
        if not isinstance(out["bots"], list) or not all(isinstance(b, str) for b in out["bots"]):
            raise ConfigError(f"config file {str(path)!r}: bots must be a list of bot specs, e.g. "
                              f"bots = [\"random\", \"alphabeta:depth=3\"]; got {_toml_type(out['bots'])}")
    for key in ("retire", "candidates"):  # a league's changes (``arena.tournament.league``): lists of strings
        value = out.get(key)
        if value is not None and (not isinstance(value, list) or not all(isinstance(v, str) for v in value)):
            example = ("bot labels, e.g. retire = [\"random\"]" if key == "retire" else
                       "bot specs, e.g. candidates = [\"ab3=alphabeta:depth=3\"]")
            raise ConfigError(f"config file {str(path)!r}: {written[key]} must be a list of {example}; "
                              f"got {_toml_type(value)}")
    if engines is not None:  # kept apart: ``--bot`` replaces ``bots``, the engines stay in the field
        out["engines"] = engine_specs(engines, str(path))
        written["engines"] = "[[engine]]"
    return ConfigFile(str(path), out, written)


def _toml_type(value: Any) -> str:
    """A TOML value's type in TOML's words (``a string``, ``a table``...)."""
    names = {str: "a string", bool: "a boolean", int: "an integer", float: "a float", dict: "a table", list: "a list"}
    kind = names.get(type(value), "a date or time")
    return f"{kind} {value!r}" if isinstance(value, str) else kind + (" with a value that is not a string" if
                                                                       isinstance(value, list) else "")


def engine_specs(tables: Any, where: str) -> list[str]:
    """``[[engine]]`` tables (``label``, ``command`` list, ``options`` table,
    ``startup_timeout`` seconds, ``tc`` its own game clock, ``restart`` true: a new process
    every game) as ``LABEL=exec:COMMAND[:key=value,...]`` bot specs
    (``docs/engine-protocol.md``), ``COMMAND`` shell-quoted (``_quote``): a path with spaces or
    a ``:`` reads back as the same words.

    Raises:
        ConfigError: a table without ``label``/``command``, an unknown key or a bad value.
    """
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise ConfigError(f"config file {where!r}: engines are [[engine]] tables with label and command")
    keys = {"label", "command", "options", "startup_timeout", "tc", "restart"}
    out = []
    for table in tables:
        unknown = sorted(set(table) - keys)
        if unknown:
            raise ConfigError(f"config file {where!r}: unknown key {unknown[0]!r} in [[engine]]; "
                              f"accepted: {', '.join(sorted(keys))}")
        label, command, options = table.get("label"), table.get("command"), table.get("options", {})
        if not isinstance(label, str) or not label or not isinstance(command, list) or not command \
                or not all(isinstance(c, str) for c in command) or not isinstance(options, dict):
            raise ConfigError(f"config file {where!r}: [[engine]] needs label = \"NAME\", command = [\"path\", "
                              "\"arg\", ...] and optionally an options table")
        opts = {str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in options.items()}
        for key in ("startup_timeout", "tc", "restart"):  # the arena's, not the engine's options
            if key in table:
                value = table[key]
                opts[key] = ("on" if value else "off") if isinstance(value, bool) else str(value)
        bad = [f"{k}={v}" for k, v in opts.items() if any(c in k + v for c in ",:=") or not v.strip()]
        if bad:
            raise ConfigError(f"config file {where!r}: engine {label!r} option {bad[0]!r}: names and values "
                              "cannot be empty or hold , : or =")
        text = f"{label}=exec:{' '.join(map(_quote, command))}"
        out.append(text + (":" + ",".join(f"{k}={v}" for k, v in opts.items()) if opts else ""))
    return out


def _quote(word: str) -> str:
    """``word`` shell-quoted for an ``exec:`` spec: as ``shlex.quote``, and a word with a ``:``
    quoted too (``shlex`` leaves it bare, and the spec's options follow its last bare ``:``)."""
    quoted = shlex.quote(word)
    return f"'{word}'" if quoted == word and ":" in word else quoted
