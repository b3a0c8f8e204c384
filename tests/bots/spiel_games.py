"""OpenSpiel's games for the hidden-information bots' tests (skipped without OpenSpiel)."""

from __future__ import annotations

from typing import Any

import pytest


def spiel_game(name: str, **params: Any) -> Any:
    """The arena's game of OpenSpiel's ``name`` with ``params``."""
    pyspiel = pytest.importorskip("pyspiel")
    from arena.games.openspiel.game import class_for

    return class_for(pyspiel.load_game(name).get_type())(**params)
