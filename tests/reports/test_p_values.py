"""Every p-value the terminal prints: exact for small samples (the sign test on pairs, the
binomial test of the first move), tail sums that keep their digits, and never ``0``: a p-value
that underflowed prints as ``< 1e-300``."""

from __future__ import annotations

import io
import re

from rich.console import Console

from arena.reports.display import format_p, format_value
from arena.reports.output import print_tables
from arena.reports.render import ReportData
from tests.reports.frames import games_frame, moves_frame

#: a's points of a game -> (ranks with a in seat 0, ranks with a in seat 1)
RANKS = {1: ([1, 2], [2, 1]), 0.5: ([1, 1], [1, 1]), 0: ([2, 1], [1, 2])}


def _match(points: list[float]) -> ReportData:
    """A two-bot match, game pairs with the seats swapped, ``points`` a's in game order."""
    rows = [(["a", "b"], RANKS[p][0]) if i % 2 == 0 else (["b", "a"], RANKS[p][1]) for i, p in enumerate(points)]
    tour = {"name": "m", "game": "interaction", "num_players": 2, "bots": {"a": "random", "b": "greedy"}}
    return ReportData(games_frame(rows), moves_frame([]), tour)


def _cells(data: ReportData, section: str, table: str) -> list[dict[str, str]]:
    """The printed rows of ``table`` as {header: cell}, at 200 columns."""
    out = io.StringIO()
    print_tables(data, Console(file=out, width=200, force_terminal=False), [section])
    lines = out.getvalue().splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("┃"))
    headers = [h.strip() for h in lines[head].strip("┃").split("┃")]
    rows = []
    for line in lines[head + 2:]:
        if not line.startswith("│"):
            break
        rows.append(dict(zip(headers, (c.strip() for c in line.strip("│").split("│")))))
    assert rows, f"no {table} rows printed"
    return rows


def test_format_p():
    assert format_p(0.0214843) == "0.0215" == format_value("p_value", 0.0214843)
    assert format_p(1.0) == "1" and format_p(float("nan")) == "-"
    assert format_p(1e-300) == "1e-300" and format_p(3.2e-250) == "3.2e-250"
    for tiny in (0.0, 5e-324, 9.9e-301):
        assert format_p(tiny) == "< 1e-300" == format_value("p_holm", tiny)


def test_the_issue_cases_print_the_exact_sign_test():
    """The three results of the issue (W-L-D): 0-20-0 printed p 7.7e-06 (a normal model with no
    spread), 1-18-1 printed 4.6e-17, 47-0-3 printed 0. The exact sign test on the pairs won and
    lost: 2·2^-10, 2·2^-9, 2·2^-25."""
    cases = {"0-20-0": ([0] * 20, "0.00195"), "1-18-1": ([1, 0, 0.5, 0] + [0] * 16, "0.00391"),
             "47-0-3": ([1] * 44 + [1, 0.5] * 3, "5.96e-08")}
    for wld, (points, p) in cases.items():
        (row,) = _cells(_match(points), "pairs", "pairs")
        assert (row["W-L-D"], row["test"], row["p"], row["p (Holm)"]) == (wld, "sign", p, p), row


def test_an_underflowed_p_value_prints_as_below_1e_300():
    # 10 pairs lost, 600 won twice: the normal model's z ≈ 66, 2·Φ(−z) is below the smallest double
    (row,) = _cells(_match([0, 0] * 10 + [1, 1] * 600), "pairs", "pairs")
    assert (row["test"], row["p"], row["p (Holm)"]) == ("normal", "< 1e-300", "< 1e-300")
    # seat 0 wins all 2,200 games: the exact binomial test's 2·2^-2200 underflows to 0
    rows = _cells(_match([1, 0] * 1100), "first_move", "first_move")
    assert rows[0]["W-L-D"] == "2200-0-0" and rows[0]["p"] == "< 1e-300"
    assert not any(re.fullmatch(r"0(\.0+)?", r[c]) for r in rows for c in ("p", "p (Holm)"))
