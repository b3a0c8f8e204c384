"""Start-position diagnostics (``arena.reports.openings``): hand-checked figures, the flag of a
deliberately unbalanced position, and ``arena openings select``'s balanced book."""

import json

import pandas as pd
import pytest

import arena.games
from arena.errors import ConfigError
from arena.reports.openings import openings_table, select
from arena.stats.intervals import cluster_mean
from arena.tournament import build, run_tournament
from arena.tournament.series import read_openings
from tests.reports.frames import games_frame
from tests.cli_run import run_cli
from tests.registered import register_game


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch):
    register_game(monkeypatch, "nim", "tests.toy:Nim")



def test_figures_per_position_by_hand():
    """Two positions, two series each (a pair: the seats swapped). From a's side the pairs
    score W+L (1 point), D+W (1.5), L+L (0), D+D (1); seat 0 scores 1, 1, ½, 0 at P0 and 0, 1,
    ½, ½ at P1."""
    games = games_frame([
        (["a", "b"], [1, 2]), (["b", "a"], [1, 2]),  # series 0, P0: seat 0 wins both (a: W, L)
        (["a", "b"], [1, 1]), (["b", "a"], [2, 1]),  # series 1, P0: a: D, W
        (["a", "b"], [2, 1]), (["b", "a"], [1, 2]),  # series 2, P1: a: L, L
        (["a", "b"], [1, 1]), (["b", "a"], [1, 1]),  # series 3, P1: a: D, D
    ])
    table = openings_table(games, games["series"].to_numpy() // 2, ["P0", "P1"], ["a", "b"])
    p0, p1 = table.iloc[0], table.iloc[1]
    assert list(table["start"]) == ["P0", "P1"] and list(table["position"]) == [1, 2]
    assert (p0["wins"], p0["draws"], p0["losses"], p0["games"], p0["series"]) == (2, 1, 1, 4, 2)
    assert p0["score"] == 2.5 / 4 and p0["bias"] == 2.5 / 4 - 0.5 and p0["win_share"] == 2 / 3
    assert p0["draw_rate"] == 1 / 4 and p1["draw_rate"] == 2 / 4 and p1["score"] == 0.5
    assert (p0["score_low"], p0["score_high"]) == cluster_mean([1, 1, 0.5, 0], [0, 0, 1, 1], bounds=(0, 1))[1:3]
    assert p0["decisive_pairs"] == 0.5 and p1["decisive_pairs"] == 0.5  # W+L and D+D are 1-1 pairs
    # a's pair means 0.5, 0.75, 0, 0.5 about their mean 0.4375; each bot's deviation squared
    assert p0["variance_share"] == pytest.approx(13 / 38) and p1["variance_share"] == pytest.approx(25 / 38)
    assert p0["p_value"] == 1.0 and list(table["flagged"]) == [False, False]


def test_select_bounds_and_target_draw_rate():
    table = pd.DataFrame({"position": [1, 2, 3, 4], "start": ["w", "x", "y", "z"], "games": [10, 10, 3, 10],
                          "bias": [0.05, -0.3, 0.0, 0.1], "flagged": [False, True, False, False],
                          "p_holm": [1.0, 0.01, 1.0, 1.0], "draw_rate": [0.6, 0.5, 0.2, 0.2]})
    chosen = select(table, max_bias=0.2, min_games=5)
    assert list(chosen.kept["start"]) == ["w", "z"] and chosen.draw_rate == pytest.approx(0.4)
    assert [p for p, _ in chosen.dropped] == [2, 3]
    lower = select(table, max_bias=0.2, min_games=5, target_draw_rate=0.3)  # the drawiest goes first
    assert list(lower.kept["start"]) == ["z"] and lower.draw_rate == pytest.approx(0.2)
    assert list(select(table, 0.5, 1, keep_flagged=True).kept["start"]) == ["w", "x", "y", "z"]
    with pytest.raises(ConfigError, match="no start position passes"):
        select(table, max_bias=0.01, min_games=5)
    with pytest.raises(ConfigError, match="accepted: a score fraction from 0 to 0.5"):
        select(table, max_bias=0.7, min_games=5)


def test_an_unbalanced_position_is_flagged_and_left_out_of_the_book(tmp_path, capsys):
    """Random Nim players from four positions; in "1 0 -1" seat 0 takes the last stone at once."""
    book = tmp_path / "nim.txt"
    book.write_text("# three fair starts and one won for seat 0\n20 0 -1\n21 0 -1\n1 0 -1\n22 0 -1\n")
    cfg = build(dict(game="nim", bots=["random", "b=random", "c=random"], workers=1, results=str(tmp_path),
                     openings=str(book), games=24, name="nim-book"))
    assert run_tournament(cfg).stored == 72
    code, out, _ = run_cli(["report", "nim-book", "--results", str(tmp_path), "--json", "--section", "openings"],
                           capsys)
    rows = json.loads(out)["tables"]["openings"]
    assert [r["start"] for r in rows if r["flagged"]] == ["1 0 -1"]
    unbalanced = next(r for r in rows if r["start"] == "1 0 -1")
    assert unbalanced["score"] == 1.0 and unbalanced["p_holm"] < 0.05 and unbalanced["decisive_pairs"] == 0.0
    out_file = tmp_path / "balanced.txt"
    code, out, err = run_cli(["openings", "select", "nim-book", "--results", str(tmp_path), "--max-bias", "0.2",
                              "--min-games", "6", "--out", str(out_file)], capsys)
    assert code == 0 and "3 of 4 positions" in out and "left out position 3" in out
    assert read_openings(out_file, arena.games.make("nim")) == ("20 0 -1", "21 0 -1", "22 0 -1")
    code, _, err = run_cli(["openings", "select", "nim-book", "--results", str(tmp_path), "--max-bias", "2",
                            "--out", str(out_file)], capsys)
    assert code == 2 and err.startswith("error: bad --max-bias") and err.count("\n") == 1


def test_three_players_report_the_seat_furthest_from_half(tmp_path, capsys):
    book = tmp_path / "nim3.txt"
    book.write_text("9 0 -1\n1 0 -1\n")
    cfg = build(dict(game="nim", params={"players": "3"}, bots=["random", "b=random", "c=random"], workers=1,
                     results=str(tmp_path), openings=str(book), games=12, name="nim3"))
    run_tournament(cfg)
    code, out, _ = run_cli(["report", "nim3", "--results", str(tmp_path), "--json", "-s", "openings"], capsys)
    rows = json.loads(out)["tables"]["openings"]
    assert [r["start"] for r in rows] == ["9 0 -1", "1 0 -1"] and [r["series"] for r in rows] == [2, 2]
    won = rows[1]  # seat 0 takes the last stone: points 1, ¼, ¼ (the others share places 2-3); a series is one game
    assert won["games"] == 2 and won["seat"] == 0 and won["score"] == 1.0 and won["seat_scores"] == "1.000 0.250 0.250"
    assert won["draw_rate"] == 0.0 and won["decisive_pairs"] == 0.0  # each bot won once from seat 0


def test_a_tournament_from_one_start_has_no_book(tmp_path, capsys):
    cfg = build(dict(game="nim", bots=["random", "b=random"], workers=1, results=str(tmp_path), games=2,
                     opening_plies=0, name="one"))
    run_tournament(cfg)
    code, _, err = run_cli(["openings", "select", "one", "--results", str(tmp_path), "--out",
                            str(tmp_path / "x.txt")], capsys)
    assert code == 2 and "has one start position" in err and err.count("\n") == 1


def test_random_opening_plies_key_the_position_reached_on_request(tmp_path, capsys):
    """One random ply from a pile of 10 reaches 9, 8 or 7 stones with seat 1 to move; those
    positions are the table's rows when asked for; the default terminal report leaves them out,
    ``--json`` (every table) holds them."""
    cfg = build(dict(game="nim", bots=["random", "b=random"], workers=1, results=str(tmp_path), games=20,
                     opening_plies=1, name="plies"))
    run_tournament(cfg)
    code, out, _ = run_cli(["report", "plies", "--results", str(tmp_path), "--json", "-s", "openings"], capsys)
    rows = json.loads(out)["tables"]["openings"]
    assert {r["start"] for r in rows} <= {"9 1 0", "8 1 0", "7 1 0"} and len(rows) >= 2
    assert sum(r["series"] for r in rows) == 10
    code, out, _ = run_cli(["report", "plies", "--results", str(tmp_path), "--json"], capsys)
    assert json.loads(out)["tables"]["openings"] == rows


def test_random_candidates_are_distinct_positions_after_the_plies(tmp_path, capsys):
    """From a pile of 10, one random ply reaches 9, 8 or 7 stones (seat 1 to move): three
    positions at most, however many are asked for."""
    from arena.openings import random_positions

    nim = arena.games.make("nim")
    assert sorted(random_positions(nim, 1, 3, seed=5)) == ["7 1 0", "8 1 0", "9 1 0"]
    assert sorted(random_positions(nim, 1, 10, seed=5)) == ["7 1 0", "8 1 0", "9 1 0"]
    out_file = tmp_path / "c.txt"
    code, out, _ = run_cli(["openings", "random", "nim", "--plies", "2", "--count", "4", "--out", str(out_file)],
                           capsys)
    assert code == 0 and len(read_openings(out_file, nim)) == 4
    code, _, err = run_cli(["openings", "random", "nim", "--count", "0", "--out", str(out_file)], capsys)
    assert code == 2 and "bad --count 0; accepted: 1 to 100000" in err and err.count("\n") == 1
