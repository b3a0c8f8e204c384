"""A damaged results database read by ``arena report`` and ``arena export``: one line naming
the damage and the database, no traceback, the file left as it was."""

from __future__ import annotations

import sqlite3

from tests.cli_run import run_cli as cli


def _played(tmp_path, capsys, games: int = 400):
    results = tmp_path / "res"
    code, _, err = cli(["run", "-q", "--game", "known", "--bot", "known:elo=0", "--bot", "known:elo=200",
                        "--games", str(games), "--results", str(results), "--name", "k", "--workers", "1"], capsys)
    assert code == 0, err
    db = results / "k.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return results, db


def _zero(db, offset: int, size: int) -> None:
    with open(db, "r+b") as f:
        f.seek(offset)
        f.write(b"\0" * size)


def test_report_on_a_damaged_games_page_is_one_line_naming_the_database(tmp_path, capsys):
    results, db = _played(tmp_path, capsys)
    conn = sqlite3.connect(db)
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    leaves = [r[0] for r in conn.execute("SELECT pageno FROM dbstat WHERE name='games' AND pagetype='leaf' "
                                         "ORDER BY pageno")]
    conn.close()
    _zero(db, (leaves[1] - 1) * page + 200, 1500)
    before = db.read_bytes()
    code, out, err = cli(["report", "k", "--results", str(results), "-s", "leaderboard"], capsys)
    assert code == 2, err
    assert err.startswith("error: cannot read results database") and "k.sqlite" in err
    assert "damaged game row" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert db.read_bytes() == before


def test_export_of_a_store_damaged_outside_its_games_warns_in_one_line_and_exports_them(tmp_path, capsys):
    results, db = _played(tmp_path, capsys, games=40)
    conn = sqlite3.connect(db)
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    bots = conn.execute("SELECT pageno FROM dbstat WHERE name='bots'").fetchone()[0]
    conn.close()
    _zero(db, (bots - 1) * page, 64)
    before = db.read_bytes()
    code, _, err = cli(["report", "k", "--results", str(results), "-s", "leaderboard"], capsys)
    assert code == 2 and "malformed" in err
    code, out, err = cli(["export", "k", "--results", str(results), "--format", "csv", "--out", "-"], capsys)
    assert code == 0, err
    assert len(out.strip().splitlines()) == 41  # the header and every game
    assert err.startswith("warning: results database") and "k.sqlite" in err and "is damaged" in err
    assert len(err.strip().splitlines()) == 1
    assert db.read_bytes() == before
    code, out, err = cli(["export", "k", "--results", str(results), "--format", "csv"], capsys)
    assert code == 0 and "is damaged" in err and "40 games written" in out
