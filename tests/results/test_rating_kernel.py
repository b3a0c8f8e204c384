"""The compiled TrueSkill loop (``arena.results.rating_kernel``) rates as the Python loop does, to
the bit, and the rating history stored in blocks (``arena.results.rating_history``) reads back
as written."""

from __future__ import annotations

import random
import sqlite3

import numpy as np
import pytest

from arena.results import rating_kernel, rating_state
from arena.results.rating_history import History, read_blocks, thinned, write_history
from arena.results.ratings import make_env


def _games(n: int, seed: int = 3) -> tuple[list, list, list]:
    """``n`` games among four bots (two of them met late), shared seat and rank lists as a
    loaded games frame has them: wins, losses and draws."""
    rng = random.Random(seed)
    pairs = [["a", "b"], ["b", "a"], ["a", "c"], ["c", "b"], ["d", "a"]]
    outcomes = [[1, 2], [2, 1], [1, 1]]
    seats = [pairs[rng.randrange(2 if i < n // 3 else 5)] for i in range(n)]
    ranks = [outcomes[rng.randrange(3)] for _ in range(n)]
    return list(range(1, n + 1)), seats, ranks


@pytest.mark.parametrize("tau", [0.0, 25 / 300])
def test_the_compiled_loop_rates_as_the_python_loop(monkeypatch, tau):
    ids, seats, ranks = _games(3000)
    env = make_env(tau=tau)
    python = rating_state.Rater(env, ["b"])
    slow = python.rate_many(ids, seats, ranks)
    monkeypatch.setattr(rating_kernel, "LOOP_GAMES", 1)
    calls = []
    real = rating_kernel.rate_pairs
    monkeypatch.setattr(rating_kernel, "rate_pairs", lambda *a: calls.append(1) or real(*a))
    compiled = rating_state.Rater(env, ["b"])
    fast = compiled.rate_many(ids, seats, ranks)
    assert calls == [1]
    assert list(compiled.ratings.items()) == list(python.ratings.items())  # same bits, same order met
    assert compiled.counts == python.counts
    for field in ("game_id", "seat", "bot", "mu", "sigma", "games"):
        assert getattr(fast, field).tolist() == getattr(slow, field).tolist(), field


def test_games_of_another_kind_are_rated_in_python(monkeypatch):
    monkeypatch.setattr(rating_kernel, "LOOP_GAMES", 1)
    monkeypatch.setattr(rating_kernel, "rate_pairs", lambda *a: pytest.fail("compiled loop for a 3-seat game"))
    rater = rating_state.Rater(make_env())
    history = rater.rate_many([1, 2], [["a", "b"], ["a", "b", "c"]], [[1, 2], [1, 2, 3]])
    assert history.games.tolist() == [1, 1, 2, 2, 1]


def test_history_blocks_read_back_whole_and_thinned():
    n = 2000
    history = History(np.repeat(np.arange(1, n + 1), 2), np.tile([0, 1], n), np.tile([1, 0], n),
                      np.linspace(20, 30, 2 * n), np.linspace(8, 1, 2 * n), np.repeat(np.arange(1, n + 1), 2))
    conn = sqlite3.connect(":memory:")
    conn.execute(rating_state.HISTORY_SCHEMA)
    write_history(conn, history, 301)  # an odd block: games are never split between rows
    assert conn.execute("SELECT count(*) FROM rating_history").fetchone()[0] == -(-2 * n // 300)
    for first, last, rows in conn.execute("SELECT first, last, rows FROM rating_history"):
        assert rows == 2 * (last - first + 1)
    back = read_blocks(conn, n)
    for field in ("game_id", "seat", "bot", "mu", "sigma", "games"):
        assert getattr(back, field).tolist() == getattr(history, field).tolist(), field
    assert read_blocks(conn, 10).game_id.tolist() == history.game_id[:20].tolist()
    thin = thinned(back, {0: (500, n)})
    assert thin.part(thin.bot == 0).games.tolist() == [1, 500, 1000, 1500, 2000]
    assert len(thin.part(thin.bot == 1)) == n  # a bot without a step keeps every row
