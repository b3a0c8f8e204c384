"""Game registry: games are found by name, built in or through the ``arena.games`` entry points.

>>> import arena.games
>>> game = arena.games.make("interaction", target=3)      # doctest: +SKIP
>>> state = game.initial_state(seed=1)                     # doctest: +SKIP

A third-party package registers a game in its ``pyproject.toml``::

    [project.entry-points."arena.games"]
    mygame = "mypackage.mygame:MyGame"

An author of a game checks it with ``arena.games.check(game)`` (``arena/games/conformance.py``):
each broken rule raises ``GameCheckError`` naming it.

Rules only live here: no I/O, nothing imported from bots, the runner, storage or the CLI.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from arena.errors import UnknownGameError
from arena.games.protocol import (
    SIMULTANEOUS,
    TERMINAL,
    Answer,
    AnswerStatus,
    Dynamics,
    Game,
    GameType,
    Move,
    Outcome,
    Param,
    State,
    competition_ranks,
)
from arena.games.conformance import GameCheckError, check
from arena.games.ranking import place_points, place_rewards

__all__ = [
    "SIMULTANEOUS", "TERMINAL", "Answer", "AnswerStatus", "Dynamics", "Game", "GameType", "Move", "Outcome", "Param", "State",
    "competition_ranks", "place_points", "place_rewards", "check", "GameCheckError", "make", "names",
    "game_class",
]

#: Built-in games: name -> "module:Class" (imported lazily).
_BUILTIN: dict[str, str] = {
    "interaction": "arena.games.interaction:InteractionGame",
    "interaction-solo": "arena.games.interaction.solo:InteractionSoloGame",
    "interaction-solo-race": "arena.games.interaction.solo_race:SoloRaceGame",
    "sandpile": "arena.games.sandpile:Sandpile",
    "ricochet": "arena.games.ricochet.game:RicochetGame",
}


def _registry() -> dict[str, str]:
    found = dict(_BUILTIN)
    for ep in entry_points(group="arena.games"):
        found.setdefault(ep.name, ep.value)
    return found


def names() -> list[str]:
    """Registered game names, sorted."""
    return sorted(_registry())


def game_class(name: str) -> type[Game]:
    """The ``Game`` subclass registered under ``name``.

    Raises:
        UnknownGameError: no game of that name (the message lists the registered ones).
    """
    target = _registry().get(str(name).strip().lower())
    if target is None:
        raise UnknownGameError(f"unknown game {name!r}; accepted: {', '.join(names())}")
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def make(name: str, **params: Any) -> Game:
    """A game by registered name, with parameters (strings are coerced to the declared types).

    Raises:
        UnknownGameError: no game of that name.
        ConfigError: an unknown parameter or a bad value.
    """
    return game_class(name)(**params)
