"""BCa intervals of the field table (``arena.stats.bootci``): the influence of a series against
a refit, the acceleration against the jackknife, and the interval against scipy's BCa."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from arena.stats import bootci
from arena.stats import field as fs


def _duels(seed: int = 3) -> fs.Duels:
    rng = np.random.default_rng(seed)
    k, series = 4, 30
    truth = np.array([0.0, 60.0, 120.0, 250.0])
    a, b = (np.repeat(np.array(x), series) for x in zip(*[(i, j) for i in range(k) for j in range(i + 1, k)]))
    s0, s1 = np.r_[a, b], np.r_[b, a]
    p = 1 / (1 + 10 ** (-(truth[s0] - truth[s1] + 40) / 400))
    u = rng.random(len(s0))
    points = np.where(u < 0.8 * p, 1.0, np.where(u < p + 0.2 * (1 - p), 0.5, 0.0))
    key = np.r_[np.arange(len(a)), np.arange(len(a))]
    return fs.Duels.from_games(list("abcd"), s0, s1, points, key)


def test_the_influence_of_a_series_is_the_derivative_of_the_fit_by_its_weight():
    duels = _duels()
    est = fs.fit(duels, duels.cells())
    infl = bootci.influence(duels, est)
    eps = 1e-4
    for q in (0, len(duels.count) // 2, len(duels.count) - 1):
        w = duels.count.astype(float).copy()
        w[q] += eps
        moved = fs.fit(duels, duels.cells(w[None])[0], start=est)
        assert (moved - est) / eps == pytest.approx(infl[q], rel=2e-3, abs=2e-3)


def test_the_acceleration_of_a_mean_is_the_jackknifes():
    x = np.random.default_rng(1).exponential(size=25)
    jack = (x.sum() - x) / (len(x) - 1)
    d = jack.mean() - jack
    expected = (d**3).sum() / (6 * (d**2).sum() ** 1.5)
    assert bootci.acceleration((x - x.mean())[:, None], np.ones(len(x)))[0] == pytest.approx(expected)


def test_without_bias_or_skew_the_bca_interval_is_the_percentile_interval():
    reps = np.r_[np.linspace(-3, -0.01, 250), np.linspace(0.01, 3, 250)][:, None]
    influence = np.array([[-1.0], [1.0]])
    low, high = bootci.bca_intervals(np.zeros(1), reps, influence, np.array([5, 5]))
    assert (low[0], high[0]) == pytest.approx(tuple(np.quantile(reps[:, 0], [0.025, 0.975])))


def test_an_estimate_at_the_edge_of_its_replicates_keeps_the_percentile_interval():
    """A bot that won every game: its estimate is the largest replicate, BCa's bias term is
    infinite and its interval would collapse onto the estimate (a certainty the games do not
    give); the percentile interval is kept instead."""
    reps = np.r_[np.linspace(100.0, 189.0, 980), np.full(20, 190.0)][:, None]
    influence = np.array([[-1.0], [0.5], [0.5]])
    low, high = bootci.bca_intervals(np.array([190.0]), reps, influence, np.array([1, 1, 1]))
    assert (low[0], high[0]) == pytest.approx(tuple(np.quantile(reps[:, 0], [0.025, 0.975])))
    assert low[0] < 190.0


def test_the_bca_interval_of_a_skewed_mean_agrees_with_scipys():
    x = np.random.default_rng(2).exponential(size=40)
    rng = np.random.default_rng(5)
    reps = x[rng.integers(0, len(x), (20_000, len(x)))].mean(axis=1)[:, None]
    low, high = bootci.bca_intervals(np.array([x.mean()]), reps, (x - x.mean())[:, None], np.ones(len(x)))
    ref = stats.bootstrap((x,), np.mean, method="BCa", n_resamples=20_000, random_state=7).confidence_interval
    width = ref.high - ref.low
    assert low[0] == pytest.approx(ref.low, abs=0.03 * width) and high[0] == pytest.approx(ref.high, abs=0.03 * width)
    # and it is not the percentile interval: BCa moves both ends up for a right-skewed mean
    pct = np.quantile(reps[:, 0], [0.025, 0.975])
    assert low[0] > pct[0] and high[0] > pct[1]


def test_an_anchored_bot_gets_a_point_interval():
    duels = _duels()
    boot = fs.bootstrap(duels, 200, seed=1)
    low, high = bootci.field_intervals(duels, boot, anchor=0, value=0.0)
    assert low[0] == high[0] == 0.0 and (low[1:] < high[1:]).all()


def _field(ratings, games: int, seed: int = 4) -> fs.Duels:
    rng = np.random.default_rng(seed)
    r = np.asarray(ratings, float)
    k = len(r)
    a, b = (np.repeat(np.array(x), games // 2) for x in zip(*[(i, j) for i in range(k) for j in range(i + 1, k)]))
    s0, s1 = np.r_[a, b], np.r_[b, a]
    points = (rng.random(len(s0)) < 1 / (1 + 10 ** (-(r[s0] - r[s1]) / 400))).astype(float)
    key = np.r_[np.arange(len(a)), np.arange(len(a))]
    return fs.Duels.from_games([str(i) for i in range(k)], s0, s1, points, key)


def test_the_prior_pull_is_the_difference_to_the_fit_without_prior():
    duels = _field([0, 100, 200, 300], 200)
    boot = fs.bootstrap(duels, 100, seed=1)
    pull = bootci.prior_pull(duels, boot, anchor=0)
    bare = fs.fit(duels, duels.cells(), prior=0.0)  # every bot won and lost: the fit exists
    expected = fs.anchored(boot.estimate[:4], 0) - fs.anchored(bare[:4], 0)
    assert pull == pytest.approx(expected, abs=0.05 * np.abs(expected).max())
    assert pull[3] < 0  # the strongest is pulled down toward the field


def test_few_games_against_distant_bots_are_marked_and_many_are_not():
    wide = np.linspace(0, 400, 12)
    few = _field(wide, 20)
    assert bootci.pulled(few, fs.bootstrap(few, 200, seed=1), anchor=0)[-1]
    many = _field([0, 50, 100, 200], 200)
    assert not bootci.pulled(many, fs.bootstrap(many, 200, seed=1), anchor=0).any()
