"""``arena ladder``: brace expansion of the rungs, the neighbours-only schedule, and a small
ladder end to end (``arena.tournament.ladder``, ``arena.reports.ladder``)."""

import json
import math

import pytest

import arena.games
from arena.errors import ConfigError
from arena.reports.ladder import family
from arena.tournament.ladder import Ladder, rungs
from arena.tournament.series import SeriesSettings
from tests.cli_run import run_cli



@pytest.mark.parametrize("spec,param,specs", [
    ("mcts:playouts={50,100,200}", "playouts", ("mcts:playouts=50", "mcts:playouts=100", "mcts:playouts=200")),
    ("alphabeta:depth={1..3}", "depth", ("alphabeta:depth=1", "alphabeta:depth=2", "alphabeta:depth=3")),
    ("alphabeta:depth={2..6..2},order=1", "depth",
     ("alphabeta:depth=2,order=1", "alphabeta:depth=4,order=1", "alphabeta:depth=6,order=1")),
    ("m=mcts:c=1.4,playouts={400, 100}", "playouts", ("m100=mcts:c=1.4,playouts=100", "m400=mcts:c=1.4,playouts=400")),
])
def test_rungs_expand_one_group_weakest_first(spec, param, specs):
    r = rungs(spec)
    assert r.param == param and r.specs == specs


@pytest.mark.parametrize("spec,needle", [
    ("mcts:playouts=100", "no {...} group"),
    ("mcts:playouts={1,2},c={1,2}", "more than one"),
    ("{mcts,random}", "an option's whole value"),
    ("mcts:playouts=1{0,00}", "an option's whole value"),
    ("mcts:playouts={a,b}", "bad ladder value 'a'"),
    ("mcts:playouts={100}", "at least two values"),
    ("mcts:playouts={5..1}", "needs A < B"),
    ("mcts:playouts={100,1e2}", "given twice"),
])
def test_bad_ladder_specs_say_what_is_accepted(spec, needle):
    with pytest.raises(ConfigError, match="accepted|given twice") as exc:
        rungs(spec)
    assert needle in str(exc.value)


def test_each_rung_meets_only_its_neighbours():
    labels = ["r1", "r2", "r3", "r4"]
    ladder = Ladder(arena.games.make("interaction"), labels, SeriesSettings(games=4, seed=1))
    assert ladder.pairings() == [("r1", "r2"), ("r2", "r3"), ("r3", "r4")]
    assert ladder.total == 12 and [t.game_id for t in ladder.tasks] == list(range(1, 13))
    assert all(t.seats in (t.pairing, t.pairing[::-1]) for t in ladder.tasks)  # seat-rotated pairs
    with pytest.raises(ConfigError, match="2-player game"):
        Ladder(arena.games.make("nim", players=3), labels, SeriesSettings(games=2, seed=1))


def test_a_field_is_a_ladder_when_one_numeric_option_varies():
    f = family({"a": "mcts:playouts=200", "b": "mcts:playouts=50", "c": "mcts:playouts=100"})
    assert f is not None and f.labels == ("b", "c", "a") and f.x == (0.0, 1.0, 2.0)
    assert f.unit == "doubling of playouts"
    assert family({"a": "alphabeta:depth=1", "b": "alphabeta:depth=2"}).unit == "+1 depth"
    assert family({"a": "mcts:playouts=50", "b": "random"}) is None
    assert family({"a": "mcts:playouts=50,c=1", "b": "mcts:playouts=100,c=2"}) is None  # two options vary
    assert family({"a": "mcts:playouts=50"}) is None


def test_a_small_ladder_runs_reports_and_resumes(tmp_path, capsys):
    args = ["ladder", "--bot", "mcts:playouts={4,8,16}", "--games", "8", "--workers", "2",
            "--results", str(tmp_path), "-q"]
    code, out, err = run_cli(args, capsys)
    assert code == 0, err
    assert "16 games played" in out and "Elo per doubling of playouts:" in out and "trend test" in out
    name = out.split(":")[0].strip()
    assert name.startswith("interaction-ladder-")
    code, out, _ = run_cli(["report", name, "--results", str(tmp_path), "--json", "-s", "ladder"], capsys)
    tables = json.loads(out)["tables"]
    assert [r["label"] for r in tables["ladder"]] == ["mcts:playouts=4", "mcts:playouts=8", "mcts:playouts=16"]
    assert [r["step"] for r in tables["ladder_steps"]] == ["mcts:playouts=4 -> mcts:playouts=8",
                                                           "mcts:playouts=8 -> mcts:playouts=16"]
    assert all(r["games"] == 8 and r["pairs"] == 4 for r in tables["ladder_steps"])
    fit = tables["ladder_fit"][0]
    assert fit["games"] == 16 and fit["series"] == 8 and fit["unit"] == "doubling of playouts"
    assert fit["reason"] or all(isinstance(fit[k], float) for k in ("elo_per_unit", "trend", "trend_p"))
    code, out, _ = run_cli(args, capsys)  # the same command resumes: nothing left to play
    assert code == 0 and "0 games played" in out


def test_bad_ladder_input_is_one_line_exit_2(tmp_path, capsys):
    code, _, err = run_cli(["ladder", "--bot", "mcts:playouts={x,y}", "--results", str(tmp_path)], capsys)
    assert code == 2 and err.startswith("error: bad ladder value 'x'") and err.count("\n") == 1
    code, _, err = run_cli(["ladder", "--game", "sandpile", "--bot", "mcts:playouts={2,4}", "--results",
                            str(tmp_path)], capsys)
    assert code == 2 and "2-player game" in err and err.count("\n") == 1


@pytest.mark.slow
def test_an_mcts_ladder_on_interaction_gains_elo_per_doubling(tmp_path, capsys):
    """Four rungs of MCTS, 25 to 200 playouts (three doublings), 40 games a step: each doubling
    is worth Elo, with an interval above 0, and the first-move trend is tested."""
    code, out, err = run_cli(["ladder", "--bot", "mcts:playouts={25,50,100,200}", "--games", "40",
                              "--workers", "2", "--results", str(tmp_path), "-q"], capsys)
    assert code == 0, err
    name = out.split(":")[0].strip()
    code, out, _ = run_cli(["report", name, "--results", str(tmp_path), "--json", "-s", "ladder_fit"], capsys)
    fit = json.loads(out)["tables"]["ladder_fit"][0]
    assert fit["low"] > 0 and fit["elo_per_unit"] > 0 and fit["games"] == 120
    assert 0 <= fit["trend_p"] <= 1 and not math.isnan(fit["trend"])
