"""What a confined engine server (``arena.engine.server``, ``--isolation process`` as root)
does before it drops to an unprivileged user: warm the bot up (lazy imports, JIT compilation)
and import the standard modules a bot may use afterwards; and the note for a Python install the
dropped user cannot read."""

from __future__ import annotations

import os
import re
import sys
from typing import Any

from arena.games import CHANCE, Game
from bots.base import Limits

#: standard modules imported before dropping privileges (a bot may use them afterwards even
#: when the interpreter's own files are not readable by the unprivileged user)
PRELOAD = ("sqlite3", "resource", "signal", "gc", "ctypes", "json", "random", "math", "itertools",
           "collections", "functools", "heapq", "time", "subprocess", "threading", "re", "copy", "dataclasses",
           "typing", "enum", "operator", "bisect", "statistics", "struct", "array", "string")


def unreadable_python(user: str | None, exc: Exception) -> str:
    """A note when ``exc`` is a standard module not found because, dropped to ``user``, this
    process cannot read its Python's standard library (e.g. a Python installed under ``/root``):
    a bot importing a module not preloaded (``PRELOAD``) fails then; ``""`` otherwise."""
    stdlib = os.path.dirname(os.__file__)
    missing = re.search(r"No module named '([\w.]+)'", str(exc))
    if (user is None or not missing or missing.group(1).partition(".")[0] not in sys.stdlib_module_names
            or os.access(stdlib, os.R_OK | os.X_OK)):
        return ""
    return (f"the Python install ({stdlib}) is not readable by user {user} (a user of the isolated bot's own, when "
            f"the arena runs as root): make it readable to all (chmod o+rx along its path) or run the arena "
            f"as another user")


def warm_up(bot: Any, game: Game) -> None:
    """One short choice as root before the privilege drop (lazy imports, JIT compilation), at
    the first node a seat chooses after the start position of seed 0 (chance outcomes: the
    first); in a game with hidden information the bot is handed that seat's view, as in play."""
    try:
        state = game.initial_state(0)
        while state.to_move == CHANCE:
            state = state.play(state.chance_outcomes()[0][0])
        seat = max(0, state.to_move)
        if hasattr(bot, "reset"):
            bot.reset(game, seat, 0)
        if not state.is_terminal():
            bot.choose(state.view(seat) if game.type.hidden_information else state, Limits(time=0.2, nodes=50, depth=1))
    except Exception:  # noqa: BLE001 - only a warm-up: the real game reports the bot's faults
        pass
