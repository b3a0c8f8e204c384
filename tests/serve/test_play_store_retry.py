"""A page's finished game waits for the run lock another process holds and is then stored,
even when that process releases the lock between a refused try and the next (the window that
lost games: the lock free when the refusal was looked at)."""

from __future__ import annotations

import fcntl

import pytest

import arena.tournament.played
from arena.errors import ResultsError
from arena.results.store import load_game
from tests.timing import until

pytest.importorskip("starlette", reason="arena serve needs the serve extra: pip install -e '.[serve]'")


def test_a_game_is_stored_when_the_lock_is_released_right_after_a_refusal(tmp_path, monkeypatch):
    from arena.serve.play import Session

    session = Session(tmp_path, "interaction", "random", 0)
    until(lambda: session.source.asking)  # the person is on move
    lock = open(tmp_path / "play-interaction.lock", "a")  # noqa: SIM115 - closed by the wrapper below
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as arena play holds it while its game is played
    real, refused = arena.tournament.played.open_played, []

    def open_played(*args, **kwargs):
        try:
            return real(*args, **kwargs)
        except ResultsError as exc:
            refused.append(str(exc))
            if not lock.closed:
                lock.close()  # the other process is done: the lock is free before the next look
            raise

    monkeypatch.setattr(arena.tournament.played, "open_played", open_played)
    try:
        assert session.source.answer("quit")
        until(lambda: session.ended is not None)
    finally:
        lock.close()
    assert refused and "already being run" in refused[0]
    assert session.error is None and session.stored == 1 and session.waiting is None
    assert load_game(tmp_path / "play-interaction.sqlite", 1)["termination"] == "resigned"


def test_the_lock_held_by_another_process_is_told_in_the_pages_words(tmp_path):
    from arena.serve.play import Session

    lock = open(tmp_path / "play-interaction.lock", "a")  # noqa: SIM115 - closed below
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        with pytest.raises(ResultsError) as refused:  # a game is refused before any move
            Session(tmp_path, "interaction", "random", 0)
        assert "play-interaction" in str(refused.value) and "--" not in str(refused.value), refused.value
    finally:
        lock.close()
    session = Session(tmp_path, "interaction", "random", 0)
    until(lambda: session.source.asking)
    lock = open(tmp_path / "play-interaction.lock", "a")  # noqa: SIM115 - closed below
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert session.source.answer("quit")
        waiting = until(lambda: session.waiting)
        assert "another process" in waiting and "--" not in waiting, waiting
    finally:
        lock.close()
    until(lambda: session.ended is not None)
    assert session.error is None and session.stored == 1
