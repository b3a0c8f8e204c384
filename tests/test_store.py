"""Storage: schema, loaders' layout, and bad results paths/databases refused without change."""

import hashlib
import os
import sqlite3

import pandas as pd
import pytest

import arena.games
from arena.results.packed import register
from arena.cli.app import main
from arena.errors import ConfigError, ResultsError
from arena.results.store import Store, load_game, load_games, load_moves, load_tournament
from arena.results.files import resolve
from arena.tournament import build, run_tournament
from tests.cli_run import run_cli
from tests.registered import register_game


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch):
    register_game(monkeypatch, "nim", "tests.toy:Nim")


def cfg(tmp_path, **extra):
    values = dict(game="nim", params={"pile": "15"}, bots=["random", "b=random"], games=4, workers=1,
                  results=str(tmp_path), name="t")
    return build(values | extra)


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_loaders_layout(tmp_path):
    s = run_tournament(cfg(tmp_path, opening_plies=2))
    games = load_games(s.path)
    assert list(games.columns) == ["game_id", "series", "seed", "seats", "ranks", "scores", "termination",
                                   "fault_seat", "plies", "opening_plies", "seconds"]
    assert games.game_id.tolist() == [1, 2, 3, 4]
    row = games.iloc[0]
    assert isinstance(row.seats, list) and set(row.seats) == {"random", "b"}
    assert all(isinstance(r, int) for r in row.ranks) and all(isinstance(x, float) for x in row.scores)
    assert str(games.fault_seat.dtype) == "Int64" and games.fault_seat.isna().all()
    assert games.opening_plies.eq(2).all() and (games.plies >= 2).all()
    moves = load_moves(s.path)
    assert list(moves.columns) == ["game_id", "ply", "seat", "label", "move", "seconds", "nodes", "depth",
                                   "evaluation", "status", "clock"]
    first = moves[moves.game_id == 1]
    assert first.ply.tolist() == list(range(games.plies[0]))
    assert first.seat.tolist()[:2] == [-1, -1] and first.label.iloc[:2].isna().all()
    assert set(first.label.iloc[2:]) <= {"random", "b"}
    info = load_tournament(s.path)
    assert info["name"] == "t" and info["game"] == "nim" and info["num_players"] == 2 and info["seed"] == 1
    assert info["params"] == {"pile": 15, "take": 3, "players": 2}
    assert info["bots"] == {"random": "random", "b": "b=random"}
    assert info["settings"]["games"] == 4
    assert resolve("t", tmp_path) == s.path
    assert load_game(s.path, 2)["moves"][:2] == load_game(s.path, 1)["moves"][:2]  # shared opening


def test_results_path_that_is_a_file(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(ResultsError, match="is a file"):
        run_tournament(cfg(f))
    assert f.read_text() == "x"


@pytest.mark.parametrize("content,match", [(b"this is not a database at all" * 100, "not a database"),
                                           (None, "not an arena results database")])
def test_corrupt_or_foreign_database_is_refused_unchanged(tmp_path, content, match):
    path = tmp_path / "t.sqlite"
    if content is None:
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE games (x)")
        conn.commit()
        conn.close()
    else:
        path.write_bytes(content)
        path.chmod(0o644)
    before = digest(path)
    with pytest.raises(ResultsError, match=match):
        run_tournament(cfg(tmp_path))
    with pytest.raises(ResultsError):
        load_games(path)
    assert digest(path) == before
    if content is not None:  # a file that is no database keeps its owner's mode too
        assert path.stat().st_mode & 0o777 == 0o644


def _stored(path):
    conn = sqlite3.connect(path)
    register(conn)  # the moves view reads the packed column through these functions
    try:
        return (conn.execute("SELECT * FROM games ORDER BY game_id").fetchall(),
                conn.execute("SELECT * FROM moves ORDER BY game_id, ply, seat").fetchall())
    finally:
        conn.close()


def test_read_only_database_is_refused_with_nothing_changed(tmp_path, monkeypatch):
    s = run_tournament(cfg(tmp_path))
    conn = sqlite3.connect(s.path)
    conn.execute("DELETE FROM games WHERE game_id = 4")
    conn.commit()
    conn.close()
    before = _stored(s.path)
    monkeypatch.setattr(Store, "_connect", staticmethod(
        lambda path: sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)))
    with pytest.raises(ResultsError, match="readonly"):
        run_tournament(cfg(tmp_path))
    assert _stored(s.path) == before


