"""``arena play``: one game shown ply by ply; bad input is one line and exit code 2."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from tests.registered import register_game


def test_play_interaction_shows_diagrams_and_outcome():
    result = CliRunner().invoke(app, ["play", "interaction", "--seed", "1", "-p", "target=3"])
    assert result.exit_code == 0, result.output
    assert "<- pockets" in result.output and "ply 1: random plays" in result.output
    assert "result after" in result.output and "rank 1" in result.output


@pytest.mark.parametrize("game", ["interaction", "sandpile"])
def test_play_prints_the_start_and_final_position_texts(game, tmp_path):
    import arena.games
    from arena.tournament.series import read_openings
    result = CliRunner().invoke(app, ["play", game, "--seed", "2", "--opening-plies", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    texts = [line.removeprefix("position: ") for line in lines if line.startswith("position: ")]
    result_line = next(i for i, line in enumerate(lines) if line.startswith("result after"))
    assert len(texts) == 2 and lines[result_line - 1].startswith("position: ")  # the final one, last
    g = arena.games.make(game)
    assert texts[0] != texts[1]
    for text in texts:  # what --openings files read back
        assert g.parse_state(text).to_text() == text
    (tmp_path / "o.txt").write_text(texts[0] + "\n")
    assert len(read_openings(tmp_path / "o.txt", g)) == 1


def test_play_quiet_with_opening_is_reproducible():
    args = ["play", "interaction", "--seed", "5", "--opening-plies", "2", "--quiet",
            "--bot", "random", "--bot", "random"]
    first = CliRunner().invoke(app, args)
    second = CliRunner().invoke(app, args)
    assert first.exit_code == 0 and "opening (2 plies)" in first.output
    assert "<- pockets" not in first.output and "position: " not in first.output
    strip = [line for line in first.output.splitlines() if not line.startswith("result after")]
    assert strip == [line for line in second.output.splitlines() if not line.startswith("result after")]


@pytest.mark.parametrize("args, words", [
    (["play", "interaction", "-p", "target=x"], "target"),
    (["play", "nosuchgame"], "unknown game"),
    (["play", "interaction", "--bot", "nosuchbot"], "unknown bot kind"),
    (["play", "interaction", "-p", "target"], "key=value"),
    (["play", "interaction", "--bot", "random", "--bot", "random", "--bot", "random"], "2 seats"),
])
def test_bad_input_is_one_line_exit_2(args, words):
    proc = subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and words in lines[0]


def test_an_opening_cut_short_says_so_and_one_no_game_can_play_is_refused(capsys, monkeypatch):
    """``arena play --opening-plies N`` plays at most N random plies, and says when the game
    would have ended first; a value past the ply limit is a one-line error."""
    from tests.cli_run import run_cli

    register_game(monkeypatch, "nim", "tests.toy:Nim")
    code, out, err = run_cli(["play", "nim", "-p", "pile=6", "--opening-plies", "20", "-q"], capsys)
    line = next(li for li in out.splitlines() if li.startswith("opening ("))
    assert code == 0 and " plies of 20: the next random move would end the game): " in line, out + err
    code, out, err = run_cli(["play", "interaction", "--opening-plies", "200"], capsys)
    assert code == 2 and not out and err.count("\n") == 1 and "accepted: 0 to 199" in err
