"""``arena report --across``: one table over an Interaction and an OpenSpiel tournament that
share two bots, with intervals; with ``--weights games`` the same numbers as the field table's
fit of the games merged; bots told apart by identity; n-player games reduced to pairs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.reports import across as ac
from arena.reports.field import fit_field
from arena.results.store import load_games, load_tournament
from arena.stats import bootci
from arena.stats import field as fs
from arena.stats.weighted import WeightedDuels
from tests.cli_run import run_cli

pytestmark = pytest.mark.xdist_group("across")  # one worker makes the two tournaments once


@pytest.fixture(scope="module")
def two(tmp_path_factory) -> Path:
    """``ia`` (Interaction: random, greedy, ab) and ``ttt`` (OpenSpiel tic-tac-toe: random,
    greedy, mcts; more games) in one results folder."""
    root = tmp_path_factory.mktemp("across")
    for name, game, third, games in (("ia", "interaction", "ab=alphabeta:depth=1", "4"),
                                     ("ttt", "openspiel:tic_tac_toe", "mcts=mcts:playouts=50", "8")):
        result = CliRunner().invoke(app, ["run", "--game", game, "--bot", "random", "--bot", "greedy", "--bot", third,
                                          "--games", games, "--results", str(root), "--name", name, "--workers", "1",
                                          "-q", "--seed", "7"])
        assert result.exit_code == 0, result.output
    return root


def _merged(root: Path) -> pd.DataFrame:
    """Both tournaments' games in one frame, the series of the second numbered past the first's."""
    first, second = load_games(root / "ia.sqlite"), load_games(root / "ttt.sqlite")
    second = second.assign(series=second["series"] + first["series"].max() + 1)
    return pd.concat([first, second], ignore_index=True)


def test_one_table_with_intervals_over_two_games_sharing_two_bots(two):
    table, lines, sources = ac.across_report(["ia", "ttt"], two, "equal")
    bots = table[table["rank"].notna()]
    assert sorted(bots["label"]) == ["ab", "greedy", "mcts", "random"]
    assert bots[["elo", "elo_low", "elo_high", "cfs"]].iloc[:-1].notna().all().all()
    assert (bots["elo_low"] <= bots["elo"]).all() and (bots["elo"] <= bots["elo_high"]).all()
    shared = bots.set_index("label")["tournaments"]
    assert shared["random"] == shared["greedy"] == "ia, ttt" and shared["mcts"] == "ttt"
    games = bots.set_index("label")["games"]
    assert games["random"] == 8 + 16 and games["ab"] == 8  # each pairing: 4 games in ia, 8 in ttt
    assert table["label"].iloc[-1] == "(first move)" and table["games"].iloc[-1] == 12 + 24
    assert "each tournament weighs the same" in lines[0]


def test_the_note_counts_one_tournament_in_the_singular(two):
    assert ac.across_report(["ia"], two, "equal")[1][0].startswith("One table over 1 tournament: ia (")
    assert ac.across_report(["ia", "ttt"], two, "equal")[1][0].startswith("One table over 2 tournaments: ia (")


def test_weights_games_gives_the_field_tables_fit_of_the_merged_games(two):
    table, _, sources = ac.across_report(["ia", "ttt"], two, "games")
    maps, order, _ = ac.bot_names(sources)
    fit = ac.fit_across(ac.pairwise(sources, maps, order, "games"), sources[0].seed)
    single = fit_field(_merged(two), list(fit.labels), 2, seed=int(load_tournament(two / "ia.sqlite")["seed"]))
    assert single.labels == fit.labels
    np.testing.assert_allclose(fit.boot.estimate, single.boot.estimate, atol=1e-9)
    np.testing.assert_allclose(fit.boot.replicates, single.boot.replicates, atol=1e-9)
    low, high = bootci.field_intervals(single.duels, single.boot)
    k = len(fit.labels)
    by_label = table.set_index("label")
    for i, label in enumerate(fit.labels):
        assert by_label.loc[label, "elo"] == pytest.approx(single.boot.estimate[i], abs=1e-9)
        assert by_label.loc[label, "elo_low"] == pytest.approx(low[i], abs=1e-9)
        assert by_label.loc[label, "elo_high"] == pytest.approx(high[i], abs=1e-9)
    assert by_label.loc["(first move)", "elo_low"] == pytest.approx(low[k], abs=1e-9)
    equal, _, _ = ac.across_report(["ia", "ttt"], two, "equal")  # ttt has twice ia's games: other weights
    assert not np.allclose(equal.set_index("label").loc[list(fit.labels), "elo"], by_label.loc[list(fit.labels), "elo"])


def test_the_command_prints_the_table_and_its_json_and_refuses_bad_input_in_one_line(two, capsys):
    text = CliRunner().invoke(app, ["report", "--across", "ia,ttt", "--results", str(two)])
    assert text.exit_code == 0, text.output
    assert "Field table across ia, ttt" in text.output and "(first move)" in text.output
    out = CliRunner().invoke(app, ["report", "--across", "ia,ttt", "--weights", "games", "--results", str(two),
                                   "--json"])
    doc = json.loads(out.output)
    assert doc["weights"] == "games" and [s["name"] for s in doc["across"]] == ["ia", "ttt"]
    assert {row["label"] for row in doc["tables"]["across"]} >= {"random", "greedy", "ab", "mcts"}
    for args, words in ((["--across", "ia,ia"], "the same tournament twice"), (["--across", "ia,no"], "no tournament"),
                        (["--across", "ia,ttt", "--weights", "most"], "accepted: equal, games"),
                        (["--weights", "games", "ia"], "--weights goes with --across"),
                        (["--across", "ia,ttt", "--section", "pairs"], "--section"),
                        (["--across", "ia,ttt", "--anchor", "nobody=0"], "no bot 'nobody'")):
        code, _, err = run_cli(["report", *args, "--results", str(two)], capsys)  # ``arena``'s own entry point
        assert code == 2 and err.count("\n") == 1 and words in err, (args, err)


def _source(name: str, games: list[tuple[list[str], list[int], int]], versions: dict[str, str | None]) -> ac.Source:
    frame = pd.DataFrame({"seats": [g[0] for g in games], "ranks": [g[1] for g in games],
                          "series": [g[2] for g in games]})
    return ac.Source(name, Path(name), "g", 1, frame,
                     {lab: {"bot": lab, "version": 1, "digest": d} for lab, d in versions.items()}, list(versions))


def test_a_bot_is_its_spec_and_code_not_its_label():
    a = _source("a", [(["x", "y"], [1, 2], 0)], {"x": "d1", "y": "d2"})
    b = _source("b", [(["x2", "y"], [1, 2], 0)], {"x2": "d1", "y": "d3"})
    maps, names, notes = ac.bot_names([a, b])
    assert maps == [{"x": "x", "y": "y"}, {"x2": "x", "y": "y (b)"}] and names == ["x", "y", "y (b)"]
    assert any("x2 of b is x" in n for n in notes) and any("shown as y (b)" in n for n in notes)


def test_an_n_player_game_gives_one_result_per_pair_of_seats_each_weighing_one_over_n_minus_1():
    s = _source("three", [(["p", "q", "r"], [2, 1, 2], 0)], {"p": "1", "q": "2", "r": "3"})
    maps, names, _ = ac.bot_names([s])
    pw = ac.pairwise([s], maps, names, "games")
    pairs = sorted(zip(pw.seat0.tolist(), pw.seat1.tolist(), pw.points.tolist()))
    assert pairs == [(0, 1, 0.0), (0, 2, 0.5), (1, 2, 1.0)]  # q first; p and r share second
    assert pw.weight.tolist() == [0.5, 0.5, 0.5] and pw.games.tolist() == [1, 1, 1] and pw.rated == 1
    assert len(set(pw.series.tolist())) == 1  # one series: resampled together


def test_weighted_duels_count_a_game_of_weight_two_as_two_games():
    seat0, seat1 = np.array([0, 1, 0, 2, 1]), np.array([1, 0, 2, 0, 2])
    points, series = np.array([1, 0.5, 1, 0, 1.0]), np.array([0, 0, 1, 1, 2])
    twice = WeightedDuels.from_weighted(("a", "b", "c"), seat0, seat1, points, series, np.full(5, 2.0))
    copied = fs.Duels.from_games(("a", "b", "c"), np.r_[seat0, seat0], np.r_[seat1, seat1], np.r_[points, points],
                                 np.r_[series, series + 3])
    np.testing.assert_allclose(twice.cells(), copied.cells())
    np.testing.assert_allclose(fs.fit(twice, twice.cells()), fs.fit(copied, copied.cells()))
    mixed = WeightedDuels.from_weighted(("a", "b", "c"), seat0, seat1, points, series, [1, 1, 3, 3, 1])
    plain = fs.Duels.from_games(("a", "b", "c"), seat0, seat1, points, series)
    expected = plain.cells()
    expected[1] *= 3  # pairing (a, c): the weight-3 series
    np.testing.assert_allclose(mixed.cells(), expected)


def test_equal_weights_give_each_tournament_the_same_total():
    one = _source("one", [(["x", "y"], [1, 2], 0)], {"x": "d1", "y": "d2"})
    three = _source("three", [(["x", "y"], [2, 1], s) for s in range(3)], {"x": "d1", "y": "d2"})
    maps, names, _ = ac.bot_names([one, three])
    pw = ac.pairwise([one, three], maps, names, "equal")
    assert pw.weight.tolist() == pytest.approx([2.0, 2 / 3, 2 / 3, 2 / 3])  # N/(T·n): 4/(2·1), 4/(2·3)
    assert ac.pairwise([one, three], maps, names, "games").weight.tolist() == [1.0] * 4
