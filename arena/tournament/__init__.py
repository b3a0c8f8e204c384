"""Tournaments: pairings, series, the worker pool and the run (``docs/arena.md`` "Tournaments").

The names below are loaded on first use (PEP 562): ``arena run`` checks its options with
``config.build`` before the runner and its imports are loaded, so a bad option is reported at
once.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.tournament.config import TournamentConfig, build
    from arena.tournament.runner import RunSummary, plan, run_tournament

__all__ = ["TournamentConfig", "build", "plan", "run_tournament", "RunSummary"]
_HOME = {"TournamentConfig": "config", "build": "config", "plan": "runner", "run_tournament": "runner",
         "RunSummary": "runner"}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(importlib.import_module(f"arena.tournament.{_HOME[name]}"), name)
    raise AttributeError(f"module 'arena.tournament' has no attribute {name!r}")
