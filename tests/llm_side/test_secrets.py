"""No API key in an engine's environment (issue 44): the variables named by ``key_env=`` in the
field are left out of every engine process the run starts (``arena.engine.secrets``)."""

from __future__ import annotations

import os

from arena.engine.secrets import SECRETS_ENV, declared, engine_env, secret_names
from arena.tournament import build, run_tournament
from bots.registry import parse_spec

NET = "tests/llm_side/net_bots.py"
KEY, VALUE = "ARENA_TEST_SECRET_KEY", "sk-test-4f1c9e2b7d"


def test_the_declared_names_leave_an_engine_environment(monkeypatch):
    monkeypatch.setenv(KEY, VALUE)
    monkeypatch.delenv(SECRETS_ENV, raising=False)
    assert engine_env(["engine"]) is None  # nothing declared: inherited whole
    names = secret_names([parse_spec(f"m={NET}#Logged:key_env={KEY}"), "llm:model=x,key_env=OTHER_KEY", "random"])
    assert names == {KEY, "OTHER_KEY"}
    with declared(names):
        env = engine_env(["/usr/bin/engine", "--flag"])
        assert KEY not in env and env["PATH"] == os.environ["PATH"]
        assert engine_env(["arena", "engine", f"m={NET}#Logged:key_env={KEY}"])[KEY] == VALUE  # its own key
    assert SECRETS_ENV not in os.environ


def test_an_isolated_engine_never_sees_the_key(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY, VALUE)
    summary = run_tournament(build(dict(
        game="interaction", bots=[f"m={NET}#Logged:key_env={KEY}", f"e={NET}#ReadsEnviron"], games=2,
        workers=1, results=str(tmp_path / "R"), name="t", isolation="process")))
    assert summary.done == 2
    told = [line for line in (tmp_path / "R" / "t.log").read_text().splitlines() if "ENVIRON" in line]
    assert told and " PATH " in told[0] and KEY not in told[0]  # the engine read its environment: no key
    for path in (tmp_path / "R").rglob("*"):  # nor is the key in any file the run wrote
        if path.is_file():
            assert VALUE.encode() not in path.read_bytes(), path
