"""Defects a new user found: TOML values of the wrong type, ``--fill`` checked only when a seat
is filled, a label clashing with another bot's default label, SIGTERM without the resume hint,
``arena play --game``, an orphan left by ``arena engine check``, and wording."""

from __future__ import annotations

import re

import pytest

from tests.cli_run import run_cli


def one_line_error(code, out, err, *needles):
    assert code == 2, (code, out, err)
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert all(n in err for n in needles), err
    assert "Traceback" not in out + err


@pytest.mark.parametrize("line, needles", [
    ("results = 5", ["results must be", "(a string)", "got an integer"]),
    ("results = true", ["results must be", "got a boolean"]),
    ('results = ["a"]', ["results must be", "got a list"]),
    ("each = 5", ["each must be", "key=value", "got an integer"]),
    ("each = [1]", ["each must be", "got a list"]),
    ("each = {depth = [3]}", ["each must be", "got a table"]),
    ("adjudicate = 5", ["adjudicate must be", "max-plies=200", "got an integer"]),
    ("adjudicate = [5]", ["adjudicate must be", "got a list"]),
    ("tau = true", ["tau must be", "a number", "got a boolean"]),
    ("until_ranked = true", ["until_ranked must be", "got a boolean"]),
    ("tc = [1]", ["tc must be", "got a list"]),
    ("cluster = 5", ["cluster must be", "got an integer"]),
    ("sprt = 5", ["sprt must be", "got an integer"]),
    ("game = 5", ["game must be", "got an integer"]),
    ("format = 5", ["format must be", "got an integer"]),
    ("trace_engines = 1", ["trace_engines must be true or false", "got 1"]),
])
def test_a_toml_value_of_the_wrong_type_is_one_line_naming_the_type(line, needles, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.toml").write_text(f"games = 2\n{line}\n")
    code, out, err = run_cli(["run", "--config", "x.toml", "--bot", "random", "--bot", "greedy", "-q"], capsys)
    one_line_error(code, out, err, "config file 'x.toml'", *needles)
    assert "--" not in err.partition(":")[2].partition(";")[0]  # the file's key, not the option
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize("fill, needle", [("nosuch", "--fill 'nosuch': unknown bot kind"),
                                         ("random:depth=2", "--fill 'random:depth=2': bot")])
def test_a_bad_fill_is_refused_when_no_seat_needs_it(fill, needle, tmp_path, monkeypatch, capsys):
    """``--fill`` was checked only when it filled a seat, then stored: the same command without
    it was refused (``fill: stored 'nosuch', now None``)."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["run", "--bot", "random", "--bot", "greedy", "--games", "2", "--name", "fl",
                              "--fill", fill, "-q"], capsys)
    one_line_error(code, out, err, needle)
    assert not (tmp_path / "results").exists()


def test_a_label_that_is_another_bots_default_label_is_refused(tmp_path, monkeypatch, capsys):
    """``--bot random=greedy --bot random`` stored greedy as ``random``, random as ``random#2``."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["run", "--bot", "random=greedy", "--bot", "random", "--games", "2", "--name", "lab1",
                              "-q"], capsys)
    one_line_error(code, out, err, "bot label 'random' of 'random=greedy' is also the label of 'random'",
                   "NAME=SPEC")
    assert not (tmp_path / "results").exists()


def test_play_takes_the_game_as_run_names_it_too(capsys):
    """``arena play --game interaction`` said ``No such option: --game`` (GAME is positional)."""
    args = ["--seed", "3", "-q"]
    code, by_option, err = run_cli(["play", "--game", "interaction", *args], capsys)
    assert code == 0 and "Traceback" not in err, err
    untimed = re.compile(r"\(\d+\.\d+s\)")  # the game's seconds
    assert untimed.sub("", by_option) == untimed.sub("", run_cli(["play", "interaction", *args], capsys)[1])
    one_line_error(*run_cli(["play", "interaction", "--game", "sandpile", *args], capsys), "two games given")
    one_line_error(*run_cli(["play", *args], capsys), "arena play needs a game: arena play GAME or arena play --game")


@pytest.mark.parametrize("args, needle", [
    (["--bot", "é=random", "--bot", "greedy"], "bad bot label 'é' in 'é=random'; labels use ASCII letters, digits"),
    (["--bot", "random", "--bot", "greedy", "--name", "é"], "use at most 120 ASCII letters, digits"),
])
def test_names_and_labels_say_the_letters_are_ascii(args, needle, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    one_line_error(*run_cli(["run", *args, "--games", "2", "-q"], capsys), needle)
