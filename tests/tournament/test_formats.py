"""Formats that pair from the results (``--format knockout``, ``--format swiss``) and the
gauntlet's ``--seeds``: brackets, rounds without repeat pairings, seat balance, standings, and
resuming an interrupted run to the same pairings."""

from __future__ import annotations

from collections import Counter

import pytest

from arena.errors import ConfigError
from arena.reports.render import build_tables, load
from arena.results.standings import Played, knockout, seed_order, swiss_rounds
from arena.results.store import load_games
from arena.tournament import build, run_tournament
from arena.tournament.pairing import gauntlet
from tests.tournament.stopping import StopAfter
from tests.registered import register_game


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch):
    register_game(monkeypatch, "nim", "tests.toy:Nim")


def field(n: int) -> list[str]:
    return [f"b{i:02d}=random" for i in range(n)]


def config(tmp_path, n: int, **extra):
    return build(dict(game="nim", params={"pile": "9"}, bots=field(n), games=2, workers=2, results=str(tmp_path),
                      opening_plies=0, **extra))


def pairings_of(path) -> list[tuple[int, tuple[str, ...]]]:
    games = load_games(path)
    return sorted((int(g), tuple(s)) for g, s in zip(games["game_id"], games["seats"]))


def test_bracket_seeding_puts_the_top_seeds_apart_and_gives_them_the_byes():
    assert seed_order(8) == [0, 7, 3, 4, 1, 6, 2, 5]
    matches = knockout(["a", "b", "c", "d", "e"], [], base=1, per_series=2)
    first = [m for m in matches if m.round == 0]
    assert [(m.a, m.b, m.how) for m in first] == [("a", None, "bye"), ("d", "e", ""), ("b", None, "bye"),
                                                  ("c", None, "bye")]
    assert [m.round for m in matches] == [0, 0, 0, 0, 1, 1, 2]


def test_a_tied_match_plays_more_series_then_the_higher_seed_goes_through():
    draw = [Played(i, s, ("a", "b") if i % 2 else ("b", "a"), (1, 1)) for s in range(3) for i in (2 * s, 2 * s + 1)]
    assert knockout(["a", "b"], draw[:2], base=1, per_series=2)[0].winner is None  # tied: another series
    final = knockout(["a", "b"], draw, base=1, per_series=2)[0]
    assert final.series == 3 and final.winner == "a" and final.how == "tie-break"


def test_an_8_bot_knockout_produces_a_bracket_and_a_winner_and_resumes_to_the_same_pairings(tmp_path):
    whole = run_tournament(config(tmp_path / "whole", 8, format="knockout"))
    table = build_tables(load(whole.path), ["standings"])["knockout"]
    assert table["round"].tolist()[:4] == ["quarter-final"] * 4 and table["round"].iloc[-1] == "champion"
    champion = table["winner"].iloc[-1]
    assert champion and table[table["round"] == "final"]["winner"].iloc[0] == champion
    assert (table[table["round"] != "champion"]["decided"] != "").all()
    cut = run_tournament(config(tmp_path / "cut", 8, format="knockout"), [StopAfter(5)])
    assert cut.interrupted and 5 <= cut.stored < whole.stored
    resumed = run_tournament(config(tmp_path / "cut", 8, format="knockout"))
    assert not resumed.interrupted and pairings_of(resumed.path) == pairings_of(whole.path)


def test_a_20_bot_swiss_of_5_rounds_has_no_repeat_and_balanced_seats_and_resumes(tmp_path):
    whole = run_tournament(config(tmp_path / "whole", 20, format="swiss", rounds=5))
    games = load_games(whole.path)
    assert len(games) == 5 * 10 * 2
    pairs = Counter(frozenset(s) for s in games["seats"])
    assert len(pairs) == 50 and set(pairs.values()) == {2}  # 50 pairings, none repeated
    seats = Counter((label, i) for s in games["seats"] for i, label in enumerate(s))
    for bot in {label for s in games["seats"] for label in s}:
        assert abs(seats[(bot, 0)] - seats[(bot, 1)]) <= 1
    table = build_tables(load(whole.path), ["standings"])["swiss"]
    assert len(table) == 20 and (table["rounds"] == 5).all() and table["points"].sum() == 50
    assert list(table.columns[:5]) == ["rank", "bot", "points", "buchholz", "game_points"]
    cut = run_tournament(config(tmp_path / "cut", 20, format="swiss", rounds=5), [StopAfter(33)])
    assert cut.interrupted
    resumed = run_tournament(config(tmp_path / "cut", 20, format="swiss", rounds=5))
    assert pairings_of(resumed.path) == pairings_of(whole.path)


def test_odd_swiss_gives_each_bye_once_and_refuses_too_many_rounds(tmp_path):
    state = swiss_rounds(["a", "b", "c", "d", "e"], [], rounds=2, base=1, per_series=2)
    assert state.rounds[0].bye == "e" and state.complete == 0
    with pytest.raises(ConfigError, match="plays 1 to 2 rounds"):
        run_tournament(config(tmp_path, 5, format="swiss", rounds=3))


def test_gauntlet_seeds_meet_every_other_bot_but_not_each_other(tmp_path):
    assert gauntlet(["a", "b", "c", "d"], 2, seeds=2) == [("a", "c"), ("a", "d"), ("b", "c"), ("b", "d")]
    summary = run_tournament(config(tmp_path, 4, format="gauntlet", seeds=2))
    pairs = {frozenset(s) for s in load_games(summary.path)["seats"]}
    assert pairs == {frozenset(p) for p in (("b00", "b02"), ("b00", "b03"), ("b01", "b02"), ("b01", "b03"))}
    assert config(tmp_path, 4, format="gauntlet", seeds=2).identity()["seeds"] == 2
    assert "seeds" not in config(tmp_path, 4, format="gauntlet").identity()


@pytest.mark.parametrize("extra,message", [
    (dict(format="round-robin", rounds=3), "--rounds goes with --format swiss"),
    (dict(format="round-robin", seeds=2), "--seeds goes with --format gauntlet"),
    (dict(format="gauntlet", seeds=4), "has 1 to 3 seeds"),
])
def test_format_options_out_of_place_are_refused(tmp_path, extra, message):
    with pytest.raises(ConfigError, match=message):
        config(tmp_path, 4, **extra)


def test_knockout_and_swiss_are_two_player_formats(tmp_path):
    with pytest.raises(ConfigError, match="two-player games"):
        run_tournament(build(dict(game="nim", params={"pile": "9", "players": "3"}, bots=field(4), games=3,
                                  format="knockout", results=str(tmp_path))))


def test_arena_list_resumes_with_the_new_options(tmp_path):
    from arena.tournament.listing import stored_tournaments
    cfg = build(dict(game="nim", params={"pile": "9"}, bots=field(4), games=2, workers=1, results=str(tmp_path),
                     opening_plies=0, format="swiss", rounds=2, tc="5+0.1", adjudicate=["max-plies=40"],
                     each=["depth=2"], name="t"))
    run_tournament(cfg)
    (entry,) = stored_tournaments(tmp_path)
    command = entry["command"]
    for words in ("--format swiss", "--rounds 2", "--tc 5+0.1", "--adjudicate max-plies=40", "--each depth=2"):
        assert words in command, command
    assert "--game-time" not in command
