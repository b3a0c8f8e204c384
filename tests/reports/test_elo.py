"""Pentanomial Elo, nElo, LOS, Holm and the cluster-robust mean against hand computation."""

import math

import pytest

from arena.stats.elo import elo_from_score, los_trinomial, match_stats, pentanomial
from arena.stats.intervals import cluster_mean
from arena.stats.significance import holm
from arena.reports.pairs import pair_table
from tests.reports.frames import games_frame

Z = 1.959963984540054  # fastchess's CI95zscore
PHI = lambda x: 0.5 * (1 + math.erf(x / math.sqrt(2)))  # noqa: E731


def test_pentanomial_counts_pairs_by_points():
    assert pentanomial([0, 0.5, 1, 1, 1.5, 2, 2]) == [1, 1, 2, 1, 2]
    with pytest.raises(ValueError):
        pentanomial([0.25])


def test_ten_pairs_by_hand():
    # [LL, LD, DD+WL, WD, WW] = [1, 2, 3, 2, 2]: pair scores (out of 1) 0, .25, .5, .75, 1
    st = match_stats([1, 2, 3, 2, 2], wdl=(8, 6, 6))
    s = (0 * 1 + 0.25 * 2 + 0.5 * 3 + 0.75 * 2 + 1 * 2) / 10
    assert s == 0.55
    var_pair = (1 * 0.55**2 + 2 * 0.30**2 + 3 * 0.05**2 + 2 * 0.20**2 + 2 * 0.45**2) / 10  # 0.0975
    sigma = math.sqrt(var_pair / 10)
    assert st.games == 20 and st.pairs == 10 and st.leftover == 0
    assert st.score == pytest.approx(s, abs=1e-15)
    assert st.sigma == pytest.approx(sigma, rel=1e-12)
    assert st.elo == pytest.approx(-400 * math.log10(1 / 0.55 - 1), rel=1e-12)  # +34.86
    lo, hi = s - Z * sigma, s + Z * sigma
    assert st.elo_low == pytest.approx(-400 * math.log10(1 / lo - 1), rel=1e-9)
    assert st.elo_high == pytest.approx(-400 * math.log10(1 / hi - 1), rel=1e-9)
    assert st.elo_error == pytest.approx((st.elo_high - st.elo_low) / 2)
    # fastchess: (s - 1/2) / sqrt(2 var_pair) * 800 / ln 10
    assert st.nelo == pytest.approx(0.05 / math.sqrt(2 * var_pair) * 800 / math.log(10), rel=1e-12)
    assert st.los == pytest.approx(PHI(0.05 / sigma), rel=1e-9)
    assert st.draw_ratio == pytest.approx(6 / 20)


def test_leftover_games_fall_back_to_the_trinomial():
    # no pairs: 2 losses, 3 draws, 5 wins -> fastchess's EloWDL
    st = match_stats([0] * 5, [2, 3, 5])
    s = (3 * 0.5 + 5) / 10
    var = (2 * s**2 + 3 * (0.5 - s) ** 2 + 5 * (1 - s) ** 2) / 10
    assert st.score == pytest.approx(s) and st.sigma == pytest.approx(math.sqrt(var / 10))
    assert st.nelo == pytest.approx((s - 0.5) / math.sqrt(var) * 800 / math.log(10))
    assert st.los == pytest.approx(0.5 + 0.5 * math.erf(3 / math.sqrt(2 * 7)))  # cutechess
    # pairs and leftovers: Var(S) = P var(pair points out of 2) + U var(game points)
    mixed = match_stats([0, 1, 0, 1, 0], [0, 0, 1])  # pairs scoring 0.5 and 1.5, one win
    n, points = 5, 0.5 + 1.5 + 1
    var_s = (2 * 0.5**2 + 1 * 0.0) / n**2
    assert mixed.games == 5 and mixed.score == pytest.approx(points / n)
    assert mixed.sigma == pytest.approx(math.sqrt(var_s))


def test_all_draws_all_wins_one_pair():
    draws = match_stats([0, 0, 7, 0, 0], wdl=(0, 14, 0))
    # no spread seen: no interval and no nElo (a zero-width interval would claim certainty)
    assert draws.elo == 0 and draws.los == 0.5 and math.isnan(draws.nelo)
    assert math.isnan(draws.elo_low) and math.isnan(draws.elo_high) and math.isnan(draws.elo_error)
    wins = match_stats([0, 0, 0, 0, 4], wdl=(8, 0, 0))
    # the LOS from the game counts, as cutechess-cli: 8-0 is 99.77%, not certainty
    assert wins.elo == math.inf and math.isnan(wins.nelo) and math.isnan(wins.elo_error)
    assert wins.los == pytest.approx(0.5 + 0.5 * math.erf(8 / math.sqrt(16))) and wins.los < 1
    pair = match_stats([0, 0, 0, 0, 1], wdl=(2, 0, 0))  # the tester's 2-0: LOS 92%, p 0.157
    assert pair.los == pytest.approx(0.9214, abs=1e-4)
    one = match_stats([0, 0, 0, 1, 0], wdl=(1, 1, 0))
    assert one.games == 2 and one.score == 0.75 and one.sigma == 0
    assert one.los == pytest.approx(0.5 + 0.5 * math.erf(1 / math.sqrt(2)))
    assert match_stats([0, 0, 0, 0, 4]).los == 1.0  # without W-D-L: the normal model's limit
    assert one.elo == pytest.approx(-400 * math.log10(1 / 0.75 - 1)) and math.isnan(one.elo_low)
    same = match_stats([0, 0, 0, 3, 0], wdl=(3, 3, 0))  # three identical pairs (the tester's case)
    assert same.elo == pytest.approx(190.85, abs=0.01) and math.isnan(same.elo_error) and math.isnan(same.nelo)
    empty = match_stats([0] * 5)
    assert empty.games == 0 and math.isnan(empty.elo) and math.isnan(empty.los)
    with pytest.raises(ValueError):
        match_stats([0, 0, 0, 1, 0], wdl=(1, 0, 0))


