"""The field table and the non-transitivity tables of a report (``arena.reports.field``,
``arena.reports.cycles``): what they say about real small tournaments, checked against the
statistics computed another way."""

import json

import numpy as np
import pandas as pd
import pytest

from arena.cli.app import main
from arena.reports.html import render_html
from arena.reports.output import report_json
from arena.reports.field import note as field_note
from arena.reports.render import ReportData, build_tables, load
from arena.stats import bootci
from arena.stats import field as fs
from arena.stats import luce
from arena.tournament import build, run_tournament
from tests.reports.frames import games_frame, moves_frame
from tests.registered import register_game


@pytest.fixture
def hands(monkeypatch):
    """The rock-paper-scissors test game (``tests.rps``), registered for this process and its workers."""
    register_game(monkeypatch, "hands", "tests.rps:Hands")


def run(tmp_path, name, bots, games, game="interaction"):
    plies = 0 if game == "hands" else 2  # a game of two plies: random opening plies would be all of it
    return run_tournament(build({"game": game, "bots": bots, "games": games, "results": str(tmp_path),
                                 "name": name, "workers": 2, "opening_plies": plies})).path


def test_a_rock_paper_scissors_field_has_a_significant_cycle(tmp_path, hands):
    path = run(tmp_path, "rps", ["r=tests.rps.Rock", "p=tests.rps.Paper", "s=tests.rps.Scissors"], 40, "hands")
    data = load(path)
    tables = build_tables(data, ["cycles"])
    cycles = tables["cycles"]
    assert len(cycles) == 1 and cycles.iloc[0]["p_holm"] < 0.05
    row = cycles.iloc[0]
    assert set(row[["a", "b", "c"]]) == {"r", "p", "s"}
    assert min(row["score_ab"], row["score_bc"], row["score_ca"]) > 0.5  # each edge won by its winner
    nash = tables["nash"].set_index("label")
    assert (nash["mass"] > 0.1).all() and nash["nash_elo"].abs().max() < 1e-6  # spread over the cycle
    alpha = tables["alpharank"].set_index("label")
    assert (alpha["mass"] > 0.1).all()
    out = json.loads(report_json(data, ["cycles"]))["tables"]
    assert set(out) == {"cycles", "nash", "alpharank"} and out["cycles"][0]["p_holm"] < 0.05
    assert 'id="plot-cycles"' in render_html(path, data=data)


def test_a_transitive_field_of_built_in_bots_has_no_significant_cycle(tmp_path, capsys):
    path = run(tmp_path, "ladder3", ["random", "greedy", "ab2=alphabeta:depth=2"], 10)
    data = load(path)
    tables = build_tables(data, ["ratings", "cycles"])
    assert tables["cycles"].empty
    assert list(tables["ratings"]["label"][:3]) == ["ab2", "greedy", "random"]
    with pytest.raises(SystemExit) as exit_info:
        main(["report", "ladder3", "--results", str(tmp_path), "--no-write", "-s", "cycles"])
    assert exit_info.value.code == 0
    assert "No significant cycle" in capsys.readouterr().out
    nash = tables["nash"]
    assert nash.iloc[0]["label"] == "ab2" and nash.iloc[0]["mass"] == pytest.approx(1.0)


def test_field_table_numbers_are_those_of_the_statistics(tmp_path, capsys):
    path = run(tmp_path, "four", ["random", "greedy", "ab1=alphabeta:depth=1", "ab2=alphabeta:depth=2"], 6)
    data = load(path)
    t = build_tables(data, ["ratings"])
    ratings, los = t["ratings"], t["los_matrix"]
    bots = ratings[ratings["rank"].notna()].reset_index(drop=True)
    # an independent fit: the same games through arena.stats.field, and the bootstrap again
    g = data.games
    labels = tuple(data.order)
    pos = {lab: i for i, lab in enumerate(labels)}
    seat0 = [pos[s[0]] for s in g["seats"]]
    seat1 = [pos[s[1]] for s in g["seats"]]
    pts = [1.0 if r[0] < r[1] else 0.5 if r[0] == r[1] else 0.0 for r in g["ranks"]]
    key = [min(a, b) * 100 + max(a, b) + 10_000 * s for a, b, s in zip(seat0, seat1, g["series"])]
    duels = fs.Duels.from_games(labels, seat0, seat1, pts, key)
    boot = fs.bootstrap(duels, fs.REPLICATES, seed=1)
    elo = dict(zip(labels, boot.estimate))
    assert bots["elo"].tolist() == pytest.approx([elo[lab] for lab in bots["label"]], abs=1e-6)
    # the BCa interval (docs/statistics.md "Coverage of the intervals"), not the percentile one
    low, high = bootci.bca_intervals(boot.estimate, boot.replicates, bootci.influence(duels, boot.estimate),
                                     duels.count)
    assert bots["elo_low"].tolist() == pytest.approx([low[pos[lab]] for lab in bots["label"]], abs=1e-6)
    assert bots["elo_high"].tolist() == pytest.approx([high[pos[lab]] for lab in bots["label"]], abs=1e-6)
    first = ratings[ratings["label"] == "(first move)"].iloc[0]
    assert first["elo"] == pytest.approx(boot.estimate[-1], abs=1e-6)
    # Av.Op: the games-weighted mean Elo of the opponents; score and draws by hand
    for row in bots.itertuples():
        mine = g[[row.label in s for s in g["seats"]]]
        opp = [s[1] if s[0] == row.label else s[0] for s in mine["seats"]]
        assert row.av_op == pytest.approx(np.mean([elo[o] for o in opp]))
        points = [1.0 if r[s.index(row.label)] < r[1 - s.index(row.label)] else
                  0.5 if r[0] == r[1] else 0.0 for s, r in zip(mine["seats"], mine["ranks"])]
        assert row.score == pytest.approx(np.mean(points)) and row.games == len(mine)
        assert row.draw_ratio == pytest.approx(np.mean([p == 0.5 for p in points]))
    # the CFS is the LOS of each entry over the next; the LOS matrix is complementary
    for i in range(len(bots) - 1):
        upper, lower = bots.loc[i, "label"], bots.loc[i + 1, "label"]
        assert bots.loc[i, "cfs"] == pytest.approx(los.set_index("label").loc[upper, lower])
    m = los.set_index("label").to_numpy(float)
    off = ~np.eye(len(m), dtype=bool)
    assert np.allclose((m + m.T)[off], 1.0) and np.isnan(m[~off]).all()
    # the terminal, JSON and CSV forms
    with pytest.raises(SystemExit):
        main(["report", "four", "--results", str(tmp_path), "--json", "-s", "ratings"])
    out = json.loads(capsys.readouterr().out)["tables"]
    assert set(out) == {"ratings", "los_matrix"} and out["ratings"][0]["label"] == bots.loc[0, "label"]
    with pytest.raises(SystemExit):
        main(["report", "four", "--results", str(tmp_path)])
    assert "Field table" in capsys.readouterr().out
    assert (tmp_path / "four.ratings.csv").exists() and (tmp_path / "four.los_matrix.csv").exists()


