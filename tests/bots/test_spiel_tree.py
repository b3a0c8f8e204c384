"""``bots.spiel_tree``: the tree sizes, the solvers' keys of a simultaneous game's information
states, and the cache folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots import spiel_tree


@pytest.mark.parametrize("name, histories", [("kuhn_poker", 58), ("leduc_poker", 9457),
                                             ("liars_dice(dice_sides=3)", 1147)])
def test_tree_sizes(name, histories):
    spiel = pytest.importorskip("pyspiel").load_game(name)
    assert spiel_tree.count_histories(spiel, 10**6) == histories
    assert spiel_tree.count_histories(spiel, 40) == 41  # a bigger tree stops at the limit + 1


def _infostates(state, keys, key_of):
    if state.is_terminal():
        return
    if state.is_chance_node():
        for action, _ in state.chance_outcomes():
            _infostates(state.child(action), keys, key_of)
        return
    keys.update(key_of(state))
    for action in state.legal_actions():
        _infostates(state.child(action), keys, key_of)


@pytest.mark.parametrize("name", ["goofspiel(num_cards=3)", "goofspiel(num_cards=4,points_order=descending)",
                                  "oshi_zumo(coins=4,size=2,horizon=4)", "matrix_rps"])
def test_the_turn_based_keys_are_the_simultaneous_states_prefixed(name):
    """What ``solver_key`` relies on: OpenSpiel's turn-based transformation names a seat's
    information state ``Current player: SEAT`` + a newline + its simultaneous one, at every node."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game(name)
    ours: set[str] = set()
    _infostates(game.new_initial_state(), ours, lambda s: {
        f"Current player: {p}\n{s.information_state_string(p)}" for p in range(2) if s.legal_actions(p)})
    theirs: set[str] = set()
    _infostates(pyspiel.convert_to_turn_based(game).new_initial_state(), theirs,
                lambda s: {s.information_state_string(s.current_player())})
    assert ours == theirs and len(ours) > 1


def test_the_cache_folder(monkeypatch):
    monkeypatch.setenv("ARENA_CACHE_DIR", "/somewhere")
    assert spiel_tree.cache_dir("cfr") == Path("/somewhere/cfr")
    monkeypatch.delenv("ARENA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", "/xdg")
    assert spiel_tree.cache_dir("cfr") == Path("/xdg/arena/cfr")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", "/home/someone")
    assert spiel_tree.cache_dir("exploitability") == Path("/home/someone/.cache/arena/exploitability")
