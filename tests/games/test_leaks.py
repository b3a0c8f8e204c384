"""The leak check of ``arena.games.check`` (``arena.games.leaks``, issue 42): a game of one's
own with hidden information (``tests/games/hicard.py``) passes it, registered and played
through the public API; deliberately leaking games fail it, each rule naming the leak; an
OpenSpiel game whose view leaks from a later phase is caught too. Every registered and every
OpenSpiel game runs it through ``check`` (``test_conformance.py``, ``test_openspiel.py``)."""

from __future__ import annotations

import random
from importlib.util import find_spec

import pytest

import arena.games
from arena.games import GameCheckError, View, check
from arena.games.leaks import _play, check_private_chance, check_views, reachable
from arena.referee import GameSettings, play_game
from bots.random import RandomBot
from tests.games.hicard import HiCard, HiCardState, LeakyHiCard, LeakyState
from tests.registered import register_game
from tests.toy import Nim

needs_openspiel = pytest.mark.skipif(find_spec("pyspiel") is None, reason="needs OpenSpiel (the openspiel extra)")


@pytest.mark.parametrize("params", [{}, {"players": 3}, {"players": 4, "deck": 6}, {"deck": 2}], ids=repr)
def test_a_game_of_ones_own_with_hidden_information_passes_check(params):
    check(HiCard(**params))


def test_registered_it_plays_with_each_seat_handed_its_view(monkeypatch):
    register_game(monkeypatch, "hicard", HiCard)  # for this test only: other tests list every game
    game = arena.games.make("hicard", players=3)
    handed = []

    class Keeps(RandomBot):
        def choose(self, view, limits):
            handed.append(view)
            return super().choose(view, limits)

    record = play_game(GameSettings(game, 4), [Keeps(), Keeps(), Keeps()])
    assert record.outcome.termination in ("showdown", "all_fold") and len(handed) == 3
    assert [v.seat for v in handed] == [0, 1, 2] and all(isinstance(v, View) for v in handed)
    cards = [int(m[1:]) for m in record.moves[:3]]
    for view in handed:
        assert view.text.startswith(f"card {cards[view.seat]} |")
        assert not any(isinstance(o, HiCardState) for o in reachable(view))


def test_a_view_that_shows_the_next_card_after_a_call_fails_the_sampler_rule():
    with pytest.raises(GameCheckError, match=r"leaky-hicard: leak: seat \d's view differs between states its "
                                             r"sampler says it cannot tell apart: 'card \d \| call \| seat \d holds"):
        check(LeakyHiCard())


def test_without_a_sampler_a_leak_to_one_seat_of_three_fails_the_private_chance_rule():
    class Unsampled(LeakyState):
        def view(self, seat):
            return View(self.game, seat, self.to_move, self.seen(seat), self.legal_moves() if self.to_move == seat
                        else [])

    class UnsampledGame(LeakyHiCard):
        state_class = Unsampled

    with pytest.raises(GameCheckError, match=r"leak: seat (\d)'s view shows a chance outcome of seat\(s\) \[\d\] "
                                             r"\(ply \d: 'c\d' or 'c\d'\) at ply \d+, before the rules show it"):
        check_views(UnsampledGame(players=3))
    check_views(HiCard(players=3))  # the sound game passes


def test_a_view_that_lists_other_moves_or_is_no_view_fails():
    class Holding(HiCardState):
        def view(self, seat):
            return View(self.game, seat, self.to_move, self.seen(seat), [self] if self.to_move == seat else [])

    class HoldingGame(HiCard):
        state_class = Holding

    with pytest.raises(GameCheckError, match="must list its legal moves"):
        check_views(HoldingGame())

    class Plain(HiCardState):
        def view(self, seat):
            return self

    class PlainGame(HiCard):
        state_class = Plain

    with pytest.raises(GameCheckError, match=r"State.view\(0\) must be an arena.games.View of seat 0"):
        check_views(PlainGame())

    check_views(Nim())  # a game of perfect information: its view is the state itself


def _fails(game, rule: str) -> bool:
    try:
        check_views(game)
    except GameCheckError as exc:
        return rule in str(exc)
    return False


def test_a_perfect_information_game_must_hand_the_state_itself():
    from tests.toy import NimState

    class Odd(NimState):
        def view(self, seat):
            return View(None, seat, self.to_move, "odd")

    class OddNim(Nim):
        def initial_state(self, seed=None):
            s = super().initial_state(seed)
            return Odd(s.pile, s.to_move, s.players, s.take)

    with pytest.raises(GameCheckError, match="must give every seat the state itself as its view"):
        check_views(OddNim())


@needs_openspiel
@pytest.mark.parametrize("name, params, rule", [
    ("kuhn_poker", {}, "can tell from its view"),  # two seats: the sampler rule catches it
    ("leduc_poker", {}, "can tell from its view"),
    ("kuhn_poker", {"players": 3}, "can tell from its view"),
    ("tiny_bridge_4p", {}, "shows a chance outcome of seat(s)"),  # rule 3 alone (its sampler: the view itself)
    ("liars_dice", {}, None),  # two seats and a sampler that keeps the view: a known limit, documented
])
def test_an_openspiel_view_that_leaks_from_a_later_phase_is_caught(name, params, rule, monkeypatch):
    """The view string made to show the next seat's own view (its private cards) once a seat
    has acted (a later phase, as OpenSpiel's shipped leaks did)."""
    import arena.games.openspiel.views as views

    honest = views.view_text
    game = arena.games.make(f"openspiel:{name}", **params)
    n = game.num_players

    def leaking(spiel, seat, information_state):
        text = honest(spiel, seat, information_state)
        acted = any(entry.player >= 0 for entry in spiel.full_history())
        if acted and not spiel.is_terminal():
            text += f" leak:{honest(spiel, (seat + 1) % n, information_state)}"
        return text

    check_views(game)
    monkeypatch.setattr(views, "view_text", leaking)
    if rule is None:
        check_views(game)
    elif "chance outcome" in rule:
        with pytest.raises(GameCheckError, match=r"leak: seat \d's view shows a chance outcome of seat\(s\)"):
            for seed in range(3):
                moves, states = _play(game, seed)
                check_private_chance(game, moves, states, random.Random(seed))
    else:
        assert _fails(game, rule)


def test_the_samplers_draws_are_seeded():
    game = HiCard(players=3)
    state = game.initial_state()
    for card in ("c4", "c1", "c2"):
        state = state.play(card)
    view = state.view(0)
    assert view.sample(random.Random(3)).to_text() == view.sample(random.Random(3)).to_text()
