"""The field table's statistics (``arena.stats.field``, ``arena.stats.luce``) against values
computed by hand and against independent fits (``scipy.optimize.minimize`` on the
likelihood written out here)."""

import math
from itertools import permutations

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.stats import norm

from arena.errors import ConfigError
from arena.stats import field as fs
from arena.stats import luce
from arena.stats.elo import match_stats

K = math.log(10) / 400


def two_bots(pairs):
    """Two bots, ``pairs`` of colour-swapped games: ``(A's points as seat 0, B's points as seat 0)``."""
    seat0, seat1, pts, series = [], [], [], []
    for s, (a0, b0) in enumerate(pairs):
        seat0 += [0, 1]
        seat1 += [1, 0]
        pts += [a0, b0]
        series += [s, s]
    return fs.Duels.from_games(("A", "B"), seat0, seat1, pts, series)


def random_field(k=6, pairs=20, seed=0, draw=0.2, first=30.0):
    rng = np.random.default_rng(seed)
    true = rng.normal(0, 150, k)
    seat0, seat1, pts, series = [], [], [], []
    sid = 0
    for i in range(k):
        for j in range(i + 1, k):
            for _ in range(pairs):
                for a, b in ((i, j), (j, i)):
                    p = 1 / (1 + 10 ** (-(true[a] - true[b] + first) / 400))
                    u = rng.random()
                    seat0.append(a)
                    seat1.append(b)
                    pts.append(1.0 if u < p - draw / 2 else 0.5 if u < p + draw / 2 else 0.0)
                    series.append(sid)
                sid += 1
    return seat0, seat1, pts, series


def test_two_bots_by_hand():
    # A scored 3 of 5 as seat 0 and 3 of 5 as seat 1: seat 0 scored half, so the first-move
    # term is 0, and with the prior's virtual draw A's share is (6 + 1/2) / (10 + 1)
    d = two_bots([(1, 0), (1, 0), (0.5, 0.5), (0.5, 0.5), (0, 1)])
    elo = fs.fit(d, d.cells())
    gap = 400 * math.log10(6.5 / 4.5)
    assert elo[0] == pytest.approx(gap / 2, abs=1e-6)
    assert elo[1] == pytest.approx(-gap / 2, abs=1e-6)
    assert elo[2] == pytest.approx(0.0, abs=1e-6)


def test_first_move_term_by_hand():
    # two pairs won by seat 0 both times, eight drawn both times: the bots are equal, seat 0
    # scored 12 of 20, and with the seats' virtual draw its share is (12 + 1/2)/(20 + 1)
    d = two_bots([(1, 1)] * 1 + [(0.5, 0.5)] * 4 + [(1, 1)] * 1 + [(0.5, 0.5)] * 4)
    elo = fs.fit(d, d.cells())
    assert elo[0] == pytest.approx(0.0, abs=1e-6)
    assert elo[2] == pytest.approx(400 * math.log10(12.5 / 8.5), abs=1e-6)


def test_fit_equals_an_independent_maximum_likelihood():
    seat0, seat1, pts, series = random_field()
    d = fs.Duels.from_games([f"b{i}" for i in range(6)], seat0, seat1, pts, series)
    ours = fs.fit(d, d.cells(), prior=1.0)
    s0, s1, p = np.array(seat0), np.array(seat1), np.array(pts)
    pairs = {(min(a, b), max(a, b)) for a, b in zip(seat0, seat1)}

    def nll(x):  # x: 6 ratings and f, in logits; the prior's seatless draws and the seats' draw
        eta = x[s0] - x[s1] + x[6]
        out = -np.sum(p * -np.logaddexp(0, -eta) + (1 - p) * -np.logaddexp(0, eta))
        for a, b in pairs:
            out += np.logaddexp(0, -(x[a] - x[b])) / 2 + np.logaddexp(0, x[a] - x[b]) / 2
        return out + np.logaddexp(0, -x[6]) / 2 + np.logaddexp(0, x[6]) / 2

    ref = minimize(nll, np.zeros(7), method="BFGS", options={"gtol": 1e-10}).x / K
    ref[:6] -= ref[:6].mean()
    assert np.allclose(ours, ref, atol=1e-3)


