"""The Sandpile bench figures are measured from real playouts and searches."""

from arena.bench import MODULES
from arena.bench import sandpile


def test_figures_are_measured():
    plies, games, seconds = sandpile.playouts(0.05, seed=1)
    assert games >= 1 and plies >= 16 * 4 * games and seconds >= 0.05
    nodes, secs = sandpile.search_speed("paranoid", 1, 2)
    assert nodes > 2 and secs > 0
    assert "sandpile" in MODULES
