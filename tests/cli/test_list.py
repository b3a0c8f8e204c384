"""``arena list``: every stored tournament with its game, members, games, last game and the
command that resumes it (which does resume it: nothing is played again); ``--json``; an
unreadable database is a row of its own; a missing folder is a one-line error."""

from __future__ import annotations

import json
import re
import shlex
import sqlite3


from tests.cli_run import run_cli as cli



def test_list_shows_each_tournament_and_its_resume_command_resumes_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    results = tmp_path / "res"
    run = ["run", "-q", "--results", str(results), "--game", "interaction", "--games", "2", "--workers", "1"]
    code, _, err = cli([*run, "--name", "duel", "--bot", "random", "--bot", "greedy", "--seed", "7",
                        "--opening-plies", "1", "--move-nodes", "500"], capsys)
    assert code == 0, err
    code, _, err = cli([*run, "--bot", "random", "--bot", "random", "-p", "target=3"], capsys)
    assert code == 0, err
    code, _, err = cli([*run, "--name", "slow", "--bot", "random", "--bot", "greedy", "--move-time", "60"], capsys)
    assert code == 0, err
    (results / "broken.sqlite").write_text("not a database")
    code, out, err = cli(["list", "--results", str(results), "--json"], capsys)
    assert code == 0, err
    found = {t["name"]: t for t in json.loads(out)}
    assert set(found) == {"duel", "slow", "broken", next(n for n in found if n.startswith("interaction-"))}
    assert found["slow"]["command"].endswith("--games 2 --move-time 60")  # no --game-time it implies
    duel = found["duel"]
    assert duel["game"] == "interaction" and duel["members"] == ["random", "greedy"] and duel["games"] == 2
    assert duel["field"] == ["random", "greedy"] and duel["last_played"].startswith("20")
    assert duel["command"] == (f"arena run --name duel --results {results} --game interaction --bot random "
                               "--bot greedy --games 2 --seed 7 --opening-plies 1 --move-nodes 500")
    hashed = next(t for n, t in found.items() if n.startswith("interaction-"))
    assert hashed["members"] == ["random", "random#2"] and "-p target=3" in hashed["command"]
    assert "error" in found["broken"] and "command" not in found["broken"]
    for t in (duel, hashed, found["slow"]):  # each command, run again, finds its stored tournament and plays nothing
        args = shlex.split(t["command"])[1:]
        code, out, err = cli([*args, "-q"], capsys)
        assert code == 0, err
        assert f"{t['name']}: 0 games played" in out
    code, out, err = cli(["list", "--results", str(results)], capsys)
    assert code == 0, err
    assert "duel" in out and "random, greedy" in out and "unreadable" in out and duel["command"] in out


def test_list_errors_and_an_empty_folder(tmp_path, capsys):
    code, out, err = cli(["list", "--results", str(tmp_path / "none")], capsys)
    assert code == 2 and err.strip().startswith("error: no results folder") and "Traceback" not in err
    code, out, err = cli(["list", "--results", str(tmp_path)], capsys)
    assert code == 0 and "no tournament stored in" in out


def test_an_unfinished_tournament_shows_its_games_of_its_total(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    results = tmp_path / "res"
    code, _, err = cli(["run", "-q", "--results", str(results), "--name", "cut", "--bot", "random", "--bot", "greedy",
                        "--games", "4", "--workers", "1"], capsys)
    assert code == 0, err
    with sqlite3.connect(results / "cut.sqlite") as conn:  # as if the run was stopped after two games
        conn.execute("DELETE FROM games WHERE game_id > 2")
    code, out, err = cli(["list", "--results", str(results), "--json"], capsys)
    assert code == 0, err
    (cut,) = json.loads(out)
    assert cut["games"] == 2 and cut["total"] == 4
    code, out, err = cli(["list", "--results", str(results)], capsys)
    assert code == 0 and re.search(r"│\s*2/4\s*│", out), out  # stored of planned


def test_a_run_its_own_rule_stopped_is_finished_not_interrupted(tmp_path, capsys, monkeypatch):
    """An SPRT verdict or an --until-ranked ranking ends a run before its --games: the store says
    so (``ending``), and ``arena list`` shows the games with the rule, not ``46/1000``, the mark of
    an interrupted run (issue 41)."""
    monkeypatch.setenv("COLUMNS", "200")
    results = tmp_path / "res"
    base = ["run", "-q", "--results", str(results), "--workers", "1", "--bot", "greedy", "--bot", "random"]
    code, out, err = cli([*base, "--name", "sprt", "--sprt", "elo0=0,elo1=50", "--games", "1000"], capsys)
    assert code == 0, err
    assert re.match(r"sprt: 46 games played in [\d.]+s, 46 stored in \S+sprt.sqlite, finished: "
                    r"SPRT \[0, 50\] LLR 3\.07 \(-2\.94, 2\.94\): H1 accepted at pair 23; HTML report", out), out
    code, out, err = cli([*base, "--name", "ranked", "--bot", "ab=alphabeta:depth=1", "--until-ranked",
                          "--games", "60"], capsys)
    assert code == 0, err
    ranked = re.match(r"ranked: (\d+) games played in [\d.]+s, \1 stored in \S+, finished: --until-ranked 0.95: "
                      r"(order settled|stopped at --games 60 per pairing) after \d+ round\(s\), \1 games", out)
    assert ranked, out
    code, out, err = cli(["list", "--results", str(results), "--json"], capsys)
    assert code == 0, err
    listed = {t["name"]: t for t in json.loads(out)}
    assert {k: listed["sprt"][k] for k in ("games", "total", "finished", "stopped")} == {
        "games": 46, "total": 1000, "finished": True, "stopped": "SPRT: H1"}
    word = "settled" if ranked.group(2) == "order settled" else "not settled"
    assert (listed["ranked"]["finished"], listed["ranked"]["stopped"]) == (True, word)
    code, out, err = cli(["list", "--results", str(results)], capsys)
    assert code == 0 and re.search(r"│\s*46 \(SPRT: H1\)\s*│", out), out
    assert re.search(rf"│\s*{ranked.group(1)} \({word}\)\s*│", out) and "46/1000" not in out, out


def test_an_interrupted_run_is_not_finished(tmp_path, capsys, monkeypatch):
    from arena.tournament import build, run_tournament
    from arena.tournament.observers import Observer

    class StopAfterTwo(Observer):
        def __init__(self):
            self.seen = 0

        def stored(self, result):
            self.seen += 1
            if self.seen == 2:
                raise KeyboardInterrupt

    monkeypatch.setenv("COLUMNS", "200")
    results = tmp_path / "res"
    summary = run_tournament(build(dict(bots=["random", "greedy"], games=4, workers=1, results=str(results),
                                        name="cut")), [StopAfterTwo()])
    assert summary.interrupted and summary.done == 2 and not summary.finished
    code, out, err = cli(["list", "--results", str(results), "--json"], capsys)
    (cut,) = json.loads(out)
    assert (cut["games"], cut["total"], cut["finished"], cut["stopped"]) == (2, 4, False, None)
    code, out, err = cli(["list", "--results", str(results)], capsys)
    assert code == 0 and re.search(r"│\s*2/4\s*│", out), out
