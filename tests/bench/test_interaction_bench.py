"""The Interaction bench module measures (it never asserts a speed)."""

from __future__ import annotations

from arena.bench import MODULES, Figure, interaction


def test_interaction_figures_are_measured():
    assert "interaction" in MODULES
    figures = interaction.run(quick=True)
    assert {f.unit for f in figures} == {"plies/s", "games/s", "moves/s", "children/s"}
    for f in figures:
        assert isinstance(f, Figure) and f.area == "interaction" and f.value > 0 and f.note
