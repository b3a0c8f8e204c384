"""The declared parameters of a game or a bot (split from ``arena.games.protocol``, which
re-exports them): ``Param``, one parameter with its type, choices and range, and
``coerce_params``, a command line's or a caller's values checked against the declared ones.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arena.errors import ConfigError


#: a whole number as text: ASCII digits with an optional sign (``int()`` also takes ``1_000`` and
#: other scripts' digits, ``३``)
INTEGER_TEXT = re.compile(r"\s*[+-]?[0-9]+\s*", re.ASCII)
#: a number as text: ASCII digits with an optional sign, decimal point and exponent
NUMBER_TEXT = re.compile(r"\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*", re.ASCII)


@dataclass(frozen=True)
class Param:
    """One declared parameter of a game or a bot.

    Attributes:
        default: the value when not given; its type is the parameter's type unless ``kind``
            is set.
        help: one line for ``arena games`` / ``arena bots``.
        choices: the accepted values, when the parameter is an enumeration.
        kind: the Python type values are coerced to (``int``, ``float``, ``bool``, ``str``);
            defaults to ``type(default)``; needed when ``default`` is ``None``.
        minimum: the smallest accepted number, when numeric.
        maximum: the largest accepted number, when numeric.
    """

    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    kind: type | None = None
    minimum: float | None = None
    maximum: float | None = None

    @property
    def type(self) -> type:
        return self.kind or type(self.default)

    def coerce(self, name: str, value: Any, owner: str) -> Any:
        """Convert ``value`` (a string from a command line, or a Python value) to this type.

        Raises:
            ConfigError: the value is not of the type, out of range or not among ``choices``.
        """
        t = self.type
        if value is None and self.default is None:
            return None
        if isinstance(value, str) and value.strip().lower() == "none" and self.default is None:
            return None
        try:
            if t is bool:
                if isinstance(value, str):
                    word = value.strip().lower()
                    if word not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                        raise ValueError(value)
                    value = word in ("true", "1", "yes", "on")
                elif not isinstance(value, bool):
                    raise ValueError(value)
            elif t is int:
                if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()) \
                        or (isinstance(value, str) and not INTEGER_TEXT.fullmatch(value)):
                    raise ValueError(value)
                value = int(value)
            elif t is float:
                if isinstance(value, bool) or (isinstance(value, str) and not NUMBER_TEXT.fullmatch(value)):
                    raise ValueError(value)
                value = float(value)
                if value != value or value in (float("inf"), float("-inf")):
                    raise ValueError(value)
            elif t is str:
                value = str(value)
        except (TypeError, ValueError):
            kinds = {bool: "true or false", int: "an integer in ASCII digits (0-9, an optional sign)",
                     float: "a finite number in ASCII digits (0-9, an optional sign, decimal point and exponent)",
                     str: "text"}
            accepted = ", ".join(map(str, self.choices)) if self.choices else kinds.get(t, t.__name__)
            raise ConfigError(
                f"{owner}: parameter {name}={value!r} is not a valid {t.__name__}; accepted: {accepted}"
                + ("" if self.default is None else f" (default {self.default!r})")
            ) from None
        if self.choices is not None and value not in self.choices:
            raise ConfigError(
                f"{owner}: parameter {name}={value!r} is not accepted; "
                f"accepted: {', '.join(map(str, self.choices))}"
            )
        low, high = self.minimum, self.maximum
        if t in (int, float) and ((low is not None and value < low) or (high is not None and value > high)):
            if high is None:
                raise ConfigError(f"{owner}: parameter {name}={value!r} must be >= {low:g}")
            if low is None:
                raise ConfigError(f"{owner}: parameter {name}={value!r} must be <= {high:g}")
            raise ConfigError(f"{owner}: parameter {name}={value!r} is out of range; accepted: {low:g} to {high:g}")
        return value


def coerce_params(owner: str, declared: Mapping[str, Param], given: Mapping[str, Any]) -> dict:
    """Defaults of ``declared`` overridden by ``given``, each value coerced to its type.

    Raises:
        ConfigError: an unknown name (the message lists the accepted ones) or a bad value.
    """
    unknown = sorted(set(given) - set(declared))
    if unknown:
        accepted = ", ".join(declared) or "none"
        raise ConfigError(f"{owner}: unknown parameter {unknown[0]!r}; accepted: {accepted}")
    values = {name: p.default for name, p in declared.items()}
    for name, value in given.items():
        values[name] = declared[name].coerce(name, value, owner)
    return values
