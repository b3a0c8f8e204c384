"""Test games registered for one test through the public ``arena.games.register``."""

from __future__ import annotations

import pytest

import arena.games


def register_game(monkeypatch: pytest.MonkeyPatch, name: str, target: type[arena.games.Game] | str) -> None:
    """``arena.games.register(name, target)`` for one test: ``monkeypatch`` puts the registry back
    as it was afterwards (other tests list every registered game). Workers forked by the run
    inherit it; a process started afresh calls ``arena.games.register`` itself.

    Raises:
        ConfigError: as ``arena.games.register`` (a built-in name, another target).
    """
    monkeypatch.setattr(arena.games, "_REGISTERED", dict(arena.games._REGISTERED))
    arena.games.register(name, target)
