"""Bradley–Terry Elo with a first-move term, TrueSkill's tau and two-player closed form,
k-player seat intervals, copies, and ``arena report --json``."""

import json
import math
import random

import numpy as np
import pandas as pd
import pytest
import trueskill

from arena.results.ratings import make_env, rate_games, update_1vs1
from arena.reports.pairs import bt_fit
from arena.stats import bt
from arena.stats.elo import Z95
from arena.stats.significance import holm
from arena.reports.pairs import first_move_extras, seat_intervals
from arena.reports.output import report_json
from arena.reports.render import ReportData, build_tables, warnings
from tests.reports.frames import games_frame, moves_frame

W, D, L = [1, 2], [1, 1], [2, 1]
logit = lambda p: 400 * math.log10(p / (1 - p))  # noqa: E731


def two_bots(a_home, b_home):
    """a in seat 0: ``a_home`` = (wins, draws, losses) of seat 0; then b in seat 0."""
    rows = []
    for seats, (w, d, l_) in ((["a", "b"], a_home), (["b", "a"], b_home)):
        rows += [(seats, W)] * w + [(seats, D)] * d + [(seats, L)] * l_
    return games_frame(rows)


def test_two_bot_fit_has_a_closed_form():
    # seat-0 scores: a at home 7/10, b at home 4/10. r_a - r_b + f = logit(.7), r_b - r_a + f = logit(.4)
    fit = bt_fit(two_bots((6, 2, 2), (3, 2, 5)), ["a", "b"])
    d = (logit(0.7) - logit(0.4)) / 2
    f = (logit(0.7) + logit(0.4)) / 2
    elo = dict(zip(fit.table["label"], fit.table["elo"]))
    assert fit.converged and fit.games == 20
    assert elo["a"] == pytest.approx(d / 2, abs=1e-6) and elo["b"] == pytest.approx(-d / 2, abs=1e-6)
    assert fit.first_move == pytest.approx(f, abs=1e-6)
    # observed information of two independent logits: Var(logit) = 1/(n p (1-p)) in natural units
    k = math.log(10) / 400
    var_f = (1 / (10 * 0.7 * 0.3) + 1 / (10 * 0.4 * 0.6)) / 4 / k**2
    assert fit.first_high - fit.first_move == pytest.approx(Z95 * math.sqrt(var_f), rel=1e-6)


def test_fit_mean_zero_and_aggregation():
    rng = random.Random(2)
    rows = [(list(rng.sample("abc", 2)), rng.choice([W, D, L])) for _ in range(300)]
    fit = bt_fit(games_frame(rows))
    assert fit.table["elo"].sum() == pytest.approx(0, abs=1e-8)
    ten = bt_fit(games_frame(rows * 10))  # same shares, 10x the games: same ratings, sqrt(10) narrower
    assert ten.table["elo"].tolist() == pytest.approx(fit.table["elo"].tolist(), abs=1e-6)
    width = lambda t: (t["elo_high"] - t["elo_low"]).to_numpy()  # noqa: E731
    assert width(ten.table) == pytest.approx(width(fit.table) / math.sqrt(10), rel=1e-6)


def test_a_bot_that_won_every_game_has_no_finite_rating():
    fit = bt_fit(two_bots((5, 0, 0), (0, 0, 5)))
    assert not fit.converged and fit.table["elo"].isna().all() and math.isnan(fit.first_move)
    assert not bt_fit(games_frame([])).converged


def test_two_player_trueskill_equals_the_package_and_tau_zero_converges():
    env = make_env()
    assert env.tau == 0
    margin = trueskill.calc_draw_margin(env.draw_probability, 2, env)
    a, b = (25.0, 25 / 3), (31.0, 2.5)
    for result, ranks in ((1, [0, 1]), (0.5, [0, 0]), (0, [1, 0])):
        mine = update_1vs1(a, b, result, env.beta, env.tau, margin)
        ref = env.rate([(env.create_rating(*a),), (env.create_rating(*b),)], ranks=ranks)
        for (mu, sigma), (r,) in zip(mine, ref):
            assert mu == pytest.approx(r.mu, rel=1e-6) and sigma == pytest.approx(r.sigma, rel=1e-6)
    rng = random.Random(1)
    games = games_frame([(["a", "b"] if i % 2 else ["b", "a"], rng.choice([W, L])) for i in range(2000)])
    fixed = rate_games(games)
    drifting = rate_games(games, make_env(tau=25 / 300))
    assert fixed["sigma"].max() < 0.5 < 0.7 < drifting["sigma"].min()  # the package's floor ≈ 0.76


