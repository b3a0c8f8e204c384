"""What a user types on the command line: a key typed into a spec in place of ``key_env=``'s
variable is never printed back (``arena play`` and ``arena run``, in every error quoting the
spec), a bad ``base_url=`` is refused in one line, and ``arena play`` checks an ``llm:`` bot's
server before the game as ``arena run`` does: exit code 2, one line, no game."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.llm.server import ChatServer, legal_responder, refused_url

ROOT = Path(__file__).resolve().parents[2]
LEAK = "sk-LEAKTEST-abcdef123"
KEY = "ARENA_TEST_PLAY_KEY"


def _arena(*args: str, key: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(KEY, None)
    if key is not None:
        env[KEY] = key
    return subprocess.run([sys.executable, "-m", "arena", *args], env=env, capture_output=True, text=True,
                          timeout=300)


def _play(spec: str, key: str | None = None) -> subprocess.CompletedProcess:
    return _arena("play", "interaction", "--bot", spec, "-q", "--no-store", key=key)


def _run(spec: str, folder: Path) -> subprocess.CompletedProcess:
    return _arena("run", "--game", "interaction", "--bot", spec, "--bot", "random", "--games", "2", "--workers", "1",
                  "--results", str(folder), "--name", "t", "-q")


def _one_error(out: subprocess.CompletedProcess) -> str:
    assert out.returncode == 2, out.stdout + out.stderr
    assert "Traceback" not in out.stderr and "result after" not in out.stdout, out.stdout + out.stderr
    errors = [line for line in out.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, out.stderr
    return errors[0]


@pytest.mark.parametrize("spec", [
    f"gpt=llm:model=x,key_env={LEAK}",
    f"llm:model=x,key_env={LEAK}",
    f"llm:model=x,key_env={LEAK},legal=maybe",
    f"llm:model=x,key_env={LEAK},bogus",
    f"llm:model=x,key_env={LEAK},colour=red",
    f"llm:model=x,api_key={LEAK}",
])
def test_a_key_typed_into_a_spec_is_never_printed(spec, tmp_path):
    for out in (_play(spec), _run(spec, tmp_path / "r")):
        _one_error(out)
        assert LEAK not in out.stdout + out.stderr, out.stderr
    assert not (tmp_path / "r" / "t.sqlite").exists()


def test_a_variable_name_in_key_env_is_shown():
    error = _one_error(_play(f"llm:model=x,key_env={KEY},legal=maybe"))
    assert f"key_env={KEY}" in error and "accepted: on or off (default on)" in error


@pytest.mark.parametrize("url", ["ftp://x", "notaurl"])
def test_a_bad_base_url_is_one_line(url):
    error = _one_error(_play(f"llm:model=x,base_url={url}"))
    assert "accepted: an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1" in error


def test_play_checks_the_server_before_the_game():
    error = _one_error(_play(f"llm:model=test,base_url={refused_url()},provider_retries=0"))
    assert "cannot be reached" in error and "127.0.0.1" in error
    with ChatServer(responder=legal_responder) as server:
        error = _one_error(_play(f"llm:model=test,base_url={server.url},key_env={KEY}"))  # the variable unset
        assert KEY in error and server.count == 0
        played = _play(f"llm:model=test,base_url={server.url},key_env={KEY}", key="sk-play-test")
        assert played.returncode == 0 and "result after" in played.stdout, played.stderr
        assert server.count > 0 and "sk-play-test" not in played.stdout + played.stderr