def test_full_disk_stops_the_run_keeping_whole_games(tmp_path, monkeypatch):
    begin = Store.begin

    def begin_then_fill(self, *args, **kwargs):
        begin(self, *args, **kwargs)
        pages = self.conn.execute("PRAGMA page_count").fetchone()[0]
        self.conn.execute(f"PRAGMA max_page_count = {pages + 1}")

    monkeypatch.setattr(Store, "begin", begin_then_fill)
    with pytest.raises(ResultsError, match="full"):
        run_tournament(cfg(tmp_path, params={"pile": "60"}, games=40, bots=["random", "b=random", "c=random"]))
    games, moves = _stored(tmp_path / "t.sqlite")
    assert 0 < len(games) < 120
    assert {m[0] for m in moves} == {g[0] for g in games}
    assert all(sum(1 for m in moves if m[0] == g[0]) == g[11] for g in games)  # plies column



@pytest.mark.parametrize("args,needle", [
    (["run", "--game", "nim", "--games", "0"], "--games 0 is out of range; accepted: 1 to 1000000"),
    (["run", "--game", "nim", "--workers", "-2"], "--workers -2"),
    (["run", "--game", "nim", "--games", "many"], "--games 'many' is not an integer; accepted: 1 to 1000000"),
    (["run", "--game", "nim", "--move-time", "fast"], "--move-time 'fast' is not a number"),
    (["run", "--game", "nim", "--games", "2.5"], "--games '2.5' is not an integer"),
    (["run", "--game", "nim", "--bot", "random", "--bot", "nosuchbot"], "unknown bot kind"),
    (["run", "--game", "nosuch"], "unknown game"),
    (["run", "--game", "nim", "--bot", "random", "--bot", "tests/fixtures/broken_bots.py#BadInit"], "constructor bug"),
    (["run", "--game", "nim", "-p", "pile=-4"], "pile"),
    (["run", "--game", "nim", "-p", "pile"], "key=value"),
    (["run", "--game", "nim", "--format", "league"], "accepted: round-robin, gauntlet, knockout, swiss"),
    (["run", "--game", "nim", "--seat-rotation", "twice"], "accepted: cyclic, all"),
    (["run", "--game", "nim", "--bot", "random", "--name", "../x"], "bad tournament name"),
    (["run", "--game", "nim", "--bot", "random"], "--fill"),
    (["replay", "nosuch", "1"], "no tournament"),
    (["replay", "t", "abc"], "bad game id 'abc'; accepted: a whole number"),
    (["replay", "t", "999"], "no game 999 stored"),
    (["export", "nosuch"], "no tournament"),
])
def test_bad_inputs_exit_2_with_one_line(tmp_path, capsys, args, needle):
    s = run_tournament(cfg(tmp_path))
    before = _stored(s.path)
    code, out, err = run_cli(args + ["--results", str(tmp_path)], capsys)
    assert code == 2
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err + out
    assert _stored(s.path) == before


def test_bad_toml_and_changed_config_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("games = [1,\n")
    code, _, err = run_cli(["run", "--config", str(bad)], capsys)
    assert code == 2 and err.startswith("error: bad TOML") and err.count("\n") == 1
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("gamez = 3\n")
    code, _, err = run_cli(["run", "--config", str(unknown)], capsys)
    assert code == 2 and "unknown key 'gamez'" in err
    twice = tmp_path / "twice.toml"
    twice.write_text("move_time = 0.5\nmove-time = 1\n")
    code, _, err = run_cli(["run", "--config", str(twice)], capsys)
    assert code == 2 and "key 'move-time' given twice" in err and err.count("\n") == 1
    s = run_tournament(cfg(tmp_path))
    before = _stored(s.path)
    code, _, err = run_cli(["run", "--game", "nim", "-p", "pile=15", "--bot", "random", "--bot", "b=random",
                            "--seed", "6", "--name", "t", "--results", str(tmp_path)], capsys)
    assert code == 2 and "different settings" in err and _stored(s.path) == before


