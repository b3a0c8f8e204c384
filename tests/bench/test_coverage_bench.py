"""The coverage bench (``--only coverage``): a small seeded coverage run keeps the field
table's intervals honest (not timed: the same numbers every run, a few seconds)."""

from __future__ import annotations

import numpy as np
import pytest

import arena.cli.bench as bench_cli
from arena.bench import MODULES, coverage
from arena.bench.coverage_sim import Tally, pair_truth, play_pairs
from arena.errors import ConfigError


def test_the_coverage_bench_is_registered_and_takes_a_number_of_runs():
    assert "coverage" in MODULES and "coverage" in bench_cli.SIZED
    with pytest.raises(ConfigError, match="--games"):
        bench_cli.run_modules(True, "coverage", games=1)


def test_a_small_coverage_run_of_the_issues_field_holds_its_promise():
    # 4 bots 0/+50/+100/+200, 100 games a pairing, first move +30; 60 seeded tournaments
    setup = coverage.SETUPS[1]
    assert setup.ratings == (0, 50, 100, 200) and setup.games == 100
    t = coverage.simulate(setup, 60)
    field = t["field Elo"]
    assert field.n == 180 and field.share >= 0.92  # 95% nominal; 0.92 is 2 Monte-Carlo errors below
    strongest = t["field Elo, strongest bot"]
    assert strongest.share >= 0.9 and abs(strongest.mean_error) < 10
    assert t["field first-move term"].share >= 0.9 and t["pair Elo"].share >= 0.9
    assert t["payoff mean per bot (t, series)"].share >= 0.9
    # seeded: the same runs give the same tallies
    again = coverage.simulate(setup, 60)
    assert again["field Elo"].hits == field.hits and again["field Elo"].errors == field.errors


def test_duplicate_series_share_the_chance_number_and_the_truth_knows_it():
    rng = np.random.default_rng(1)
    g = play_pairs(rng, np.array([200.0, 0.0]), np.zeros(2000, np.int64), np.ones(2000, np.int64))
    pair_points = g.points[:2000] + 1 - g.points[2000:]
    assert set(np.unique(pair_points)) == {1.0, 2.0}  # the weaker bot never wins both games
    elo, nelo = pair_truth(200.0, 0.0, 0.0, 0.0, True)
    assert elo == pytest.approx(200.0) and nelo > pair_truth(200.0, 0.0, 0.0, 0.0, False)[1]


def test_a_figure_outside_the_goal_is_marked():
    low = Tally(hits=80, n=100, runs=100)
    ok = Tally(hits=95, n=100, runs=100)
    marked, fine = coverage.figures("coverage", {"low": low, "ok": ok}, quick=False)
    assert "OUTSIDE" in marked.note and "OUTSIDE" not in fine.note
    assert marked.value == pytest.approx(80.0) and marked.met is False and fine.met is True
