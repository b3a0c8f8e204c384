"""An engine's ``id name`` (``docs/engine-protocol.md``: "shown in reports") is stored beside
its label in the ``bots`` table and shown in the report; stores written before the column
existed still read, and a run that resumes one stores the name."""

import json
import shutil
import sqlite3
from pathlib import Path

from arena.reports.output import report_json, write_report
from arena.reports.render import load
from arena.results.store import load_tournament
from arena.tournament import build, run_tournament

FIRST = Path(__file__).parents[2] / "examples" / "engines" / "first_legal.sh"
LEGACY = Path(__file__).parents[1] / "fixtures" / "legacy_store" / "interaction-13c07c51.sqlite"


def _run(tmp_path, **extra):
    values = dict(game="interaction", bots=[f"sh=exec:{FIRST}", "random"], games=2, workers=1,
                  results=str(tmp_path), name="named")
    return run_tournament(build(values | extra))


def test_the_id_name_is_stored_and_shown_in_the_report(tmp_path):
    summary = _run(tmp_path)
    assert summary.stored == 2
    tour = load_tournament(summary.path)
    assert tour["id_names"] == {"sh": "first-legal-sh"}  # random says none
    tables = json.loads(report_json(load(summary.path), ["leaderboard", "ratings"]))["tables"]
    for name in ("leaderboard", "ratings"):  # beside the label in both bot tables
        engines = {row["label"]: row["engine"] for row in tables[name]}
        assert engines.pop("sh") == "first-legal-sh" and set(engines.values()) == {""}
    markdown = next(p for p in write_report(summary.path) if p.suffix == ".md").read_text()
    assert "- bot `sh` (first-legal-sh): `sh=exec:" in markdown
    assert "| sh " in markdown and "first-legal-sh" in markdown.split("## Leaderboard")[1].split("##")[0]


def test_a_store_without_the_column_reads_and_a_resumed_run_adds_the_name(tmp_path):
    old = tmp_path / "old.sqlite"
    shutil.copy(LEGACY, old)
    assert load_tournament(old)["id_names"] == {}  # schema 1: no id_name column, still read
    assert "engine" not in json.loads(report_json(load(old), ["leaderboard"]))["tables"]["leaderboard"][0]

    summary = _run(tmp_path)  # a store of this arena, its names cleared as a migrated earlier one has none
    with sqlite3.connect(summary.path) as conn:
        conn.execute("UPDATE bots SET id_name = NULL")
    assert load_tournament(summary.path)["id_names"] == {}
    again = _run(tmp_path, games=4)  # resumed (and extended): the name is stored
    assert again.stored == again.total == 4
    assert load_tournament(again.path)["id_names"] == {"sh": "first-legal-sh"}
