"""The ``GamePool`` protocol (issue 43): the runner's view of the local pool and the Dask
pool, which mypy checks both against; and the bot capabilities the game processes read
instead of looking modules up by name."""

import subprocess
import sys
from pathlib import Path

import pytest

from arena.supervisor.child import _keeps_time
from arena.tournament import worker
from arena.tournament.gamepool import GamePool
from arena.tournament.pool import Pool
from arena.tournament.worker import WorkerSetup

ROOT = Path(__file__).resolve().parents[2]


def test_the_local_pool_is_a_game_pool():
    pool = Pool(WorkerSetup(game="interaction", params={}, specs={}), workers=1, num_players=2, game_time=60.0)
    assert isinstance(pool, GamePool)
    assert not isinstance(object(), GamePool)


@pytest.mark.slow
def test_mypy_checks_both_pools_against_the_protocol(tmp_path):
    """mypy accepts both pools as ``GamePool`` s and refuses a pool without ``submit``."""
    snippet = tmp_path / "pools.py"
    snippet.write_text(
        "from collections.abc import Generator\n"
        "from arena.tournament.cluster import ClusterPool\n"
        "from arena.tournament.gamepool import GamePool, Result\n"
        "from arena.tournament.pool import Pool\n\n"
        "class NoSubmit:\n"
        "    replaced = 0\n\n"
        "    def run(self, tasks=()) -> Generator[Result, None, None]:\n"
        "        yield from ()\n\n"
        "    def close(self) -> None: ...\n\n"
        "def pools(a: Pool, b: ClusterPool, c: NoSubmit) -> list[GamePool]:\n"
        "    return [a, b, c]\n")
    out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
                          "--ignore-missing-imports", "--follow-imports=silent", str(snippet)],
                         cwd=ROOT, capture_output=True, text=True)
    errors = [line for line in out.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "NoSubmit" in errors[0] and "submit" in out.stdout.split(errors[0])[1], out.stdout


class _Own:
    def __init__(self, value):
        self.keeps_own_deadline = value

    def choose(self, state, limits):
        return None


def test_a_bot_keeps_its_own_deadline_only_when_it_says_so_with_true():
    assert _keeps_time([_Own(True), _Own(False), _Own("yes"), object()]) == [True, False, False, False]


def test_an_engine_client_keeps_its_deadline_unless_a_subclass_overrides_choose():
    from arena.engine.client import EngineBot

    class Overriding(EngineBot):
        def choose(self, state, limits):
            return None
    plain = EngineBot.__new__(EngineBot)
    assert _keeps_time([plain, Overriding.__new__(Overriding)]) == [True, False]


def test_the_worker_calls_each_class_capability_once_for_every_class_it_made(monkeypatch):
    calls = []

    def hook(bots):
        calls.append(len(bots))

    class A:
        for_game = staticmethod(hook)

    class B(A):  # the same function, inherited: called once
        pass

    class C:  # no capability
        pass
    monkeypatch.setattr(worker, "_MADE", set())
    for f in worker._capabilities([A(), B()], "for_game"):
        f([1, 2])
    assert calls == [2]
    assert worker._capabilities([C()], "for_game") == [hook]  # a class made in an earlier game counts still
    assert worker._capabilities([], "close_all") == []


def test_no_game_process_module_looks_the_engine_layer_up_by_name():
    """The import-graph test sees imports only: a ``sys.modules`` look-up would hide a dependency."""
    files = [*sorted((ROOT / "arena" / "supervisor").glob("*.py")), ROOT / "arena" / "tournament" / "worker.py",
             ROOT / "arena" / "tournament" / "pool.py", ROOT / "arena" / "tournament" / "slot.py",
             ROOT / "arena" / "watch.py"]
    assert [f.name for f in files if "sys.modules" in f.read_text()] == []
