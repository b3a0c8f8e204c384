"""Output paths a user names (``--out``, ``--html FILE``): one that holds stored results (a
database, its ``-wal``/``-shm``/``-journal`` file, the run's lock or log) is refused before
anything is written, and ``-`` means standard output in every command, as in ``arena export``
(``arena.results.writing.atomic_path``)."""

import hashlib
import shutil
from pathlib import Path

import pytest

from arena.cli.app import main
from arena.errors import ResultsError
from arena.results.writing import atomic_path
from arena.tournament import build, run_tournament


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("outputs")
    for name in ("tour", "kr"):
        cfg = build({"game": "interaction", "bots": ["a=random", "b=random"], "games": 4, "workers": 1,
                     "results": str(folder), "name": name, "opening_plies": 2})
        run_tournament(cfg)
    return folder


@pytest.fixture
def results(stored, tmp_path) -> Path:
    """A private copy of the stored tournaments (a test that fails must not spoil the others)."""
    folder = tmp_path / "results"
    shutil.copytree(stored, folder)
    return folder


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(args: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return exc.value.code or 0, out, err


@pytest.mark.parametrize("args, victim", [
    (["export", "tour", "--out", "{r}/tour.sqlite"], "tour.sqlite"),
    (["export", "kr", "--out", "{r}/tour.sqlite", "--format", "csv"], "tour.sqlite"),
    (["export", "tour", "--out", "{r}/tour.lock"], "tour.lock"),
    (["export", "tour", "--out", "{r}/tour.log"], "tour.log"),
    (["export", "tour", "--out", "{r}/kr.sqlite-journal"], None),
    (["report", "kr", "--html", "{r}/kr.sqlite"], "kr.sqlite"),
    (["report", "kr", "--html", "{r}/tour.sqlite-wal"], None),
    (["openings", "select", "kr", "--out", "{r}/kr.sqlite"], "kr.sqlite"),
    (["openings", "random", "interaction", "--count", "3", "--out", "{r}/kr.sqlite"], "kr.sqlite"),
])
def test_an_output_over_stored_results_is_refused_and_nothing_is_written(results, capsys, args, victim):
    before = {p.name: digest(p) for p in results.iterdir()}
    argv = [a.format(r=results) for a in args] + ([] if args[0] == "openings" and args[1] == "random"
                                                   else ["--results", str(results)])
    code, _, err = run(argv, capsys)
    target = next(a for a in argv if a.startswith(str(results)))
    assert code == 2, err
    assert err.count("\n") == 1 and repr(target) in err and "results database" in err and "Traceback" not in err
    after = {p.name: digest(p) for p in results.iterdir() if not p.name.endswith(("-wal", "-shm"))}
    assert after == {k: v for k, v in before.items() if not k.endswith(("-wal", "-shm"))}  # no file written
    if victim is not None:
        assert digest(results / victim) == before[victim]


def test_atomic_path_refuses_a_database_reached_by_a_link(results, tmp_path):
    link = tmp_path / "games.jsonl"
    link.symlink_to(results / "tour.sqlite")
    with pytest.raises(ResultsError, match="results database"):
        with atomic_path(link) as tmp:
            tmp.write_text("{}\n")
    assert (results / "tour.sqlite").read_bytes()[:16] == b"SQLite format 3\x00"


def test_a_log_without_a_database_beside_it_is_an_ordinary_file(tmp_path):
    target = tmp_path / "notes.log"
    target.write_text("old\n")
    with atomic_path(target) as tmp:
        tmp.write_text("new\n")
    assert target.read_text() == "new\n"


def test_openings_random_dash_writes_to_stdout(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["openings", "random", "interaction", "--plies", "4", "--count", "5", "--out", "-"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("# 5 positions") and len(lines) == 6 and "wrote stdout: 5 positions" in err
    assert not (tmp_path / "-").exists()


def test_openings_select_dash_writes_to_stdout(results, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["openings", "select", "tour", "--results", str(results), "--out", "-",
                          "--max-bias", "0.5", "--min-games", "1"], capsys)
    assert code == 0, err
    assert out.startswith("# ") and "written by arena openings select" in out and "wrote stdout" in err
    assert not (tmp_path / "-").exists()


def test_report_html_dash_writes_the_page_to_stdout(results, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["report", "kr", "--results", str(results), "--html", "-"], capsys)
    assert code == 0, err
    assert out.lstrip().startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
    assert "wrote the HTML report to stdout" in err
    assert not (tmp_path / "-").exists()
