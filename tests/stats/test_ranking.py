"""The adaptive ranking's decisions (``arena.stats.ranking``)."""

import math

import numpy as np
import pytest

from arena.bench import ranking as sim
from arena.stats import ranking


def field(ratings, series, seed=0):
    """Simulated series of every pairing of bots with these true ratings (``arena.bench.ranking``)."""
    s = sim.Simulator(sim.Field(np.asarray(ratings, float)), np.random.default_rng(seed))
    s.play(np.arange(len(s.pa)), series)
    return s


def test_levels_and_least_series():
    assert ranking.pair_level(0.95, 2) == pytest.approx(0.95)
    assert ranking.pair_level(0.95, 11) == pytest.approx(0.995)  # Bonferroni over 10 adjacent pairs
    # a sign test with every one of w pairs won reaches 1 - 2^-(w+1)
    for level in (0.95, 0.99, 0.995):
        w = ranking.min_series(level)
        assert 1 - 2 ** -(w + 1) >= level > 1 - 2 ** -w or w == ranking.MIN_SERIES


def test_a_clear_field_is_settled_and_a_close_pair_gets_the_next_series():
    clear = field([0, 400, 800], 10)
    d = ranking.decide(clear.duels(), 0.95, 1000, seed=1, round_=3)
    assert d.order == (2, 1, 0) and d.done and d.settled and d.next == ()
    close = field([0, 400, 410, 800], 4, seed=2)
    d = ranking.decide(close.duels(), 0.95, 1000, seed=1, round_=0)
    assert not d.done and not d.settled
    assert {(a, b) for a, b, _ in d.next} <= {(0, 1), (1, 2), (2, 3), (0, 2), (1, 3)}
    assert d.next[0][:2] == (1, 2)  # the close pair first
    assert d.next[0][2] <= 4  # at most as many series as it has played (rounds double at most)
    assert "least certain" in d.line([f"b{i}" for i in range(4)])


def test_decisions_are_reproducible_and_capped():
    close = field([0, 5, 10], 4, seed=3)
    one = ranking.decide(close.duels(), 0.95, 1000, seed=7, round_=2)
    assert one == ranking.decide(close.duels(), 0.95, 1000, seed=7, round_=2)
    capped = ranking.decide(close.duels(), 0.95, 8, seed=7, round_=2)  # every pairing has its 8 games
    assert capped.done and not capped.settled


def test_a_bad_confidence_is_refused():
    with pytest.raises(ValueError, match="between 0.5 and 1"):
        ranking.decide(field([0, 100], 2).duels(), 1.0)


def test_the_simulation_bench_runs_small():
    """A small version of ``arena bench --only ranking``: a handful of small fields."""
    out = sim.simulate(6, seed=2, cap=200, replicates=100, sizes=(8, 64), low=4, high=5)
    assert out["fields"] == 6 and 0 <= out["wrong"] <= 1 and 0 <= out["settled"] <= 1
    assert len(out["rr_wrong"]) == 2 and out["rr_games"][1] == pytest.approx(8 * out["rr_games"][0])
    assert out["games"] >= 2 * 6  # at least round 0
    assert math.isnan(out["ratio"]) or out["ratio"] == pytest.approx(out["games"] / out["matched"])


def test_matched_games_interpolates_in_log_games():
    assert sim.matched_games(0.9, [2, 4], [0.2, 0.05], [100.0, 200.0]) == pytest.approx(
        math.exp(math.log(100) + (0.9 - 0.8) / (0.95 - 0.8) * math.log(2)))
    assert sim.matched_games(0.7, [2, 4], [0.2, 0.05], [100.0, 200.0]) == 100.0
    assert math.isnan(sim.matched_games(0.99, [2, 4], [0.2, 0.05], [100.0, 200.0]))


def test_a_wrong_order_counts_from_ten_elo():
    f = sim.Field(np.array([0.0, 5.0, 30.0]))
    assert not f.wrong([2, 0, 1])  # 0 above 5: 5 Elo apart, not counted
    assert f.wrong([1, 2, 0])