def test_first_move_extras_are_clustered_by_series():
    games = two_bots((6, 2, 2), (3, 2, 5))  # series = (id - 1) // 2 pairs consecutive games
    row = first_move_extras(games, ["a", "b"]).iloc[0]
    assert row["score"] == pytest.approx((7 + 4) / 20)
    assert row["score_low"] < row["score"] < row["score_high"]
    assert row["first_elo"] == pytest.approx((logit(0.7) + logit(0.4)) / 2, abs=1e-6)


def test_k_player_seat_intervals_and_copies():
    rows = [(["a", "b", "c"], [1, 2, 3]), (["b", "c", "a"], [1, 1, 3]), (["c", "a", "b"], [2, 1, 3]),
            (["a", "b", "c"], [3, 1, 2]), (["b", "c", "a"], [2, 2, 1]), (["c", "a", "b"], [1, 2, 3])]
    games = games_frame(rows)  # two series of three games
    table = seat_intervals(games)
    assert table["games"].tolist() == [6, 6, 6]
    firsts = [1 + 0.5 + 0 + 0 + 0 + 1, 0 + 0.5 + 1 + 1 + 0 + 0, 0 + 0 + 0 + 0 + 1 + 0]  # by hand, per seat
    assert table["win_share"].tolist() == pytest.approx([f / 6 for f in firsts])
    assert table["p_holm"].tolist() == pytest.approx(holm(table["p_value"].tolist()))
    copied = games.assign(copy=[False, False, False, False, False, True])
    assert seat_intervals(copied)["games"].tolist() == [5, 5, 5]


def test_a_seat_that_never_wins_has_an_interval_from_zero():
    """No spread to cluster: Wilson's interval with the two series as trials, [0, z²/(2+z²)]."""
    rows = [(["a", "b", "c"], [1, 2, 3]), (["b", "c", "a"], [2, 1, 3]), (["c", "a", "b"], [1, 2, 3]),
            (["a", "b", "c"], [2, 1, 3]), (["b", "c", "a"], [1, 2, 3]), (["c", "a", "b"], [2, 1, 3])]
    row = seat_intervals(games_frame(rows)).iloc[2]
    z2 = 1.959963984540054 ** 2
    assert row["win_share"] == 0 and row["ci_low"] == 0
    assert row["ci_high"] == pytest.approx(z2 / (2 + z2))


def test_report_json_and_copy_warning():
    games = two_bots((2, 1, 1), (1, 1, 2)).assign(copy=False)
    games.loc[games.index[-1], "copy"] = True
    tour = {"name": "j", "game": "interaction", "num_players": 2, "bots": {"a": "random", "b": "random"},
            "settings": {"tau": 0.0}}
    data = ReportData(games, moves_frame([]), tour)
    out = json.loads(report_json(data))
    assert set(out["tables"]) == set(build_tables(data))
    pairs = out["tables"]["pairs"][0]
    assert pairs["games"] == 8 and pairs["pairing"] == "a vs b"
    assert out["tables"]["first_move"][0]["games"] == 7  # the copy counted once
    assert out["warnings"] == warnings(data) and "1 stored game" in out["warnings"][0]
    search = pd.DataFrame(out["tables"]["search"])
    assert search.empty or search["nodes_per_second"].isna().all()  # unreported: empty, not 0


def test_report_json_command_on_a_stored_match(tmp_path, capsys):
    from arena.bench.stats import build_match
    from arena.cli.app import main

    build_match(tmp_path, "syn", 40, seed=3)
    with pytest.raises(SystemExit) as exc:
        main(["report", "syn", "--results", str(tmp_path), "--json"])
    assert exc.value.code == 0
    out = json.loads(capsys.readouterr().out)
    row = out["tables"]["pairs"][0]
    assert row["games"] == 40 and row["pairs"] == 20
    assert row["wins"] + row["draws"] + row["losses"] == 40
    assert sum(row[c] for c in ("LL", "LD", "DD_WL", "WD", "WW")) == 20
    assert [r["label"] for r in out["tables"]["elo"]][-1] == "(first move)"


