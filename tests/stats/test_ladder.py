"""The strength-ladder model (``arena.stats.ladder``) against values computed another way."""

import math

import numpy as np
import pytest

from arena.stats.bt import K
from arena.stats.elo import Z95, elo_from_score, score_from_elo
from arena.stats.ladder import LINEAR, LOG2, axis, fit_ladder


@pytest.mark.parametrize("values,x,scale", [
    ([50, 100, 200, 400, 800], [0, 1, 2, 3, 4], LOG2),  # doublings
    ([1, 2, 3, 4, 5], [0, 1, 2, 3, 4], LINEAR),  # depth: one unit a step
    ([1, 2], [0, 1], LINEAR),  # steps of 1 before doublings
    ([100, 200], [0, 1], LOG2),
    ([2, 4, 6], [0, 2, 4], LINEAR),  # arithmetic
    ([10, 30, 90], [0, math.log2(3), 2 * math.log2(3)], LOG2),  # geometric, ratio 3
    ([100, 300, 1000], [0, math.log2(3), math.log2(10)], LOG2),  # positive, neither: log
    ([0, 2, 5], [0, 2, 5], LINEAR),  # a value <= 0 has no logarithm
])
def test_axis(values, x, scale):
    got, kind = axis(values)
    assert kind == scale and got == pytest.approx(x)


def test_axis_refuses_unordered_values():
    with pytest.raises(ValueError, match="strictly increasing"):
        axis([100, 50])


def _binary(cells):
    """Per-game rows of cells ``(x0, x1, wins, games)``, one cluster per game."""
    x0, x1, y, cl = [], [], [], []
    for a, b, wins, n in cells:
        for i in range(n):
            x0.append(a), x1.append(b), y.append(1.0 if i < wins else 0.0), cl.append(f"{a}{b}{i}")
    return x0, x1, y, cl


def test_two_rungs_equal_the_saturated_logits_and_their_sandwich():
    """One step (x 0 -> 1), both seat orders: the model is saturated, so b and f solve
    b + f = elo(s_up) and -b + f = elo(s_down) (s: seat 0's score in each cell); with one game
    a cluster and 0/1 results the CR1 sandwich is C/(C-1) times the inverse information, whose
    logit variances are 1/(n s (1 - s)) per cell (hand formulas, no fit)."""
    cells = [(1, 0, 60, 80), (0, 1, 30, 80)]  # the stronger rung in seat 0: 60/80; the weaker: 30/80
    fit = fit_ladder(*_binary(cells))
    s_up, s_down = 60 / 80, 30 / 80
    assert fit.per_unit == pytest.approx((elo_from_score(s_up) - elo_from_score(s_down)) / 2, rel=1e-8)
    assert fit.first_move == pytest.approx((elo_from_score(s_up) + elo_from_score(s_down)) / 2, rel=1e-8)
    var_logit = 1 / (80 * s_up * (1 - s_up)) + 1 / (80 * s_down * (1 - s_down))
    se = math.sqrt(160 / 159 * var_logit) / 2 / K
    assert fit.per_unit_high - fit.per_unit == pytest.approx(Z95 * se, rel=1e-6)
    assert fit.first_high - fit.first_move == pytest.approx(Z95 * se, rel=1e-6)
    assert math.isnan(fit.trend) and math.isnan(fit.trend_p)  # one level: no trend to test
    assert fit.games == 160 and fit.clusters == 160 and fit.converged


def test_three_rungs_recover_the_model_that_made_the_scores():
    """Cells whose seat-0 scores are exactly the model's (fractional points are a valid
    quasi-likelihood response) give back the parameters: b = 100 Elo a doubling, first move
    +30 at the mean level, +10 more per doubling."""
    b, f, g = 100.0, 30.0, 10.0
    x0, x1, y = [], [], []
    for a, c in [(0, 1), (1, 0), (1, 2), (2, 1)]:
        x0.append(a), x1.append(c), y.append(score_from_elo(b * (a - c) + f + g * ((a + c) / 2 - 1.0)))
    fit = fit_ladder(x0, x1, y, ["s1", "s1", "s2", "s2"], weights=[50] * 4)
    assert (fit.per_unit, fit.first_move, fit.trend, fit.mean_level) == pytest.approx((b, f, g, 1.0), abs=1e-6)


def test_a_trend_in_the_first_move_advantage_is_found():
    """Simulated games of a five-rung ladder whose first-move advantage grows by 40 Elo a
    doubling: the trend's interval holds 40 and excludes 0."""
    rng = np.random.default_rng(7)
    x0, x1, y, cl = [], [], [], []
    for i in range(4):
        for s in range(150):
            for a, c in ((i, i + 1), (i + 1, i)):
                p = score_from_elo(60 * (a - c) + 40 * ((a + c) / 2 - 2))
                x0.append(a), x1.append(c), y.append(float(rng.random() < p)), cl.append(f"{i}-{s}")
    fit = fit_ladder(x0, x1, y, cl)
    assert fit.trend_low < 40 < fit.trend_high and fit.trend_low > 0 and fit.trend_p < 0.01
    assert fit.per_unit_low < 60 < fit.per_unit_high


@pytest.mark.parametrize("cells,reason", [
    ([(1, 0, 40, 40), (0, 1, 0, 40)], "separated"),  # the stronger rung won every game
    ([(1, 0, 20, 40)], "do not identify"),  # one seat order only
])
def test_no_finite_fit_is_nan_with_a_reason(cells, reason):
    fit = fit_ladder(*_binary(cells))
    assert not fit.converged and reason in fit.reason and math.isnan(fit.per_unit)
