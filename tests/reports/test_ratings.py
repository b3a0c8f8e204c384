"""TrueSkill ratings against the trueskill package's documented updates."""

import pandas as pd
import pytest

from arena.errors import ResultsError
from arena.results.ratings import make_env, rate_games
from tests.reports.frames import games_frame


def by_label(frame: pd.DataFrame) -> dict:
    return {row.label: row for row in frame.itertuples(index=False)}


def test_one_win_from_defaults_matches_package_docs():
    # trueskill docs ("Learning"): 1 vs 1 from defaults, r1 wins ->
    # r1 = Rating(mu=29.396, sigma=7.171), r2 = Rating(mu=20.604, sigma=7.171).
    r = by_label(rate_games(games_frame([(["a", "b"], [1, 2])])))
    assert r["a"].mu == pytest.approx(29.396, abs=1e-3)
    assert r["a"].sigma == pytest.approx(7.171, abs=1e-3)
    assert r["b"].mu == pytest.approx(20.604, abs=1e-3)
    assert r["b"].sigma == pytest.approx(7.171, abs=1e-3)
    assert r["a"].conservative == pytest.approx(r["a"].mu - 3 * r["a"].sigma)
    assert r["a"].games == r["b"].games == 1


def test_draw_from_defaults_matches_package_docs():
    # trueskill docs: a draw from defaults (draw_probability 0.10) -> both 25.000 / 6.458.
    r = by_label(rate_games(games_frame([(["a", "b"], [1, 1])])))
    for label in "ab":
        assert r[label].mu == pytest.approx(25.000, abs=1e-3)
        assert r[label].sigma == pytest.approx(6.458, abs=1e-3)


def test_seat_order_does_not_matter_for_a_win():
    one = by_label(rate_games(games_frame([(["a", "b"], [1, 2])])))
    other = by_label(rate_games(games_frame([(["b", "a"], [2, 1])])))
    assert one["a"].mu == pytest.approx(other["a"].mu)
    assert one["b"].sigma == pytest.approx(other["b"].sigma)


def test_n_player_ties():
    # Three players, a and b share first place (competition ranks 1, 1, 3).
    r = by_label(rate_games(games_frame([(["a", "b", "c"], [1, 1, 3])])))
    assert r["a"].mu == pytest.approx(r["b"].mu, abs=0.01)  # the package's draw factor is
    assert r["a"].mu > 25 > r["c"].mu                       # symmetric to ~1e-2
    # Same update as trueskill.rate with 0-based ranks [0, 0, 2] in an explicit environment.
    env = make_env()
    expected = env.rate([(env.create_rating(),)] * 3, ranks=[0, 0, 2])
    assert r["c"].mu == pytest.approx(expected[2][0].mu)
    assert r["a"].sigma == pytest.approx(expected[0][0].sigma)


def test_game_id_order_makes_ratings_reproducible():
    frame = games_frame([(["a", "b"], [1, 2]), (["b", "c"], [1, 1]), (["c", "a"], [1, 2]),
                         (["a", "b", "c"], [2, 1, 3])])
    first = rate_games(frame)
    shuffled = rate_games(frame.sample(frac=1.0, random_state=7))
    pd.testing.assert_frame_equal(first, shuffled)
    pd.testing.assert_frame_equal(first, rate_games(frame.copy()))
    # Processing order matters to TrueSkill, so the sorting is doing real work:
    reversed_ids = frame.assign(game_id=frame["game_id"].to_numpy()[::-1])
    assert not first.equals(rate_games(reversed_ids))


def test_listed_bots_without_games_keep_the_prior():
    r = by_label(rate_games(games_frame([(["a", "b"], [1, 2])]),
                            labels=["a", "b", "idle"]))
    assert r["idle"].games == 0
    assert r["idle"].mu == pytest.approx(25.0)


def test_mismatched_ranks_are_refused():
    frame = games_frame([(["a", "b"], [1, 2])])
    frame.at[0, "ranks"] = [1]
    with pytest.raises(ResultsError, match="game 1"):
        rate_games(frame)


def test_rating_history_ends_at_the_final_ratings():
    from arena.results.ratings import rating_history

    frame = games_frame([(["a", "b"], [1, 2]), (["b", "c"], [1, 1]), (["c", "a"], [1, 2])])
    history = rating_history(frame)
    assert history["game_id"].tolist() == [1, 1, 2, 2, 3, 3]
    assert history.iloc[0]["mu"] == pytest.approx(29.396, abs=1e-3)
    last = history.groupby("label").last()
    final = rate_games(frame).set_index("label")
    assert last["mu"].to_dict() == pytest.approx(final["mu"].to_dict())
    assert last["games"].to_dict() == final["games"].to_dict()
