"""Non-transitivity statistics (``arena.stats.intransitive``) against known games and values
computed another way."""

import math

import numpy as np
import pytest
from scipy.stats import norm

from arena.stats import intransitive as it

#: rock, paper, scissors as log-odds: each wins 70% against the one it beats
RPS = np.log(7 / 3) * np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0.0]])


def test_nash_of_rock_paper_scissors_is_uniform_and_of_a_ladder_its_top():
    assert np.allclose(it.nash(RPS), [1 / 3] * 3)
    ladder = np.array([[0, 1, 2], [-1, 0, 1], [-2, -1, 0.0]])
    assert np.allclose(it.nash(ladder), [1, 0, 0])


def test_nash_splits_a_copied_strategy_evenly():
    # rock twice: every split of rock's third between the copies is an equilibrium; the
    # maximum-entropy one (Balduzzi et al. 2018: invariance to copies) splits it evenly
    idx = [0, 0, 1, 2]
    a = RPS[np.ix_(idx, idx)]
    assert np.allclose(it.nash(a), [1 / 6, 1 / 6, 1 / 3, 1 / 3], atol=1e-6)


def test_alpha_rank_of_rock_paper_scissors_and_of_a_ladder():
    assert np.allclose(it.alpha_rank(it.scores_of(RPS)), [1 / 3] * 3)
    ladder = it.scores_of(np.array([[0, 1, 2], [-1, 0, 1], [-2, -1, 0.0]]))
    pi = it.alpha_rank(ladder)
    assert pi[0] == pytest.approx(1.0) and pi[1] < 1e-100


def test_alpha_rank_fixation_probability_by_hand():
    # two bots, 60% to 40%: u = alpha·(0.6 - 0.4); the chain's masses are proportional to the
    # fixation probabilities of each into the other (Omidshafiei et al. 2019)
    alpha, m = 0.5, 10
    p = np.array([[0.5, 0.6], [0.4, 0.5]])
    u = alpha * 0.2
    into_first = (1 - math.exp(-u)) / (1 - math.exp(-m * u))
    into_second = (1 - math.exp(u)) / (1 - math.exp(m * u))
    pi = it.alpha_rank(p, alpha, m)
    assert pi[0] == pytest.approx(into_first / (into_first + into_second))


def test_gth_stationary_distribution_equals_the_left_eigenvector():
    rng = np.random.default_rng(1)
    c = rng.random((3, 5, 5))
    c /= c.sum(axis=2, keepdims=True)
    pi = it.stationary(c)
    for b in range(3):
        w, v = np.linalg.eig(c[b].T)
        ref = np.real(v[:, np.argmin(np.abs(w - 1))])
        assert np.allclose(pi[b], ref / ref.sum())


def test_three_cycles_and_their_test():
    se = np.full((3, 3), 0.2)
    cycles = it.three_cycles(RPS, se)
    assert len(cycles) == 1
    c = cycles[0]
    assert c.bots == (0, 2, 1)  # rock beats scissors, scissors beat paper, paper beats rock
    assert c.p_value == pytest.approx(norm.sf(np.log(7 / 3) / 0.2))  # the weakest edge's one-sided p
    weak = RPS.copy()
    weak[0, 2], weak[2, 0] = 0.05, -0.05  # one edge barely won: the cycle is not significant
    c = it.three_cycles(weak, se)[0]
    assert c.p_value == pytest.approx(norm.sf(0.05 / 0.2)) and c.p_holm > it.LEVEL
    assert it.three_cycles(np.array([[0, 1, 2], [-1, 0, 1], [-2, -1, 0.0]]), se) == []


def test_holm_across_candidate_cycles():
    # two disjoint RPS triangles: two candidate cycles; the larger p is adjusted by 1, the smaller by 2
    a = np.zeros((6, 6))
    a[:3, :3] = RPS
    a[3:, 3:] = RPS / 2
    cycles = it.three_cycles(a, np.full((6, 6), 0.3))
    assert [c.bots for c in cycles] == [(0, 2, 1), (3, 5, 4)]
    assert cycles[0].p_holm == pytest.approx(2 * cycles[0].p_value)
    assert cycles[1].p_holm == pytest.approx(max(cycles[1].p_value, cycles[0].p_holm))


def test_log_odds_matrix_fills_pairs_that_never_met():
    m = it.log_odds_matrix(3, np.array([0]), np.array([1]), np.array([0.5]), np.array([1.0, 0.0, -1.0]))
    assert m[0, 1] == 0.5 and m[1, 0] == -0.5 and m[0, 2] == 2.0 and m[2, 1] == -1.0
    assert np.isnan(it.log_odds_matrix(3, np.array([0]), np.array([1]), np.array([0.5]))[0, 2])



def test_a_bot_ahead_of_every_other_is_the_equilibrium_the_linear_programme_finds():
    """The shortcut for a field with a bot that beats every other (no linear programme) gives
    the equilibrium the linear programme gives, on random fields of 1 to 7 bots, with and
    without such a bot."""
    rng = np.random.default_rng(7)
    seen = {True: 0, False: 0}
    for _ in range(300):
        k = int(rng.integers(1, 8))
        r = rng.normal(size=k)
        a = r[:, None] - r[None, :] + rng.normal(size=(k, k)) * rng.choice([0.05, 2.0])
        a = (a - a.T) / 2
        seen[bool(((a > 0) | np.eye(k, dtype=bool)).all(axis=1).any())] += 1
        assert np.allclose(it.nash(a), it._nash_programme(a), atol=1e-6)
    assert min(seen.values()) > 30
