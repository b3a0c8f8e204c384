"""The figures of ``arena bench``: each module in ``MODULES`` defines
``run(quick: bool) -> list[Figure]`` (one core, unless the figure says otherwise).

Figures are measured, not asserted: report ratios measured in one run where possible.
"""

from __future__ import annotations

from dataclasses import dataclass

#: modules under arena.bench, in the order printed
MODULES: list[str] = ["interaction", "sandpile", "search", "speed", "ricochet", "runner", "stats", "engine", "cluster", "report"]


@dataclass(frozen=True)
class Figure:
    """One measured figure: ``value`` in ``unit``; ``goal`` is the target as text ("≥ 50000")."""

    area: str
    name: str
    value: float
    unit: str
    goal: str = ""
    note: str = ""
