"""Exports and reports are written to a temporary file and renamed into place (issue 29,
``arena.results.writing.atomic_path``): a writer interrupted midway (Ctrl-C, a full disk) leaves no
partial file, and a file already at the final name stays as it was."""

import errno
import os
from pathlib import Path

import pandas as pd
import pytest

import arena.cli.export as export_cli
from arena.cli.app import main
from arena.errors import ResultsError
from arena.reports.html import write_html
from arena.reports.output import write_files
from arena.reports.render import load
from arena.tournament import build, run_tournament
from arena.results.writing import atomic_path

OLD = "the old file, complete\n"


def full_disk() -> OSError:
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("atomic")
    cfg = build({"game": "interaction", "bots": ["a=random", "b=random"], "games": 2, "workers": 1,
                 "results": str(folder), "name": "t", "opening_plies": 0})
    return run_tournament(cfg).path


def only(folder: Path, target: Path) -> None:
    """``target`` holds ``OLD`` and no temporary file is left in ``folder``."""
    assert target.read_text() == OLD
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("error", [KeyboardInterrupt, full_disk])
def test_atomic_path_keeps_the_old_file_when_the_writer_fails(tmp_path, error):
    target = tmp_path / "out.csv"
    target.write_text(OLD)
    with pytest.raises((KeyboardInterrupt, OSError)):
        with atomic_path(target) as tmp:
            tmp.write_text("half a li")
            raise error()
    only(tmp_path, target)


def test_atomic_path_replaces_whole_and_keeps_the_mode(tmp_path):
    target = tmp_path / "out.csv"
    target.write_text(OLD)
    target.chmod(0o640)
    with atomic_path(target) as tmp:
        tmp.write_text("new\n")
    assert target.read_text() == "new\n" and target.stat().st_mode & 0o777 == 0o640
    fresh = tmp_path / "fresh.csv"
    with atomic_path(fresh) as tmp:
        tmp.write_text("x\n")
    mask = os.umask(0)
    os.umask(mask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~mask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.csv", "out.csv"]


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_export_interrupted_midway_leaves_the_old_file(db, tmp_path, monkeypatch, fmt):
    target = tmp_path / f"games.{fmt}"
    target.write_text(OLD)
    real = export_cli.write

    def ctrl_c_after_a_line(df, fmt, out):
        real(df.head(1), fmt, out)
        raise KeyboardInterrupt

    monkeypatch.setattr(export_cli, "write", ctrl_c_after_a_line)
    with pytest.raises(SystemExit) as exc:  # Ctrl-C: "interrupted", exit 130
        main(["export", str(db), "--format", fmt, "--out", str(target)])
    assert exc.value.code == 130
    only(tmp_path, target)
    monkeypatch.setattr(export_cli, "write", real)
    with pytest.raises(SystemExit) as exc:
        main(["export", str(db), "--format", fmt, "--out", str(target)])
    assert exc.value.code in (0, None) and target.read_text() != OLD


def test_export_on_a_full_disk_is_one_line_and_keeps_the_old_file(db, tmp_path, monkeypatch, capsys):
    target = tmp_path / "games.csv"
    target.write_text(OLD)

    def disk_full(df, fmt, out):
        out.write("game_id,se")
        raise full_disk()

    monkeypatch.setattr(export_cli, "write", disk_full)
    with pytest.raises(SystemExit) as exc:
        main(["export", str(db), "--format", "csv", "--out", str(target)])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "No space left on device" in err and "Traceback" not in err
    only(tmp_path, target)


def test_report_csv_on_a_full_disk_leaves_no_empty_csv(db, tmp_path, monkeypatch):
    data = load(db)
    paths = write_files(data, tmp_path)  # a complete report first
    csv = next(p for p in paths if p.suffix == ".csv")
    csv.write_text(OLD)
    real = pd.DataFrame.to_csv

    def to_csv_fails(self, path, *args, **kwargs):
        Path(path).write_text("")
        raise full_disk()

    monkeypatch.setattr(pd.DataFrame, "to_csv", to_csv_fails)
    with pytest.raises(ResultsError, match="No space left"):
        write_files(data, tmp_path)
    monkeypatch.setattr(pd.DataFrame, "to_csv", real)
    only(tmp_path, csv)


def test_html_report_on_a_full_disk_leaves_the_old_page(db, tmp_path, monkeypatch):
    target = tmp_path / "t.html"
    target.write_text(OLD)
    real = Path.write_text

    def half_then_full(self, text, *args, **kwargs):
        real(self, text[: len(text) // 2], *args, **kwargs)
        raise full_disk()

    monkeypatch.setattr(Path, "write_text", half_then_full)
    with pytest.raises(ResultsError, match="No space left"):
        write_html(db, out=target)
    monkeypatch.setattr(Path, "write_text", real)
    only(tmp_path, target)
