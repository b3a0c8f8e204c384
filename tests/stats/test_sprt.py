"""The GSPRT (arena/stats/sprt.py): LLR against an independent constrained maximum-likelihood fit,
Wald's bounds, pair order, edge cases, and the --sprt settings."""

import math
import random

import numpy as np
import pytest
from scipy.optimize import minimize

from arena.errors import ConfigError
from arena.stats.elo import score_from_elo
from arena.stats.sprt import SprtTally, bounds, llr, parse, verdict
from arena.tournament.config import build

A = np.array([0.0, 0.25, 0.5, 0.75, 1.0])


def reference_llr(penta, elo0, elo1, model="logistic"):
    """LLR computed another way: maximise Σ p̂ ln p under the hypothesis' constraint with
    SLSQP (no root finding), zero counts replaced by 1e-3 as fastchess does."""
    counts = np.where(np.asarray(penta, float) == 0, 1e-3, np.asarray(penta, float))
    n, phat = counts.sum(), counts / counts.sum()

    def fit(elo):
        if model == "logistic":
            s = score_from_elo(elo)
            cons = [{"type": "eq", "fun": lambda p: p @ A - s}]
        else:
            t = math.sqrt(2) * elo / (800 / math.log(10))
            cons = [{"type": "eq", "fun": lambda p: (p @ A - 0.5) - t * math.sqrt(p @ (A - p @ A) ** 2)}]
        cons.append({"type": "eq", "fun": lambda p: p.sum() - 1})
        res = minimize(lambda p: -(phat @ np.log(p)), phat, constraints=cons, bounds=[(1e-12, 1)] * 5,
                       method="SLSQP", options={"ftol": 1e-15, "maxiter": 1000})
        return res.x

    p0, p1 = fit(elo0), fit(elo1)
    return n * float(phat @ (np.log(p1) - np.log(p0)))


CASES = [[10, 40, 100, 60, 20], [3, 5, 9, 6, 2], [0, 0, 12, 0, 0], [0, 0, 0, 0, 5], [0, 0, 1, 0, 0],
         [0, 1, 0, 0, 0], [25, 10, 30, 10, 5]]


@pytest.mark.parametrize("penta", CASES)
@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_llr_equals_an_independent_constrained_fit(penta, model):
    spec = parse(f"elo0=0,elo1=10,model={model}")
    assert llr(penta, spec) == pytest.approx(reference_llr(penta, 0, 10, model), rel=1e-4, abs=1e-6)


def test_llr_edge_cases_by_hand():
    spec = parse("elo0=0,elo1=10")
    assert llr([0] * 5, spec) == 0.0
    # all draws: the empirical mean is 1/2 = H0's score, so p0 = p̂ and LLR = N Σ p̂ ln(p1/p̂) < 0
    assert llr([0, 0, 40, 0, 0], spec) < 0
    assert llr([0, 0, 0, 0, 40], spec) > 0  # all wins: towards H1
    # normal approximation (fishtest): LLR ≈ N (s1 - s0)(2 s - s0 - s1) / (2 var) for large N
    penta = [1000, 4000, 10000, 6000, 2000]
    p = np.array(penta) / sum(penta)
    s, s0, s1 = p @ A, 0.5, score_from_elo(10)
    approx = sum(penta) * (s1 - s0) * (2 * s - s0 - s1) / (2 * (p @ (A - s) ** 2))
    assert llr(penta, spec) == pytest.approx(approx, rel=0.05)


def test_bounds_and_verdict():
    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(math.log(0.95 / 0.05))
    spec = parse("elo0=0,elo1=5,alpha=0.1,beta=0.2")
    assert bounds(0.1, 0.2) == (pytest.approx(math.log(0.2 / 0.9)), pytest.approx(math.log(0.8 / 0.1)))
    assert verdict(2.08, spec) == "H1" and verdict(-1.51, spec) == "H0" and verdict(0, spec) == "inconclusive"


