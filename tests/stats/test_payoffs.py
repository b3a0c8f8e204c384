"""Payoff statistics with the series as the unit (``arena.stats.payoffs``), against values
computed another way: scipy's one-sample t-test, the CR1 formula written out, the sign test."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from arena.stats.payoffs import bootstrap_means, series_means


def test_equal_series_give_the_one_sample_t_test_of_the_series_means():
    rng = np.random.default_rng(3)
    payoffs = rng.normal(0.4, 2.0, size=(12, 2))  # 12 series of 2 games
    got = series_means(payoffs.ravel(), np.zeros(24, int), np.repeat(np.arange(12), 2))
    means = payoffs.mean(axis=1)
    test = stats.ttest_1samp(means, 0.0)
    low, high = stats.t.interval(0.95, 11, loc=means.mean(), scale=stats.sem(means))
    assert got.mean[0] == pytest.approx(means.mean(), rel=1e-12)
    assert got.low[0] == pytest.approx(low, rel=1e-9) and got.high[0] == pytest.approx(high, rel=1e-9)
    assert got.p_value[0] == pytest.approx(test.pvalue, rel=1e-9)
    assert got.se[0] == pytest.approx(stats.sem(means), rel=1e-9)
    assert got.method[0] == "t" and got.series[0] == 12


def test_unequal_series_use_the_cluster_robust_ratio_mean():
    # three series of 1, 2 and 3 games (one group): by hand from the CR1 formula
    y = [3.0, -1.0, 2.0, 0.0, 1.0, -2.0]
    series = [0, 1, 1, 2, 2, 2]
    got = series_means(y, [0] * 6, series)
    m = sum(y) / 6  # 0.5
    sums, sizes = [3.0, 1.0, -1.0], [1, 2, 3]
    var = 3 / 2 * sum((s - m * n) ** 2 for s, n in zip(sums, sizes)) / 36
    half = stats.t.ppf(0.975, 2) * math.sqrt(var)
    assert got.mean[0] == pytest.approx(m)
    assert (got.low[0], got.high[0]) == pytest.approx((m - half, m + half))
    assert got.p_value[0] == pytest.approx(2 * stats.t.sf(m / math.sqrt(var), 2))


def test_groups_are_computed_apart_and_a_group_without_data_is_nan():
    got = series_means([1.0, 3.0, -2.0, -4.0, 5.0], [0, 0, 2, 2, 2], [0, 1, 0, 1, 1], groups_count=4)
    assert got.mean[0] == 2.0 and got.mean[2] == pytest.approx(-1 / 3)
    assert math.isnan(got.mean[1]) and math.isnan(got.p_value[1]) and got.series[1] == 0
    assert got.series.tolist() == [2, 0, 2, 0]


def test_no_spread_or_one_series_falls_back_to_the_sign_test():
    # eight series that each won 1 chip a game: no spread, the t-test is undefined
    got = series_means([1.0] * 16, [0] * 16, np.repeat(np.arange(8), 2))
    assert got.method[0] == "sign" and math.isnan(got.low[0])
    assert got.p_value[0] == pytest.approx(2 * 0.5**8)
    assert (got.plus[0], got.minus[0]) == (8, 0)
    one = series_means([2.0, -2.0], [0, 0], [0, 0])  # one series, even: nothing won
    assert one.method[0] == "sign" and one.p_value[0] == 1.0


def test_the_bootstrap_resamples_series_within_their_stratum():
    sums = np.array([[2.0, -2.0], [0.0, 0.0], [4.0, -4.0], [-6.0, 6.0]])
    counts = np.full((4, 2), 2.0)
    strata = np.array([0, 0, 1, 1])
    reps = bootstrap_means(sums, counts, strata, replicates=300, seed=5)
    assert reps.shape == (300, 2)
    assert np.array_equal(reps, bootstrap_means(sums, counts, strata, replicates=300, seed=5))
    assert np.allclose(reps[:, 0], -reps[:, 1])  # zero-sum sums stay zero-sum
    # each stratum keeps its size: a replicate draws two series of stratum 0 and two of stratum 1
    possible = {(a + b + c + d) / 8 for a in (2, 0) for b in (2, 0) for c in (4, -6) for d in (4, -6)}
    assert set(np.round(reps[:, 0], 12)) <= {round(v, 12) for v in possible}
    single = bootstrap_means(sums[:1], counts[:1], strata[:1], replicates=10, seed=1)
    assert np.allclose(single, [1.0, -1.0])  # one series: every replicate is that series


def test_the_draws_are_the_bootstrap_means_replicates_in_chunks_of_bounded_memory(monkeypatch):
    from arena.stats import payoffs

    sums = np.array([[2.0, -2.0], [0.0, 0.0], [4.0, -4.0], [-6.0, 6.0], [1.0, -1.0]])
    counts = np.full((5, 2), 2.0)
    strata = np.array([0, 0, 1, 1, 1])
    drawn = np.concatenate(list(payoffs.bootstrap_draws(strata, 40, seed=2)))
    assert drawn.shape == (40, 5)
    assert (drawn[:, :2].sum(axis=1) == 2).all() and (drawn[:, 2:].sum(axis=1) == 3).all()  # strata keep their size
    assert np.allclose(bootstrap_means(sums, counts, strata, replicates=40, seed=2), (drawn @ sums) / (drawn @ counts))
    monkeypatch.setattr(payoffs, "CHUNK_CELLS", 12)
    assert [len(c) for c in payoffs.bootstrap_draws(strata, 7, seed=2)] == [2, 2, 2, 1]  # 12 // 5 series
    assert [len(c) for c in payoffs.bootstrap_draws(strata, 7, seed=2, width=4)] == [3, 3, 1]
