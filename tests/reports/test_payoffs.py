"""The payoff tables of a game ranked by payoff (``arena.reports.payoffs``, ``payoff_field``),
on stored Dice Duel games (``tests/payoff_toy.py``): the numbers against the stored scores
computed by hand (scipy's t-test over the series' means, the runoff written out), the fault
rule, the sections a payoff game gets instead of the Elo ones, and the report's outputs; and on
stored games of Picks (a payoff matrix, below), the runoff's robust bot above the exploiter."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import arena.games
from arena.games import Payoff
from arena.referee import GameSettings, play_game
from arena.reports import payoffs
from arena.reports.output import markdown, report_json, write_files
from arena.reports.render import load, tables_for
from arena.results.store import Store
from arena.tournament.series import SeriesSettings, series_games
from bots import registry
from bots.base import Limits
from tests.cli_run import run_cli
from tests.payoff_toy import ChipsGame, ChipsState, DiceDuel, registered
from tests.fixtures.broken_bots import Raiser
from tests.reports.stores import make_store
from tests.registered import register_game

SPECS = {"a": "random", "b": "greedy", "c": "mcts:playouts=6"}


@pytest.fixture(scope="module")
def duel(tmp_path_factory):
    """A stored Dice Duel round-robin of ``SPECS``: 8 series a pairing, then one game that
    ``b`` loses by an exception (game id 49, a series of its own)."""
    folder = tmp_path_factory.mktemp("duel")
    game = DiceDuel()
    settings = SeriesSettings(games=16, seed=3)
    tasks = [t for s in range(8) for pair in (("a", "b"), ("a", "c"), ("b", "c"))
             for t in series_games(game, pair, s, 0, settings)]
    with Store.open(folder, "duel") as store:
        store.begin("duel", "dice-duel", {}, 2, 3, {"games": 16}, list(SPECS.items()), len(tasks) + 1)
        for game_id, task in enumerate(tasks, 1):
            bots = [registry.make(SPECS[label]) for label in task.seats]
            record = play_game(GameSettings(game, task.seed, labels=task.seats, seeds=task.seeds, limits=Limits()),
                               bots)
            store.add_game(game_id, task.series, record)
        faulty = play_game(GameSettings(game, 99, labels=("b", "a"), limits=Limits()),
                           [Raiser(), registry.make("random")])
        assert faulty.fault_seat == 0
        store.add_game(len(tasks) + 1, 8, faulty)
    with registered():  # the report makes the game by its name
        yield store.path


def by_hand(path) -> pd.DataFrame:
    """One row per (game, seat) of the stored games: the payoff by the documented rule."""
    from arena.results.store import load_games

    rows = []
    for g in load_games(path).itertuples():
        scores = list(g.scores)
        if not pd.isna(g.fault_seat):  # the faulting seat pays Dice Duel's forfeit, 2 chips
            scores = [-2.0 if s == g.fault_seat else 2.0 for s in range(2)]
        for seat, (label, payoff) in enumerate(zip(g.seats, scores)):
            rows.append({"game": g.game_id, "series": (tuple(sorted(g.seats)), g.series), "seat": seat,
                         "label": label, "payoff": float(payoff)})
    return pd.DataFrame(rows)


def t_interval(values: pd.Series, clusters: pd.Series) -> tuple[float, float, float]:
    means = values.groupby(clusters).mean()
    half = stats.t.ppf(0.975, len(means) - 1) * stats.sem(means)
    return means.mean(), means.mean() - half, means.mean() + half


def test_a_payoff_game_gets_payoff_tables_instead_of_the_elo_ones(duel):
    data = load(duel)
    tables = tables_for(data)
    assert {"payoffs", "payoff_seats", "payoff_ratings", "payoff_los", "payoff_pairs"} <= set(tables)
    assert not {"ratings", "los_matrix", "pairs"} & set(tables)
    assert {"leaderboard", "elo", "first_move"} <= set(tables)  # by places, as the report says
    assert set(tables_for(data, ["ratings"])) == {"payoff_ratings", "payoff_los"}
    assert set(tables_for(data, ["pairs"])) == {"payoff_pairs"}


def test_the_payoff_table_is_the_mean_payoff_with_a_t_interval_over_series(duel):
    hand = by_hand(duel)
    tables = tables_for(load(duel))
    bots = tables["payoffs"].set_index("label")
    for label in SPECS:
        mine = hand[hand["label"] == label]
        # the fault game is a series of one game: the series are unequal, so the CR1 formula
        sums = mine.groupby("series")["payoff"].agg(["sum", "count"])
        m = sums["sum"].sum() / sums["count"].sum()
        c = len(sums)
        var = c / (c - 1) * ((sums["sum"] - m * sums["count"]) ** 2).sum() / sums["count"].sum() ** 2
        half = stats.t.ppf(0.975, c - 1) * math.sqrt(var)
        row = bots.loc[label]
        assert row["games"] == len(mine) and row["series"] == c
        assert row["payoff"] == pytest.approx(m) and row["mbb"] == pytest.approx(1000 * m)  # big blind: 1 chip
        assert (row["payoff_low"], row["payoff_high"]) == pytest.approx((m - half, m + half))
        assert row["sd"] == pytest.approx(mine["payoff"].std())
    assert bots.loc["b", "forfeits"] == 1 and bots["left_out"].sum() == 0
    assert list(tables["payoffs"]["payoff"]) == sorted(tables["payoffs"]["payoff"], reverse=True)  # best first
    seat0 = hand[hand["seat"] == 0]
    m, low, high = t_interval(seat0["payoff"][seat0["game"] < 49], seat0["series"][seat0["game"] < 49])
    seats = tables_for(load(duel, bots=["a", "b", "c"]))["payoff_seats"]
    assert seats.loc[0, "games"] == 49 and seats.loc[0, "series"] == 25
    assert abs(seats.loc[0, "payoff"] - (seat0["payoff"].sum() / 49)) < 1e-12
    assert not math.isnan(low) and seats.loc[0, "payoff_low"] < seats.loc[0, "payoff"] < seats.loc[0, "payoff_high"]


def test_the_pair_table_tests_the_payoff_difference_over_series(duel):
    hand = by_hand(duel)
    pairs = tables_for(load(duel))["payoff_pairs"].set_index("pairing")
    assert list(pairs.index) == ["a vs b", "a vs c", "b vs c"]
    tested = 0
    for name, row in pairs.iterrows():
        a, b = row["bot"], row["opponent"]
        games = hand[[s[0] == tuple(sorted((a, b))) for s in hand["series"]]]
        mine = games[games["label"] == a].set_index("game")["payoff"]
        theirs = games[games["label"] == b].set_index("game")["payoff"]
        diff = mine - theirs
        series = games[games["label"] == a].set_index("game")["series"]
        if name == "a vs b":  # the fault game (a series of one game) is in this pairing: CR1, checked above
            assert row["games"] == 17 and row["series"] == 9
            continue
        means = diff.groupby(series).mean()
        m, low, high = t_interval(diff, series)
        assert row["diff"] == pytest.approx(m) and row["payoff"] == pytest.approx(m / 2)  # zero-sum: half the diff
        if means.nunique() == 1:  # every series the same (greedy and mcts see the same rolls alike): no t-test
            assert math.isnan(row["diff_low"]) and row["p_method"] == "sign"
            assert row["p_value"] == (1.0 if m == 0 else 2 * 0.5 ** len(means))
            continue
        assert (row["diff_low"], row["diff_high"]) == pytest.approx((low, high))
        assert row["p_value"] == pytest.approx(stats.ttest_1samp(means, 0).pvalue) and row["p_method"] == "t"
        tested += 1
    assert tested >= 1
    assert pairs["p_holm"].tolist() == pytest.approx(_holm(pairs["p_value"].tolist()))


def _holm(p):
    order = np.argsort(p)
    out, running = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        out[i] = running
    return out


def cr1(rows: pd.DataFrame) -> tuple[float, float, float]:
    """Mean payoff of ``rows`` with its CR1 t-interval over their series, written out."""
    sums = rows.groupby("series")["payoff"].agg(["sum", "count"])
    m = sums["sum"].sum() / sums["count"].sum()
    c = len(sums)
    var = c / (c - 1) * ((sums["sum"] - m * sums["count"]) ** 2).sum() / sums["count"].sum() ** 2
    half = stats.t.ppf(0.975, c - 1) * math.sqrt(var) if var > 0 else math.nan
    return m, m - half, m + half


def runoff_by_hand(hand: pd.DataFrame) -> tuple[list[str], dict[str, pd.DataFrame]]:
    """The bankroll instant runoff of the rows of ``by_hand``: the order best first, and per bot
    its rows of the round it went out in (the winner: the last round)."""
    remaining, out, rounds = set(hand["label"]), [], {}
    bots_of = hand.groupby("game")["label"].agg(set)
    while len(remaining) > 1:
        kept = bots_of[bots_of.map(lambda bots: bots <= remaining)].index
        rows = hand[hand["game"].isin(kept)]
        means = rows.groupby("label")["payoff"].mean().round(9)
        loser = max(means.index[means == means.min()])  # equal: the later label goes out
        rounds.update({b: rows[rows["label"] == b] for b in remaining})
        out.append(loser)
        remaining.discard(loser)
    return [*remaining, *reversed(out)], rounds


def test_the_field_table_ranks_by_the_runoff_with_the_bootstraps_cfs(duel):
    data = load(duel)
    tables = tables_for(data)
    field, means = tables["payoff_ratings"].set_index("label"), tables["payoffs"].set_index("label")
    order, rounds = runoff_by_hand(by_hand(duel))
    assert list(field.index) == order == ["b", "c", "a"] and field["rank"].tolist() == [1, 2, 3]
    assert list(means.index) == ["c", "b", "a"]  # by mean payoff c is first: b is even with c, beats a less
    for label in order:
        m, low, high = cr1(rounds[label])
        row = field.loc[label]
        assert row["runoff"] == pytest.approx(m) and row["runoff_mbb"] == pytest.approx(1000 * m)
        if math.isnan(low):  # b and c play alike: every series of theirs even, no interval
            assert pd.isna(row["runoff_low"]) and m == 0
        else:
            assert (row["runoff_low"], row["runoff_high"]) == pytest.approx((low, high))
        assert row["payoff"] == pytest.approx(means.loc[label, "payoff"])
        assert (row["mbb_low"], row["games"]) == pytest.approx((means.loc[label, "mbb_low"], means.loc[label, "games"]))
    # b is even with c (the tie rule puts b first): a replicate tied counts half, so about a coin flip
    assert 0.25 <= field["cfs"].iloc[0] <= 0.75 and math.isnan(field["cfs"].iloc[-1])
    los = tables["payoff_los"].set_index("label")
    assert los.loc["b", "c"] == 0.5  # even in every series: equal in every replicate
    assert los.loc["c", "a"] + los.loc["a", "c"] == pytest.approx(1.0) and los.loc["c", "a"] > 0.9
    assert tables_for(load(duel))["payoff_ratings"].equals(tables["payoff_ratings"])  # seeded


#: Picks: the chips the row pick wins from the column pick per unit of stake (zero-sum). The
#: exploiter takes 6 a game from the weak pick, the robust pick 1, but robust beats exploiter.
GAINS = {("exploit", "weak"): 6.0, ("robust", "weak"): 1.0, ("robust", "exploit"): 1.0}
#: the stake, drawn by chance before the picks
STAKES = (("x2", 0.5), ("x3", 0.5))
PICKS = ("exploit", "robust", "weak")


@dataclass(frozen=True)
class PicksState(ChipsState):
    CHANCES = STAKES
    ACTIONS = (PICKS, PICKS)

    def acting(self) -> int | None:
        return len(self.actions) if len(self.actions) < 2 else None

    def won(self) -> tuple[float, str]:
        a, b = self.actions
        stake = int(self.draws[0][1:])
        return stake * (GAINS.get((a, b)) or -GAINS.get((b, a), 0.0)), "picked"


class Picks(ChipsGame):
    """Both seats pick a strategy; a payoff matrix (``GAINS``) times a stake pays the chips."""

    name = "picks"
    TERMINATIONS = {"picked": "both picked"}
    payoff = Payoff("chips", forfeit=18.0)
    state_class = PicksState


class Always:
    """Picks ``pick`` at every move."""

    def __init__(self, pick: str):
        self.pick = pick

    def choose(self, state, limits):
        return self.pick


@pytest.fixture(scope="module")
def picks(tmp_path_factory):
    """A stored round-robin of Picks: 8 duplicate series of 2 games per pairing."""
    folder = tmp_path_factory.mktemp("picks")
    game, settings = Picks(), SeriesSettings(games=16, seed=5)
    labels = {"e": "exploit", "r": "robust", "w": "weak"}
    tasks = [t for s in range(8) for pair in (("e", "r"), ("e", "w"), ("r", "w"))
             for t in series_games(game, pair, s, 0, settings)]
    with pytest.MonkeyPatch.context() as patch:
        register_game(patch, "picks", "tests.reports.test_payoffs:Picks")
        with Store.open(folder, "picks") as store:
            store.begin("picks", "picks", {}, 2, 5, {"games": 16}, [(k, "random") for k in labels], len(tasks))
            for game_id, task in enumerate(tasks, 1):
                record = play_game(GameSettings(game, task.seed, labels=task.seats, seeds=task.seeds,
                                                limits=Limits()), [Always(labels[b]) for b in task.seats])
                store.add_game(game_id, task.series, record)
        yield store.path


def test_the_runoff_ranks_the_robust_bot_above_the_exploiter_that_the_mean_payoff_puts_first(picks):
    hand = by_hand(picks)
    tables = tables_for(load(picks))
    assert tables["payoffs"]["label"].tolist() == ["e", "r", "w"]  # total bankroll: the exploiter first
    field = tables["payoff_ratings"].set_index("label")
    assert list(field.index) == ["r", "e", "w"] == runoff_by_hand(hand)[0]
    final = hand[[s[0] == ("e", "r") for s in hand["series"]]]
    for label, rows in (("r", final[final["label"] == "r"]), ("e", final[final["label"] == "e"]),
                        ("w", hand[hand["label"] == "w"])):
        m, low, high = cr1(rows)
        assert (field.loc[label, "runoff"], field.loc[label, "runoff_low"], field.loc[label, "runoff_high"]) == \
            pytest.approx((m, low, high))
        assert field.loc[label, "payoff"] == pytest.approx(hand[hand["label"] == label]["payoff"].mean())
    assert field.loc["r", "runoff"] == -field.loc["e", "runoff"] > 0 and "mbb" not in field  # no big blind
    assert field["cfs"].tolist()[:2] == [1.0, 1.0]  # w lowest, r above e: in every replicate
    los = tables["payoff_los"].set_index("label")
    assert (los.loc["r", "e"], los.loc["e", "w"], los.loc["r", "w"], los.loc["e", "r"]) == (1.0, 1.0, 1.0, 0.0)


def test_the_report_says_how_it_ranks_in_every_output(duel, tmp_path):
    data = load(duel)
    out = json.loads(report_json(data))
    assert out["tournament"]["ranked_by"] == "payoff"
    assert out["tables"]["payoffs"][0].keys() >= {"label", "payoff", "payoff_low", "payoff_high", "mbb"}
    text = markdown(data, tables_for(data))
    assert "dice-duel ranks by payoff (chips; big blind: the ante, 1 chip; a fault pays 2 chips)" in text
    assert "## Payoffs: mean per game (poker: mbb per hand), 95% intervals over series" in text
    assert "mark: where a bot's opponents differ widely in strength its interval errs wide" in text
    written = {p.name for p in write_files(data, tmp_path)}
    assert {"duel.payoffs.csv", "duel.payoff_pairs.csv", "duel.payoff_ratings.csv"} <= written
    places = load(make_store(tmp_path, "interaction"))
    assert json.loads(report_json(places))["tournament"]["ranked_by"] == "places"
    assert "ranks by payoff" not in markdown(places, tables_for(places))
    assert not {"payoffs", "payoff_ratings", "payoff_pairs"} & set(tables_for(places))


def test_arena_report_section_payoffs(duel, capsys):
    code, out, err = run_cli(["report", str(duel), "--section", "payoffs"], capsys)
    assert code == 0, err
    assert "ranks by payoff" in out and "Payoffs by seat" in out
    assert "mbb/hand (95% CI)" in out and "Field table" not in out
    code, out, err = run_cli(["report", str(duel), "--section", "payoffs", "--json"], capsys)
    assert code == 0 and set(json.loads(out)["tables"]) == {"payoffs", "payoff_seats"}


def test_the_columns_of_the_payoff_tables_are_documented(duel):
    from tests.docs.test_report_columns import _undocumented, documented

    tables = tables_for(load(duel))
    assert _undocumented(tables, documented()) == []


def test_a_game_this_installation_cannot_make_is_ranked_by_places_with_a_note(duel, monkeypatch):
    monkeypatch.delitem(arena.games._REGISTERED, "dice-duel")  # a store from elsewhere: its game unknown here
    data = load(duel)
    assert payoffs.ranked_by(data) == "places"
    assert payoffs.ranking_line(data).startswith("note: ranked by places: dice-duel cannot be made here")
    assert "payoff_ratings" not in tables_for(data) and "ratings" in tables_for(data)


def test_the_html_report_of_a_payoff_game_leads_with_the_payoff_field_table(duel, tmp_path):
    import re

    from arena.reports.html import render_html
    from arena.reports.render import TITLES

    def headings(page: str) -> list[str]:
        return [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<h2[^>]*>(.*?)</h2>", page)]

    page = render_html(duel, data=load(duel))
    assert headings(page)[:2] == [TITLES["payoff_ratings"], "Plots"], headings(page)[:4]
    assert headings(page).count(TITLES["payoff_ratings"]) == 1 and TITLES["leaderboard"] in headings(page)
    assert re.search(r'id="ranked-by">dice-duel ranks by payoff \(', page)
    places = make_store(tmp_path, "interaction")
    page = render_html(places, data=load(places))
    assert headings(page)[:2] == [TITLES["leaderboard"], "Plots"] and 'id="ranked-by"' not in page