def test_export_and_replay(tmp_path, capsys):
    import json
    run_tournament(cfg(tmp_path, opening_plies=1))
    out = tmp_path / "g.jsonl"
    main_ok = ["export", "t", "--format", "jsonl", "--out", str(out), "--results", str(tmp_path)]
    with pytest.raises(SystemExit) as exc:
        main(main_ok)
    assert exc.value.code in (0, None)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 4 and set(lines[0]) == {"game_id", "seed", "seats", "ranks", "scores", "termination",
                                                 "plies", "opening_plies", "moves", "series", "fault_seat",
                                                 "fault_detail", "seconds", "attempts"}
    assert lines[0]["plies"] == len(lines[0]["moves"]) and lines[0]["opening_plies"] == 1
    for fmt in ("csv", "parquet"):
        with pytest.raises(SystemExit):
            main(["export", "t", "--format", fmt, "--results", str(tmp_path)])
    assert len(pd.read_csv(tmp_path / "t.csv")) == 4 and len(pd.read_parquet(tmp_path / "t.parquet")) == 4
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["replay", "t", "2", "--results", str(tmp_path)])
    text = capsys.readouterr().out
    assert "game 2" in text and "ply 0 opening" in text and "end: last_stone" in text
    code, _, err = run_cli(["replay", "t", "99", "--results", str(tmp_path)], capsys)
    assert code == 2 and "no game 99 stored; 4 games stored, ids 1 to 4" in err


def test_toml_config_with_command_line_override(tmp_path, capsys):
    conf = tmp_path / "t.toml"
    conf.write_text('game = "nim"\nbots = ["a=random", "b=random"]\ngames = 6\nopening-plies = 1\nname = "toml"\n'
                    f'results = "{tmp_path}"\n[params]\npile = 9\n')
    with pytest.raises(SystemExit) as exc:
        main(["run", "--config", str(conf), "--games", "2", "-q"])
    out = capsys.readouterr().out
    assert exc.value.code in (0, None) and "toml" in out
    info = load_tournament(tmp_path / "toml.sqlite")
    assert info["settings"]["games"] == 2 and info["params"]["pile"] == 9 and list(info["bots"]) == ["a", "b"]
    assert len(load_games(tmp_path / "toml.sqlite")) == 2


def _refuse_pool(monkeypatch):
    """The local pool refuses to start (as ``Pool`` does when its workers keep dying outside
    any game): a refusal after the store is opened and the tournament recorded."""
    import arena.tournament.runner as runner

    def refuse(*args, **kwargs):
        raise ConfigError("worker processes keep dying outside any game")

    monkeypatch.setattr(runner, "_pool", refuse)


def test_a_run_refused_after_the_store_opened_leaves_nothing_new(tmp_path, monkeypatch, capsys):
    """No ``t.sqlite`` (nor ``-wal``, ``-shm``), no empty ``t.log``, no ``t.lock``, and no results
    folder the run created; a folder that was there stays."""
    _refuse_pool(monkeypatch)
    results = tmp_path / "new" / "results"
    code, out, err = run_cli(["run", "--game", "nim", "--bot", "random", "--bot", "b=random", "--games", "2",
                              "--workers", "1", "--results", str(results), "--name", "t", "-q"], capsys)
    assert code == 2 and err.count("\n") == 1 and "keep dying" in err
    assert list(tmp_path.iterdir()) == []
    code, out, err = run_cli(["run", "--game", "nim", "--bot", "random", "--bot", "b=random", "--games", "2",
                              "--workers", "1", "--results", str(tmp_path), "--name", "t", "-q"], capsys)
    assert code == 2 and tmp_path.is_dir() and list(tmp_path.iterdir()) == []


