"""The figures of ``arena bench``: each module in ``MODULES`` defines
``run(quick: bool) -> list[Figure]`` (one core, unless the figure says otherwise).

Figures are measured, not asserted: report ratios measured in one run where possible.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_GOAL = re.compile(r"^\s*(≥|≤|<|>|≈)\s*([0-9][0-9_,]*(?:\.[0-9]+)?)")
#: how near "≈ X" is met: within 5% of X
NEAR = 0.05

#: modules under arena.bench, in the order printed
MODULES: list[str] = ["startup", "interaction", "sandpile", "search", "speed", "ricochet", "runner", "clock", "stats",
                      "engine", "cluster", "report", "openspiel", "ranking", "duplicate", "coverage", "serve", "llm"]


@dataclass(frozen=True)
class Figure:
    """One measured figure: ``value`` in ``unit``; ``goal`` is the target as text ("≥ 50000")."""

    area: str
    name: str
    value: float
    unit: str
    goal: str = ""
    note: str = ""

    @property
    def met(self) -> bool | None:
        """Whether ``value`` meets ``goal`` ("≥ X", "≤ X", "< X", "> X", or "≈ X": within
        ``NEAR`` of X; text after the number is a comment); ``None`` without a goal of that
        form or without a value."""
        found = _GOAL.match(self.goal)
        if found is None or not math.isfinite(self.value):
            return None
        op, bound = found.group(1), float(found.group(2).replace(",", "").replace("_", ""))
        v = self.value
        return {"≥": v >= bound, "≤": v <= bound, "<": v < bound, ">": v > bound,
                "≈": abs(v - bound) <= NEAR * abs(bound)}[op]
