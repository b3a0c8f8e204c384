"""A live file that is no regular file (a named pipe at ``results/NAME.live.json``) is read as
no live file: the games in progress are none, and reading them never blocks the server."""

from __future__ import annotations

import os
import threading

import pytest

pytest.importorskip("starlette", reason="arena serve needs the serve extra: pip install -e '.[serve]'")


def test_a_named_pipe_live_file_is_no_games_and_never_blocks(tmp_path):
    from arena.serve.live import read_playing

    fifo = tmp_path / "t.live.json"
    os.mkfifo(fifo)
    got: list = []
    reader = threading.Thread(target=lambda: got.append(read_playing(tmp_path / "t.sqlite")), daemon=True)
    reader.start()
    reader.join(15)  # a regular or missing file is read at once
    if reader.is_alive():  # blocked opening the pipe: a writer lets it go on before the test fails
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(30)
        pytest.fail("reading the games in progress blocked on a named pipe")
    assert got == [[]]
