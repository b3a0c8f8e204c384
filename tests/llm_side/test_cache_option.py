"""``arena run --llm-cache on|off`` (issue 44): the workers see ``$ARENA_LLM_CACHE`` naming the
run's cache file in the results directory, or ``off``; put back as it was after the run."""

from __future__ import annotations

import os

import pytest

from arena.errors import ConfigError
from arena.tournament import build, run_tournament
from tests.cli_run import run_cli

SEES = "tests/llm_side/test_cache_option.py#SeesCache"


class SeesCache:
    """Writes the ``$ARENA_LLM_CACHE`` its worker sees to the file ``out``, then plays the first move."""

    def __init__(self, out: str) -> None:
        self.out = out

    def choose(self, state, limits):
        with open(self.out, "w") as f:
            f.write(os.environ.get("ARENA_LLM_CACHE", "unset"))
        return state.legal_moves()[0]


@pytest.mark.parametrize("on", [True, False])
def test_the_workers_see_the_cache_file_or_off(tmp_path, on, monkeypatch):
    monkeypatch.setenv("ARENA_LLM_CACHE", "before")
    out = tmp_path / "seen"
    run_tournament(build(dict(game="nim", params={"pile": "5"}, bots=["random", f"s={SEES}:out={out}"], games=1,
                              workers=1, results=str(tmp_path / "R"), name="t", llm_cache=on)))
    want = str((tmp_path / "R" / "t.llm-cache.sqlite").absolute()) if on else "off"
    assert out.read_text() == want and os.environ["ARENA_LLM_CACHE"] == "before"


def test_a_bad_value_is_one_line(tmp_path, capsys):
    code, out, err = run_cli(["run", "--game", "nim", "--llm-cache", "maybe", "--results", str(tmp_path)], capsys)
    assert code == 2 and "unknown --llm-cache value 'maybe'; accepted: on, off" in err and "Traceback" not in err
    with pytest.raises(ConfigError, match="llm_cache must be true or false"):
        build(dict(game="nim", params={"pile": "5"}, llm_cache="yes"))
