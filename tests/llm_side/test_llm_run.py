"""``arena run`` with an ``llm:`` bot against the tests' chat-completions server (issue 44): a
run killed with SIGKILL mid-game and resumed plays the same games as one run through, and pays
no answer twice (requests counted at the server); the key given in the environment is in no
file under the results directory."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.llm.server import ChatServer, legal_responder

ROOT = Path(__file__).resolve().parents[2]
KEY, VALUE = "ARENA_TEST_LLM_KEY", "sk-test-9d2e4a7c1b"


def _run(folder: Path, url: str, name: str = "t") -> subprocess.Popen:
    spec = f"gpt=llm:model=test,base_url={url},key_env={KEY}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), KEY: VALUE}
    return subprocess.Popen([sys.executable, "-m", "arena", "run", "--game", "interaction", "--format", "gauntlet",
                             "--bot", spec, "--bot", "alphabeta:depth=2", "--bot", "random", "--games", "6",
                             "--workers", "1", "--concurrency", "2", "--results", str(folder), "--name", name, "-q"],
                            cwd=folder.parent, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _games(folder: Path, name: str = "t") -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "arena", "export", name, "--results", str(folder), "--out", "-"],
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, check=True)
    games = [json.loads(line) for line in out.stdout.splitlines()]
    return [{k: g[k] for k in ("game_id", "seats", "moves", "ranks", "termination")} for g in games]


def _prompts(server: ChatServer) -> list[str]:
    return [json.dumps(body["messages"], sort_keys=True) for body in server.bodies]


@pytest.mark.slow
def test_kill_then_resume_same_games_no_answer_paid_twice_no_key_stored(tmp_path):
    with ChatServer(responder=legal_responder) as through, ChatServer(responder=legal_responder) as killed:
        whole = _run(tmp_path / "whole", through.url)
        assert whole.wait(timeout=600) == 0, whole.stderr.read()
        first = _run(tmp_path / "R", killed.url)
        deadline = time.monotonic() + 300
        while killed.count < through.count // 2 and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        os.killpg(first.pid, signal.SIGKILL)  # the runner and its workers: no clean stop
        first.wait()
        paid = killed.count
        assert 0 < paid < through.count
        again = _run(tmp_path / "R", killed.url)
        assert again.wait(timeout=600) == 0, again.stderr.read()
        assert _games(tmp_path / "R") == _games(tmp_path / "whole")  # the same games
        prompts = _prompts(killed)
        repeated = len(prompts) - len(set(prompts))
        assert repeated <= 2, repeated  # at most the requests in flight at the kill (2 games at once)
        assert killed.count <= through.count + 2
        assert all(auth == f"Bearer {VALUE}" for auth in killed.auth)  # the key was used...
    for path in (tmp_path / "R").rglob("*"):  # ... and stored nowhere
        if path.is_file():
            assert VALUE.encode() not in path.read_bytes(), path
