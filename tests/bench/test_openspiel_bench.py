"""The OpenSpiel bench module (``--only openspiel``) measures; it never asserts a speed."""

from __future__ import annotations

import sys
from importlib.util import find_spec

import pytest

import arena.cli.bench as bench_cli
from arena.bench import MODULES, Figure, openspiel


@pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs OpenSpiel (the openspiel extra)")
def test_openspiel_figures_are_measured():
    assert "openspiel" in MODULES
    seconds, plies = openspiel.spiel_seconds(50)
    assert seconds > 0 and 5 * 50 <= plies <= 9 * 50  # tic-tac-toe ends in 5 to 9 plies
    figures = openspiel.run(quick=True)
    assert [f.unit for f in figures] == ["games/s", "×", "ms/game", "ms/game"]
    for f in figures:
        assert isinstance(f, Figure) and f.area == "openspiel" and f.note
    assert figures[0].value > 0 and figures[1].value > 1 and figures[2].goal == "≤ 2"


def test_without_openspiel_the_area_is_skipped_with_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    rows = bench_cli.run_modules(quick=True, only="openspiel")
    assert rows == [("openspiel", None, "skipped: needs pyspiel (pip install -e '.[openspiel]')")]
