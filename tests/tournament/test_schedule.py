from collections import Counter

import pytest

from arena.errors import ConfigError
from arena.tournament.pairing import gauntlet, pairings, round_robin
from arena.tournament.series import schedule, seat_orders, series_count
from tests.toy import Nim


def test_round_robin_and_gauntlet_subsets():
    field = ["a", "b", "c", "d", "e"]
    assert round_robin(field, 2) == [("a", "b"), ("a", "c"), ("a", "d"), ("a", "e"), ("b", "c"), ("b", "d"),
                                     ("b", "e"), ("c", "d"), ("c", "e"), ("d", "e")]
    assert len(round_robin(field, 4)) == 5
    assert gauntlet(field, 2) == [("a", "b"), ("a", "c"), ("a", "d"), ("a", "e")]
    g4 = gauntlet(field, 4)
    assert len(g4) == 4 and all(p[0] == "a" and "a" not in p[1:] for p in g4)


def test_field_smaller_than_game_is_refused():
    with pytest.raises(ConfigError, match="--fill"):
        pairings("round-robin", ["a", "b"], 4)
    with pytest.raises(ConfigError, match="accepted: round-robin, gauntlet"):
        pairings("swiss", ["a", "b"], 2)


@pytest.mark.parametrize("players,rotation,per_series", [(2, "cyclic", 2), (4, "cyclic", 4), (2, "all", 2),
                                                         (4, "all", 24), (3, "all", 6)])
def test_series_rotate_seats_exactly(players, rotation, per_series):
    game = Nim(pile=30, players=players)
    field = [f"b{i}" for i in range(players + 1)]
    tasks = schedule(game, pairings("round-robin", field, players), games=per_series + 1, seed=7,
                     opening_plies=2, rotation=rotation)
    n_pairings = len(pairings("round-robin", field, players))
    assert series_count(per_series + 1, players, rotation) == 2
    assert len(tasks) == n_pairings * 2 * per_series
    assert [t.game_id for t in tasks] == list(range(1, len(tasks) + 1))
    by_series = {}
    for t in tasks:
        by_series.setdefault((t.pairing, t.series), []).append(t)
    for (pairing, _), games in by_series.items():
        assert len(games) == per_series
        assert len({(t.seed, t.opening) for t in games}) == 1  # one shared start per series
        assert len(games[0].opening) == 2
        seat_counts = Counter((label, t.seats.index(label)) for t in games for label in pairing)
        assert set(seat_counts.values()) == {per_series // players}  # every bot in every seat equally
        assert len(seat_counts) == players * players
        assert len({t.seats for t in games}) == per_series  # all orders distinct
    assert len({t.seed for t in tasks}) == len(by_series)  # different series, different starts


def test_cyclic_orders():
    assert seat_orders(("a", "b", "c")) == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]


def test_schedule_is_deterministic_and_seed_dependent():
    game = Nim(pile=30)
    a = schedule(game, [("x", "y")], 6, seed=1, opening_plies=3)
    assert a == schedule(game, [("x", "y")], 6, seed=1, opening_plies=3)
    assert [t.seed for t in a] != [t.seed for t in schedule(game, [("x", "y")], 6, seed=2, opening_plies=3)]
