"""The speed work of issue 18 changes no search result: the same moves, node counts, root
values and whole games as the code before it (``search_pins.json``, see ``search_pins``)."""

from __future__ import annotations

import json

import pytest

from tests.bots import search_pins

PINNED = json.loads(search_pins.PINS.read_text())


@pytest.mark.parametrize("game,spec,kind", search_pins.CASES, ids=[f"{g}-{s}" for g, s, _ in search_pins.CASES])
def test_same_moves_nodes_and_values_at_fixed_depth(game, spec, kind):
    expected = PINNED["choices"][f"{game} {spec}"]
    got = search_pins.choices(game, spec, kind)
    assert [tuple(x[:3]) for x in got] == [tuple(x[:3]) for x in expected]  # move, nodes, depth
    for g, e in zip(got, expected):
        assert (g[3] is None) == (e[3] is None) and (g[3] is None or g[3] == pytest.approx(e[3], abs=1e-6))


@pytest.mark.parametrize("game,specs,seed", search_pins.GAMES, ids=[f"{g}-{s}" for g, _, s in search_pins.GAMES])
def test_same_seeded_games(game, specs, seed):
    assert search_pins.play(game, specs, seed) == PINNED["games"][f"{game} {' '.join(specs)} seed {seed}"]
