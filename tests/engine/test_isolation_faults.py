"""``--isolation process`` start-up and clean-up (``docs/engine-protocol.md`` "Process rules"):
a bot file given by a relative path is found by its engine (which runs in a private
directory); a bot its engine cannot load is a one-line ``BotSpecError`` before any game (as an
``exec:`` engine that cannot start); the private directories of engines that quit, crash or are
killed are removed."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from arena.engine.sandbox import isolate
from arena.errors import BotSpecError
from arena.tournament import build, run_tournament
from bots.registry import parse_spec

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="resource limits: Linux")

FIRST = """
class First:
    def choose(self, state, limits):
        return state.legal_moves()[0]
"""
#: loads in the arena's process, fails to import inside its isolated engine (private directory)
ENGINE_ONLY_IMPORT_ERROR = """
import os
if os.path.basename(os.getcwd()).startswith("arena-engine-"):
    raise ImportError("no such module inside the engine: engine_only_xyz")
""" + FIRST
#: exits mid-game: its engine crashes and is restarted for the next game
CRASHER = """
import os
class Crasher:
    def choose(self, state, limits):
        os._exit(7)
"""


def engine_dirs(folder: Path) -> list[Path]:
    return sorted(folder.glob("arena-engine-*"))


def config(folder: Path, bots: list[str], **extra):
    values = dict(game="interaction", bots=bots, games=2, workers=1, results=str(folder / "results"),
                  isolation="process", opening_plies=0, retries=0)
    values.update(extra)
    return build(values)


def test_isolate_makes_a_relative_bot_file_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    specs = {"x": parse_spec("x=b_plain.py#First:depth=1"), "r": parse_spec("random")}
    isolated = isolate(specs, "process", None)
    assert f"{tmp_path / 'b_plain.py'}#First:depth=1" in isolated["x"].kind
    assert isolated["x"].text == "x=b_plain.py#First:depth=1"  # the stored spec stays the user's
    assert isolated["r"].kind.endswith(" random")


@pytest.mark.slow
def test_relative_bot_file_plays_under_isolation_process(public, monkeypatch):
    (public / "b_plain.py").write_text(FIRST)
    (public / "b_plain.py").chmod(0o644)
    monkeypatch.chdir(public)
    summary = run_tournament(config(public, ["random", "x=b_plain.py#First"]))
    assert summary.stored == summary.total == 2
    assert not summary.faults, summary.faults


@pytest.mark.slow
def test_bot_its_engine_cannot_load_is_a_spec_error_before_any_game(public, capsys):
    bot = public / "b_engine_only.py"
    bot.write_text(ENGINE_ONLY_IMPORT_ERROR)
    bot.chmod(0o644)
    with pytest.raises(BotSpecError, match=r"cannot be loaded in its isolated engine process .*engine_only_xyz"):
        run_tournament(config(public, ["random", f"x={bot}#First"]))
    results = public / "results"
    assert not list(results.glob("*.sqlite")) if results.exists() else True  # nothing stored
    assert engine_dirs(public) == []
    # the command line: one line on standard error, exit code 2, nothing stored
    r = subprocess.run([sys.executable, "-m", "arena", "run", "--bot", "random", "--bot", f"x={bot}#First",
                        "--games", "2", "--isolation", "process", "--results", str(public / "cli"), "-q"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
    assert "cannot be loaded in its isolated engine process" in r.stderr and "engine_only_xyz" in r.stderr
    assert "not readable by user" not in r.stderr  # not a standard module: no note on the Python install
    assert not list((public / "cli").glob("*.sqlite")) if (public / "cli").exists() else True
    assert engine_dirs(public) == []


def _unreadable_to_others(path: str) -> bool:
    p = Path(path)
    for part in [p, *p.parents]:
        mode = part.stat().st_mode
        if not mode & stat.S_IXOTH or (part == p and not mode & stat.S_IROTH):
            return True
    return False


@pytest.mark.skipif(os.geteuid() != 0 or not _unreadable_to_others(os.path.dirname(os.__file__)),
                    reason="as root, with a Python install other users cannot read")
@pytest.mark.slow
def test_python_install_unreadable_to_nobody_is_named(public):
    bot = public / "b_wave.py"
    bot.write_text("import wave\n" + FIRST)  # a standard module the engine does not preload
    bot.chmod(0o644)
    with pytest.raises(BotSpecError, match=r"not readable by user \d+:\d+"):  # the engine's own uid:gid
        run_tournament(config(public, ["random", f"x={bot}#First"]))


@pytest.mark.slow
def test_private_directories_removed_after_quit_crash_and_restart(public):
    bot = public / "b_crash.py"
    bot.write_text(CRASHER)
    bot.chmod(0o644)
    summary = run_tournament(config(public, ["random", f"crash={bot}#Crasher"], games=4))
    assert summary.stored == summary.total == 4
    assert summary.faults, "the crasher loses every game"
    assert engine_dirs(public) == []
