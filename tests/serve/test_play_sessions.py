"""The games of ``/play`` held in the server's memory (``arena.serve.play.Games``): a finished
game is dropped some time after it ended, or when too many finished ones are kept (its game
stays in the store); at most so many games are in progress at once. Played in this process,
without a server: the person's seat is answered through the session's move source."""

from __future__ import annotations

import time

import pytest

from tests.timing import until

pytest.importorskip("starlette", reason="arena serve needs the serve extra: pip install -e '.[serve]'")

from starlette.exceptions import HTTPException  # noqa: E402

from arena.serve.play import Games  # noqa: E402


def _finish(games: Games, sid: str) -> None:
    """Resign the person's seat of game ``sid`` and wait until the game is stored."""
    session = games.sessions[sid]
    until(lambda: session.source.answer("quit"), what="the person was never asked a move")
    until(lambda: session.ended is not None, what="the game did not end")
    assert session.error is None and session.stored is not None, session.state()


def _gone(games: Games, sid: str) -> bool:
    try:
        games.get(sid)
    except HTTPException as exc:
        assert exc.status_code == 404
        return True
    return False


def test_a_finished_game_is_dropped_some_time_after_it_ended(tmp_path):
    games = Games(tmp_path, keep=600.0)
    done, playing = games.start("interaction", "random", 0), games.start("interaction", "random", 0)
    _finish(games, done)
    assert games.get(done).state()["over"]  # its page still shows the result
    games.sessions[done].ended -= 601.0  # as if it ended 601 s ago
    assert _gone(games, done) and done not in games.sessions
    assert not _gone(games, playing)  # a game in progress is never dropped
    assert games.sessions[playing].ended is None
    _finish(games, playing)


def test_at_most_so_many_finished_games_are_kept(tmp_path):
    games = Games(tmp_path, most=2)
    sids = [games.start("interaction", "random", 0) for _ in range(3)]
    for sid in sids:
        _finish(games, sid)
        time.sleep(0.01)  # each ends after the one before
    assert _gone(games, sids[0])  # the oldest finished game
    assert not _gone(games, sids[1]) and not _gone(games, sids[2])
    assert len(games.sessions) == 2


def test_at_most_so_many_games_are_in_progress(tmp_path):
    games = Games(tmp_path, playing=1)
    first = games.start("interaction", "random", 0)
    with pytest.raises(HTTPException) as refused:
        games.start("interaction", "random", 1)
    assert refused.value.status_code == 503 and "1 games are in progress" in str(refused.value.detail)
    _finish(games, first)
    second = games.start("interaction", "random", 1)  # the finished game no longer counts
    _finish(games, second)