def test_anchor(tmp_path, capsys):
    run(tmp_path, "anch", ["random", "greedy"], 4)
    with pytest.raises(SystemExit):
        main(["report", "anch", "--results", str(tmp_path), "--json", "-s", "ratings", "--anchor", "greedy=1500"])
    rows = {r["label"]: r for r in json.loads(capsys.readouterr().out)["tables"]["ratings"]}
    assert rows["greedy"]["elo"] == rows["greedy"]["elo_low"] == rows["greedy"]["elo_high"] == 1500
    gap = rows["greedy"]["elo"] - rows["random"]["elo"]
    with pytest.raises(SystemExit):
        main(["report", "anch", "--results", str(tmp_path), "--json", "-s", "ratings"])
    plain = {r["label"]: r for r in json.loads(capsys.readouterr().out)["tables"]["ratings"]}
    assert plain["greedy"]["elo"] - plain["random"]["elo"] == pytest.approx(gap)
    assert plain["greedy"]["elo"] + plain["random"]["elo"] == pytest.approx(0.0, abs=1e-9)
    with pytest.raises(SystemExit) as exit_info:
        main(["report", "anch", "--results", str(tmp_path), "--anchor", "nobody=1500"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "no bot 'nobody'" in err and "accepted: random, greedy" in err and len(err.strip().splitlines()) == 1


def test_n_player_field_is_plackett_luce_with_seat_terms_and_trueskill_beside():
    rows = []
    rng = np.random.default_rng(4)
    bots = ["a", "b", "c", "d", "e"]
    for s in range(30):
        four = list(rng.permutation(bots)[:4])
        for rot in range(4):
            seats = four[rot:] + four[:rot]
            ranks = list(rng.permutation([1, 2, 3, 4]))
            rows.append((seats, ranks, s))
    games = games_frame([(seats, ranks) for seats, ranks, _ in rows])
    games["series"] = [s * 10 + sum(map(ord, "".join(sorted(seats)))) % 10 for seats, _, s in rows]
    data = ReportData(games, moves_frame([]), {"name": "four", "game": "sandpile", "num_players": 4,
                                               "bots": {b: "random" for b in bots}, "seed": 1})
    t = build_tables(data, ["ratings"])["ratings"]
    seats = t[t["label"].str.startswith("(seat")]
    assert list(seats["label"]) == ["(seat 0)", "(seat 1)", "(seat 2)", "(seat 3)"]
    assert seats["elo"].sum() == pytest.approx(0.0, abs=1e-6)
    assert {"mu", "sigma"} <= set(t.columns) and t["mu"].notna().sum() == 5
    labels = tuple(data.order)
    pos = {lab: i for i, lab in enumerate(labels)}
    r = luce.Rankings.from_games(labels, [[pos[x] for x in s] for s in games["seats"]], list(games["ranks"]),
                                 games["series"])
    ref = luce.fit(r)
    bots_rows = t[t["rank"].notna()]
    assert bots_rows["elo"].tolist() == pytest.approx([ref[pos[lab]] for lab in bots_rows["label"]], abs=1e-6)
    assert seats["elo"].tolist() == pytest.approx(list(ref[5:]), abs=1e-6)
    assert pd.api.types.is_float_dtype(t["cfs"])


def test_the_report_marks_intervals_the_prior_moves_too_far(tmp_path):
    bots = [f"b{e}=known:elo={e}" for e in (0, 133, 267, 400)]
    cfg = build({"game": "known", "bots": bots, "games": 20, "results": str(tmp_path), "name": "far",
                 "workers": 1, "opening_plies": 0, "seed": 3})
    data = load(run_tournament(cfg).path, anchor=("b0", 0.0))
    lines = field_note(data)
    marked = [line for line in lines if line.startswith("Intervals that may cover less than 95%")]
    assert marked and "b400" in marked[0]
    cfg = build({"game": "known", "bots": bots[:2], "games": 200, "results": str(tmp_path), "name": "near",
                 "workers": 1, "opening_plies": 0, "seed": 3})
    near = load(run_tournament(cfg).path, anchor=("b0", 0.0))
    assert not [line for line in field_note(near) if line.startswith("Intervals that may")]
