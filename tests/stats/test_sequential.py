"""The median-unbiased Elo after an SPRT (arena/stats/sequential.py) against fishtest's own
computation and the outcome probability against an independent quadrature."""

import math

import numpy as np
import pytest
from scipy.integrate import quad

from arena.stats.sequential import _siegmund, median_unbiased, worse_probability
from arena.stats.sprt import SprtSpec, bounds

# fishtest (official-stockfish/fishtest b8eecff2, server/fishtest/stats/sprt.py), computed with
#   s = sprt(alpha=0.05, beta=0.05, elo0=E0, elo1=E1, elo_model=M); s.set_state(penta)
#   a = s.analytics(0.05); a["elo"], a["ci"]
FISHTEST = [
    ([10, 40, 100, 60, 20], 0, 5, "logistic", (30.2883, 8.6063, 52.2084)),
    ([3, 5, 9, 6, 2], 0, 10, "logistic", (-6.9496, -84.3473, 69.7533)),
    ([20, 30, 40, 30, 10], 0, 5, "logistic", (-26.7787, -62.2196, 8.1127)),
    ([50, 200, 600, 250, 60], -1, 3, "normalized", (10.4862, 1.7473, 19.2383)),
    ([100, 800, 3000, 900, 120], 0, 2, "normalized", (4.9435, 1.4308, 8.4572)),
    ([2, 0, 1, 3, 9], 0, 100, "logistic", (200.146, 38.7012, 558.3383)),  # overshot: clamped
]


@pytest.mark.parametrize("penta, elo0, elo1, model, expected", FISHTEST)
def test_median_unbiased_elo_equals_fishtest(penta, elo0, elo1, model, expected):
    est = median_unbiased(SprtSpec(elo0, elo1, model=model), penta)
    tol = 0.3 if est.clamped else 1e-3  # fishtest's series stops at 1e-9: a rough overshoot differs a little
    assert (est.elo, est.low, est.high) == pytest.approx(expected, abs=tol)
    assert est.low < est.elo < est.high


def test_median_unbiased_beyond_the_search_range_is_infinite():
    # fishtest clips its search at +1000 Elo and prints 1000 for the upper end here
    est = median_unbiased(SprtSpec(0, 50), [0, 0, 1, 5, 30])
    assert est.clamped and est.elo == pytest.approx(475.76, abs=0.1) and est.high == math.inf


def test_the_plain_estimate_is_pulled_back_after_an_early_stop():
    # an SPRT that passed early on a lucky streak: the plain Elo of its pairs is larger
    penta = [1, 3, 8, 10, 8]
    est = median_unbiased(SprtSpec(0, 50), penta)
    plain = -400 * math.log10(1 / ((3 * 0.25 + 8 * 0.5 + 10 * 0.75 + 8) / 30) - 1)
    assert est.elo < plain


def test_bayesian_and_empty_samples():
    spec = SprtSpec(0, 20, model="bayesian")
    est = median_unbiased(spec, [0] * 5, (60, 30, 40))
    assert est.low < est.elo < est.high and est.elo > 0
    assert math.isnan(median_unbiased(spec, [0] * 5, (5, 3, 0)).elo)  # no draw parameter
    assert math.isnan(median_unbiased(SprtSpec(0, 5), [0] * 5).elo)


def independent_worse(mu, s2, a, b, t, y):
    """The outcome probability by quadrature of the killed process's density written as the
    method of images (Cox & Miller 1965, §5.7), not the eigenfunction series."""
    width, gamma, sd = b - a, mu / s2, math.sqrt(s2 * t)
    ks = np.arange(-30, 31)

    def density(x):
        pre = gamma * x - mu * mu * t / (2 * s2)
        images = np.exp(pre - (x - 2 * ks * width) ** 2 / (2 * sd**2)) - np.exp(
            pre - (x - 2 * a + 2 * ks * width) ** 2 / (2 * sd**2))
        return float(images.sum()) / (sd * math.sqrt(2 * math.pi))

    def fail_first(x):  # probability of reaching a before b from x
        return (math.exp(-2 * gamma * (x - a)) - math.exp(-2 * gamma * width)) / (1 - math.exp(-2 * gamma * width))

    below = quad(lambda x: density(x) * (1 - fail_first(x)), a, y, epsabs=1e-13, limit=200)[0] if y > a else 0.0
    above = quad(lambda x: -density(x) * fail_first(x), y, b, epsabs=1e-13, limit=200)[0] if y < b else 0.0
    return fail_first(0.0) + below + above


A, B = bounds(0.05, 0.05)


@pytest.mark.parametrize("mu, s2, t, y", [(0.001, 0.002, 2000, 1.0), (0.003, 0.002, 1500, B), (-0.002, 0.003, 900, A),
                                         (0.01, 0.01, 100, 0.5), (0.05, 0.05, 30, B), (0.0004, 0.001, 5000, -1.0)])
def test_worse_probability_equals_an_independent_quadrature(mu, s2, t, y):
    assert worse_probability(mu, s2, A, B, t, y) == pytest.approx(independent_worse(mu, s2, A, B, t, y), abs=1e-10)


def test_siegmund_is_close_where_it_replaces_the_series():
    # short time (σ²T/A² < 0.01): one reflection at each bound is enough
    assert _siegmund(0.02, 0.01, A, B, 30, 0.3) == pytest.approx(independent_worse(0.02, 0.01, A, B, 30, 0.3), abs=1e-9)
    # a strong drift (|γ|A > 15): no overflow, and the same value
    assert _siegmund(0.5, 0.1, A, B, 20, 2.0) == pytest.approx(independent_worse(0.5, 0.1, A, B, 20, 2.0), abs=1e-9)
    assert 0 <= worse_probability(50.0, 0.01, A, B, 1e4, 0.0) <= 1


def test_the_report_prints_both_estimates():
    import pandas as pd

    from arena.reports.output import sprt_line
    from arena.reports.render import sprt_frame

    state = dict(elo0=0, elo1=5, alpha=0.05, beta=0.05, model="logistic", llr=1.2, lower=-2.94, upper=2.94,
                 verdict="inconclusive", pairs=230, decided_at=None, penta=[10, 40, 100, 60, 20],
                 elo=34.9, elo_low=10.0, elo_high=60.0)  # stored before the games' W-D-L were
    row = sprt_frame(state).iloc[0]
    assert (row["elo_mu"], row["elo_mu_low"], row["elo_mu_high"]) == pytest.approx((30.2883, 8.6063, 52.2084), abs=1e-3)
    assert pd.isna(row["wins"]) and row["WW"] == 20
    line = sprt_line(state, sprt_frame(state))
    assert "Elo +34.9 [+10.0, +60.0]" in line and "median-unbiased Elo +30.3 [+8.6, +52.2]" in line
