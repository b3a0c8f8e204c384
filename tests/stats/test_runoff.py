"""Bankroll instant runoff (``arena.stats.runoff``) against known values and against the
definition written out game by game: the robust bot above the exploiter, n-player games counted
only while all their bots remain, the order of a round without games, ties by label, and the
bootstrap's CFS and head-to-head likelihood of superiority on obvious fields."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from arena.stats import payoffs as payoff_stats
from arena.stats.runoff import bootstrap, pool, runoff

#: payoff per game of the row bot against the column bot (zero-sum): the exploiter takes 4 chips
#: a game from the weak bot, the robust bot only 1, but the robust bot beats the exploiter
GAINS = {("e", "w"): 4.0, ("r", "w"): 1.0, ("r", "e"): 1.0}


def field(games: list[tuple[tuple[str, ...], tuple[float, ...]]], labels: list[str], series: int = 1):
    """``pool`` of ``games`` (bots by seat, payoffs by seat), each game its own series unless
    ``series`` > 1 (then consecutive games of a pairing share a series of that many games)."""
    pos = {lab: i for i, lab in enumerate(labels)}
    keys = {tuple(sorted(bots)) for bots, _ in games}
    pairing = {key: i for i, key in enumerate(sorted(keys))}
    bots, pay, cluster, stratum = [], [], [], []
    for n, (seated, won) in enumerate(games):
        bots += [pos[b] for b in seated]
        pay += list(won)
        cluster += [n // series] * len(seated)
        stratum += [pairing[tuple(sorted(seated))]] * len(seated)
    return pool(np.array(bots), np.array(pay), np.array(cluster), np.array(stratum), labels)


def matrix_games(gains: dict, repeat: int = 2) -> list:
    return [((a, b), (g, -g)) if i % 2 == 0 else ((b, a), (-g, g))
            for (a, b), g in gains.items() for i in range(repeat)]


def by_definition(games, labels) -> tuple[list[str], dict[str, float]]:
    """The runoff written out: rounds over the games whose every bot remains; the lowest mean
    payoff goes out (equal: the later label); a bot without a game keeps its last payoff."""
    remaining, out, last = set(labels), [], {}
    while len(remaining) > 1:
        sums: dict[str, float] = {}
        counts: dict[str, int] = {}
        for seated, won in games:
            if set(seated) <= remaining:
                for b, p in zip(seated, won):
                    sums[b] = sums.get(b, 0.0) + p
                    counts[b] = counts.get(b, 0) + 1
        last.update({b: sums[b] / counts[b] for b in remaining if counts.get(b)})
        lowest = min(round(last.get(b, -math.inf), 9) for b in remaining)
        loser = max(b for b in remaining if round(last.get(b, -math.inf), 9) == lowest)
        out.append(loser)
        remaining.discard(loser)
    return [*remaining, *reversed(out)], last


def names(result, labels, row=0) -> list[str]:
    return [labels[i] for i in result.order[row]]


def test_the_runoff_puts_the_robust_bot_above_the_exploiter_that_mean_payoff_puts_first():
    labels = ["e", "r", "w"]
    games = matrix_games(GAINS)
    mean = {b: np.mean([p for seated, won in games for s, p in zip(seated, won) if s == b]) for b in labels}
    assert mean == pytest.approx({"e": 1.5, "r": 1.0, "w": -2.5})  # mean payoff: the exploiter first
    result = field(games, labels).point()
    assert names(result, labels) == ["r", "e", "w"]
    # w goes out in round 0 (its mean over the field), then r beats e head to head: +1 a game
    assert result.value[0].tolist() == pytest.approx([-1.0, 1.0, -2.5])
    assert result.round[0].tolist() == [1, 1, 0]
    assert result.positions()[0].tolist() == [1, 0, 2]


def test_an_n_player_game_counts_only_while_all_its_bots_remain():
    # 3-seat games of 4 bots: d goes out first; then only the game of a, b, c counts, in which c
    # wins (counting its losses in the games with d, c would go out next); with two bots left no
    # 3-seat game remains, so a and c go out in their order of the round before
    labels = ["a", "b", "c", "d"]
    games = [(("a", "b", "c"), (-1.0, -2.0, 3.0)), (("a", "b", "d"), (4.0, 3.0, -7.0)),
             (("a", "c", "d"), (2.0, -3.0, 1.0)), (("b", "c", "d"), (5.0, -1.0, -4.0))]
    result = field(games, labels).point()
    order, last = by_definition(games, labels)
    assert names(result, labels) == order == ["c", "a", "b", "d"]
    assert result.value[0].tolist() == pytest.approx([last[b] for b in labels])
    assert result.value[0].tolist() == pytest.approx([-1.0, -2.0, 3.0, -10 / 3])
    assert result.round[0].tolist() == [1, 1, 1, 0]  # no game in round 2: the payoffs of round 1


def test_equal_payoffs_rank_the_earlier_label_first():
    labels = ["y", "x", "z"]
    games = [(("x", "y"), (-(0.1 + 0.2), 0.1 + 0.2)), (("y", "x"), (-0.3, 0.3)), (("x", "z"), (1.0, -1.0)),
             (("y", "z"), (1.0, -1.0))]
    result = field(games, labels).point()  # x and y even head to head, up to float error (-2.8e-17)
    assert names(result, labels) == ["x", "y", "z"]
    none = runoff(np.zeros((1, 0, 1)), np.zeros((1, 0, 1)), np.zeros((0, 1), int), ["b", "a"])
    assert names(none, ["b", "a"]) == ["a", "b"] and np.isnan(none.value).all()  # no game at all


def test_a_bot_in_several_seats_of_a_game_pools_its_seats():
    labels = ["a", "b"]
    games = [(("a", "a", "b"), (1.0, 2.0, -3.0)), (("b", "a", "a"), (5.0, -1.0, -4.0))]
    f = field(games, labels)
    assert f.members.tolist() == [[0, 1]] and f.counts.tolist() == [[2, 1], [2, 1]]
    result = f.point()
    assert names(result, labels) == ["b", "a"] and result.value[0].tolist() == pytest.approx([-0.5, 1.0])


@pytest.mark.parametrize("seats", [2, 3])
def test_the_vectorized_runoff_is_the_definition_on_random_fields(seats):
    rng = np.random.default_rng(seats)
    labels = ["a", "b", "c", "d", "e", "f"]
    for _ in range(30):
        tables = [t for t in itertools.combinations(labels, seats) if rng.random() < 0.7]
        games = []
        for table in tables:
            for _ in range(int(rng.integers(1, 4))):
                won = rng.integers(-3, 4, seats).astype(float)
                games.append((tuple(rng.permutation(table)), tuple(won - won.mean())))
        if not games:
            continue
        f = field(games, labels)
        sums, counts = f.pooled()
        both = runoff(np.concatenate([sums, sums]), np.concatenate([counts, counts]), f.members, labels)
        order, last = by_definition(games, labels)
        assert names(both, labels, 0) == names(both, labels, 1) == order
        assert both.value[0].tolist() == pytest.approx([last.get(b, math.nan) for b in labels], nan_ok=True)


def spread_games(pairs: dict, series: int, rng, sd: float = 1.0) -> list:
    """Two-game series (the seats swapped) of each pairing, each series' payoff its mean ± noise."""
    games = []
    for (a, b), mean in pairs.items():
        for _ in range(series):
            g = mean + rng.normal(0, sd)
            games += [((a, b), (g, -g)), ((b, a), (-g, g))]
    return games


