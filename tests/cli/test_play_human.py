"""``arena play --bot human``: moves typed on stdin, the game stored (tournament ``play-GAME``
or ``--name``) and rated as any other; a refused store costs no game; hidden information shows
the person's view only."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import arena.games
from typer.testing import CliRunner

from arena.cli.app import app
from arena.results.rating_history import read_blocks
from arena.referee import GameSettings, bot_seeds, referee_game
from bots.human import Human
from bots.registry import assign_labels, make, seed_name

BOTS = ["--bot", "human", "--bot", "alphabeta:depth=2"]


def _typed_moves(game: str = "interaction", seed: int = 0) -> list[str]:
    """The moves a person who always picks the middle legal move types against
    ``alphabeta:depth=2`` in ``arena play GAME --seed SEED`` (the same seeds: the same game)."""

    class Middle:
        def ask(self, position, seat, legal, left, problem=None):
            return legal[len(legal) // 2]

    specs = assign_labels(["human", "alphabeta:depth=2"], typed=2)
    g = arena.games.make(game)
    seeds = bot_seeds(seed, 0, [seed_name(s) for s in specs])
    record = referee_game(GameSettings(g, seed, labels=("human", "ab"), seeds=seeds),
                          [Human(source=Middle()), make(specs[1])])
    assert record.outcome.termination == "target"
    return list(record.moves[0::2])


def _games(db) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT game_id, seats, termination FROM games ORDER BY game_id").fetchall()


def test_a_person_plays_a_whole_game_from_stdin_and_it_is_stored_and_rated(tmp_path):
    moves = _typed_moves()
    args = ["play", "interaction", *BOTS, "--results", str(tmp_path)]
    result = CliRunner().invoke(app, args, input="\n".join(["e5X", *moves]) + "\n")
    assert result.exit_code == 0, result.output
    assert "legal moves (12): " in result.output and "'e5X' is not" in result.output  # re-asked with the reason
    assert "result after 12 plies" in result.output
    assert "stored as game 1 of tournament play-interaction" in result.output
    again = CliRunner().invoke(app, args, input="quit\n")
    assert again.exit_code == 0 and "stored as game 2" in again.output
    db = tmp_path / "play-interaction.sqlite"
    assert _games(db) == [(1, '["human", "alphabeta:depth=2"]', "target"),
                          (2, '["human", "alphabeta:depth=2"]', "resigned")]
    with sqlite3.connect(db) as conn:  # one member per bot: the same spec twice is the same version
        assert conn.execute("SELECT label, version FROM bots ORDER BY position").fetchall() == [
            ("human", 1), ("alphabeta:depth=2", 1)]
        assert len(read_blocks(conn, 2)) == 4  # rated as stored: 2 games of 2 seats in the rating history
    listed = CliRunner().invoke(app, ["list", "--results", str(tmp_path)])
    assert f"arena play interaction --name play-interaction --results {tmp_path}" in " ".join(listed.output.split())
    report = CliRunner().invoke(app, ["report", "play-interaction", "--results", str(tmp_path), "--json",
                                      "--section", "ratings"])
    assert report.exit_code == 0, report.output
    assert {"human", "alphabeta:depth=2"} <= set(report.output.split('"')), report.output


def test_a_refused_store_is_one_line_before_any_move_and_leaves_the_store_alone(tmp_path):
    run = CliRunner().invoke(app, ["run", "--game", "interaction", "--bot", "random", "--bot", "random",
                                   "--games", "2", "--results", str(tmp_path), "--name", "t", "-q"])
    assert run.exit_code == 0, run.output
    before = _games(tmp_path / "t.sqlite")
    proc = subprocess.run([sys.executable, "-m", "arena", "play", "interaction", *BOTS, "--results", str(tmp_path),
                           "--name", "t"], input="quit\n", capture_output=True, text=True)
    assert proc.returncode == 2 and "legal moves" not in proc.stdout
    assert proc.stderr.count("\n") == 1 and "written by arena run" in proc.stderr
    assert _games(tmp_path / "t.sqlite") == before
    clash = subprocess.run([sys.executable, "-m", "arena", "play", "interaction", *BOTS, "--no-store", "--name",
                            "x"], capture_output=True, text=True, cwd=tmp_path)
    assert clash.returncode == 2 and "--no-store" in clash.stderr and not (tmp_path / "results").exists()


def test_no_store_plays_without_a_results_folder_and_bots_alone_store_with_a_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    quit_ = CliRunner().invoke(app, ["play", "interaction", *BOTS, "--no-store"], input="quit\n")
    assert quit_.exit_code == 0 and "resigned" in quit_.output and not (tmp_path / "results").exists()
    bots = CliRunner().invoke(app, ["play", "interaction", "-q", "-p", "target=2", "--name", "mine"])
    assert bots.exit_code == 0 and "stored as game 1 of tournament mine" in bots.output
    assert [row[1] for row in _games(tmp_path / "results" / "mine.sqlite")] == ['["random", "random#2"]']


def test_a_hidden_information_game_shows_the_person_only_their_view(tmp_path):
    result = CliRunner().invoke(app, ["play", "openspiel:kuhn_poker", "--seed", "3", "--bot", "human", "--bot",
                                      "random", "--results", str(tmp_path)], input="Bet\nBet\n")
    assert result.exit_code == 0, result.output
    before_end, _, after = result.output.partition("plies: ")
    plies = after.split("\n")[0].split()
    assert plies[1].startswith("Deal:") and plies[1] not in before_end  # the other seat's card: hidden
    assert "chance" not in before_end and "ply 1" not in before_end  # no ply shown before the end
    assert "legal moves (2): Pass Bet" in before_end
    stored = json.loads(_games(tmp_path / "play-openspiel-kuhn_poker.sqlite")[0][1])
    assert stored == ["human", "random"]


def test_a_tournament_refuses_a_person_in_one_line_before_any_game(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "arena", "run", "--game", "interaction", "--bot", "human", "--bot",
                           "random", "--games", "2", "--results", str(tmp_path), "--name", "t", "-q"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "is a person: play it with arena play" in proc.stderr
    assert not (tmp_path / "t.sqlite").exists()


def test_ctrl_c_at_the_prompt_stops_the_game_without_storing_it(tmp_path):
    import os
    import signal

    proc = subprocess.Popen([sys.executable, "-m", "arena", "play", "interaction", *BOTS, "--results", str(tmp_path)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        seen = ""
        while not seen.endswith("quit to resign> "):  # the prompt: the game waits on the person
            char = proc.stdout.read(1)
            assert char, seen + proc.stderr.read()
            seen += char
        os.kill(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130 and "interrupted: the game is not stored" in err
    assert "resigned" not in seen and not list(tmp_path.glob("*.sqlite"))  # nothing stored, no empty store left
