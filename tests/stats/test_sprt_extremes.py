"""The SPRT's LLR is finite for any bounds and counts (issue 29; fastchess #877/#879): the
normalized model beyond about ±232 Elo and the logistic one beyond about ±6,383 Elo stopped
the run with ``ValueError: math domain error`` (or a NaN LLR) after the first pair."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.cli.app import main
from arena.stats.sprt import MODELS, SprtSpec, SprtTally, hypothesis_score, llr
from arena.results.store import load_games, load_sprt

ELO = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False)
PENTA = st.lists(st.integers(0, 10_000), min_size=5, max_size=5)
WDL = st.lists(st.integers(0, 10_000), min_size=3, max_size=3)  # the bayesian model's games


def spec_of(e0: float, e1: float, model: str) -> SprtSpec:
    low, high = sorted((e0, e1))
    return SprtSpec(low, high if high > low else low + 1, model=model)


@settings(max_examples=150)
@given(e0=ELO, e1=ELO, penta=PENTA, wdl=WDL, model=st.sampled_from(MODELS))
def test_llr_is_finite_for_any_bounds_and_counts(e0, e1, penta, wdl, model):
    assert math.isfinite(llr(penta, spec_of(e0, e1, model), wdl))


@pytest.mark.slow
@settings(max_examples=500)
@given(e0=ELO, e1=ELO, penta=PENTA, wdl=WDL, model=st.sampled_from(MODELS))
def test_llr_is_finite_for_any_bounds_and_counts_thorough(e0, e1, penta, wdl, model):
    assert math.isfinite(llr(penta, spec_of(e0, e1, model), wdl))


@pytest.mark.parametrize("elo0, elo1, model", [(-1500, -500, "normalized"), (0, 10_000, "logistic"),
                                               (-1e300, 1e300, "normalized"), (-1e300, 1e300, "logistic")])
def test_extreme_bounds_reported_by_fastchess_users(elo0, elo1, model):
    spec = SprtSpec(elo0, elo1, model=model)
    for penta in ([0, 0, 1, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 1, 5, 40], [40, 5, 1, 0, 0]):
        assert math.isfinite(llr(penta, spec)), penta


def test_a_tally_with_extreme_bounds_decides_for_the_nearer_hypothesis():
    """Every pair lost by the first bot (pentanomial LL): of -1500 and -500 normalized Elo,
    -1500 is the nearer, so H0 is accepted; the tally never raises on the way."""
    tally = SprtTally(SprtSpec(-1500, -500, model="normalized"))
    for series in range(400):
        tally.add(series, 0.0)
        if tally.add(series, 0.0):
            break
    assert tally.result == "H0" and math.isfinite(tally.value)


def test_hypothesis_score_is_strictly_inside_zero_one():
    for elo in (-1e308, -7000, 0, 7000, 1e308):
        assert 0 < hypothesis_score(elo) < 1
    assert hypothesis_score(0) == 0.5


@pytest.mark.slow
def test_cli_run_with_extreme_normalized_bounds_completes_and_resumes(tmp_path, capsys):
    args = ["run", "--bot", "r=random", "--bot", "ab=alphabeta:depth=2", "--sprt",
            "elo0=-1500,elo1=-500,model=normalized", "--games", "20", "--workers", "1",
            "--results", str(tmp_path), "--name", "extreme"]
    for _ in range(2):  # the second run resumes the stored tournament
        with pytest.raises(SystemExit) as exc:
            main(args)
        out, err = capsys.readouterr()
        assert exc.value.code in (0, None) and "Traceback" not in out + err, err
        assert "SPRT [-1500, -500] LLR" in out
    path = tmp_path / "extreme.sqlite"
    state = load_sprt(path)
    assert math.isfinite(state["llr"]) and state["pairs"] >= 1
    assert len(load_games(path)) >= 2