def test_parse_canonical_text_and_errors():
    spec = parse("elo1=10, elo0=-2 ,model=Normalized")
    assert spec.text() == "elo0=-2,elo1=10,alpha=0.05,beta=0.05,model=normalized"
    assert parse(spec.text()) == spec
    for bad in ("elo0=0", "elo0=10,elo1=0", "elo0=0,elo1=5,alpha=0", "elo0=0,elo1=5,alpha=0.6,beta=0.5",
                "elo0=0,elo1=5,model=bayes", "elo0=x,elo1=5", "elo0=0,elo1=5,gamma=1", "0,5",
                "elo0=0,elo0=1,elo1=5", "elo0=nan,elo1=5"):
        with pytest.raises(ConfigError, match="--sprt"):
            parse(bad)


def test_tally_uses_pair_order_whatever_order_games_arrive():
    rng = random.Random(5)
    spec = parse("elo0=0,elo1=40")
    games = []
    for series in range(300):
        for _ in range(2):
            u = rng.random()
            games.append((series, 1.0 if u < 0.45 else 0.5 if u < 0.7 else 0.0))
    inorder = SprtTally(spec)
    for g in games:
        if inorder.add(*g):
            break
    # brute force: the first prefix of whole pairs whose LLR leaves the bounds
    penta, expected = [0] * 5, None
    for k in range(300):
        penta[int(round(2 * (games[2 * k][1] + games[2 * k + 1][1])))] += 1
        if verdict(llr(penta, spec), spec) != "inconclusive":
            expected = k + 1
            break
    assert expected is not None and inorder.decided_at == expected
    shuffled = SprtTally(spec)
    order = games[:]
    rng.shuffle(order)
    for g in order:
        shuffled.add(*g)
    assert (shuffled.decided_at, shuffled.value, shuffled.penta) == (inorder.decided_at, inorder.value, inorder.penta)
    state = shuffled.state()
    assert state["verdict"] == verdict(state["llr"], spec) and state["pairs"] == expected


def test_one_pair_is_counted_only_when_complete():
    tally = SprtTally(parse("elo0=0,elo1=10"))
    assert not tally.add(1, 1.0) and tally.pairs == 0  # series 1 waits for series 0
    tally.add(0, 0.5)
    assert tally.pairs == 0
    tally.add(0, 0.5)
    assert tally.pairs == 1 and tally.penta == [0, 0, 1, 0, 0]
    assert tally.value == pytest.approx(llr([0, 0, 1, 0, 0], tally.spec))


def test_sprt_settings(tmp_path):
    cfg = build({"bots": ["random", "greedy"], "sprt": "elo0=0,elo1=10", "results": str(tmp_path)})
    assert cfg.sprt is not None and cfg.sprt.text() == "elo0=0,elo1=10,alpha=0.05,beta=0.05,model=logistic"
    assert cfg.identity()["sprt"] == cfg.sprt.text()  # stored as its canonical text
    plain = build({"bots": ["random", "greedy"]})
    assert "sprt" not in plain.identity() and "tau" not in plain.identity()  # old names stay
    with pytest.raises(ConfigError, match="two-bot field"):
        build({"bots": ["random", "greedy", "mcts"], "sprt": "elo0=0,elo1=10"})
    with pytest.raises(ConfigError, match="two-bot field"):
        build({"game": "sandpile", "bots": ["random", "greedy"], "sprt": "elo0=0,elo1=10"})
    assert build({"bots": ["random", "greedy"], "tau": "0.1"}).identity()["tau"] == 0.1
    with pytest.raises(ConfigError, match="--tau"):
        build({"tau": "-1"})


def test_state_line_without_an_interval():
    from arena.stats.sprt import state_line
    state = dict(elo0=0, elo1=50, llr=3.0, lower=-2.94, upper=2.94, verdict="H1", decided_at=20, pairs=20,
                 elo=math.inf, elo_low=math.nan, elo_high=math.nan)
    line = state_line(state)
    assert "H1 accepted at pair 20 of 20" in line and "no interval: every pair scored the same" in line
    assert "nan" not in line


