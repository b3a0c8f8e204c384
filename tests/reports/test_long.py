"""Long tables written fast (``arena.reports.long``) are the text rich and tabulate write."""

import io
import random

import pandas as pd
import pytest
from rich.console import Console
from rich.text import Text

from arena.reports.long import SHORT, RowsTable, markdown_table

WORDS = ["r000", "vs", "r012", "mcts-long-label", "ab3", "–", "σ", "+12.5", "[-3.1, +4.0]", "50.0%", "1-0-1",
         "0 0 1 0 0", "x" * 30, "宽字", "é"]


def cell(rng: random.Random) -> str:
    if rng.random() < 0.05:
        return ""
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))


def random_table(rng: random.Random, rows: int) -> RowsTable:
    k = rng.randint(1, 7)
    columns = [(rng.choice(["bot", "games", "95% CI", "first-move Elo", "σ"]), rng.random() < 0.5, rng.randint(1, 6))
               for _ in range(k)]
    body = [[cell(rng) for _ in range(k)] for _ in range(rows)]
    caption = "left out to fit: elo" if rng.random() < 0.3 else None
    return RowsTable("A title that may be longer than the table is wide", caption, columns, body)


def printed(renderable, width: int, terminal: bool) -> str:
    console = Console(file=io.StringIO(), width=width, force_terminal=terminal,
                      color_system="truecolor" if terminal else None)
    console.print(renderable)
    return console.file.getvalue()


def library(table: RowsTable, width: int, terminal: bool) -> str:
    """What rich alone prints for ``table``: its title on a line of its own when wider than
    the table, then the table (the title inside it otherwise)."""
    console = Console(file=io.StringIO(), width=width)
    apart = table.title_apart(console, console.options)
    table.titled = not apart
    try:
        body = printed(table.table(table.rows), width, terminal)
    finally:
        table.titled = True
    return (printed(Text(table.title, style="table.title"), width, terminal) if apart else "") + body


@pytest.mark.parametrize("seed", range(12))
def test_rows_table_prints_what_rich_prints(seed):
    rng = random.Random(seed)
    table = random_table(rng, SHORT + rng.randint(1, 40))
    for width in (30, 60, 80, 160):
        for terminal in (False, True):
            assert printed(table, width, terminal) == library(table, width, terminal), (width, terminal)


def test_a_long_plain_table_takes_the_fast_path_even_when_cells_wrap():
    rows = [[f"r{i:03d} vs r{j:03d}", str(i * j), f"{i / 7:+.1f} [{-i:+.1f}, {j:+.1f}]"]
            for i in range(30) for j in range(5)]
    table = RowsTable("Pairs", None, [("pairing", False, 4), ("games", True, 5), ("Elo", True, 20)], rows)
    for width in (40, 160):  # the pairing column wraps at 40 columns
        console = Console(file=io.StringIO(), width=width)
        assert table._fast(console, console.options) is not None
        assert printed(table, width, False) == library(table, width, False)
    broken = RowsTable("Pairs", None, table.columns, [*rows, ["a\nb", "1", "2"]])
    console = Console(file=io.StringIO(), width=160)
    assert broken._fast(console, console.options) is None  # a line break: rich lays it out


@pytest.mark.parametrize("seed", range(6))
def test_markdown_table_is_tabulates(seed):
    rng = random.Random(100 + seed)
    table = random_table(rng, SHORT + rng.randint(1, 40))
    names = [f"{header} {i}" for i, (header, _, _) in enumerate(table.columns)]
    right = [r for _, r, _ in table.columns]
    frame = pd.DataFrame(table.rows, columns=names, dtype=object)
    expected = frame.to_markdown(index=False, disable_numparse=True, colalign=["right" if r else "left" for r in right])
    assert markdown_table(names, table.rows, right) == expected


def test_a_title_wider_than_its_table_gets_a_line_of_its_own():
    rows = [["ab2", "+12.5"], ["greedy", "-12.5"]]
    columns = [("bot", False, 1), ("Elo", True, 1)]
    long_title = "Elo (Bradley–Terry, all games at once, first-move term, mean 0)"
    lines = printed(RowsTable(long_title, None, columns, rows), 100, False).splitlines()
    assert lines[0] == long_title  # one line, not a word or two a line at the table's width
    assert lines[1].startswith("┏") and len(lines[1]) < len(long_title)
    short = RowsTable("Elo", None, columns, rows)
    assert printed(short, 100, False) == printed(short.table(rows), 100, False)  # rich's own title
    narrow = printed(RowsTable(long_title, None, columns, rows), 40, False).splitlines()
    assert [line.rstrip() for line in narrow[:2]] == ["Elo (Bradley–Terry, all games at once,",
                                                      "first-move term, mean 0)"]
