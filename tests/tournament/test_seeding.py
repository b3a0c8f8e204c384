"""Self-play games are distinct: a bot's seed derives from the game's identity (series seed, the
game's index in its series, the bot's label), never from the seat alone (``docs/statistics.md``
"Games must be distinct")."""

import json
import sqlite3

import pytest

from arena.referee import bot_seeds, derive_seed, play_game, GameSettings
from arena.tournament import build, run_tournament
from arena.tournament.runner import plan
from arena.tournament.series import seat_orders
from arena.tournament.worker import bot_factories
from arena.results.packed import register

#: the stochastic built-in bots each game can seat (Ricochet's solvers are deterministic;
#: greedy's randomness is its tie-breaks)
STOCHASTIC = [("interaction", "random"), ("interaction", "greedy"), ("interaction", "mcts:playouts=10"),
              ("sandpile", "random"), ("sandpile", "greedy"), ("sandpile", "mcts:playouts=5"),
              ("ricochet", "random")]


def copies(game, kind, series, seeding=None, **extra):
    """Play ``series`` series of copies of ``kind`` in-process: {series: [(moves, answers)...]}.

    ``answers``: each seat's answers at simultaneous rounds (Ricochet's round records only
    show who solved, and two random walks rarely solve)."""
    cfg = build(dict(game=game, bots=[kind, kind], fill=kind, games=1, opening_plies=0, **extra))
    k = len(seat_orders(range(len(plan(cfg).tasks[0].seats))))
    p = plan(build(dict(game=game, bots=[kind, kind], fill=kind, games=series * k, opening_plies=0, **extra)), seeding)
    make = bot_factories(p.specs)
    out = {}
    for t in p.tasks:
        settings = GameSettings(p.game, t.seed, labels=t.seats, opening=t.opening, seeds=t.seeds, start=t.start)
        rec = play_game(settings, [make[label]() for label in t.seats])
        answers = tuple((m.seat, m.move) for m in rec.move_stats if m.status is not None)
        out.setdefault(t.series, []).append((rec.moves, answers))
    return out


@pytest.mark.parametrize("game,kind", STOCHASTIC)
def test_copies_of_a_stochastic_bot_play_distinct_games_in_a_series(game, kind):
    for seeding, distinct in ((1, 1), (2, None)):
        for games in copies(game, kind, 2, seeding).values():
            played = games if game == "ricochet" else [moves for moves, _ in games]
            if distinct == 1:  # the old scheme: one game replayed with the seats rotated
                assert len(set(played)) == 1
            else:
                assert len(set(played)) == len(played)


def test_bot_seeds_are_computed_from_what_is_stored(tmp_path):
    """Series seed (stored), index = the stored seat order's place in the rotation of the
    pairing in sorted order (seeding scheme 3), name (the stored label; a repeat's ``X#n``
    named ``X-n``, as repeats were labelled before): every bot's seed follows by hand, and the
    series seed from the sorted names and the series."""
    import re

    cfg = build(dict(game="nim", params={"pile": "9"}, bots=["random", "random", "r=random"], games=4,
                     workers=1, results=str(tmp_path), opening_plies=1))
    p = plan(cfg)
    conn = sqlite3.connect(run_tournament(cfg).path)
    stored = dict(conn.execute("SELECT game_id, seats FROM games").fetchall())
    assert "random#2" in {label for seats in stored.values() for label in json.loads(seats)}
    for task in p.tasks:
        seats = [re.sub(r"#([0-9]+)$", r"-\1", label) for label in json.loads(stored[task.game_id])]
        pairing = sorted(set(seats))
        index = seat_orders(pairing).index(tuple(seats))
        assert task.index == index
        assert task.seed == derive_seed(1, "series", *pairing, task.series)
        assert task.seeds == tuple(derive_seed(task.seed, "bot", index, name) for name in seats)
        assert task.seeds == bot_seeds(task.seed, index, seats)
    assert json.loads(conn.execute("SELECT settings FROM tournament").fetchone()[0])["seeding"] == 3


def test_old_scheme_by_seat_and_unknown_scheme():
    assert bot_seeds(5, 1, ["a", "b"], seeding=1) == (derive_seed(5, "bot", 0), derive_seed(5, "bot", 1))
    assert bot_seeds(5, 0, ["a", "b"]) != bot_seeds(5, 1, ["b", "a"])[::-1]
    with pytest.raises(ValueError, match="accepted: 1, 2, 3"):
        bot_seeds(5, 0, ["a"], seeding=4)


def distinct_games(path):
    conn = sqlite3.connect(path)
    register(conn)  # the packed column's SQL functions
    rows = [m for (m,) in conn.execute("SELECT arena_moves(packed) FROM games")]
    conn.close()
    return len(rows), len(set(rows))


def test_200_random_self_play_games_are_200_distinct_games(tmp_path):
    s = run_tournament(build(dict(game="interaction", bots=["random", "random"], games=200, opening_plies=0,
                                  workers=2, results=str(tmp_path))))
    assert distinct_games(s.path) == (200, 200)


@pytest.mark.slow
def test_200_mcts_self_play_games_are_200_distinct_games(tmp_path):
    s = run_tournament(build(dict(game="interaction", bots=["mcts:playouts=20", "mcts:playouts=20"], games=200,
                                  workers=2, results=str(tmp_path))))
    assert distinct_games(s.path) == (200, 200)


def test_sandpile_four_copies_four_times_as_many_distinct_games():
    old = copies("sandpile", "random", 6, seeding=1)
    new = copies("sandpile", "random", 6, seeding=2)
    count = lambda series: len({moves for games in series.values() for moves, _ in games})  # noqa: E731
    assert sum(len(g) for g in new.values()) == 24
    assert count(old) == 6 and count(new) == 24
