"""A run whose language model's server is unreachable from the start stops in one line before
playing (issue 44): exit code 2, no traceback, no game stored; the same for an unset key variable.
A server that answers lets the same command play."""

from __future__ import annotations

import os
import subprocess
import sys
import pytest
from pathlib import Path

from tests.llm.server import ChatServer, legal_responder, refused_url

ROOT = Path(__file__).resolve().parents[2]
KEY = "ARENA_TEST_UNREACHABLE_KEY"


def _run(folder: Path, url: str, env_key: bool = True) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(KEY, None)
    if env_key:
        env[KEY] = "sk-unreachable-test"
    spec = f"gpt=llm:model=test,base_url={url},key_env={KEY},provider_retries=0"
    return subprocess.run([sys.executable, "-m", "arena", "run", "--game", "interaction", "--bot", spec,
                           "--bot", "random", "--games", "2", "--workers", "1", "--results", str(folder),
                           "--name", "t", "-q"], env=env, capture_output=True, text=True, timeout=300)


def test_a_refused_server_stops_the_run_before_any_game(tmp_path):
    out = _run(tmp_path / "r", refused_url())
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    errors = [line for line in out.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "127.0.0.1" in errors[0], out.stderr
    assert not (tmp_path / "r" / "t.sqlite").exists()


@pytest.mark.slow  # a server and a run of its own
def test_an_unset_key_variable_stops_the_run_and_a_live_server_plays(tmp_path):
    with ChatServer(responder=legal_responder) as server:
        out = _run(tmp_path / "r", server.url, env_key=False)
        assert out.returncode == 2 and KEY in out.stderr and "Traceback" not in out.stderr, out.stderr
        assert server.count == 0
        played = _run(tmp_path / "r", server.url)
        assert played.returncode == 0, played.stderr
        assert server.count > 0
