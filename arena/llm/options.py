"""The ``llm:`` options checked as the spec is read (``bots.registry.precheck`` and ``make``),
each refused in one line naming what is accepted: ``base_url=`` an http(s) URL, ``key_env=``
an environment variable's name (its value never repeated when it is not one: it may be the key
itself), ``legal=`` on or off."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from arena.errors import ConfigError
from arena.games import Param

#: an environment variable's name
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: what ``base_url=`` accepts, in words
URL_ACCEPTED = "an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1"


class HttpUrl(Param):
    """A parameter holding a server's http:// or https:// URL (with a host)."""

    def coerce(self, name: str, value: Any, owner: str) -> Any:
        """``value`` as a URL.

        Raises:
            ConfigError: not an http:// or https:// URL with a host.
        """
        text = str(value).strip()
        try:
            parts = urlsplit(text)
            ok = parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
        except ValueError:  # a bad port, an unclosed [IPv6 bracket
            ok = False
        if not ok:
            raise ConfigError(f"{owner}: parameter {name}={text!r} is not accepted; accepted: {URL_ACCEPTED}")
        return text


class EnvName(Param):
    """A parameter naming an environment variable (``key_env=``): a value that is no variable's
    name is refused without being repeated (it may be an API key typed in the spec)."""

    def coerce(self, name: str, value: Any, owner: str) -> Any:
        """``value`` as a variable's name, or ``None`` (not given, ``none``).

        Raises:
            ConfigError: not a variable's name (letters, digits, _, not starting with a digit).
        """
        if value is None or (isinstance(value, str) and value.strip().lower() == "none"):
            return None
        text = str(value).strip()
        if not ENV_NAME.match(text):
            raise ConfigError(f"{owner}: {name} must name an environment variable (letters, digits, _), "
                              "not hold the key itself")
        return text


class Switch(Param):
    """An on/off parameter (``on``/``off``; ``true``/``false``, ``yes``/``no``, ``1``/``0`` too)."""

    WORDS = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False, "1": True, "0": False}

    def coerce(self, name: str, value: Any, owner: str) -> Any:
        """``value`` as a ``bool``.

        Raises:
            ConfigError: none of the words above.
        """
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower()
        if word not in self.WORDS:
            default = "on" if self.default else "off"
            raise ConfigError(f"{owner}: parameter {name}={value!r} is not accepted; accepted: on or off "
                              f"(default {default})")
        return self.WORDS[word]
