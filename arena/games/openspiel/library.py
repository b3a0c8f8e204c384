"""OpenSpiel itself: ``pyspiel`` imported on first use, which of its games the arena plays
(``unsupported``) and their names (``names``)."""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any

from arena.errors import ConfigError

#: the prefix of OpenSpiel's games among the arena's game names
PREFIX = "openspiel:"
#: how to install OpenSpiel, for the error of an ``openspiel:`` game without it
INSTALL = "pip install -e '.[openspiel]' (or pip install open-spiel)"

def pyspiel() -> ModuleType:
    """The ``pyspiel`` module, imported on first use.

    Raises:
        ConfigError: OpenSpiel is not installed (the message gives the install command).
    """
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        raise ConfigError(f"OpenSpiel's games need the openspiel extra: {INSTALL}") from None


def unsupported(game_type: Any) -> str | None:
    """Why the arena does not play an OpenSpiel game of this ``pyspiel.GameType`` (a few
    words), or ``None`` when it does."""
    kinds = pyspiel().GameType
    if not game_type.default_loadable:
        return ("it cannot be loaded with its default parameters (a transformation of another game, "
                "or a game read from a file)")
    if game_type.dynamics != kinds.Dynamics.SEQUENTIAL:
        what = "simultaneous-move" if game_type.dynamics == kinds.Dynamics.SIMULTANEOUS else "mean-field"
        return (f"a {what} game; the arena plays OpenSpiel's sequential games (its own simultaneous "
                "nodes are rounds of puzzle races, whose answers the game judges)")
    if game_type.information != kinds.Information.PERFECT_INFORMATION:
        return ("a game of imperfect information; a bot is handed the whole state, so it would see "
                "what its seat must not (hidden cards, the other side's pieces)")
    if game_type.chance_mode == kinds.ChanceMode.SAMPLED_STOCHASTIC:
        return ("its chance is sampled inside the game (no list of outcomes), so the referee cannot "
                "draw it from the game's seed nor record it as a ply")
    return None


@cache
def spiel_types() -> dict[str, Any]:
    """OpenSpiel's registered game types by short name."""
    return {t.short_name: t for t in pyspiel().registered_games()}


def names() -> list[str]:
    """The OpenSpiel games the arena plays, as ``openspiel:NAME``, sorted.

    Raises:
        ConfigError: OpenSpiel is not installed.
    """
    return sorted(PREFIX + name for name, t in spiel_types().items() if unsupported(t) is None)
