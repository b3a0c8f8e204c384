"""The bots' tests keep the arena's disk caches (``bots.spiel_tree.cache_dir``) in a folder of
their own, never the user's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path_factory.mktemp("arena-cache")))
    from bots.openspiel_cfr import _TABLES as tables
    saved = dict(tables)
    tables.clear()
    yield
    tables.clear()
    tables.update(saved)
