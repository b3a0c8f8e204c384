"""A results folder this process cannot write (read-only media, a read-only mount, a folder
without write permission): ``arena report``, ``export`` and ``list`` read the stores in it
(SQLite cannot make a WAL database's ``-shm`` file there), an earlier layout is migrated in
memory, and the file is left as it was."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.cli_run import run_cli as cli

LAYOUTS = Path(__file__).parent.parent / "fixtures" / "layouts"


def _read_only(folder: Path) -> None:
    """``folder`` made 0555; the test skipped where this process writes there regardless (root
    with its capabilities ignores permissions)."""
    folder.chmod(0o555)
    try:
        (folder / "probe").touch()
    except PermissionError:
        return
    (folder / "probe").unlink()
    folder.chmod(0o755)
    pytest.skip("this process writes in a 0555 folder (root): permissions are not enforced")


@pytest.fixture
def played(tmp_path, capsys):
    results = tmp_path / "ro"
    code, _, err = cli(["run", "-q", "--game", "known", "--bot", "known:elo=0", "--bot", "known:elo=200", "--games",
                        "40", "--results", str(results), "--name", "kr", "--workers", "1"], capsys)
    assert code == 0, err
    yield results
    results.chmod(0o755)


def test_a_wal_store_in_a_read_only_folder_is_reported_exported_and_listed(played, tmp_path, capsys):
    conn = sqlite3.connect(played / "kr.sqlite")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    played = played.parent / "copy"  # the store alone, in WAL mode, as a finished run leaves it
    played.mkdir()
    shutil.copy(played.parent / "ro" / "kr.sqlite", played / "kr.sqlite")
    db = played / "kr.sqlite"
    assert db.read_bytes()[18:20] == b"\x02\x02"  # the header's WAL mark (no connection: it would make -shm)
    before = db.read_bytes()
    _read_only(played)
    code, out, err = cli(["report", "kr", "--results", str(played), "-s", "leaderboard", "--json"], capsys)
    assert code == 0, err
    assert sum(row["games"] for row in json.loads(out)["tables"]["leaderboard"]) == 80  # two bots, 40 games each
    code, out, err = cli(["export", "kr", "--results", str(played), "--format", "csv", "--out", "-"], capsys)
    assert code == 0 and len(out.strip().splitlines()) == 41, err
    code, out, err = cli(["report", "kr", "--results", str(played), "--html", str(tmp_path / "x.html")], capsys)
    assert "cannot read" not in err  # it reads; its report.md and CSVs cannot be written beside the store
    code, out, err = cli(["list", "--results", str(played), "--json"], capsys)
    assert code == 0 and json.loads(out)[0]["games"] == 40, (out, err)
    played.chmod(0o755)
    assert db.read_bytes() == before


def test_games_in_a_wal_journal_left_beside_the_store_are_read(played, capsys):
    db = played / "kr.sqlite"
    copy = played.parent / "copy"
    copy.mkdir()
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("DELETE FROM games WHERE game_id > 30")  # a change only the journal holds
    conn.commit()
    for suffix in ("", "-wal"):
        shutil.copy(played / f"kr.sqlite{suffix}", copy / f"kr.sqlite{suffix}")
    conn.close()
    assert (copy / "kr.sqlite-wal").stat().st_size > 0 and not (copy / "kr.sqlite-shm").exists()
    _read_only(copy)
    try:
        code, out, err = cli(["export", "kr", "--results", str(copy), "--format", "csv", "--out", "-"], capsys)
        assert code == 0 and len(out.strip().splitlines()) == 31, err
    finally:
        copy.chmod(0o755)


def test_an_earlier_layout_in_a_read_only_folder_is_migrated_in_memory(tmp_path, capsys, caplog):
    folder = tmp_path / "R"
    folder.mkdir()
    shutil.copy(LAYOUTS / "acb775b" / "old.sqlite", folder / "old.sqlite")
    before = (folder / "old.sqlite").read_bytes()
    _read_only(folder)
    try:
        code, out, err = cli(["report", "old", "--results", str(folder), "--json"], capsys)
        assert code == 0, err
        assert [r.getMessage().endswith("left as it is)") for r in caplog.records if "migrated" in r.getMessage()] \
            == [True]  # said once, though the report opens the store several times
        assert json.loads(out) == json.loads((LAYOUTS / "acb775b" / "report.json").read_text())
        code, out, err = cli(["list", "--results", str(folder), "--json"], capsys)
        assert code == 0 and "error" not in json.loads(out)[0], out
    finally:
        folder.chmod(0o755)
    assert (folder / "old.sqlite").read_bytes() == before


def test_a_store_that_still_cannot_be_read_there_names_the_read_only_folder(played, capsys):
    conn = sqlite3.connect(played / "kr.sqlite")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("DELETE FROM games WHERE game_id > 30")
    conn.commit()
    copy = played.parent / "copy"
    copy.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(played / f"kr.sqlite{suffix}", copy / f"kr.sqlite{suffix}")
    conn.close()
    (copy / "kr.sqlite-wal").chmod(0)  # a journal this process may not read
    _read_only(copy)
    try:
        code, _, err = cli(["report", "kr", "--results", str(copy), "-s", "leaderboard"], capsys)
        assert code == 2 and err.startswith("error: cannot read results database") and len(err.splitlines()) == 1
        assert f"read-only folder {str(copy)!r}" in err
    finally:
        copy.chmod(0o755)


def test_a_report_without_sections_prints_and_writes_nothing_there(played, capsys, monkeypatch):
    """``arena report NAME`` writes NAME.report.md and its CSV files by default; where the folder
    cannot be written it prints the report, says in one line that no file was written, and exits
    0 (``--write`` asked for them: a one-line error, exit 2, after the report). Run as root, which
    writes in a 0555 folder, the folder is made read-only to ``os.access`` as a read-only mount is."""
    import os

    import arena.cli.report as report_cli

    before = sorted(p.name for p in played.iterdir())
    played.chmod(0o555)
    try:
        (played / "probe").touch()
    except PermissionError:
        pass
    else:
        (played / "probe").unlink()
        real = os.access
        monkeypatch.setattr(report_cli.os, "access", lambda p, mode, **k: False if Path(p) == played and mode & os.W_OK
                            else real(p, mode, **k))
    code, out, err = cli(["report", "kr", "--results", str(played)], capsys)
    assert code == 0 and err == "", err
    assert "leaderboard" in out.lower() and "cannot be written: no report files" in " ".join(out.split())
    assert sorted(p.name for p in played.iterdir()) == before
    code, out, err = cli(["report", "kr", "--results", str(played), "--write"], capsys)
    if err:  # permissions enforced: the files cannot be made
        assert code == 2 and err.startswith("error: cannot write the report into") and len(err.splitlines()) == 1
    played.chmod(0o755)
    if not err:  # root: os.access said read-only, but --write writes (the folder is writable after all)
        assert code == 0
        return
    assert sorted(p.name for p in played.iterdir()) == before
