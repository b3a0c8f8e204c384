"""Defects a fresh-user tester found: a bot file calling ``sys.exit`` at import, ``[[engine]]``
tables beside ``--bot``, single-value options given twice, and messages that named the wrong
thing."""

from __future__ import annotations

import pytest

from tests.cli_run import run_cli

PUZZLE = "1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC"



def one_line_error(code, out, err, needle):
    assert code == 2, (code, out, err)
    assert err.count("\n") == 1 and err.startswith("error: ") and needle in err, err
    assert "Traceback" not in out + err


@pytest.mark.parametrize("command", [
    ["run", "--bot", "x=exitimport.py#A", "--bot", "random", "--games", "2", "-q", "--results", "r"],
    ["play", "interaction", "--bot", "x=exitimport.py#A"],
    ["solve", "--bot", "exitimport.py#A", PUZZLE],
    ["engine", "x=exitimport.py#A"],
])
def test_bot_file_calling_sys_exit_at_import_is_one_line_exit_2(command, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exitimport.py").write_text("import sys; sys.exit(1)\n")
    code, out, err = run_cli(command, capsys)
    one_line_error(code, out, err, "cannot load bot file 'exitimport.py': it called sys.exit(1) at import")
    assert not (tmp_path / "r").exists()


def test_dotted_bot_module_calling_sys_exit_at_import_is_reported(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "exitmod_fresh.py").write_text("import sys; sys.exit('bye')\n")
    code, out, err = run_cli(["play", "interaction", "--bot", "exitmod_fresh.Foo"], capsys)
    one_line_error(code, out, err, "cannot import bot class 'exitmod_fresh.Foo': it called sys.exit('bye') at import")


def _engine_toml(path, bots=None):
    import sys

    text = 'game = "interaction"\n' + (f"bots = {bots!r}\n".replace("'", '"') if bots else "")
    text += f'[[engine]]\nlabel = "eng"\ncommand = ["{sys.executable}", "-m", "arena.engine", "random"]\n'
    path.write_text(text)
    return path


def _stored_labels(results):
    import json
    import sqlite3

    (db,) = results.glob("*.sqlite")
    with sqlite3.connect(db) as conn:
        return {label for (seats,) in conn.execute("SELECT seats FROM games") for label in json.loads(seats)}


@pytest.mark.parametrize("file_bots", [None, ["greedy"]])
def test_config_engines_play_beside_command_line_bots(file_bots, tmp_path, capsys):
    """docs/tournaments.md "Tournaments", TOML: options override the file's keys; ``--bot`` replaces ``bots``
    but the ``[[engine]]`` tables, which no option gives, stay in the field (with a note)."""
    config = _engine_toml(tmp_path / "e.toml", file_bots)
    results = tmp_path / "r"
    code, out, err = run_cli(["run", "--config", str(config), "--bot", "random", "--games", "2", "--workers", "1",
                              "-q", "--results", str(results)], capsys)
    assert code == 0, err
    assert _stored_labels(results) == {"random", "eng"}
    assert "[[engine]] tables of" in err and "(eng) play beside the --bot bots" in err
    assert ("--bot replaces bots = ['greedy']" in err) == bool(file_bots)


@pytest.mark.parametrize("args, name", [
    (["run", "--game", "interaction", "--game", "sandpile"], "--game"),
    (["run", "--games", "2", "--games", "4"], "--games"),
    (["run", "--seed", "1", "--seed=2"], "--seed"),
    (["play", "interaction", "--seed", "1", "--seed", "2"], "--seed"),
    (["report", "x", "--results", "a", "--results", "b"], "--results"),
    (["solve", "--game", "ricochet", "--game", "ricochet", PUZZLE], "--game"),
    (["solve", PUZZLE, "--json", "--json"], "--json"),  # a flag too: click would keep it silently
    (["run", "-q", "--quiet"], "--quiet"),
    (["play", "interaction", "-q", "-q"], "--quiet"),
    (["report", "x", "--no-write", "--write"], "--write/--no-write"),
])
def test_single_value_option_given_twice_is_refused(args, name, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(args, capsys)
    one_line_error(code, out, err, f"option {name} given twice; give it once")
    assert not out and list(tmp_path.iterdir()) == []  # nothing played, nothing stored


def test_game_parameter_key_given_twice_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["run", "-p", "target=3", "-p", "target=4"], capsys)
    one_line_error(code, out, err, "game parameter 'target' given twice (-p target=3, -p target=4)")
    assert list(tmp_path.iterdir()) == []


def test_repeatable_options_and_distinct_parameters_still_repeat(capsys):
    from arena.numbers import parse_params

    assert parse_params(["target=1", "max_plies=50"]) == {"target": "1", "max_plies": "50"}
    code, out, err = run_cli(["play", "interaction", "-b", "random", "-b", "greedy", "-q",
                              "-p", "target=1", "-p", "max_plies=50"], capsys)
    assert code == 0 and "seat 0 random, seat 1 greedy" in out and "result after" in out, err


def test_malformed_database_is_named_in_the_report_error(tmp_path, monkeypatch, capsys):
    """4a: ``arena report`` names the file as ``arena run`` does; the pages after the first
    (the schema) are overwritten, so the tables cannot be read."""
    from arena.tournament import build, run_tournament

    monkeypatch.chdir(tmp_path)
    cfg = build({"bots": ["random", "b=random"], "games": "2", "workers": "1", "name": "corrupt", "results": "results"})
    summary = run_tournament(cfg)
    size = summary.path.stat().st_size
    with open(summary.path, "r+b") as f:
        f.seek(4096)
        f.write(b"\xff" * (size - 4096))
    code, out, err = run_cli(["report", "corrupt", "--no-write"], capsys)
    one_line_error(code, out, err,
                   "cannot read results database 'results/corrupt.sqlite': database disk image is malformed")


def test_directory_named_like_a_database_is_called_a_directory(tmp_path, monkeypatch, capsys):
    """4b: a folder ``r2/dirdb.sqlite`` is not listed as a tournament nor reported as missing."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r2" / "dirdb.sqlite").mkdir(parents=True)
    for args in (["report", "dirdb", "--results", "r2"], ["report", "r2/dirdb.sqlite"]):
        code, out, err = run_cli(args, capsys)
        one_line_error(code, out, err, "'r2/dirdb.sqlite' is a directory, not a results database")
    code, out, err = run_cli(["report", "other", "--results", "r2"], capsys)
    one_line_error(code, out, err, "no tournament 'other' under 'r2'; none stored there yet")


def test_lock_path_that_is_a_directory_is_named(tmp_path, monkeypatch, capsys):
    """4c: the lock file is named, not its folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r3" / "t.lock").mkdir(parents=True)
    code, out, err = run_cli(["run", "--name", "t", "--results", "r3", "--games", "2", "-q"], capsys)
    one_line_error(code, out, err, "cannot open the run lock file 'r3/t.lock': Is a directory")
    assert sorted(p.name for p in (tmp_path / "r3").iterdir()) == ["t.lock"]


@pytest.mark.parametrize("value, got", [('"random"', "got a string 'random'"), ('["random", 3]', "got a list"),
                                        ("3", "got an integer")])
def test_toml_bots_not_a_list_of_strings_is_refused(value, got, tmp_path, capsys):
    """4d: ``bots = "random"`` was taken as a one-bot field ("needs at least 2 bots, got 1")."""
    config = tmp_path / "s.toml"
    config.write_text(f"bots = {value}\n")
    code, out, err = run_cli(["run", "--config", str(config)], capsys)
    one_line_error(code, out, err, "bots must be a list of bot specs, e.g. bots = [")
    assert got in err


@pytest.mark.parametrize("quiet", [[], ["-q"]])
def test_play_refuses_a_bad_setup_before_printing_anything(quiet, capsys):
    """4e: the header line came before the error of a setup the parameters make impossible."""
    code, out, err = run_cli(["play", "ricochet", "-p", "diagonals=100", *quiet], capsys)
    one_line_error(code, out, err, "cannot place 100 barriers in a quadrant")
    assert out == ""


@pytest.mark.parametrize("toml, needle", [
    ("move_time = -1", "config file 't.toml': move_time -1 is out of range; accepted: 0.001 to 86400"),
    ("move-time = 0", "config file 't.toml': move-time 0 is out of range"),  # the key as written
    ("games = 'x'", "config file 't.toml': games 'x' is not an integer"),
    ("tau = -1", "config file 't.toml': bad tau -1; accepted: a number >= 0"),
    ("format = 'nope'", "config file 't.toml': key format: unknown tournament format 'nope'; accepted: "),
    ("tc = 'x'", "config file 't.toml': key tc: bad time control 'x'"),
    ("format = 'swiss'\nseeds = 2", "config file 't.toml': seeds goes with format gauntlet (got format swiss)"),
])
def test_a_bad_value_of_a_toml_file_is_named_by_its_key(toml, needle, tmp_path, monkeypatch, capsys):
    """A value of ``--config FILE`` refused by the checks reads as the key the user wrote
    (``move_time``), with the file, not as the command-line option (``--move-time``)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.toml").write_text(toml + "\n")
    code, out, err = run_cli(["run", "--config", "t.toml"], capsys)
    one_line_error(code, out, err, needle)
    assert "--" not in err.partition("(see:")[0]
    assert list(tmp_path.iterdir()) == [tmp_path / "t.toml"]


def test_a_bad_option_beside_a_toml_file_is_named_as_the_option(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.toml").write_text("move_time = 1\nformat = 'swiss'\n")
    code, out, err = run_cli(["run", "--config", "t.toml", "--move-time", "0"], capsys)
    one_line_error(code, out, err, "error: --move-time 0 is out of range")
    assert "config file" not in err
    code, out, err = run_cli(["run", "--config", "t.toml", "--seeds", "2"], capsys)  # the file's format, the option
    one_line_error(code, out, err, "config file 't.toml': --seeds goes with format gauntlet (got format swiss)")


def test_quiet_run_marks_each_note_once(tmp_path, capsys):
    """``-q``: the run's notes go to stderr, each with one ``note:`` (the short openings' line
    carries its own)."""
    code, out, err = run_cli(["run", "--bot", "random", "--bot", "greedy", "--games", "6", "--opening-plies", "120",
                              "--workers", "1", "-q", "--results", str(tmp_path)], capsys)
    assert code == 0, err
    assert out.count("\n") == 1 and "6/6 stored" in out
    assert "note: 6 of 6 games played fewer random opening plies than --opening-plies 120" in err
    assert "note: note:" not in err


@pytest.mark.parametrize(("command", "kind"), [
    (["run", "--bot", "./first_legal.sh", "--bot", "random", "--games", "2", "-q", "--results", "r"],
     "./first_legal.sh"),
    (["engine", "check", "./first_legal.sh"], "./first_legal.sh"),
    (["play", "interaction", "--bot", "first_legal.sh"], "first_legal.sh"),
    (["run", "--bot", "x=first_legal.sh", "--bot", "random", "--games", "2", "-q", "--results", "r"], "first_legal.sh"),
])
def test_a_program_given_as_a_bot_kind_says_to_give_it_as_exec(command, kind, tmp_path, monkeypatch, capsys):
    # a file beside it named first_legal.py must not bring "did you mean first_legal.py#sh?"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "first_legal.sh").write_text("#!/bin/sh\nexit 0\n")
    (tmp_path / "first_legal.sh").chmod(0o755)
    (tmp_path / "first_legal.py").write_text("")
    code, out, err = run_cli(command, capsys)
    one_line_error(code, out, err, f"{kind!r} is a program: give an engine as exec:{kind}")
    assert not (tmp_path / "r").exists() or not any((tmp_path / "r").glob("*.sqlite"))


def test_a_path_to_no_file_is_named_as_such(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["play", "interaction", "--bot", "./nothere.sh"], capsys)
    one_line_error(code, out, err, "no file './nothere.sh'; accepted: a program as exec:PATH")
