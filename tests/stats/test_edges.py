"""Statistics at the edges (issue 34): fastchess's nElo error, and the exact sign test where the
normal approximation of the LOS fails (tiny samples, no spread seen, one-sided results)."""

import math

import pytest

from arena.reports.pairs import pair_table
from arena.stats.elo import match_stats
from arena.stats.significance import EXACT_BELOW, match_significance
from tests.reports.frames import games_frame

NELO_SCALE = 800 / math.log(10)


def test_nelo_error_is_fastchess_formula():
    # fastchess EloPentanomial: (nelo(s + z·σ) - nelo(s - z·σ)) / 2 = 1.96 · (800/ln 10) / √(2·pairs)
    st = match_stats([10, 40, 100, 60, 20])
    assert st.nelo_error == pytest.approx(1.959964 * NELO_SCALE / math.sqrt(2 * 230), rel=1e-6)
    # fastchess EloWDL (games only): ... / √games
    single = match_stats([0] * 5, [30, 20, 50])
    assert single.nelo_error == pytest.approx(1.959964 * NELO_SCALE / math.sqrt(100), rel=1e-6)
    # recomputed the way fastchess does: the interval of the score mapped through nElo
    s, sigma, var_game = st.score, st.sigma, st.sigma ** 2 * 460
    half = ((s + 1.959964 * sigma - 0.5) - (s - 1.959964 * sigma - 0.5)) / 2 / math.sqrt(var_game) * NELO_SCALE
    assert st.nelo_error == pytest.approx(half, rel=1e-6)
    assert math.isnan(match_stats([0, 0, 5, 0, 0]).nelo_error)  # no spread: no interval


def _row(results):
    """The pair table's row of games given as the first bot's points in pair order."""
    rank = {1: [1, 2], 0.5: [1, 1], 0: [2, 1]}
    rows = []
    for i, pts in enumerate(results):
        seats = ["a", "b"] if i % 2 == 0 else ["b", "a"]
        ranks = rank[pts] if i % 2 == 0 else rank[pts][::-1]
        rows.append((seats, ranks))
    return pair_table(games_frame(rows), ["a", "b"]).iloc[0]


def test_the_issue_edge_cases_get_the_exact_sign_test():
    # 0-0-20 (W-D-L): ten LL pairs. The normal model had no spread and printed p = 7.7e-06;
    # the sign test on 10 pairs lost: p = 2 · 2^-10, LOS = P(Beta(1, 11) > ½) = 2^-11
    row = _row([0] * 20)
    assert (row["p_method"], row["p_value"], row["los"]) == ("sign", pytest.approx(2 / 2**10), pytest.approx(2**-11))
    # 1-1-18: pairs WL (tied), DL (lost) and eight LL: 9 pairs lost, p = 2 · 2^-9 (was 4.6e-17)
    row = _row([1, 0, 0.5, 0] + [0] * 16)
    assert (row["wins"], row["draws"], row["losses"]) == (1, 1, 18)
    assert row["p_method"] == "sign" and row["p_value"] == pytest.approx(2 / 2**9)
    # 47-3-0: 22 WW and 3 WD pairs, 25 won: p = 2 · 2^-25 (the normal model printed 0)
    row = _row([1] * 44 + [1, 0.5] * 3)
    assert (row["wins"], row["draws"], row["losses"]) == (47, 3, 0)
    assert row["p_method"] == "sign" and row["p_value"] == pytest.approx(2 / 2**25)
    assert row["los"] == pytest.approx(1 - 2**-26)


def test_draws_only_and_empty_samples():
    sig = match_significance([0, 0, 10, 0, 0], [0, 0, 0], math.nan)
    assert (sig.los, sig.p_value, sig.method) == (0.5, 1.0, "sign")
    empty = match_significance([0] * 5, [0, 0, 0], math.nan)
    assert math.isnan(empty.los) and math.isnan(empty.p_value)


def test_large_balanced_samples_keep_the_normal_approximation():
    penta, single = [20, 60, 100, 70, 25], [3, 2, 4]
    st = match_stats(penta, single)
    sig = match_significance(penta, single, st.z)
    assert sig.method == "normal" and (sig.plus, sig.minus) == (99, 83)
    assert sig.los == pytest.approx(st.los, rel=1e-14)
    assert sig.p_value == pytest.approx(2 * min(st.los, 1 - st.los), rel=1e-12)
    # one side just below the threshold: exact
    few = [EXACT_BELOW - 1, 0, 50, 0, 30]
    st = match_stats(few)
    assert match_significance(few, [0, 0, 0], st.z).method == "sign"


def test_a_lopsided_large_sample_keeps_the_digits_of_its_p_value():
    """10 pairs lost twice, 60 won twice: the normal approximation stands, z ≈ 8.5; ``2·min(LOS,
    1 − LOS)`` gave 0 (the LOS rounds to 1), ``2·Φ(−|z|)`` keeps p ≈ 1.4e-17."""
    from scipy import stats

    penta = [10, 0, 0, 0, 60]
    st = match_stats(penta)
    assert st.los == 1.0 and 2 * min(st.los, 1 - st.los) == 0.0  # what the old formula printed
    sig = match_significance(penta, [0, 0, 0], st.z)
    assert sig.method == "normal"
    assert sig.p_value == pytest.approx(2 * stats.norm.sf(st.z), rel=1e-9)
    assert 1e-18 < sig.p_value < 1e-16
    row = pair_table(games_frame(([(["a", "b"], [2, 1]), (["b", "a"], [1, 2])] * 10
                                  + [(["a", "b"], [1, 2]), (["b", "a"], [2, 1])] * 60)), ["a", "b"]).iloc[0]
    assert row["p_method"] == "normal" and row["p_value"] == pytest.approx(sig.p_value, rel=1e-9)


def test_the_significance_of_many_matches_at_once_is_that_of_each():
    """``match_significances`` (the pairs table of a large field) gives ``match_significance``'s
    numbers and method row by row: normal, exact sign test, no unit won or lost, no game."""
    import random

    import numpy as np

    from arena.stats.elo import match_stats
    from arena.stats.significance import match_significance, match_significances

    rng = random.Random(1)
    penta, single, z, want = [], [], [], []
    for _ in range(600):
        pc = [rng.randint(0, 12) if rng.random() < 0.6 else 0 for _ in range(5)]
        sc = [rng.randint(0, 2) if rng.random() < 0.3 else 0 for _ in range(3)]
        st = match_stats(pc, sc)
        penta.append(pc), single.append(sc), z.append(st.z)
        want.append(match_significance(pc, sc, st.z))
    got = match_significances(np.array(penta), np.array(single), np.array(z))
    assert {w.method for w in want} == {"normal", "sign"}
    for g_los, g_p, g_method, w in zip(*got, want):
        assert g_method == w.method
        assert np.isclose(g_los, w.los, rtol=0, atol=1e-12, equal_nan=True)
        assert np.isclose(g_p, w.p_value, rtol=0, atol=1e-12, equal_nan=True)
