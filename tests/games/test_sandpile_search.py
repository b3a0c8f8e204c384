"""Sandpile search steps (``arena.games.sandpile.search``) give what ``play`` gives: every
field of ``child(move)`` and of ``leaf(move).whole()``, and a ``LeafPosition``'s evaluation
data, turn and evaluation, for every legal move along seeded random games (both wraps, the
bonus on and off, so offers, end-of-round offers and round ends all occur)."""

from __future__ import annotations

import random

import pytest

import arena.games
from arena.games.sandpile import PASS, SandpileState
from arena.games.sandpile.search import LeafPosition
from bots.eval import sandpile as ev

#: what a LeafPosition carries for an evaluator, equal to the played state's
LEAF_FIELDS = ("rules", "round", "phase", "player", "step", "holders", "to_move", "occ", "tall", "topm",
               "three", "unstable_stacks", "banked")


def fields(state: SandpileState) -> dict:
    return {name: getattr(state, name) for name in SandpileState.__slots__}


def walk(params: dict, seed: int):
    """(state, move) for every legal move of every position of one seeded random game (bonus
    offers mostly declined, so pieces are still held at the end-of-round offers)."""
    game = arena.games.make("sandpile", **params)
    rng = random.Random(seed)
    state = game.initial_state()
    while not state.is_terminal():
        moves = state.legal_moves()
        for move in moves:
            yield state, move
        state = state.play(PASS if PASS in moves and rng.random() < 0.95 else rng.choice(moves))


@pytest.mark.parametrize("params,seed", [({}, 0), ({"wrap": "mirror"}, 1), ({"bonus": False, "rounds": 2}, 2)])
def test_child_and_leaf_give_what_play_gives(params, seed):
    kinds = set()
    for state, move in walk(params, seed):
        played = state.play(move)
        assert fields(state.child(move)) == fields(played)
        leaf = state.leaf(move)
        assert fields(leaf.whole()) == fields(played)
        if isinstance(leaf, LeafPosition):
            kinds.add(leaf.phase)
            assert {f: getattr(leaf, f) for f in LEAF_FIELDS} == {f: getattr(played, f) for f in LEAF_FIELDS}
            assert not leaf.is_terminal() and leaf.to_move >= 0
            assert [leaf.turns_left(p) for p in range(4)] == [played.turns_left(p) for p in range(4)]
            assert leaf.placeable_mask(leaf.player) == played.placeable_mask(played.player)
            assert ev.evaluate_all(leaf) == ev.evaluate_all(played)  # bit for bit: same search values
        else:
            kinds.add("whole " + ("placement" if move.kind in ("place", "bonus") else move.kind))
            assert leaf.to_text() == played.to_text()
    expected = {"place", "bonus", "endbonus", "whole placement", "whole pass", "whole topple"}
    assert expected - ({"bonus", "endbonus", "whole pass"} if params.get("bonus") is False else set()) <= kinds


@pytest.mark.parametrize("params,seed", [({}, 3), ({"wrap": "mirror", "pieces_per_round": 2}, 4)])
def test_steps_from_a_leaf_position_give_what_play_gives(params, seed):
    """A ``LeafPosition`` takes ``leaf``, ``child`` and ``pass_or_first`` steps itself (a
    best-reply search's line of default moves), through chains of light positions."""
    rng = random.Random(seed)
    chained = 0
    for state, move in walk(params, seed):
        if rng.random() > 0.15:
            continue
        light, whole = state.leaf(move), state.play(move)
        for _ in range(3):  # a short line: light positions on light positions
            if not isinstance(light, LeafPosition):
                break
            assert light.pass_or_first() == whole.pass_or_first()
            following = whole.legal_moves()
            for nxt in following:
                assert fields(light.child(nxt)) == fields(whole.play(nxt))
                assert fields(light.leaf(nxt).whole()) == fields(whole.play(nxt))
            nxt = rng.choice(following)
            light, whole = light.leaf(nxt), whole.play(nxt)
            chained += 1
    assert chained > 100


def test_leaf_of_a_placement_onto_an_unstable_stack_replaces_it_in_the_unstable_stacks():
    """A piece put on a stack already unstable (placing phase) keeps one entry per cell."""
    game = arena.games.make("sandpile")
    state = game.parse_state(".,.,.,.,.,./.,.,.,.,.,./.,.,.,.,.,./.,.,ABCD,.,.,./.,.,.,.,.,./.,.,.,.,.,. "
                             "1 place C 2 - 1,1,1,1 -")
    move = next(m for m in state.legal_moves() if m.cell == "c3")
    leaf, played = state.leaf(move), state.play(move)
    assert isinstance(leaf, LeafPosition)
    assert leaf.unstable_stacks == played.unstable_stacks == ((14, "ABCDC"),)
    assert fields(leaf.whole()) == fields(played)
