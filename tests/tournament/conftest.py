import pytest

import arena.games


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch):
    """Register the toy Nim game (forked workers inherit the patched registry)."""
    monkeypatch.setitem(arena.games._BUILTIN, "nim", "tests.toy:Nim")
