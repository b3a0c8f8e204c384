"""The game browser's queries (``arena.results.browse``) against the stored games read by the
reports' loader: each filter, the pages' edges, labels that only look alike."""

from __future__ import annotations

import json

import pytest

from arena.results.browse import GameFilter, change_mark, filter_choices, game_page
from arena.results.store import Store, load_games
from arena.referee import GameSettings, play_game
from bots import registry
from bots.base import Limits

import arena.games

#: labels a text match would confuse: one holds another's JSON text after a quote
LABELS = ('b"x', "x", "rand")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("browse")
    game = arena.games.make("interaction")
    pairs = [(LABELS[0], LABELS[2]), (LABELS[2], LABELS[1]), (LABELS[1], LABELS[0])]
    with Store.open(folder, "b") as st:
        st.begin("b", "interaction", {}, 2, 1, {"games": 30}, [(lab, "random") for lab in LABELS], 30)
        for game_id in range(1, 31):
            seats = pairs[game_id % 3]
            bots = [registry.make("random"), registry.make("greedy" if game_id % 2 else "random")]
            record = play_game(GameSettings(game, game_id, labels=seats, limits=Limits()), bots)
            st.add_game(game_id, game_id - 1, record)
        return st.path


def _all(path, flt) -> list[int]:
    ids, before = [], None
    while True:
        page = game_page(path, flt, before=before, size=7)
        ids += [g["game_id"] for g in page.games]
        assert len(ids) <= page.matching
        if page.older is None:
            assert len(ids) == page.matching
            return ids
        before = page.older


@pytest.mark.parametrize("flt", [GameFilter(), GameFilter(bot="x"), GameFilter(bot='b"x'), GameFilter(bot="x", seat=1),
                                 GameFilter(termination="target"), GameFilter(min_plies=20, max_plies=40),
                                 GameFilter(bot="rand", seat=0, max_plies=50), GameFilter(opening="[]")])
def test_filters_match_the_stored_games(store, flt):
    games = load_games(store)
    keep = []
    for g in games.itertuples():
        seats = list(g.seats)
        ok = (flt.bot is None or (flt.bot in seats if flt.seat is None else seats[flt.seat] == flt.bot))
        ok = ok and (flt.termination is None or g.termination == flt.termination)
        ok = ok and (flt.min_plies is None or g.plies >= flt.min_plies)
        ok = ok and (flt.max_plies is None or g.plies <= flt.max_plies)
        if ok:
            keep.append(int(g.game_id))
    assert _all(store, flt) == sorted(keep, reverse=True)


def test_pages_step_both_ways(store):
    first = game_page(store, GameFilter(), size=10)
    assert [g["game_id"] for g in first.games] == list(range(30, 20, -1)) and first.newer is None
    second = game_page(store, GameFilter(), before=first.older, size=10)
    assert [g["game_id"] for g in second.games] == list(range(20, 10, -1))
    back = game_page(store, GameFilter(), after=second.newer, size=10)
    assert back.games == first.games
    assert json.loads(json.dumps(first.games[0]["seats"])) in [list(p) for p in
                                                               [(LABELS[0], LABELS[2]), (LABELS[2], LABELS[1]),
                                                                (LABELS[1], LABELS[0])]]


def test_choices_and_change_mark(store):
    choices = filter_choices(store)
    assert choices["bots"] == list(LABELS)
    assert sum(n for _, n in choices["terminations"]) == 30
    assert change_mark(store) == (30, 30)
