"""Narrow terminals (``COLUMNS=80``, ``100``): a table too wide drops its least useful columns
first (the pentanomial counts, draw shares, the average opponent) and keeps what a rating list
is read for — the bot, its Elo and interval, LOS or CFS, games, score; ``--wide`` keeps every
column whatever the width."""

from __future__ import annotations

import pytest

from arena.cli.console import make_console
from arena.reports.output import print_summary
from arena.reports.render import ReportData
from tests.cli_run import run_cli
from tests.reports.frames import games_frame, moves_frame
from tests.reports.stores import make_store

#: the default field's labels: long enough to make the tables wide
FIELD = ["alphabeta:depth=4", "mcts:playouts=300", "greedy", "random"]


def _field() -> ReportData:
    """A round-robin of ``FIELD``, 8 games (4 pairs) a pairing: the stronger bot (earlier in
    ``FIELD``) wins 3 of 4 pairs twice, the fourth pair is split."""
    rows = []
    for i, a in enumerate(FIELD):
        for b in FIELD[i + 1:]:
            rows += [([a, b], [1, 2]), ([b, a], [2, 1])] * 3 + [([a, b], [1, 2]), ([b, a], [1, 2])]
    tour = {"name": "field", "game": "interaction", "num_players": 2, "bots": {label: label for label in FIELD}}
    return ReportData(games_frame(rows), moves_frame([]), tour)


def _headers(text: str) -> dict[str, list[str]]:
    """Table title -> its printed headers (the line after the title)."""
    lines = text.splitlines()
    out = {}
    for i, line in enumerate(lines[:-2]):
        if lines[i + 1].startswith("┏") and lines[i + 2].startswith("┃"):
            out[line.strip()] = [h.strip() for h in lines[i + 2].strip("┃").split("┃")]
    return out


@pytest.mark.parametrize("columns", [80, 100])
def test_a_narrow_terminal_keeps_the_essential_columns(columns, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", str(columns))
    console = make_console()
    assert console.width == columns
    print_summary(_field(), console)
    text = capsys.readouterr().out
    assert max(len(line) for line in text.splitlines()) <= columns
    tables = _headers(text)
    ratings = next(h for t, h in tables.items() if t.startswith("Field table"))
    pairs = next(h for t, h in tables.items() if t.startswith("Two-bot statistics"))
    first = next(h for t, h in tables.items() if t.startswith("First-move advantage"))
    assert {"bot", "Elo", "95% interval", "games", "score", "CFS"} <= set(ratings), ratings
    assert {"pairing", "games", "score", "Elo", "LOS", "p"} <= set(pairs), pairs
    assert "pentanomial" not in pairs and "draws" not in pairs  # the least useful go first
    assert {"scope", "games", "win share", "p", "first-move Elo"} <= set(first), first
    assert "pair CI" not in first and "score CI" not in first
    assert f"left out to fit {columns} columns:" in text and "(--wide, a wider terminal" in text
    if columns == 100:
        assert "W-L-D" in pairs and "95% CI" in first and "Av.Op" in ratings


def test_wide_prints_every_column_whatever_the_width(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    print_summary(_field(), make_console(), wide=True)
    text = capsys.readouterr().out
    assert "left out" not in text
    tables = _headers(text)
    pairs = next(h for t, h in tables.items() if t.startswith("Two-bot statistics"))
    assert pairs == ["pairing", "games", "W-L-D", "score", "draws", "pairs", "pentanomial", "Elo", "±", "nElo",
                     "LOS", "p", "test", "p (Holm)"]
    assert max(len(line) for line in text.splitlines()) > 80  # the tables, not cropped; notes still wrap at 80
    assert "Av.Op" in next(h for t, h in tables.items() if t.startswith("Field table"))


def test_report_wide_option(tmp_path, monkeypatch, capsys):
    path = make_store(tmp_path, "interaction")
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run_cli(["report", str(path), "-s", "pairs", "--no-write"], capsys)
    assert code == 0 and "left out to fit 80 columns:" in out and "pentanomial" in out.split("left out")[-1]
    code, out, _ = run_cli(["report", str(path), "-s", "pairs", "--no-write", "--wide"], capsys)
    assert code == 0 and "left out" not in out
    assert {"pentanomial", "nElo", "p (Holm)"} <= set(next(iter(_headers(out).values())))
