"""What making an OpenSpiel seat's view costs the referee each ply (``arena bench --only
openspiel``, ``docs/speed.md``): work that depends only on the game is done once per game,
not once per view. Counted calls, no timing."""

from __future__ import annotations

from importlib.util import find_spec

import pytest

import arena.games

pytestmark = pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs OpenSpiel (the openspiel extra)")


@pytest.mark.parametrize("name,kind", [("phantom_ttt", None), ("liars_dice", "replay"), ("kuhn_poker", "resample")])
def test_the_sampler_kind_is_found_once_per_game_not_per_view(monkeypatch, name, kind):
    import arena.games.openspiel.views as views

    real = views.pyspiel
    calls = []
    monkeypatch.setattr(views, "pyspiel", lambda: calls.append(1) or real())
    monkeypatch.setattr(views, "_KINDS", {}, raising=False)
    game = arena.games.make(f"openspiel:{name}")
    state, seen = game.initial_state(), 0
    for i in range(12):
        if state.is_terminal():
            break
        if state.to_move >= 0:
            view = state.view(state.to_move)
            assert view.can_sample == (kind is not None)
            seen += 1
        state = state.random_child((0.37 * i) % 1)
    assert seen >= 2 and views.sampler_kind(game) == kind
    assert len(calls) <= 1  # OpenSpiel's game type read once for the game, not at every view
