"""Statistics against published or hand-computed reference values."""

import math

import pytest

from arena.stats.intervals import wilson_interval
from arena.stats.significance import binomial_test, equal_shares_test


def textbook_wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson (1927) score interval, written out: (p + z²/2n ± z√(p(1−p)/n + z²/4n²)) / (1 + z²/n)."""
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


@pytest.mark.parametrize("k,n,low,high", [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_newcombe_table(k, n, low, high):
    # Newcombe (1998), Stat. Med. 17:857-872, Table I, method 3 (Wilson score, no continuity
    # correction); 81/263 is also Wikipedia's "Binomial proportion confidence interval" example.
    got = wilson_interval(k, n)
    assert got[0] == pytest.approx(low, abs=5e-5)
    assert got[1] == pytest.approx(high, abs=5e-5)


@pytest.mark.parametrize("k,n", [(81, 263), (15, 148), (0, 20), (1, 29), (29, 29), (7, 10)])
def test_wilson_matches_textbook_formula(k, n):
    assert wilson_interval(k, n) == pytest.approx(textbook_wilson(k, n), abs=1e-12)


def test_wilson_empty_sample_is_nan():
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


def test_binomial_exact_sums():
    # 9 of 10 against 1/2: 2 * (C(10,9) + C(10,10)) / 2^10 = 22/1024.
    assert binomial_test(9, 10) == pytest.approx(22 / 1024, rel=1e-12)
    # 7 of 10: 2 * (C(10,7) + C(10,8) + C(10,9) + C(10,10)) / 1024 = 2 * 176 / 1024.
    assert binomial_test(7, 10) == pytest.approx(352 / 1024, rel=1e-12)
    # 5 of 10 is the most likely outcome: p = 1.
    assert binomial_test(5, 10) == pytest.approx(1.0)
    # 0 of 6: 2 / 64.
    assert binomial_test(0, 6) == pytest.approx(2 / 64, rel=1e-12)
    assert math.isnan(binomial_test(0, 0))


def test_chisquare_equal_shares():
    # (30, 20, 10), expected 20 each: chi2 = (100 + 0 + 100) / 20 = 10 with 2 dof;
    # the chi-square(2) survival function is exp(-x/2), so p = exp(-5).
    test = equal_shares_test([30, 20, 10])
    assert test.statistic == pytest.approx(10.0)
    assert test.dof == 2
    assert test.p_value == pytest.approx(math.exp(-5), rel=1e-9)
    # Fractional counts (shared first places) are accepted: (1.5, 1.5) is perfectly equal.
    assert equal_shares_test([1.5, 1.5]).p_value == pytest.approx(1.0)
    assert math.isnan(equal_shares_test([0, 0, 0]).p_value)


def test_the_vectorised_binomial_tests_and_wilson_intervals_are_scipys():
    """One row per pairing at once: the same numbers as ``scipy.stats.binomtest``, to the bit,
    over every count up to 60 games and a few large samples."""
    import numpy as np

    from arena.stats.intervals import wilson_intervals
    from arena.stats.significance import binomial_tests_half

    pairs = [(k, n) for n in range(0, 61) for k in range(n + 1)] + [(4_999, 10_000), (5_170, 10_000), (3, 100_001)]
    k, n = (np.array(x) for x in zip(*pairs))
    p = binomial_tests_half(k, n)
    low, high = wilson_intervals(k, n)
    for i, (ki, ni) in enumerate(pairs):
        if ni == 0:
            assert math.isnan(p[i]) and math.isnan(low[i]) and math.isnan(high[i])
            continue
        assert p[i] == binomial_test(ki, ni)
        assert (low[i], high[i]) == wilson_interval(ki, ni)


def test_cluster_means_are_each_groups_cluster_mean():
    import random

    import numpy as np

    from arena.stats.intervals import cluster_mean, cluster_means

    rng = random.Random(5)
    groups = np.array([rng.randrange(6) for _ in range(400)])
    clusters = np.array([rng.randrange(30) for _ in range(400)])
    values = np.array([rng.choice([0.0, 0.5, 1.0]) for _ in range(400)])
    values[groups == 4] = 0.5  # every cluster at the mean: no interval
    keep = ~((groups == 5) & (clusters > 0))  # group 5: one cluster
    groups, clusters, values = groups[keep], clusters[keep], values[keep]
    mean, low, high, count = cluster_means(values, groups, clusters, bounds=(0.0, 1.0), groups_count=7)
    for g in range(6):
        alone = cluster_mean(values[groups == g], clusters[groups == g], bounds=(0.0, 1.0))
        assert (mean[g], count[g]) == pytest.approx((alone[0], alone[3]), rel=1e-12)
        assert [low[g], high[g]] == pytest.approx([alone[1], alone[2]], rel=1e-12, nan_ok=True)
    assert math.isnan(low[4]) and math.isnan(low[5]) and count[5] == 1
    assert math.isnan(mean[6]) and count[6] == 0  # a group without observations