def test_the_cfs_is_about_one_for_a_large_gap_and_about_half_for_identical_bots():
    rng = np.random.default_rng(7)
    labels = ["s", "x", "y"]
    against_s = [-3.0 + rng.normal(0, 1) for _ in range(40)]  # x and y lose the same series to s
    games = [g for v in against_s for who in ("x", "y") for g in (((who, "s"), (v, -v)), (("s", who), (-v, v)))]
    for v in rng.normal(0, 1, 20):  # x and y even: each series once each way, so exactly 0 in all
        games += [(("x", "y"), (v, -v)), (("y", "x"), (v, -v)), (("x", "y"), (-v, v)), (("y", "x"), (-v, v))]
    f = field(games, labels, series=2)
    result = f.point()
    assert names(result, labels) == ["s", "x", "y"]  # x and y tie in round 0: the earlier label first
    got = bootstrap(f, result.order[0], replicates=500, seed=3)
    assert got.cfs[0] == 1.0
    assert abs(got.cfs[1] - 0.5) < 0.1  # identical bots: a coin flip (3 standard errors: 0.07)
    assert got.los[0, 1] == got.los[0, 2] == 1.0 and abs(got.los[1, 2] - 0.5) < 0.1
    assert got.los[1, 2] + got.los[2, 1] == pytest.approx(1.0) and np.isnan(np.diag(got.los)).all()
    again = bootstrap(f, result.order[0], replicates=500, seed=3)
    assert np.array_equal(got.cfs, again.cfs)  # seeded


