"""What the schedules played in rounds share (``arena.tournament.rounds``): a round's tasks are
handed out at most ``limit`` at a time, each once, and never when its game is stored; the
stored games of the rounds come back in round order; seats and points as ``Duels`` reads them."""

from __future__ import annotations

from arena.results.store import StoredGame
from arena.tournament.rounds import release, seats_and_points, stored_games
from arena.tournament.series import GameTask


def task(series: int, seats: tuple[str, str]) -> GameTask:
    return GameTask(0, series, ("a", "b"), seats, 1, ())


def test_release_hands_out_each_task_once_and_none_stored():
    tasks = [task(0, ("a", "b")), task(0, ("b", "a")), task(1, ("a", "b")), task(1, ("b", "a"))]
    stored = {(0, ("b", "a")): StoredGame(7, 0, ("b", "a"), (1, 2))}  # a resumed run stored it
    released: set = set()
    first = release(tasks, stored, released, 2)
    assert first == [tasks[0], tasks[2]]
    assert release(tasks, stored, released, 5) == [tasks[3]]
    assert release(tasks, stored, released, 5) == []
    assert release(tasks, stored, set(), 0) == []


def test_stored_games_follow_the_rounds_and_points_are_seat_zeros():
    rounds = [[task(0, ("a", "b")), task(0, ("b", "a"))], [task(1, ("a", "b"))]]
    stored = {(1, ("a", "b")): StoredGame(3, 1, ("a", "b"), (1, 1)),
              (0, ("b", "a")): StoredGame(2, 0, ("b", "a"), (2, 1)),
              (0, ("a", "b")): StoredGame(1, 0, ("a", "b"), (1, 2))}
    games = stored_games(rounds, stored)
    assert [g.game_id for g in games] == [1, 2, 3]
    seat0, seat1, points = seats_and_points(("a", "b"), games)
    assert seat0.tolist() == [0, 1, 0] and seat1.tolist() == [1, 0, 1]
    assert points.tolist() == [1.0, 0.0, 0.5]  # a won, a won from seat 1, a draw
    assert len(stored_games(rounds, {})) == 0
