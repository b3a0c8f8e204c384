"""Per-game evaluation functions, found by game name.

An evaluation module defines ``evaluate(state, seat) -> float``: the heuristic value of a
non-terminal position for 0-based ``seat`` (higher is better; its own units, far below
``WIN``), and may define ``evaluate_all(state) -> tuple[float, ...]`` (one value per seat,
for max^n), and ``evaluate_fields(...)``: ``evaluate`` from the fields of a position that the
game's search steps hand over without building the position (Interaction:
``evaluate_fields(nmask, scores, side, seat)`` for ``InteractionState.best_leaf``'s
``light``). Terminal positions are scored by the search from ``state.outcome()``, not here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

#: Value of a won terminal position; heuristic values stay well inside (-WIN/10, WIN/10).
WIN = 1_000_000.0

#: game name -> module defining evaluate / evaluate_all
EVALUATORS: dict[str, str] = {
    "sandpile": "bots.eval.sandpile",
    "interaction": "bots.eval.interaction",
}


def evaluator(game_name: str) -> Callable | None:
    """``evaluate(state, seat)`` for the game, or ``None`` when the game has none."""
    module = EVALUATORS.get(game_name)
    return importlib.import_module(module).evaluate if module else None


def fields_evaluator(game_name: str) -> Callable | None:
    """The game's ``evaluate_fields`` (``evaluate`` from a position's fields, as its search
    steps pass them), or ``None`` when its module has none."""
    module = EVALUATORS.get(game_name)
    return getattr(importlib.import_module(module), "evaluate_fields", None) if module else None


def evaluator_all(game_name: str, num_players: int = 2) -> Callable | None:
    """``evaluate_all(state) -> tuple`` (one value per 0-based seat) for the game, derived from
    ``evaluate`` for ``num_players`` seats when the module has none; ``None`` without an
    evaluation."""
    module = EVALUATORS.get(game_name)
    if not module:
        return None
    mod = importlib.import_module(module)
    if hasattr(mod, "evaluate_all"):
        return mod.evaluate_all
    evaluate = mod.evaluate
    return lambda state: tuple(evaluate(state, s) for s in range(num_players))
