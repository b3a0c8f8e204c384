"""``docs/reference/reports.md`` documents every table and column the report prints, and no
other: the tables of real stores are compared with the page's."""

from __future__ import annotations

import re

import pytest

from arena.reports import SECTIONS, stamp
from arena.reports.render import build_tables, load
from tests.cli_run import run_cli
from tests.docs.blocks import ROOT
from tests.payoff_toy import registered
from tests.reports.stores import make_store

PAGE = ROOT / "docs" / "reference" / "reports.md"
#: tables whose columns are named after the bots
BY_BOT = {"crosstable", "los_matrix", "payoff_los"}


def documented() -> dict[str, set[str]]:
    """Table -> its documented columns: a table is named by a heading (``## pairs``) or a line
    that starts with its name in code (```ladder_steps`, one row per ...``); its rows follow."""
    tables: dict[str, set[str]] = {}
    current = None
    for line in PAGE.read_text().splitlines():
        heading = re.match(r"^#{2,3} (\w+)$", line) or re.match(r"^`(\w+)`[,:]", line)
        if heading:
            current = heading[1]
            tables.setdefault(current, set())
            continue
        row = re.match(r"^\| `(\w+)` \|", line)
        if row and current is not None:
            tables[current].add(row[1])
    return tables


def _undocumented(tables, docs) -> list[str]:
    out = []
    for name, frame in tables.items():
        if name not in docs:
            out.append(f"table {name!r}")
            continue
        cols = {"label"} if name in BY_BOT else set(map(str, frame.columns))
        out += [f"{name}.{c}" for c in sorted(cols - docs[name])]
    return out


def test_every_section_has_a_heading():
    docs = documented()
    assert [s for s in SECTIONS if s not in docs] == []


@pytest.mark.parametrize("game", ["interaction", "sandpile", "ricochet"])
def test_the_columns_of_a_report_are_documented(game, tmp_path):
    tables = build_tables(load(make_store(tmp_path, game, fault=game == "interaction")))
    assert tables, "no table built"
    missing = _undocumented(tables, documented())
    assert missing == [], f"add to docs/reference/reports.md: {missing}"


@pytest.mark.slow
def test_every_documented_column_is_printed(tmp_path, capsys, monkeypatch):
    """The stores above plus an SPRT match, a solo game, an openings file, a ladder, an engine,
    a knockout, a Swiss and a poker field: together they print every documented table and column."""
    stores = [make_store(tmp_path / g, g, fault=g == "interaction") for g in ("interaction", "sandpile", "ricochet")]
    results = str(tmp_path / "results")
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))  # the solved CFR tables, the exploitability
    # the runs' own report files are not what is checked here (the tables below are built from each store)
    monkeypatch.setattr(stamp, "write_report_files", lambda data: ([], data.path.with_suffix(".html")))
    (tmp_path / "starts.txt").write_text("")
    common = ["--results", results, "--workers", "1", "-q"]
    runs = {
        "sprt": ["run", "--bot", "alphabeta:depth=2", "--bot", "random", "--sprt", "elo0=0,elo1=100",
                 "--games", "40"],
        "solo": ["run", "--game", "interaction-solo", "--bot", "interaction-solo-greedy", "--bot", "random"],
        "race": ["run", "--game", "interaction-solo-race", "--games", "1"],
        "book": ["run", "--bot", "greedy", "--bot", "random", "--openings", str(tmp_path / "starts.txt")],
        "four": ["run", "--game", "sandpile", "--bot", "random", "--games", "4", "--fill", "random",
                 "--openings", str(tmp_path / "four.txt")],
        "ladder": ["ladder", "--bot", "alphabeta:depth={1,2,3}", "--games", "4"],
        "poker": ["run", "--game", "openspiel:kuhn_poker", "--bot", "random", "--bot", "openspiel.cfr:iterations=20",
                  "--bot", "ismcts:playouts=10", "--games", "2"],
        "engine": ["run", "--bot", f"sh=exec:{ROOT / 'examples' / 'engines' / 'first_legal.sh'}", "--bot", "random",
                   "--games", "2"],
        "knockout": ["run", "--format", "knockout", "--bot", "random", "--bot", "greedy", "--bot", "r2=random",
                     "--games", "2"],
        "league": ["run", "--bot", "random", "--bot", "greedy", "--bot", "r2=random", "--retire", "r2",
                   "--games", "2"],  # a league's status column
        "swiss": ["run", "--format", "swiss", "--rounds", "2", "--bot", "random", "--bot", "greedy", "--bot",
                  "r2=random", "--bot", "g2=greedy", "--games", "2"],
        "llm": ["run", "--bot", f"lm={ROOT / 'tests' / 'llm_side' / 'net_bots.py'}#Logged", "--bot", "random",
                "--games", "2"],  # a bot that logs its moves as a language model does: the llm section
        "payoff": ["run", "--game", "dice-duel", "--bot", "random", "--bot",  # a game ranked by payoff
                   f"sh=exec:{ROOT / 'examples' / 'engines' / 'first_legal.sh'}", "--bot", "greedy", "--games", "4"],
    }
    assert run_cli(["openings", "random", "interaction", "--plies", "2", "--count", "3", "--out",
                    str(tmp_path / "starts.txt")], capsys)[0] == 0
    assert run_cli(["openings", "random", "sandpile", "--plies", "4", "--count", "2", "--out",
                    str(tmp_path / "four.txt")], capsys)[0] == 0
    with registered():  # the payoff run's game, and its report
        for name, args in runs.items():
            code, out, err = run_cli([*args, "--name", name, *common], capsys)
            assert code == 0, (name, out, err)
            stores.append(tmp_path / "results" / f"{name}.sqlite")
        tables_of = [build_tables(load(path)) for path in stores]
    docs = documented()
    printed: dict[str, set[str]] = {}
    for path, tables in zip(stores, tables_of):
        assert _undocumented(tables, docs) == [], path.name
        for name, frame in tables.items():
            printed.setdefault(name, set()).update(map(str, frame.columns))
    never = [f"{t}.{c}" for t, cols in docs.items() if t not in BY_BOT for c in sorted(cols - printed.get(t, set()))]
    assert never == [], f"documented in docs/reference/reports.md but printed by no report: {never}"
