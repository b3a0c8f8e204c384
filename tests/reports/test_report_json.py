"""``arena report --json`` holds every table the terminal report can show (issue 41: it left out
the openings table of a tournament from random starts, although its help says "every table")."""

from __future__ import annotations

import json

import pytest

from arena.reports import SECTIONS
from arena.reports.render import PART_OF
from arena.tournament.config import build
from arena.tournament.runner import run_tournament
from tests.cli_run import run_cli
from tests.registered import register_game


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch):
    register_game(monkeypatch, "nim", "tests.toy:Nim")


def test_the_json_sections_are_every_section_that_shows_a_table(tmp_path, capsys):
    run_tournament(build(dict(game="nim", bots=["random", "b=random"], workers=1, results=str(tmp_path), games=8,
                              opening_plies=1, name="plies")))
    code, out, _ = run_cli(["report", "plies", "--results", str(tmp_path), "--json"], capsys)
    assert code == 0
    every = {PART_OF.get(name, name) for name in json.loads(out)["tables"]}
    shown = set()
    for section in SECTIONS:
        code, out, _ = run_cli(["report", "plies", "--results", str(tmp_path), "--json", "-s", section], capsys)
        assert code == 0
        if json.loads(out)["tables"]:
            shown.add(section)
    assert "openings" in shown
    assert every == shown


def _strict(text: str) -> dict:
    """``text`` parsed as strict JSON: ``NaN``, ``Infinity`` and ``-Infinity`` refused."""
    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is no JSON")

    return json.loads(text, parse_constant=refuse)


def test_the_json_is_strict_with_infinite_and_nan_values(tmp_path, capsys):
    """A store whose settings hold ±inf and NaN (a library caller's ``Store.begin``): every
    non-finite number prints as ``null``, as the tables' NaN and ±inf do."""
    import math

    from arena.results.store import Store

    run_tournament(build(dict(game="nim", bots=["random", "b=random"], workers=1, results=str(tmp_path), games=4,
                              name="odd")))
    with Store.open(tmp_path, "odd") as store:
        settings, total = store.stored()
        store.set_settings({**settings, "budget": math.inf, "floor": -math.inf, "spread": math.nan,
                            "steps": [1.5, math.inf]}, total)
    code, out, _ = run_cli(["report", "odd", "--results", str(tmp_path), "--json"], capsys)
    assert code == 0
    settings = _strict(out)["tournament"]["settings"]
    assert [settings[k] for k in ("budget", "floor", "spread", "steps")] == [None, None, None, [1.5, None]]
