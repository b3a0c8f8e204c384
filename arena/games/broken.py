"""``GameCheckError``: what ``arena.games.check`` raises when a game breaks one of the rules
(``arena.games.conformance``, ``arena.games.leaks``)."""

from __future__ import annotations

from typing import NoReturn

from arena.games.protocol import Game


class GameCheckError(AssertionError):
    """A game broke one of the protocol's rules (the message names the rule)."""


def fail(game: Game, rule: str) -> NoReturn:
    """Raise ``GameCheckError`` naming ``game`` and the ``rule`` it broke.

    Raises:
        GameCheckError: always.
    """
    raise GameCheckError(f"{game.name or type(game).__name__}: {rule}")