def test_elo_and_los_helpers():
    assert elo_from_score(0.5) == 0 and elo_from_score(1) == math.inf and elo_from_score(0) == -math.inf
    assert math.isnan(elo_from_score(math.nan))
    assert los_trinomial(10, 10) == 0.5 and math.isnan(los_trinomial(0, 0))


def test_holm_hand_example():
    # Holm 1979: sorted .005 .01 .03 .04 -> x4 .02, x3 .03, x2 .06, x1 .04 -> running max .06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    out = holm([0.5, math.nan, 0.6])
    assert out[0] == pytest.approx(1.0) and math.isnan(out[1]) and out[2] == pytest.approx(1.0)
    assert holm([]) == []


def test_cluster_mean_by_hand():
    m, lo, hi, c = cluster_mean([1, 0, 1, 1, 0, 0], ["a", "a", "b", "b", "c", "c"])
    # Y = [1, 2, 0], W = [2, 2, 2], m = 1/2, residuals [0, 1, -1]: Var = 3/2 * 2 / 6^2 = 1/12
    assert (m, c) == (0.5, 3)
    assert hi - m == pytest.approx(Z * math.sqrt(1 / 12), rel=1e-9) and m - lo == pytest.approx(hi - m)
    single = cluster_mean([1, 0], ["a", "a"])
    assert single[0] == 0.5 and math.isnan(single[1])
    assert math.isnan(cluster_mean([], [])[0])
    flat = cluster_mean([1, 0, 1, 0], ["a", "a", "b", "b"])  # every cluster at the mean: no interval
    assert flat[0] == 0.5 and flat[3] == 2 and math.isnan(flat[1]) and math.isnan(flat[2])


def test_cluster_mean_of_a_share_stays_inside_zero_to_one():
    """Three clusters, two at 1 and one at 0.5: Y = [2, 2, 1], W = [2, 2, 2], m = 5/6,
    residuals [1/3, 1/3, -2/3], Var = 3/2 * (6/9) / 6² = 1/36, so the normal interval
    5/6 ± 1.96/6 reaches 1.16; clipped to the share's range."""
    values, clusters = [1, 1, 1, 1, 1, 0], ["a", "a", "b", "b", "c", "c"]
    m, lo, hi, _ = cluster_mean(values, clusters)
    assert m == pytest.approx(5 / 6) and hi == pytest.approx(5 / 6 + Z / 6) and hi > 1
    m2, lo2, hi2, _ = cluster_mean(values, clusters, bounds=(0.0, 1.0))
    assert (m2, lo2, hi2) == (m, lo, 1.0)


def test_pair_table_from_stored_games():
    # series of two games (games_frame: series = (id - 1) // 2); "new" first in field order
    W, D, L = [1, 2], [1, 1], [2, 1]  # ranks of seat 0, seat 1
    games = games_frame([
        (["new", "base"], W), (["base", "new"], L),      # new wins twice: WW
        (["new", "base"], D), (["base", "new"], L),      # draw + win: WD
        (["new", "base"], L), (["base", "new"], L),      # loss + win: WL
        (["new", "base"], D), (["base", "new"], D),      # DD
        (["new", "base"], L), (["base", "new"], D),      # LD
        (["new", "base"], W),                            # leftover game of series 5
    ])
    row = pair_table(games, ["new", "base"]).iloc[0]
    assert row["pairing"] == "new vs base" and row["games"] == 11
    assert [row[c] for c in ("LL", "LD", "DD_WL", "WD", "WW")] == [0, 1, 2, 1, 1]
    assert (row["wins"], row["draws"], row["losses"]) == (5, 4, 2)
    assert (row["pairs"], row["leftover"]) == (5, 1)
    assert row["score"] == pytest.approx(7 / 11)
    pair_pts = [0.5, 1, 1, 1.5, 2]
    mean = sum(pair_pts) / 5
    var_s = (5 * sum((p - mean) ** 2 for p in pair_pts) / 5 + 0) / 11**2
    assert row["elo"] == pytest.approx(-400 * math.log10(11 / 7 - 1))
    assert row["nelo"] == pytest.approx((7 / 11 - 0.5) / math.sqrt(11 * var_s) * 800 / math.log(10))
    assert row["nelo_error"] == pytest.approx(1.959964 * 800 / math.log(10) / math.sqrt(11), rel=1e-6)
    # 3 units won (WD, WW, the leftover win) and 1 lost (LD): too few for the normal
    # approximation, so the exact sign test: P(X >= 3) + P(X <= 1) of Bin(4, 1/2) = 10/16, and
    # LOS = P(Beta(4, 2) > 1/2) = 1 - P(Bin(5, 1/2) >= 4) = 26/32
    assert row["p_method"] == "sign"
    assert row["p_value"] == pytest.approx(10 / 16) and row["los"] == pytest.approx(26 / 32)
    assert match_stats([0, 1, 2, 1, 1], [0, 0, 1]).los == pytest.approx(PHI((7 / 11 - 0.5) / math.sqrt(var_s)))
    assert row["p_holm"] == pytest.approx(row["p_value"])  # one pairing: nothing to adjust
