"""Adjudication (``--adjudicate``): the rules' text, resign (one-sided and two-sided), draw and
max-plies as the referee applies them, and what a tournament stores and reports."""

from __future__ import annotations

import sqlite3

import pytest

from arena.errors import ConfigError
from arena.referee import FAULTS, Adjudication, GameSettings, Termination, play_game
from arena.referee.adjudicate import Adjudicator
from arena.results.store import load_games
from arena.tournament import build, run_tournament
from bots.base import SearchStats
from tests.toy import Nim
from tests.registered import register_game


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch):
    register_game(monkeypatch, "nim", "tests.toy:Nim")


class Says:
    """Takes one stone and reports ``score`` (``None``: no score) as its evaluation."""

    def __init__(self, score: float | None) -> None:
        self.score = score
        self.last_stats = SearchStats()

    def choose(self, state, limits):
        self.last_stats = SearchStats(1, 1, 0.0, self.score)
        return 1


@pytest.mark.parametrize("texts,canonical", [
    (["resign=3:500"], "resign=3:500"),
    (["max-plies=80", "resign=4:300.0:TwoSided"], "resign=4:300:twosided,max-plies=80"),
    (["draw=40:8:10,max_plies=200"], "draw=40:8:10,max-plies=200"),
])
def test_rules_read_and_write_back(texts, canonical):
    assert Adjudication.parse(texts).text() == canonical == Adjudication.parse(canonical).text()


@pytest.mark.parametrize("text", ["resign=3", "resign=0:500", "resign=3:-5", "resign=3:500:both", "draw=1:2",
                                  "max-plies=0", "max-plies=x", "stop=3", "resign=3:500,resign=2:100"])
def test_bad_rules_are_one_line_naming_the_forms(text):
    with pytest.raises(ConfigError, match="--adjudicate"):
        Adjudication.parse(text)


def test_adjudications_are_documented_terminations_and_no_faults():
    for t in (Termination.ADJUDICATED, Termination.ADJUDICATED_DRAW):
        assert t.__doc__ and "--adjudicate" in t.__doc__ and t not in FAULTS


def test_a_side_whose_own_score_stays_low_loses():
    judge = Adjudicator(Adjudication.parse("resign=2:100"), 2)
    # seat 0 says -150, seat 1 says +150 each move: seat 0 resigns at its 2nd move (ply 3, 0-based 2)
    plays = [(0, -150.0), (1, 150.0), (0, -150.0)]
    verdicts = [judge.after_ply(i + 1, seat, score) for i, (seat, score) in enumerate(plays)]
    assert verdicts[:2] == [None, None]
    outcome, rule = verdicts[2]
    assert outcome.ranks == (2, 1) and outcome.termination == Termination.ADJUDICATED and rule == "resign=2:100"


def test_a_streak_is_broken_by_a_better_score_and_by_no_score_on_both_sides():
    judge = Adjudicator(Adjudication.parse("resign=2:100"), 2)
    assert [judge.after_ply(i + 1, s, v) for i, (s, v) in enumerate(
        [(0, -150.0), (1, None), (0, -50.0), (1, None), (0, -150.0), (1, None)])] == [None] * 6


def test_a_silent_side_loses_on_its_opponents_claim_one_sided_but_never_two_sided():
    one = play_game(GameSettings(Nim(pile=30), seed=1, adjudication=Adjudication.parse("resign=3:100")),
                    [Says(500.0), Says(None)])
    assert one.outcome.termination == Termination.ADJUDICATED and one.outcome.ranks == (1, 2)
    assert one.adjudication == "resign=3:100" and one.plies == 6  # seat 1's 3rd move, on seat 0's claims
    two = play_game(GameSettings(Nim(pile=30), seed=1, adjudication=Adjudication.parse("resign=3:100:twosided")),
                    [Says(500.0), Says(None)])
    assert two.outcome.termination == "last_stone" and two.adjudication is None


def test_two_sided_resign_needs_both_sides_to_agree():
    rules = Adjudication.parse("resign=2:100:twosided")
    agreed = play_game(GameSettings(Nim(pile=30), seed=1, adjudication=rules), [Says(300.0), Says(-300.0)])
    assert agreed.outcome.ranks == (1, 2) and agreed.plies == 4
    disputed = play_game(GameSettings(Nim(pile=30), seed=1, adjudication=rules), [Says(-50.0), Says(-300.0)])
    assert disputed.outcome.termination == "last_stone"


def test_draw_after_plies_with_both_scores_near_zero():
    rules = Adjudication.parse("draw=6:2:10")
    drawn = play_game(GameSettings(Nim(pile=30), seed=1, adjudication=rules), [Says(5.0), Says(-3.0)])
    assert drawn.outcome.termination == Termination.ADJUDICATED_DRAW and drawn.outcome.ranks == (1, 1)
    assert drawn.plies == 6 and drawn.adjudication == "draw=6:2:10"
    silent = play_game(GameSettings(Nim(pile=30), seed=1, adjudication=rules), [Says(5.0), Says(None)])
    assert silent.outcome.termination == "last_stone"  # a bot that reports no score: never a draw


def test_max_plies_draws_any_game_and_counts_opening_plies():
    game = Nim(pile=30, players=3)
    record = play_game(GameSettings(game, seed=1, opening=("1", "1"), adjudication=Adjudication.parse(
        "max-plies=5")), [Says(None), Says(None), Says(None)])
    assert record.plies == 5 and record.outcome.ranks == (1, 1, 1)
    assert record.outcome.termination == Termination.ADJUDICATED_DRAW and record.adjudication == "max-plies=5"


def test_score_rules_are_refused_beyond_two_players():
    with pytest.raises(ConfigError, match="two-player games"):
        build(dict(game="nim", params={"pile": "9", "players": "3"}, bots=["random"] * 3, adjudicate=["resign=3:1"]))
    cfg = build(dict(game="nim", params={"pile": "9", "players": "3"}, bots=["random"] * 3,
                     adjudicate=["max-plies=4"]))
    assert cfg.identity()["adjudicate"] == "max-plies=4"


def test_tournament_stores_the_rule_and_reports_first_moves_without_adjudicated_games(tmp_path):
    from arena.reports.render import build_tables, load
    cfg = build(dict(game="nim", params={"pile": "30"}, bots=["random", "r2=random"], games=6, workers=1,
                     results=str(tmp_path), opening_plies=0, adjudicate=["max-plies=8"]))
    summary = run_tournament(cfg)
    games = load_games(summary.path)
    assert (games["termination"] == "adjudicated_draw").all() and (games["plies"] == 8).all()
    with sqlite3.connect(summary.path) as conn:
        assert {r[0] for r in conn.execute("SELECT adjudication FROM games")} == {"max-plies=8"}
    data = load(summary.path)
    terms = build_tables(data, ["terminations"])["terminations"]
    assert terms.set_index("termination").loc["adjudicated_draw", "games"] == 6
    assert not terms["fault"].any()
    assert build_tables(data, ["first_move"])["first_move"]["games"].iloc[0] == 6
    data.no_adjudicated = True
    assert build_tables(data, ["first_move"])["first_move"]["games"].iloc[0] == 0


def test_max_plies_stops_after_a_chance_ply_too():
    """A chance ply counts toward ``max-plies`` and the game ends right after it (not one bot
    ply later)."""
    from bots.random import RandomBot
    from tests.toy import DiceNim
    record = play_game(GameSettings(DiceNim(), seed=1, adjudication=Adjudication.parse("max-plies=3")),
                       [RandomBot(), RandomBot()])
    assert record.plies == 3 and record.outcome.termination == Termination.ADJUDICATED_DRAW