def test_a_bot_that_scored_only_in_seat_0_has_no_finite_fit():
    # the tester's fresh40: random scored 3 points as seat 0 and none as seat 1, so r_greedy and
    # the first-move term can grow together without bound (quasi-complete separation)
    games = two_bots((3, 0, 17), (20, 0, 0))  # "a" = random, "b" = greedy
    fit = bt_fit(games, ["a", "b"])
    assert not fit.converged and fit.table["elo"].isna().all() and math.isnan(fit.first_move)
    assert "separated" in fit.reason
    # a mixed result in the other seat makes the estimate exist again (closed form as above)
    ok = bt_fit(two_bots((3, 0, 17), (19, 0, 1)), ["a", "b"])
    assert ok.converged and ok.first_move == pytest.approx((logit(0.15) + logit(0.95)) / 2, abs=1e-6)


def test_separation_detects_a_one_way_cycle_and_accepts_a_connected_field():
    # a beats b, b beats c, c beats a, each from both seats: strongly connected, mixed overall
    rows = [(["a", "b"], W), (["b", "a"], L), (["b", "c"], W), (["c", "b"], L), (["c", "a"], W), (["a", "c"], L)]
    assert bt_fit(games_frame(rows * 3)).converged
    # b and c split, a beats b from both seats but only draws with c as seat 1 and wins as
    # seat 0: no path back to a from b (Ford's condition fails), though a neither won nor lost
    # every game -- every figure NaN with a reason
    rows = [(["a", "b"], W), (["b", "a"], L), (["a", "c"], W), (["c", "a"], D), (["b", "c"], W), (["c", "b"], W)]
    fit = bt_fit(games_frame(rows * 3))
    assert not fit.converged and "separated" in fit.reason
    assert bt.separation(np.array([[1.0, 1.0], [-1.0, 1.0]]), np.array([5.0, 5.0]), np.array([5.0, 2.0]))


def test_the_report_warns_when_there_is_no_finite_fit():
    from arena.reports.render import notes
    data = ReportData(two_bots((3, 0, 17), (20, 0, 0)), moves_frame([]), {"game": "interaction"})
    assert any(line.startswith("warning: no finite Bradley–Terry fit: ") for line in notes(data, "elo"))


def test_each_pairings_first_move_term_is_its_own_fit():
    """``bt.pairing_first_moves`` (closed form, every pairing at once) against a numerical
    fit of each pairing's two cells (``bt.fit_cells``), with the cases without a finite fit."""
    rng = random.Random(8)
    cases = [(rng.randint(1, 30), rng.randint(1, 30)) for _ in range(30)]
    n1, n2 = (np.array(x, dtype=float) for x in zip(*cases))
    s1 = np.array([rng.randint(1, 2 * int(n) - 1) / 2 for n in n1])
    s2 = np.array([rng.randint(1, 2 * int(n) - 1) / 2 for n in n2])
    s1[0], s2[1], n2[2], s2[2] = n1[0], 0, 0, 0  # all won; all lost; played from one seat only
    f, low, high = bt.pairing_first_moves(n1, s1, n2, s2)
    for i in range(len(cases)):
        cells = pd.DataFrame({"seat0": ["a", "b"], "seat1": ["b", "a"], "n": [n1[i], n2[i]], "points": [s1[i], s2[i]]})
        fit = bt.fit_cells(cells[cells["n"] > 0], ["a", "b"])
        if i < 3:
            assert not fit.converged and math.isnan(f[i]) and math.isnan(low[i]) and math.isnan(high[i])
            continue
        assert [f[i], low[i], high[i]] == pytest.approx([fit.first_move, fit.first_low, fit.first_high], rel=1e-6,
                                                        abs=1e-4)  # the numerical fit's own tolerance: 4e-6 Elo seen