def test_plackett_luce_of_two_seats_is_the_bradley_terry_fit():
    seat0, seat1, pts, series = random_field(k=5, pairs=10, seed=3)
    labels = [f"b{i}" for i in range(5)]
    bt = fs.fit(fs.Duels.from_games(labels, seat0, seat1, pts, series), fs.Duels.from_games(
        labels, seat0, seat1, pts, series).cells())
    p = np.array(pts)
    ranks = np.c_[np.where(p >= 0.5, 1, 2), np.where(p <= 0.5, 1, 2)]
    pl = luce.fit(luce.Rankings.from_games(labels, np.c_[seat0, seat1], ranks, series))
    assert np.allclose(pl[:5], bt[:5], atol=1e-4)
    assert pl[5] - pl[6] == pytest.approx(bt[5], abs=1e-4)  # seat 0 over seat 1


def test_plackett_luce_with_ties_equals_an_independent_maximum_likelihood():
    rng = np.random.default_rng(5)
    k, n = 5, 4
    bots, ranks = [], []
    for _ in range(200):
        bots.append(rng.permutation(k)[:n])
        r = rng.integers(1, 4, n)  # ties happen
        ranks.append(np.array([1 + sum(x < y for x in r) for y in r]))  # competition ranking
    labels = [f"b{i}" for i in range(k)]
    ours = luce.fit(luce.Rankings.from_games(labels, bots, ranks, range(len(bots))), prior=1.0)
    # every stage of every order of the tied players, each order of a game weighted equally
    game, winner, rest, weight = [], [], [], []
    for g, r in enumerate(ranks):
        groups = [[s for s in range(n) if r[s] == v] for v in sorted(set(r.tolist()))]
        orders = [[]]
        for grp in groups:
            orders = [o + list(q) for o in orders for q in permutations(grp)]
        for order in orders:
            for t in range(n - 1):
                game.append(g)
                winner.append(order[t])
                rest.append(order[t:] + [-1] * t)
                weight.append(1 / len(orders))
    game, winner, rest, weight = map(np.array, (game, winner, rest, weight))
    b = np.array(bots)
    met = {(min(x, y), max(x, y)) for row in bots for x in row for y in row if x != y}
    seat_pairs = [(s, t) for s in range(n) for t in range(s + 1, n)]

    def nll(x):  # ratings then seat terms, in logits
        u = x[b] + x[k:][None, :]
        ur = np.where(rest >= 0, u[game[:, None], np.maximum(rest, 0)], -np.inf)
        total = np.sum(weight * (u[game, winner] - np.logaddexp.reduce(ur, axis=1)))
        for i, j in met:  # the prior: a virtual draw between every two bots that met
            total -= (np.logaddexp(0, x[j] - x[i]) + np.logaddexp(0, x[i] - x[j])) / 2
        for s, t in seat_pairs:  # and between every two seats
            total -= (np.logaddexp(0, x[k + t] - x[k + s]) + np.logaddexp(0, x[k + s] - x[k + t])) / 2
        return -total

    ref = minimize(nll, np.zeros(k + n), method="BFGS", options={"gtol": 1e-9}).x / K
    ref[:k] -= ref[:k].mean()
    ref[k:] -= ref[k:].mean()
    assert np.allclose(ours, ref, atol=0.01)


def test_series_with_the_same_results_are_one_class():
    d = two_bots([(1, 0), (1, 0), (1, 0.5), (0, 1)])
    assert d.series == 4 and sorted(d.count.tolist()) == [1, 1, 2]
    assert np.allclose(d.cells(), [[4, 3, 4, 1.5]])  # A in seat 0: 4 games, 3 points; B: 4 games, 1.5


def test_los_matrix_and_intervals_by_hand():
    reps = np.array([[10.0, 0.0, -5], [4, 4, -8], [-1, 2, 0], [3, 1, 3]])
    los = fs.los_matrix(reps)
    assert los[0, 1] == pytest.approx((1 + 0.5 + 0 + 1) / 4)
    assert los[1, 0] == pytest.approx(1 - los[0, 1])
    assert los[0, 2] == pytest.approx((1 + 1 + 0 + 0.5) / 4)
    low, high = fs.intervals(reps, 0.5)
    assert low[0] == pytest.approx(np.quantile(reps[:, 0], 0.25))
    assert high[2] == pytest.approx(np.quantile(reps[:, 2], 0.75))


