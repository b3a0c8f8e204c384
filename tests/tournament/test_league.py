"""Leagues (``arena.tournament.league``): a named tournament's bots retired (their games kept,
never scheduled again, shown apart) and candidates added (a placement gauntlet against the
active pool, then the pool); one-line errors that change nothing stored; the report."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.results.store import StoredGame
from arena.tournament import build, run_tournament
from arena.tournament.league import League
from arena.tournament.placement import Placement
from arena.tournament.schedule import RoundRobin
from arena.tournament.series import SeriesSettings
from tests.cli_run import run_cli
from tests.toy import Nim
from tests.tournament.test_adaptive import result

POOL = ["--bot", "random", "--bot", "greedy", "--bot", "ab1=alphabeta:depth=1", "--bot", "ab2=alphabeta:depth=2"]
CANDIDATE = ["--candidate", "ab3=alphabeta:depth=3"]


def league_rows(path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'league'").fetchone():
            return []
        return conn.execute("SELECT bot, event, after FROM league ORDER BY id").fetchall()


def games_of(path) -> list[tuple[int, int, tuple[str, ...], tuple[int, ...]]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT game_id, series, seats, ranks FROM games ORDER BY game_id").fetchall()
    return [(g, s, tuple(json.loads(seats)), tuple(json.loads(ranks))) for g, s, seats, ranks in rows]


# --- the schedule ---------------------------------------------------------------------------------


def make_league(games=8):
    """A pool of a, b, c (``TRUE`` strengths) and candidate d, the strongest, on Nim."""
    settings = SeriesSettings(games, seed=3)
    game = Nim(pile=5)
    return League(game, ["a", "b", "c"], ["d"], settings, lambda labels: RoundRobin(game, labels, settings), 0.95,
                  {})


def test_a_candidate_plays_only_its_gauntlet_until_placed_then_joins_the_pool():
    s = make_league()
    pool = {"a", "b", "c"}
    released, joined_at = [], None
    while not s.done:
        tasks = s.next_games(1000)
        assert tasks, "a league that is not done releases games when none are in flight"
        for t in tasks:
            released.append(t)
            s.add(StoredGame(t.game_id, t.series, t.seats, result(t)))
            events = s.changes()
            if events:
                assert joined_at is None and [(e.bot, e.event) for e in events] == [("d", "joined")]
                assert "candidate d: place 1 of 4" in (events[0].detail or "")
                joined_at = len(released)
    assert joined_at is not None
    with_d = [t for t in released[:joined_at] if "d" in t.seats]
    assert with_d and all(set(t.seats) - {"d"} <= pool for t in with_d)  # its gauntlet: against the pool only
    # the pool's round-robin played its own 3 pairings in full; the candidate's gauntlet, released first, was
    # all its games until it was placed, and then it played every pairing of its own to --games like the others
    assert {frozenset(t.seats) for t in released[joined_at:]} <= {frozenset(("d", p)) for p in pool} | \
        {frozenset(p) for p in [("a", "b"), ("a", "c"), ("b", "c")]}
    per_pairing: dict[frozenset, int] = {}
    for t in released:
        per_pairing[frozenset(t.seats)] = per_pairing.get(frozenset(t.seats), 0) + 1
    assert sorted(per_pairing.values()) == [8] * 6  # every pairing to --games, the candidate's included
    ids = [t.game_id for t in released]
    assert len(set(ids)) == len(ids) and min(ids) >= 1


def test_a_placement_is_decided_from_its_stored_games_alone():
    """The same games, told in another order, give the same rounds and the same place."""
    def run(reverse):
        p = Placement(Nim(pile=5), "d", ["a", "b", "c"], SeriesSettings(40, seed=3), 0.95)
        seen = []
        while not p.done:
            tasks = p.next_games(1000)
            for t in (reversed(tasks) if reverse else tasks):
                p.add(StoredGame(t.game_id, t.series, t.seats, result(t)))
                seen.append((t.series, t.seats))
        return sorted(seen), p.outcome()
    assert run(False) == run(True)
    _, line = run(False)
    assert line.startswith("candidate d: place 1 of 4, ")  # the strongest (on these draws it stops at the cap)


# --- runs -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def league(tmp_path_factory):
    """A pool of 4 bots (24 games), then a candidate placed and joined (run 2), then one bot retired
    while the league is extended (run 3): the store and what each run printed."""
    folder = tmp_path_factory.mktemp("league")
    common = ["run", "--name", "L", "--results", str(folder), "--workers", "2", "-q"]
    out = {}
    capsys = _Capture()
    with capsys:
        out["pool"] = run_cli([*common, *POOL, "--games", "4"], capsys)
        out["candidate"] = run_cli([*common, *POOL, *CANDIDATE, "--games", "4"], capsys)
        out["after_join"] = games_of(folder / "L.sqlite")
        out["retire"] = run_cli([*common, *POOL, *CANDIDATE, "--retire", "random", "--games", "6"], capsys)
        out["resume"] = run_cli([*common, *POOL, *CANDIDATE, "--games", "6"], capsys)  # the retirement holds
    return folder / "L.sqlite", out


class _Capture:
    """``capsys`` for a module-scoped fixture: standard output and error of ``main``, read back."""

    def __enter__(self):
        import io
        import sys
        self._saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = self.out, self.err = io.StringIO(), io.StringIO()
        return self

    def __exit__(self, *exc):
        import sys
        sys.stdout, sys.stderr = self._saved

    def readouterr(self):
        out, err = self.out.getvalue(), self.err.getvalue()
        self.out.seek(0), self.out.truncate(), self.err.seek(0), self.err.truncate()
        return out, err


def test_the_league_adds_a_candidate_then_retires_a_bot(league):
    path, out = league
    assert all(code == 0 for code, _, _ in (out[k] for k in ("pool", "candidate", "retire", "resume"))), out
    assert "candidate 'ab3' added" in out["candidate"][2]
    events = league_rows(path)
    assert [(b, e) for b, e, _ in events] == [("ab3", "candidate"), ("ab3", "joined"), ("random", "retired")]
    joined_after = events[1][2]
    games = out["after_join"]
    assert len(games) > 24 and 24 < joined_after <= len(games)
    gauntlet = games[24:joined_after]  # the candidate's games before it joined: against the pool only
    assert gauntlet and all("ab3" in g[2] and len(set(g[2])) == 2 for g in gauntlet)
    later = games_of(path)[len(games):]
    assert later, "the extended league played nothing"
    assert all("random" not in g[2] for g in later)  # retired: no new game
    assert {frozenset(g[2]) for g in later} == {frozenset(p) for p in
                                                [("greedy", "ab1"), ("greedy", "ab2"), ("ab1", "ab2"),
                                                 ("ab3", "greedy"), ("ab3", "ab1"), ("ab3", "ab2")]}
    assert "retired 'random'" in out["retire"][2]
    assert "bot 'random' is retired" in out["resume"][2]
    assert out["resume"][1].count("0 games played") == 1


def test_the_report_shows_active_and_retired_bots_apart(league, capsys):
    path, _ = league
    code, out, err = run_cli(["report", str(path), "--json", "--section", "ratings"], capsys)
    assert code == 0, err
    rows = [r for r in json.loads(out)["tables"]["ratings"] if not r["label"].startswith("(")]
    assert [r["status"] for r in rows] == ["active"] * 4 + ["retired"]
    assert rows[-1]["label"] == "random" and rows[-1]["rank"] is None
    assert [r["rank"] for r in rows[:4]] == [1, 2, 3, 4]
    code, out, err = run_cli(["report", str(path), "--section", "ratings", "--anchor", "greedy", "--wide"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    at = {name: next(i for i, line in enumerate(lines) if f" {name} " in line) for name in ("random", "greedy")}
    assert "retired" in lines[at["random"]] and "+0.0" in lines[at["greedy"]]
    active = [next(i for i, line in enumerate(lines) if f" {n} " in line) for n in ("ab1", "ab2", "ab3")]
    assert at["random"] > max(active)
    assert "League: retired" in out


@pytest.mark.parametrize("args, message", [
    (["--retire", "nobody"], "--retire 'nobody': no bot 'nobody' in the field or in tournament 'L'; accepted: "),
    (["--retire", "random", "--retire", "greedy", "--retire", "ab1", "--retire", "ab2"],
     "a league needs at least 2"),
    (["--candidate", "greedy=alphabeta:depth=3"], "label 'greedy' is already a bot of the field"),
    (["--candidate", "ab3=alphabeta:depth=3"], None),  # the stored candidate itself: no clash
])
def test_bad_league_input_is_one_line_and_changes_nothing(league, tmp_path, capsys, args, message):
    import shutil
    path, _ = league
    copy = tmp_path / "L.sqlite"
    shutil.copy(path, copy)
    before = games_of(copy), league_rows(copy)
    code, out, err = run_cli(["run", "--name", "L", "--results", str(tmp_path), *POOL, "--games", "6", "-q",
                              *args], capsys)
    if message is None:
        assert code == 0, err
        return
    assert code == 2 and err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1, err
    assert (games_of(copy), league_rows(copy)) == before


def test_a_candidate_with_a_stored_bot_s_label_is_refused(league, tmp_path, capsys):
    import shutil
    path, _ = league
    shutil.copy(path, tmp_path / "L.sqlite")
    two = ["run", "--name", "L", "--results", str(tmp_path), "--bot", "greedy", "--bot", "ab1=alphabeta:depth=1", "-q"]
    code, _, err = run_cli([*two, "--candidate", "random=alphabeta:depth=3"], capsys)
    assert code == 2 and "bot 'random' of tournament 'L' is retired" in err
    code, _, err = run_cli([*two, "--candidate", "ab2=alphabeta:depth=3"], capsys)
    assert code == 2 and "label 'ab2' is a bot of tournament 'L' already" in err


def test_league_options_need_a_name_and_a_two_player_round_robin():
    with pytest.raises(ConfigError, match="give --name NAME"):
        build({"bots": ["random", "greedy"], "retire": ["random"]})
    with pytest.raises(ConfigError, match="2-player round-robin league"):
        build({"bots": ["random", "greedy"], "candidates": ["x=random"], "name": "n", "format": "gauntlet"})


def test_the_toml_file_takes_the_league_keys(tmp_path, capsys):
    toml = tmp_path / "league.toml"
    toml.write_text('name = "T"\nbots = ["random", "greedy", "r2=random"]\ngames = 2\nretire = ["r2"]\n'
                    'candidate = ["g2=greedy"]\nanchor = "greedy"\n')
    code, out, err = run_cli(["run", "--config", str(toml), "--results", str(tmp_path), "--workers", "1", "-q"],
                             capsys)
    assert code == 0, err
    assert [(b, e) for b, e, _ in league_rows(tmp_path / "T.sqlite")] == [("r2", "retired"), ("g2", "candidate"),
                                                                         ("g2", "joined")]
    assert all("r2" not in g[2] for g in games_of(tmp_path / "T.sqlite"))
    toml.write_text('name = "T"\nbots = ["random", "greedy"]\nretire = "r2"\n')
    code, _, err = run_cli(["run", "--config", str(toml), "--results", str(tmp_path), "-q"], capsys)
    assert code == 2 and "retire must be a list of bot labels" in err


# --- kill -9 ------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
#: a candidate that plays as ``random``, but stops for good in a worker past its moves while the
#: test's gate file is missing (``tests/fixtures/broken_bots.py``): the run cannot end before the kill
GATED = "g=tests/fixtures/broken_bots.py#GatedRandom"


def league_config(folder, candidate: bool) -> dict:
    return {"bots": ["random", "greedy", "ab1=alphabeta:depth=1", "ab2=alphabeta:depth=2"], "games": 4,
            "name": "K", "results": str(folder), "workers": 2, **({"candidates": [GATED]} if candidate else {})}


@pytest.mark.slow  # a league run killed and resumed in processes
def test_a_league_killed_with_sigkill_resumes_to_the_same_schedule(tmp_path):
    """The candidate's run killed (SIGKILL) in its gauntlet, then resumed: the same games, the
    same placement and join as a run never killed."""
    for folder in ("whole", "killed"):
        run_tournament(build(league_config(tmp_path / folder, candidate=False)))
    whole = run_tournament(build(league_config(tmp_path / "whole", candidate=True)))
    assert whole.played > 0 and not whole.interrupted
    db = tmp_path / "killed" / "K.sqlite"
    pool_games = len(games_of(db))
    code = (f"from arena.tournament import build, run_tournament\n"
            f"run_tournament(build({league_config(tmp_path / 'killed', candidate=True)!r}))\n")
    env = os.environ | {"ARENA_TEST_GATE": str(tmp_path / "gate"), "ARENA_TEST_GATE_AFTER": "60"}
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env)
    try:
        deadline, seen, still = time.monotonic() + 300, -1, time.monotonic()
        while time.monotonic() < deadline:  # until the candidate's games stop coming (its gate) for 2 s
            time.sleep(0.2)
            count = len(games_of(db))
            if count != seen:
                seen, still = count, time.monotonic()
            elif count > pool_games and time.monotonic() - still > 2:
                break
        assert proc.poll() is None, "the gated run ended before the kill"
        assert seen > pool_games, "no game of the candidate was stored before the deadline"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert [(b, e) for b, e, _ in league_rows(db)] == [("g", "candidate")]  # killed before it was placed
    resumed = run_tournament(build(league_config(tmp_path / "killed", candidate=True)))
    assert not resumed.interrupted

    def played(path):
        return sorted((s, seats, ranks) for _, s, seats, ranks in games_of(path))
    assert played(db) == played(whole.path)
    with sqlite3.connect(db) as a, sqlite3.connect(whole.path) as b:
        query = "SELECT bot, event, detail FROM league ORDER BY id"
        assert a.execute(query).fetchall() == b.execute(query).fetchall()


def test_a_retirement_alone_writes_the_report_files_again(tmp_path, capsys):
    """A run that retires a bot and plays nothing still changed what the report shows: its files
    (kept when the store is as they show it) are written again."""
    common = ["run", "--name", "R", "--results", str(tmp_path), "--bot", "random", "--bot", "greedy", "--bot",
              "r2=random", "--games", "2", "--workers", "1", "-q"]
    assert run_cli(common, capsys)[0] == 0
    assert "retired" not in (tmp_path / "R.report.md").read_text()
    code, out, err = run_cli([*common, "--retire", "r2"], capsys)
    assert code == 0 and "0 games played" in out, err
    assert "retired" in (tmp_path / "R.report.md").read_text()


def test_a_league_run_that_names_no_bot_plays_the_stored_field(league, tmp_path, capsys):
    """No --bot: the last run's field and the joined candidate, less the retired bot."""
    import shutil
    path, _ = league
    shutil.copy(path, tmp_path / "L.sqlite")
    before = len(games_of(tmp_path / "L.sqlite"))
    code, out, err = run_cli(["run", "--name", "L", "--results", str(tmp_path), "--games", "8", "--workers", "2", "-q"],
                             capsys)
    assert code == 0, err
    assert ("note: league 'L': its stored field greedy, ab1=alphabeta:depth=1, ab2=alphabeta:depth=2, "
            "ab3=alphabeta:depth=3 (--bot names another)") in err
    new = games_of(tmp_path / "L.sqlite")[before:]
    assert len(new) == 6 * 2 and {n for g in new for n in g[2]} == {"greedy", "ab1", "ab2", "ab3"}
