import pytest

from tests.registered import register_game


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch):
    """Register the toy Nim game (forked workers inherit the patched registry)."""
    register_game(monkeypatch, "nim", "tests.toy:Nim")