def test_anchor():
    elo = np.array([[10.0, -10.0, 0.0]])
    assert fs.anchored(elo, 1, 1500.0).tolist() == [[1520.0, 1500.0, 1510.0]]
    assert fs.anchored(elo + 7).tolist() == [[10.0, -10.0, 0.0]]
    assert fs.parse_anchor("me@2=1500") == ("me@2", 1500.0)
    assert fs.parse_anchor("me") == ("me", 0.0)  # a base bot alone: the others relative to it
    for bad in ("=100", "me=x", "me=nan", " =1"):
        with pytest.raises(ConfigError, match="accepted: BOT=ELO"):
            fs.parse_anchor(bad)


def test_bootstrap_of_a_match_agrees_with_the_pentanomial_interval():
    """Two bots, 400 pairs: the bootstrap interval of the Elo difference and the CFS agree with
    the pentanomial normal interval and LOS (``arena.stats.elo``) within Monte-Carlo error."""
    rng = np.random.default_rng(11)
    pairs = []
    for _ in range(400):
        a0 = rng.choice([1.0, 0.5, 0.0], p=[0.45, 0.25, 0.30])
        b0 = rng.choice([1.0, 0.5, 0.0], p=[0.40, 0.25, 0.35])
        pairs.append((a0, b0))
    d = two_bots(pairs)
    boot = fs.bootstrap(d, 1000, seed=2, prior=0.0)
    diff = boot.replicates[:, 0] - boot.replicates[:, 1]
    score = np.array([a + 1 - b for a, b in pairs]) / 2  # A's pair score
    penta = np.bincount(np.rint(4 * score).astype(int), minlength=5)
    st = match_stats(penta.tolist())
    sd = np.std(diff, ddof=1)
    half = (st.elo_high - st.elo_low) / 2
    assert sd * 1.96 == pytest.approx(half, rel=0.05)  # Monte-Carlo error of an SD from 1000: ~2%
    cfs = fs.los_matrix(boot.replicates[:, :2])[0, 1]
    assert cfs == pytest.approx(norm.cdf(np.mean(diff) / sd), abs=0.02)
    assert st.los == pytest.approx(cfs, abs=0.01)


def test_bootstrap_is_seeded_and_its_monte_carlo_error_is_small():
    seat0, seat1, pts, series = random_field(k=4, pairs=15, seed=7)
    d = fs.Duels.from_games(list("abcd"), seat0, seat1, pts, series)
    one = fs.bootstrap(d, 500, seed=3)
    assert np.array_equal(one.replicates, fs.bootstrap(d, 500, seed=3).replicates)
    other = fs.bootstrap(d, 500, seed=4)
    sd = one.replicates.std(axis=0)
    for a, b in zip(fs.intervals(one.replicates), fs.intervals(other.replicates)):
        # a 2.5% quantile from 500 replicates: standard error about 0.12 sd; two runs differ by
        # at most 4 such errors
        assert np.all(np.abs(a - b) <= 4 * 0.12 * np.sqrt(2) * sd + 1e-9)


def test_fields_that_do_not_connect_are_refused():
    d = fs.Duels.from_games(list("abcd"), [0, 1, 2, 3], [1, 0, 3, 2], [1, 0, 1, 0], [0, 0, 1, 1])
    with pytest.raises(fs.NotConnected):
        fs.fit(d, d.cells())
    with pytest.raises(ValueError, match="itself"):
        fs.Duels.from_games(list("ab"), [0], [0], [1], [0])


def test_a_bot_that_won_everything_gets_a_finite_rating():
    d = two_bots([(1, 0)] * 5)
    elo = fs.fit(d, d.cells())
    assert elo[0] == pytest.approx(200 * math.log10(10.5 / 0.5), abs=1e-6)  # 10 of 10 and a virtual draw
