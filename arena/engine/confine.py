"""An engine server's confinement (``arena engine SPEC`` under ``--isolation process``; split
from ``arena.engine.server``): at the first ``newgame`` the server warms its bot up (as root,
when it will drop to ``drop_user``), caps its own address space at its size then plus
``memory_limit`` MiB, drops to ``drop_user`` for good, and only then loads a bot given as
``file.py#Class`` and makes the checks the runner makes of an in-process bot.
"""

from __future__ import annotations

import importlib

from arena.engine.warmup import PRELOAD, unreadable_python, warm_up
from arena.errors import BotSpecError, ConfigError
from arena.games import Game
from arena.games.protocol import coerce_params
from bots.base import refusal
from bots.registry import BotSpec, bot_class


def confine(cls: type | None, options: dict[str, str], game: Game | None, drop_user: str | None,
            memory_limit: int | None) -> None:
    """Warm ``cls`` up on ``game`` (made with ``options``) and import ``PRELOAD`` while still
    root, cap the address space at its size now plus ``memory_limit`` MiB (hard), drop to
    ``drop_user``; each step only when its argument is given.

    Raises:
        OSError, ArenaError: the cap or the drop failed (``arena.engine.sandbox``).
    """
    from arena.engine.sandbox import drop_privileges, limit_address_space
    if drop_user is not None:
        if cls is not None and game is not None:
            warm_up(cls(**options), game)
        for module in PRELOAD:
            importlib.import_module(module)
    if memory_limit is not None:
        limit_address_space(memory_limit)
    if drop_user is not None:
        drop_privileges(drop_user)


def load_confined(spec: BotSpec, options: dict[str, str], game: Game, drop_user: str | None) -> type:
    """The class of a bot file loaded after the drop, checked as the runner checks an
    in-process bot (the runner never imports an isolated one): a ``choose`` method, its
    ``options`` against its ``PARAMS`` (when it declares them) and its ``PLAYS`` against ``game``.

    Raises:
        BotSpecError: the file cannot be loaded (with a hint when the dropped user cannot read
            the interpreter's files), no ``choose``, an option it does not take, or a game it
            cannot play.
    """
    try:
        cls = bot_class(spec.kind)
    except Exception as exc:
        hint = unreadable_python(drop_user, exc)
        if not hint:
            raise
        what = str(exc) if isinstance(exc, BotSpecError) else f"{type(exc).__name__}: {exc}"
        raise BotSpecError(f"{what}; {hint}") from None
    if not callable(getattr(cls, "choose", None)):
        raise BotSpecError(f"bot class {spec.kind!r} has no choose(state, limits) method")
    if getattr(cls, "PARAMS", None) is not None:  # a class without declares nothing: as bots.registry.make
        try:
            coerce_params(f"bot {spec.text!r}", getattr(cls, "PARAMS", None) or {}, options)
        except ConfigError as exc:
            raise BotSpecError(str(exc)) from None
    why = refusal(cls, game)
    if why is not None:
        raise BotSpecError(f"bot {spec.text!r} cannot play {game.name}: {spec.kind} {why}")
    return cls
