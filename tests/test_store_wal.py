"""The store's ``-wal`` file while another process holds a read snapshot: it grows (no
checkpoint can pass the reader), and once the reader lets go the run's next checkpoint cuts it
back under ``arena.results.writing.WAL_LIMIT``, the run still going (before: it stayed at its peak, 1.65
GB for 60,000 games, until the run ended)."""

from __future__ import annotations

import os
import sqlite3

import pytest

import arena.games
from arena.results import writing
from arena.referee import GameSettings, play_game
from arena.results.store import Store
from bots import registry
from bots.base import Limits

#: a small limit, so a few hundred kB of games stand for the gigabyte of a long run
LIMIT = 256 * 2**10


#: SQLite checkpoints on its own once the WAL holds 1000 pages (4 MiB)
AUTOCHECKPOINT = 1000 * 4096


@pytest.mark.parametrize("peak, after, every", [
    (4 * LIMIT, 16, 16),  # under SQLite's own checkpoint: the store's (``shrink_wal``) cuts it
    (AUTOCHECKPOINT + LIMIT, 2, 10**9),  # SQLite's own, then the limit cuts it as the WAL restarts
])
def test_the_wal_comes_back_under_its_limit_once_a_reader_lets_go(tmp_path, monkeypatch, peak, after, every):
    monkeypatch.setattr(writing, "WAL_LIMIT", LIMIT, raising=False)
    monkeypatch.setattr("arena.results.store.CHECKPOINT_EVERY", every, raising=False)
    game = arena.games.make("interaction")
    record = play_game(GameSettings(game, 1, labels=["a", "b"], limits=Limits()),
                       [registry.make("random"), registry.make("random")])
    with Store.open(tmp_path, "t") as store:
        store.begin("t", "interaction", {}, 2, 1, {}, [("a", "random"), ("b", "random")], 10**6)
        wal = f"{store.path}-wal"
        reader = sqlite3.connect(f"{store.path.resolve().as_uri()}?mode=ro", uri=True)
        reader.isolation_level = None
        reader.execute("BEGIN")
        assert reader.execute("SELECT count(*) FROM games").fetchone()[0] == 0  # the snapshot is held
        game_id, sizes = 0, []
        while os.path.getsize(wal) <= peak:
            game_id += 1
            store.add_game(game_id, game_id - 1, record)
            sizes.append(os.path.getsize(wal))
        assert sizes == sorted(sizes), "the WAL shrank while the reader held its snapshot"
        assert reader.execute("SELECT count(*) FROM games").fetchone()[0] == 0
        reader.execute("COMMIT")  # the reader lets go; the run goes on
        reader.close()
        for _ in range(after):
            game_id += 1
            store.add_game(game_id, game_id - 1, record)
        assert os.path.getsize(wal) <= LIMIT, (os.path.getsize(wal), max(sizes))
        assert store.conn.execute("PRAGMA journal_size_limit").fetchone()[0] == LIMIT
        assert store.conn.execute("SELECT count(*) FROM games").fetchone()[0] == game_id
