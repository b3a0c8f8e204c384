"""Secrets kept out of engine processes: the environment variables that hold API keys.

A bot spec's ``key_env=NAME`` option (a language model's, ``arena.llm``) names the variable
holding its API key; the key is read from the environment only, in the process playing that bot.
An engine (``exec:``) or an isolated Python bot (``--isolation process``) is a process of its own
running a stranger's code: it gets the environment without those variables
(``engine_env``), so ``/proc/self/environ`` of an engine never shows a key.

The run declares the names (``declared``: ``$ARENA_SECRET_ENV``, comma-separated, inherited by
its workers, which start the engines); an engine whose own command names one as its own
``key_env=`` (an isolated language-model bot) keeps that one.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

#: the variable listing the names of the secret variables (comma-separated)
SECRETS_ENV = "ARENA_SECRET_ENV"
#: ``key_env=NAME`` in a spec's text (an isolated bot's command holds its spec)
_KEY_ENV = re.compile(r"key_env=([A-Za-z_][A-Za-z0-9_]*)")


def secret_names(specs: Iterable[Any]) -> set[str]:
    """The variables named by the ``key_env`` option of ``specs`` (``bots.registry.BotSpec`` s,
    or spec texts: ``key_env=NAME`` in them)."""
    out: set[str] = set()
    for spec in specs:
        if isinstance(spec, str):
            out.update(m.group(1) for m in _KEY_ENV.finditer(spec))
            continue
        name = (getattr(spec, "options", None) or {}).get("key_env")
        if isinstance(name, str) and name:
            out.add(name)
    return out


@contextlib.contextmanager
def declared(names: Iterable[str]) -> Iterator[None]:
    """``$ARENA_SECRET_ENV`` holding ``names`` too for the block (the processes started in it
    inherit it); put back as it was afterwards."""
    before = os.environ.get(SECRETS_ENV)
    names = set(names) | _names(before)
    if names:
        os.environ[SECRETS_ENV] = ",".join(sorted(names))
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(SECRETS_ENV, None)
        else:
            os.environ[SECRETS_ENV] = before


def _names(text: str | None) -> set[str]:
    return {n.strip() for n in (text or "").split(",") if n.strip()}


def engine_env(command: Sequence[str]) -> dict[str, str] | None:
    """The environment of an engine process started with ``command``: this process's, less the
    declared secret variables (those its own command names as ``key_env=`` stay); ``None``
    (inherit it whole) when none is declared or set."""
    names = _names(os.environ.get(SECRETS_ENV))
    if not names:
        return None
    names -= {m.group(1) for arg in command for m in _KEY_ENV.finditer(str(arg))}
    return {k: v for k, v in os.environ.items() if k not in names}
