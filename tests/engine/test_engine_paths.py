"""``exec:`` paths with spaces (cutechess #465): shell-like quoting in specs, an unquoted path
found as a whole or refused, never another program run silently; the error names the path
tried; ``[[engine]]`` tables round-trip through their spec."""

import shutil
from pathlib import Path

import pytest

from arena.engine.argv import engine_argv
from arena.engine.client import close_all
from arena.errors import BotSpecError
from arena.tournament.config_file import engine_specs
from bots.registry import make, parse_spec

FIRST = Path(__file__).parents[2] / "examples" / "engines" / "first_legal.sh"


@pytest.fixture(autouse=True)
def _quit_engines():
    yield
    close_all()


@pytest.fixture
def spaced(tmp_path):
    """``tmp/my eng/x.sh`` (an engine) and ``tmp/my`` (another program, which must never run:
    it writes a mark)."""
    folder = tmp_path / "my eng"
    folder.mkdir()
    engine = folder / "x.sh"
    shutil.copy(FIRST, engine)
    other = tmp_path / "my"
    other.write_text(f"#!/bin/sh\ntouch {tmp_path / 'WRONG-PROGRAM-RAN'}\n")
    other.chmod(0o755)
    return engine


def _wrong_ran(engine: Path) -> bool:
    return (engine.parents[1] / "WRONG-PROGRAM-RAN").exists()


@pytest.mark.parametrize("quote", ["'", '"'])
def test_a_quoted_path_with_spaces_runs_that_engine(spaced, quote):
    bot = make(f"e=exec:{quote}{spaced}{quote} --flag")
    assert bot.command == [str(spaced), "--flag"]
    assert bot.probe()["name"] == "first-legal-sh"
    assert not _wrong_ran(spaced)


def test_a_quoted_path_with_a_colon_keeps_its_options_apart(tmp_path):
    folder = tmp_path / "a:b=c"
    folder.mkdir()
    shutil.copy(FIRST, folder / "x.sh")
    spec = parse_spec(f"e=exec:'{folder}/x.sh' -v:startup_timeout=9")
    assert spec.options == {"startup_timeout": "9"}
    assert make(spec).command == [f"{folder}/x.sh", "-v"]


def test_an_unquoted_path_with_spaces_is_found_as_a_whole(spaced):
    """The whole text is an existing file: it is the engine, although ``tmp/my`` exists too."""
    bot = make(f"e=exec:{spaced}")
    assert bot.command == [str(spaced)]
    assert bot.probe()["name"] == "first-legal-sh"
    assert not _wrong_ran(spaced)


def test_an_unquoted_path_with_spaces_and_arguments_is_refused(spaced):
    with pytest.raises(BotSpecError, match=r"engine path '.*/my eng/x\.sh' has spaces: quote it .* exec:'.*' --flag"):
        make(f"e=exec:{spaced} --flag")
    assert not _wrong_ran(spaced)


def test_the_error_names_the_path_tried(tmp_path):
    """Nothing of ``tmp/no such/x.sh`` exists: the executable tried is ``tmp/no``, and the
    message names it (not the whole text) and says how to quote a path."""
    with pytest.raises(BotSpecError) as caught:
        make(f"e=exec:{tmp_path}/no such/x.sh")
    message = str(caught.value)
    assert f"cannot execute '{tmp_path}/no': No such file or directory" in message
    assert f"a path with spaces is quoted: exec:'{tmp_path}/no such/x.sh'" in message


def test_words_without_a_file_of_spaces_stay_a_command_and_arguments():
    assert engine_argv("sh -c 'echo hi'") == ["sh", "-c", "echo hi"]
    with pytest.raises(BotSpecError, match="bad engine command"):
        engine_argv("'/opt/unclosed")


@pytest.mark.parametrize("command", [["/opt/my eng/x.sh", "--flag"], ["/opt/a:b=c/x", "a:1", "q=2,3"],
                                     ["/usr/bin/env", "it's"]])
def test_engine_tables_round_trip(command):
    (text,) = engine_specs([{"label": "e", "command": command, "options": {"depth": 3}}], "t.toml")
    spec = parse_spec(text)
    assert (spec.label, spec.options) == ("e", {"depth": "3"})
    assert engine_argv(spec.kind.removeprefix("exec:")) == command


def test_a_spaced_engine_from_a_table_runs(spaced):
    (text,) = engine_specs([{"label": "e", "command": [str(spaced)]}], "t.toml")
    assert make(text).probe()["name"] == "first-legal-sh"
    assert not _wrong_ran(spaced)


def test_a_relative_command_is_the_engine_of_the_current_folder(tmp_path, monkeypatch):
    """``exec:./x.sh`` in one folder, then in another (one process running tournaments or
    tests in turn): each time the engine of the current folder, not the first folder's (the
    engine classes are made once per absolute command; a docs page failed under load when a
    class made for another page's folder, since removed, was reused)."""
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        shutil.copy(FIRST, tmp_path / name / "x.sh")
    commands = []
    for name in ("a", "b"):
        monkeypatch.chdir(tmp_path / name)
        bot = make("e=exec:./x.sh")
        commands.append(bot.command[0])
    assert commands == [str(tmp_path / "a" / "x.sh"), str(tmp_path / "b" / "x.sh")]
