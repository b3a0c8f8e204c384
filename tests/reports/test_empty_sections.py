"""``arena report NAME --section S`` for a section with nothing in the tournament: one line
saying why (in the terminal, and under ``empty`` in ``--json``), exit 0."""

from __future__ import annotations

import json

import pytest

from tests.cli_run import run_cli as cli


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    results = tmp_path_factory.mktemp("res")
    from arena.cli.app import app
    from typer.testing import CliRunner

    done = CliRunner().invoke(app, ["run", "-q", "--game", "interaction", "--bot", "random", "--bot", "greedy",
                                    "--games", "2", "--workers", "1", "--results", str(results), "--name", "tour"])
    assert done.exit_code == 0, done.output
    return results


@pytest.mark.parametrize("section, why", [
    ("sprt", "it was not run with --sprt"),
    ("payoffs", "interaction ranks by places"),
    ("ricochet", "race games"),
    ("exploitability", "OpenSpiel games with hidden information"),
])
def test_an_empty_section_says_why_in_one_line(tour, capsys, section, why):
    code, out, err = cli(["report", "tour", "--results", str(tour), "--section", section], capsys)
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 2 and lines[1].startswith(f"no {section} in this tournament (") and why in lines[1]
    code, out, err = cli(["report", "tour", "--results", str(tour), "-s", f"{section},leaderboard", "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert list(report["empty"]) == [section] and why in report["empty"][section]
    assert list(report["tables"]) == ["leaderboard"]


def test_a_section_with_a_table_has_no_empty_line(tour, capsys):
    code, out, err = cli(["report", "tour", "--results", str(tour), "-s", "leaderboard", "--json"], capsys)
    assert code == 0 and json.loads(out)["empty"] == {}, err
    code, out, err = cli(["report", "tour", "--results", str(tour), "--json"], capsys)
    assert code == 0 and "empty" not in json.loads(out)