def test_a_lock_file_removed_by_a_refused_run_is_locked_afresh(tmp_path):
    """A run that locked the lock file a refused run then removed (it opened the file before the
    removal) sees the file is gone and locks the one at the path: two runs never both hold one."""
    import fcntl

    from arena.results.files import still_locked

    refused = Store.open(tmp_path, "t")
    lock = tmp_path / "t.lock"
    waiting = os.open(lock, os.O_RDWR)  # a second run, between its open and its flock
    assert refused.abandon() is True and not lock.exists()
    fcntl.flock(waiting, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the removed file: nobody else holds it
    assert not still_locked(waiting, lock)
    os.close(waiting)
    with Store.open(tmp_path, "t") as store:
        assert still_locked(store.lock_fd, lock)
        with pytest.raises(ResultsError, match="already being run"):
            Store.open(tmp_path, "t")


def test_a_lock_file_that_was_there_stays(tmp_path):
    (tmp_path / "t.lock").touch()
    assert Store.open(tmp_path, "t").abandon() is True
    assert [p.name for p in tmp_path.iterdir()] == ["t.lock"]


def test_a_refused_run_leaves_a_stored_tournament_as_it_was(tmp_path, monkeypatch):
    """A store with games, resumed with more games per pairing and then refused: its games and
    its settings stay as they were (no extension recorded)."""
    s = run_tournament(cfg(tmp_path))
    before, info = _stored(s.path), load_tournament(s.path)
    _refuse_pool(monkeypatch)
    with pytest.raises(ConfigError, match="keep dying"):
        run_tournament(cfg(tmp_path, games=8))
    assert _stored(s.path) == before and load_tournament(s.path) == info and info["settings"]["games"] == 4


def test_an_empty_store_left_by_an_earlier_run_is_not_removed(tmp_path, monkeypatch):
    """Only a file this run created is removed: one that was there (even with no game) stays."""
    Store.open(tmp_path, "t").close()
    _refuse_pool(monkeypatch)
    with pytest.raises(ConfigError, match="keep dying"):
        run_tournament(cfg(tmp_path))
    assert (tmp_path / "t.sqlite").is_file() and load_tournament(tmp_path / "t.sqlite")["name"] == "t"


@pytest.mark.parametrize("stuck", [".sqlite", ".log"])
def test_a_refused_run_whose_files_cannot_be_removed_still_exits_2_in_one_line(tmp_path, monkeypatch, capsys,
                                                                              caplog, stuck):
    """The clean-up after a refusal never replaces the refusal: an ``OSError`` removing the new
    database or its empty log is logged, the file left, and the one-line exit 2 stands."""
    import pathlib

    unlink = pathlib.Path.unlink

    def unlink_or_not(self, missing_ok=False):
        if self.name.endswith(stuck):
            raise PermissionError(13, "Permission denied", str(self))
        unlink(self, missing_ok=missing_ok)

    _refuse_pool(monkeypatch)
    monkeypatch.setattr(pathlib.Path, "unlink", unlink_or_not)
    code, out, err = run_cli(["run", "--game", "nim", "--bot", "random", "--bot", "b=random", "--games", "2",
                              "--workers", "1", "--results", str(tmp_path), "--name", "t", "-q"], capsys)
    assert code == 2 and err.count("\n") == 1 and "keep dying" in err and "Traceback" not in err
    assert f"could not remove the empty {'results database' if stuck == '.sqlite' else 'log'}" in caplog.text
    assert (tmp_path / f"t{stuck}").exists()


def test_abandon_never_raises(tmp_path, monkeypatch):
    import arena.results.opening as opening

    def cannot(path):
        raise OSError(5, "Input/output error", str(path))

    s = Store.open(tmp_path, "t")
    monkeypatch.setattr(opening, "remove_db", cannot)  # as Store.abandon calls it
    assert s.abandon() is False
    assert s.lock_fd == -1  # closed all the same: the run lock is released


def test_a_store_that_cannot_be_created_leaves_no_empty_file(tmp_path, monkeypatch):
    """A full disk while the schema is written: the refusal leaves no 0-byte ``.sqlite``."""
    def tiny(path):
        conn = sqlite3.connect(path, timeout=5)
        conn.execute("PRAGMA max_page_count = 1")
        return conn

    monkeypatch.setattr(Store, "_connect", staticmethod(tiny))
    with pytest.raises(ResultsError, match="cannot create results database .* full"):
        run_tournament(cfg(tmp_path))
    assert not list(tmp_path.glob("t.sqlite*"))


def test_the_store_keeps_each_series_start_and_old_stores_compute_it(tmp_path):
    """A run from an openings file stores each series' start (table ``series``); a store
    written before that table (dropped here), or the legacy fixture, gets the same starts
    computed from its settings by ``load_series_start``."""
    from arena.results.store import load_series_start
    game = arena.games.make("nim", pile="15")
    first = game.initial_state(0)
    positions = [first.to_text(), first.play(first.legal_moves()[0]).to_text()]
    openings = tmp_path / "o.txt"
    openings.write_text("\n".join(positions) + "\n")
    s = run_tournament(cfg(tmp_path, games=6, openings=str(openings), openings_order="random"))
    with sqlite3.connect(s.path) as conn:
        stored = dict(conn.execute("SELECT series, start FROM series ORDER BY series"))
    assert sorted(stored) == [0, 1, 2] and set(stored.values()) <= set(positions)
    assert [load_series_start(s.path, k) for k in range(3)] == [stored[k] for k in range(3)]
    with sqlite3.connect(s.path) as conn:
        conn.execute("DROP TABLE series")
    assert [load_series_start(s.path, k) for k in range(3)] == [stored[k] for k in range(3)]
    # a store without an openings file: every series starts from the game's seeded initial state
    plain = run_tournament(cfg(tmp_path, name="plain"))
    assert load_series_start(plain.path, 0) is None
    assert sqlite3.connect(plain.path).execute("SELECT count(*) FROM series").fetchone() == (0,)


def test_a_legacy_store_reports_its_series_starts(tmp_path):
    """The layout-1 fixture (no ``series`` table) still reads: starts come from its settings."""
    import shutil
    from pathlib import Path

    from arena.results.store import load_series_start
    legacy = tmp_path / "legacy.sqlite"  # a reader migrates it in place: a copy
    shutil.copy(Path(__file__).parent / "fixtures" / "legacy_store" / "interaction-13c07c51.sqlite", legacy)
    with sqlite3.connect(f"file:{legacy}?mode=ro", uri=True) as conn:
        assert not conn.execute("SELECT 1 FROM sqlite_master WHERE name='series'").fetchone()
    assert load_series_start(legacy, 0) is None


def test_add_game_stores_none_as_null_and_every_value_as_given(tmp_path):
    """``add_game`` binds ``None`` as a NaN (``arena.results.writing.NULL``: SQLite stores it as NULL,
    without the ``sqlite3`` module's adapter look-up for ``None``): the same rows as ``None``."""
    from arena.games import Outcome
    from arena.referee import GameRecord, MoveRecord

    stats = (MoveRecord(0, -1, "a"), MoveRecord(1, 0, "b", 0.25, None, None, None, None, None),
             MoveRecord(2, 1, "c", 0.5, 7, 3, -1.5, "valid", 12.0), MoveRecord(3, 0, "d", 0.0, 0, 0, 0.0, "", 0.0))
    record = GameRecord(("x", "y"), 5, 1, ("a", "b", "c", "d"), stats, Outcome((1.0, 0.0), (1, 2), "done"), 1.5)
    faulty = GameRecord(("x", "y"), 6, 0, (), (), Outcome((0.0, 0.0), (2, 1), "timeout"), 0.1, 0, "slow", "max-plies=3")
    with Store.open(tmp_path, "t") as store:
        store.begin("t", "nim", {}, 2, 1, {}, [], 2)
        store.add_game(1, 0, record)
        store.add_game(2, 1, faulty)
        rows = store.conn.execute("SELECT ply, seat, move, seconds, nodes, depth, evaluation, status, clock, "
                                  "typeof(nodes), typeof(status) FROM moves ORDER BY ply").fetchall()
        games = store.conn.execute("SELECT fault_seat, fault_detail, adjudication FROM games ORDER BY rowid").fetchall()
    assert rows == [(0, -1, "a", 0.0, 0, 0, None, None, None, "integer", "null"),
                    (1, 0, "b", 0.25, None, None, None, None, None, "null", "null"),
                    (2, 1, "c", 0.5, 7, 3, -1.5, "valid", 12.0, "integer", "text"),
                    (3, 0, "d", 0.0, 0, 0, 0.0, "", 0.0, "integer", "text")]
    assert games == [(None, None, None), (0, "slow", "max-plies=3")]
