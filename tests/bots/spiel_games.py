"""OpenSpiel's games for the hidden-information bots' tests (skipped without OpenSpiel)."""

from __future__ import annotations

from typing import Any

import pytest

import arena.games


def spiel_game(name: str, **params: Any) -> Any:
    """``openspiel:NAME`` with ``params``."""
    pytest.importorskip("pyspiel")
    return arena.games.make(f"openspiel:{name}", **params)