def test_the_head_to_head_los_differs_from_the_ranking_in_a_cycle():
    # p beats r, r beats s, s beats p: the winner beats the runner-up in the last round, but the
    # bot that went out first beats the winner head to head
    rng = np.random.default_rng(1)
    labels = ["p", "r", "s"]
    games = spread_games({("r", "s"): 1.0, ("p", "r"): 1.0, ("s", "p"): 1.0}, 30, rng, sd=0.3)
    f = field(games, labels, series=2)
    first, second, third = f.point().order[0]
    got = bootstrap(f, [first, second, third], replicates=200, seed=1)
    assert got.los[first, second] > 0.99 and got.los[second, third] > 0.99 and got.los[third, first] > 0.99


def test_a_pairing_that_never_met_has_no_head_to_head_figure():
    rng = np.random.default_rng(2)
    labels = ["a", "b", "c"]
    games = spread_games({("a", "b"): 2.0, ("b", "c"): 2.0}, 10, rng)  # a gauntlet around b
    f = field(games, labels, series=2)
    result = f.point()
    assert names(result, labels) == ["a", "b", "c"]
    got = bootstrap(f, result.order[0], replicates=100, seed=1)
    assert math.isnan(got.los[0, 2]) and math.isnan(got.los[2, 0]) and got.los[0, 1] > 0.9


def test_the_bootstrap_keeps_its_chunks_within_the_memory_bound(monkeypatch):
    rng = np.random.default_rng(4)
    labels = ["e", "r", "w"]
    games = spread_games({pair: g for pair, g in GAINS.items()}, 12, rng)
    f = field(games, labels, series=2)
    whole = bootstrap(f, f.point().order[0], replicates=50, seed=9)
    monkeypatch.setattr(payoff_stats, "CHUNK_CELLS", 40)  # at most 1 replicate of 36 series a chunk
    chunks = list(payoff_stats.bootstrap_draws(f.pairing, 50, 9, width=36))
    assert [len(c) for c in chunks] == [1] * 50
    small = bootstrap(f, f.point().order[0], replicates=50, seed=9)
    assert small.cfs.tolist() == pytest.approx(whole.cfs.tolist(), abs=0.1)
    assert np.nansum(small.los + small.los.T) == pytest.approx(6.0)


def test_a_dead_tie_in_every_replicate_has_a_cfs_of_one_half():
    """Two bots with the same payoff in every series were placed by the tie rule (the earlier
    label) in every replicate, and the field table gave the first a CFS of 100% over the other."""
    labels = ["c", "r", "w"]
    games = []
    for v in (2.0, 3.0, 5.0):  # c and r take the same from w in every series, and draw each other
        for who in ("c", "r"):
            games += [((who, "w"), (v, -v)), (("w", who), (-v, v))]
        games += [(("c", "r"), (0.0, 0.0)), (("r", "c"), (0.0, 0.0))]
    f = field(games, labels, series=2)
    result = f.point()
    assert names(result, labels) == ["c", "r", "w"]
    got = bootstrap(f, result.order[0], replicates=200, seed=5)
    assert got.cfs[0] == 0.5 and got.cfs[1] == 1.0
