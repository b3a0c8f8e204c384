"""Game registry: games are found by name, built in or through the ``arena.games`` entry points.

>>> import arena.games
>>> game = arena.games.make("interaction", target=3)      # doctest: +SKIP
>>> state = game.initial_state(seed=1)                     # doctest: +SKIP

A third-party package registers a game in its ``pyproject.toml``::

    [project.entry-points."arena.games"]
    mygame = "mypackage.mygame:MyGame"

or, without installing anything, at run time: ``arena.games.register("mygame", MyGame)`` (or
``"mypackage.mygame:MyGame"``, imported on first use).

OpenSpiel's games are found as ``openspiel:NAME`` (the
``openspiel`` extra; ``arena.games.openspiel``, which imports ``pyspiel`` on first use only):
``families()`` names such families, ``family_names(family)`` lists one.

An author of a game checks it with ``arena.games.check(game)`` (``arena/games/conformance.py``):
each broken rule raises ``GameCheckError`` naming it.

Rules only live here: no I/O, nothing imported from bots, the runner, storage or the CLI.
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from arena.errors import ConfigError, UnknownGameError
from arena.games.protocol import (
    CHANCE,
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
    draw_chance,
)
from arena.games.payoff import Payoff
from arena.games.views import SampleError, View
from arena.games.conformance import GameCheckError, check
from arena.games.ranking import place_points, place_rewards

__all__ = [
    "CHANCE", "SIMULTANEOUS", "TERMINAL", "Answer", "AnswerStatus", "Dynamics", "Game", "GameType", "Move", "Outcome",
    "Param", "Payoff", "SampleError", "State", "View",
    "competition_ranks", "place_points", "place_rewards", "check", "GameCheckError", "make", "names",
    "game_class", "register", "draw_chance", "families", "family_names",
]

#: Built-in games: name -> "module:Class" (imported lazily).
_BUILTIN: dict[str, str] = {
    "interaction": "arena.games.interaction:InteractionGame",
    "interaction-solo": "arena.games.interaction.solo:InteractionSoloGame",
    "interaction-solo-race": "arena.games.interaction.solo_race:SoloRaceGame",
    "sandpile": "arena.games.sandpile:Sandpile",
    "ricochet": "arena.games.ricochet.game:RicochetGame",
    "known": "arena.games.known:KnownGame",
}


#: Families of games found by prefix, ``PREFIX:NAME``: prefix -> the module whose
#: ``game_class(NAME)`` and ``names()`` serve them (imported on first use of the prefix).
_FAMILIES: dict[str, str] = {"openspiel": "arena.games.openspiel"}


#: Games given to ``register``: name -> class or ``"module:Class"``.
_REGISTERED: dict[str, type[Game] | str] = {}
_NAME = re.compile(r"^[a-z0-9][a-z0-9_+-]*$")


def register(name: str, target: type[Game] | str) -> None:
    """Register a game for this process, beside the ``arena.games`` entry points.

    Args:
        name: lower-case letters, digits and ``_ + -``.
        target: the ``Game`` subclass, or ``"module:Class"`` imported on first use.

    Raises:
        ConfigError: a malformed name or target, or a name that is built in or already
            registered to another target.
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise ConfigError(f"bad game name {name!r} to register; names use lower-case ASCII letters, digits and _ + -")
    if isinstance(target, str) and ":" not in target:
        raise ConfigError(f"game {name!r}: target {target!r} is not 'module:Class'")
    if name in _BUILTIN or _REGISTERED.get(name, target) != target:
        raise ConfigError(f"game {name!r} is already registered")
    _REGISTERED[name] = target


@cache
def _entry_points() -> dict[str, str]:
    """Name -> ``"module:Class"`` of the ``arena.games`` entry points (scanned once)."""
    return {ep.name: ep.value for ep in entry_points(group="arena.games")}


def _registry() -> dict[str, type[Game] | str]:
    """Name -> class or ``"module:Class"``: built-ins, then ``register``'s, then entry points."""
    found: dict[str, type[Game] | str] = {**_BUILTIN}
    for table in (_REGISTERED, _entry_points()):
        for name, target in table.items():
            found.setdefault(name, target)
    return found


def names() -> list[str]:
    """Registered game names, sorted (the games of a family, ``openspiel:NAME``, are listed by
    ``family_names``: listing them loads their library)."""
    return sorted(_registry())


def families() -> list[str]:
    """The prefixes of game families (``openspiel``), sorted."""
    return sorted(_FAMILIES)


def family_names(family: str) -> list[str]:
    """The games of a family as ``PREFIX:NAME``, sorted.

    Raises:
        UnknownGameError: no such family.
        ConfigError: the family's library is not installed (the message gives the install command).
    """
    module = _FAMILIES.get(family)
    if module is None:
        raise UnknownGameError(f"unknown game family {family!r}; accepted: {', '.join(families())}")
    return importlib.import_module(module).names()


def game_class(name: str) -> type[Game]:
    """The ``Game`` subclass registered under ``name``, or of a family's game ``PREFIX:NAME``.

    Raises:
        UnknownGameError: no game of that name (the message lists the registered ones).
        ConfigError: a family's game whose library is not installed (the message gives the
            install command), or one the arena cannot play (the message says why).
    """
    key = str(name).strip().lower()
    prefix, colon, rest = key.partition(":")
    if colon and prefix in _FAMILIES:
        return importlib.import_module(_FAMILIES[prefix]).game_class(rest)
    target = _registry().get(key)
    if target is None:
        found = ", ".join([*names(), *(f"{f}:NAME" for f in families())])
        raise UnknownGameError(f"unknown game {name!r}; accepted: {found} (`arena games` lists them)")
    if not isinstance(target, str):
        return target
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def make(name: str, **params: Any) -> Game:
    """A game by registered name, with parameters (strings are coerced to the declared types).

    Raises:
        UnknownGameError: no game of that name.
        ConfigError: an unknown parameter or a bad value.
    """
    return game_class(name)(**params)
