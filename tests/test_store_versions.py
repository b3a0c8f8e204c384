"""The store records the versions of what decides its games (``arena.results.versions``): the
arena's, and OpenSpiel's for ``openspiel:`` games (an engine's ``id name`` is its bot version's,
``bots.id_name``). A tournament played under one OpenSpiel resumed under another is refused in
one line naming both, nothing lost, or played on with ``--allow-version-change``, which its
report then tells. A store written before versions were recorded still opens and records them
from then on, said in one line."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import sqlite3

import pytest

import arena
from arena.errors import ConfigError, ResultsError
from arena.results.store import load_tournament
from arena.tournament import build
from tests.cli_run import run_cli as cli

#: an older OpenSpiel than the installed one, written into the store as if it had played there
OLD = "2.0.1"


def run_args(tmp_path, games: int, *extra: str) -> list[str]:
    return ["run", "--game", "openspiel:tic_tac_toe", "--bot", "random", "--bot", "greedy", "--games", str(games),
            "--workers", "1", "--name", "t", "--results", str(tmp_path), "-q", *extra]


def software(db) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT component, version, after, allowed FROM software ORDER BY rowid").fetchall()


def digest(db) -> str:
    return hashlib.sha256(db.read_bytes()).hexdigest()


@pytest.fixture(autouse=True)
def wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")  # a report's warning on one line


@pytest.fixture
def played(tmp_path, capsys):
    """A 2-game OpenSpiel tournament whose recorded OpenSpiel is then rewritten to ``OLD``;
    returns (its database, the installed OpenSpiel's version)."""
    pytest.importorskip("pyspiel")
    now = importlib.metadata.version("open-spiel")
    assert now != OLD
    code, _, err = cli(run_args(tmp_path, 2), capsys)
    assert code == 0, err
    db = tmp_path / "t.sqlite"
    assert software(db) == [("arena", arena.__version__, 0, 0), ("open-spiel", now, 0, 0)]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE software SET version = ? WHERE component = 'open-spiel'", (OLD,))
    return db, now


def test_resuming_under_another_openspiel_is_refused_in_one_line_and_nothing_is_lost(tmp_path, capsys, played):
    db, now = played
    before = digest(db)
    for games in (4, 2):  # extending, and resuming one left unfinished (a game deleted)
        if games == 2:
            with sqlite3.connect(db) as conn:
                conn.execute("DELETE FROM games WHERE game_id = 2")
            before = digest(db)
        code, out, err = cli(run_args(tmp_path, games), capsys)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert err.startswith(f"error: tournament 't' was played under open-spiel {OLD}, this is open-spiel {now}")
        assert "--allow-version-change" in err
        assert digest(db) == before  # nothing written: no game, no version, no settings
    assert software(db)[-1] == ("open-spiel", OLD, 0, 0)


def test_the_flag_plays_on_and_the_report_names_both_versions(tmp_path, capsys, played):
    db, now = played
    code, out, err = cli([*run_args(tmp_path, 4), "--allow-version-change"], capsys)
    assert code == 0, err
    assert "2 games played" in out and "4/4 stored" in out
    assert f"note: open-spiel {OLD} -> {now}: playing on under {now} (--allow-version-change)" in err
    assert software(db)[-1] == ("open-spiel", now, 2, 1)
    line = (f"warning: the stored games were played under more than one version of open-spiel: {OLD} (2 games) "
            f"and {now} (2 games, --allow-version-change)")
    code, out, err = cli(["report", "t", "--results", str(tmp_path), "--section", "leaderboard"], capsys)
    assert code == 0, err
    assert line in out.splitlines(), out
    code, out, err = cli(["report", "t", "--results", str(tmp_path), "--json"], capsys)
    assert line in json.loads(out)["warnings"]
    assert line in (tmp_path / "t.report.md").read_text()
    code, out, err = cli(run_args(tmp_path, 6), capsys)  # the new version is the stored one now
    assert code == 0, err
    assert software(db)[-1] == ("open-spiel", now, 2, 1)


def test_a_finished_tournament_under_another_openspiel_plays_nothing_and_is_not_refused(tmp_path, capsys, played):
    db, _ = played
    code, out, err = cli(run_args(tmp_path, 2), capsys)
    assert code == 0, err
    assert "0 games played" in out and software(db)[-1][1] == OLD


def test_a_store_from_before_versions_opens_and_records_them_from_then_on(tmp_path, capsys, played):
    db, now = played
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE software")
    assert load_tournament(db)["software"] == []  # a report of such a store names no version
    code, out, err = cli(run_args(tmp_path, 4), capsys)
    assert code == 0, err
    notes = [line for line in err.splitlines() if "not recorded" in line]
    assert notes == ["note: the version of open-spiel that 't''s 2 stored games were played under is not recorded "
                     f"(stored before the arena recorded it); recorded from now on: open-spiel {now}"]
    assert software(db) == [("arena", arena.__version__, 2, 0), ("open-spiel", now, 2, 0)]
    assert load_tournament(db)["software"] == [
        {"component": "arena", "version": None, "games": 2, "allowed": False},
        {"component": "arena", "version": arena.__version__, "games": 2, "allowed": False},
        {"component": "open-spiel", "version": None, "games": 2, "allowed": False},
        {"component": "open-spiel", "version": now, "games": 2, "allowed": False}]
    code, out, err = cli(["report", "t", "--results", str(tmp_path), "--section", "leaderboard"], capsys)
    assert code == 0, err
    assert ("warning: the stored games were played under more than one version of open-spiel: not recorded "
            f"(2 games, stored before the arena recorded versions) and {now} (2 games)") in out.splitlines(), out


def test_a_game_of_the_arenas_own_records_the_arena_only(tmp_path, capsys):
    args = ["run", "--bot", "random", "--bot", "greedy", "--workers", "1", "--name", "t", "--results", str(tmp_path),
            "-q"]
    code, _, err = cli([*args, "--games", "2"], capsys)
    assert code == 0, err
    db = tmp_path / "t.sqlite"
    assert software(db) == [("arena", arena.__version__, 0, 0)]
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE software")  # a store from before versions: the arena's recorded without a word
    code, _, err = cli([*args, "--games", "4"], capsys)
    assert code == 0 and "recorded" not in err, err
    assert software(db) == [("arena", arena.__version__, 2, 0)]


def test_an_arena_version_change_is_recorded_not_refused():
    from arena.results.versions import Recorded, check, played_under, stretches

    stored = [Recorded("arena", "0.0.9", 0), Recorded("open-spiel", "2.0.2", 0)]
    out = check("t", stored, {"arena": "0.1.0", "open-spiel": "2.0.2"}, 10, allow=False)
    assert out.rows == [Recorded("arena", "0.1.0", 10)] and out.notes == []
    assert played_under(stretches([*stored, *out.rows], 12)) == [
        "warning: the stored games were played under more than one version of arena: 0.0.9 (10 games) and "
        "0.1.0 (2 games)"]
    with pytest.raises(ResultsError, match="played under open-spiel 2.0.2, this is open-spiel 2.0.3"):
        check("t", stored, {"arena": "0.0.9", "open-spiel": "2.0.3"}, 10, allow=False)
    assert check("t", stored, {"arena": "0.0.9", "open-spiel": "2.0.3"}, 0, allow=False).notes == []  # no game yet


def test_the_setting_is_a_switch_and_no_part_of_the_tournament():
    cfg = build({"allow_version_change": True, "bots": ["random", "greedy"]})
    assert "allow_version_change" not in cfg.settings()
    assert cfg.run_name() == build({"bots": ["random", "greedy"]}).run_name()
    with pytest.raises(ConfigError, match="allow_version_change must be true or false"):
        build({"allow_version_change": "yes", "bots": ["random", "greedy"]})