def hand_bayesian_llr(w, d, l_, elo0, elo1):
    """The bayesian model's LLR by hand: the draw parameter and both expected scores from the
    formulas, then the mean-constrained MLE on the three game scores 0, ½, 1, whose equation
    Σ p̂ᵢ(aᵢ − s)/(1 + θ(aᵢ − s)) = 0 is a quadratic in θ (multiplied out), solved in closed form."""
    n = w + d + l_
    pw, pl = w / n, l_ / n
    de = 200 * math.log10((1 - pl) / pl * (1 - pw) / pw)

    def score(e):
        win, loss = 1 / (1 + 10 ** ((de - e) / 400)), 1 / (1 + 10 ** ((de + e) / 400))
        return win + (1 - win - loss) / 2

    phat = [l_ / n, d / n, w / n]

    def mle(s):
        x = [0 - s, 0.5 - s, 1 - s]
        # Σ p̂ᵢ xᵢ Π_{j≠i} (1 + θ xⱼ) = 0  ->  a θ² + b θ + c = 0
        a = sum(phat[i] * x[i] * math.prod(x[j] for j in range(3) if j != i) for i in range(3))
        b = sum(phat[i] * x[i] * sum(x[j] for j in range(3) if j != i) for i in range(3))
        c = sum(phat[i] * x[i] for i in range(3))
        roots = ([-c / b] if abs(a) < 1e-15 else  # s = ½: the quadratic term vanishes
                 [(-b + sign * math.sqrt(b * b - 4 * a * c)) / (2 * a) for sign in (1, -1)])
        theta = next(t for t in roots if all(1 + t * xi > 0 for xi in x))
        return [p / (1 + theta * xi) for p, xi in zip(phat, x)]

    p0, p1 = mle(score(elo0)), mle(score(elo1))
    return n * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(phat, p0, p1))


@pytest.mark.parametrize("wdl, elo0, elo1", [((30, 40, 20), 0, 10), ((120, 30, 90), -5, 5), ((7, 2, 11), 0, 50),
                                             ((500, 900, 480), 0, 5)])
def test_bayesian_llr_equals_the_hand_computation(wdl, elo0, elo1):
    spec = parse(f"elo0={elo0},elo1={elo1},model=bayesian")
    assert llr([0] * 5, spec, wdl) == pytest.approx(hand_bayesian_llr(*wdl, elo0, elo1), rel=1e-9, abs=1e-12)


def test_bayesian_llr_matches_fastchess_tests():
    # fastchess app/tests/sprt_test.cpp, "bayesian trinomial 1" and "2" (Stats(wins, losses, draws))
    assert llr([0] * 5, parse("elo0=0,elo1=2,model=bayesian"), (68965, 128429, 68526)) == pytest.approx(-1.26, abs=0.01)
    assert llr([0] * 5, parse("elo0=0.5,elo1=2.5,model=bayesian"), (21629, 41111, 21484)) == pytest.approx(
        -1.13, abs=0.01)


def test_bayesian_model_counts_games_of_whole_pairs():
    spec = parse("elo0=0,elo1=100,model=bayesian")
    assert spec.text().endswith("model=bayesian")
    assert llr([0] * 5, spec, (5, 3, 0)) == 0.0 and llr([0] * 5, spec, (0, 3, 5)) == 0.0  # no draw parameter
    with pytest.raises(ValueError, match="W-D-L"):
        llr([0, 0, 1, 0, 0], spec)
    tally = SprtTally(spec)
    for series, pts in [(0, 1.0), (0, 0.5), (1, 0.0), (2, 1.0), (1, 1.0)]:  # series 2 waits for nothing else
        tally.add(series, pts)
    assert tally.pairs == 2 and tally.wdl == [2, 1, 1] and tally.penta == [0, 0, 1, 1, 0]
    assert tally.value == pytest.approx(hand_bayesian_llr(2, 1, 1, 0, 100))
    assert tally.state()["wdl"] == [2, 1, 1]
