"""The report's ``llm`` section: what network players (language models, ``arena.llm``) cost and
how they answered, from the move logs stored with each game (``arena.results.logs``).

One row per bot that logged a move or had a game voided: ``games`` (stored games it logged
in), ``moves`` (its logged moves), ``tokens_in`` / ``tokens_out`` per game (the server's
prompt and completion tokens), ``cost`` per game (USD; empty when the bot has no prices),
``latency_p50`` / ``latency_p95`` (seconds per move: the answered requests' round trips),
``cached`` (share of its moves answered from the response cache), ``illegal_1``,
``illegal_2``, ``illegal_3`` (share of the answers at the first attempt, the first re-ask,
later re-asks that were not a legal move: illegal, unparsable or cut off; a provider's error
is no answer), and ``void`` (games a provider's failure voided, kept apart from the results:
``arena.tournament.voids``). The section is left out when no bot logged and no game was void.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

COLUMNS = ["bot", "games", "moves", "tokens_in", "tokens_out", "cost", "latency_p50", "latency_p95", "cached",
           "illegal_1", "illegal_2", "illegal_3", "void"]
#: verdicts of a transcript entry that are no answer of the model's (``arena.llm``)
NO_ANSWER = frozenset({"provider_error"})
#: the verdict of a legal answer (``arena.llm.answers``; ``ok`` also read)
LEGAL = frozenset({"legal", "ok"})


class _Tally:
    def __init__(self) -> None:
        self.games = self.moves = self.cached = 0
        self.tokens_in = self.tokens_out = 0.0
        self.cost: float | None = None
        self.latency: list[float] = []
        self.asked = [0, 0, 0]
        self.illegal = [0, 0, 0]

    def move(self, log: dict[str, Any]) -> None:
        self.moves += 1
        self.tokens_in += _number(log.get("tokens_in"))
        self.tokens_out += _number(log.get("tokens_out"))
        if isinstance(log.get("cost"), (int, float)):
            self.cost = (self.cost or 0.0) + float(log["cost"])
        if isinstance(log.get("latency"), (int, float)):
            self.latency.append(float(log["latency"]))
        self.cached += bool(log.get("cached"))
        for attempt in log.get("transcript") or []:
            if not isinstance(attempt, dict) or attempt.get("verdict") in NO_ANSWER:
                continue
            k = min(max(int(_number(attempt.get("attempt")) or 1), 1), 3) - 1
            self.asked[k] += 1
            self.illegal[k] += attempt.get("verdict") not in LEGAL

    def row(self, label: str, void: int) -> list[Any]:
        games = max(self.games, 1)
        lat = np.percentile(self.latency, [50, 95]) if self.latency else (np.nan, np.nan)
        shares = [self.illegal[k] / self.asked[k] if self.asked[k] else np.nan for k in range(3)]
        return [label, self.games, self.moves, self.tokens_in / games, self.tokens_out / games,
                np.nan if self.cost is None else self.cost / games, float(lat[0]), float(lat[1]),
                self.cached / self.moves if self.moves else np.nan, *shares, void]


def _number(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def llm_table(games: Sequence[tuple[list[str], list[dict[str, Any]]]], voids: dict[str, int],
              order: Sequence[str]) -> pd.DataFrame | None:
    """The ``llm`` table (module docstring) of ``games`` ((seats, move logs) per logged game,
    ``arena.results.logs.logged_games``) and ``voids`` (void games per bot label); bots in
    ``order``, others after; ``None`` when nobody logged and no game was void."""
    tallies: dict[str, _Tally] = {}
    for seats, logs in games:
        seen = set()
        for entry in logs:
            seat, log = entry.get("seat"), entry.get("log")
            if not isinstance(seat, int) or not 0 <= seat < len(seats) or not isinstance(log, dict):
                continue
            label = seats[seat]
            tally = tallies.setdefault(label, _Tally())
            tally.move(log)
            if label not in seen:
                seen.add(label)
                tally.games += 1
    if not tallies and not any(voids.values()):
        return None
    labels = set(tallies) | {label for label, n in voids.items() if n}
    place = {label: i for i, label in enumerate(order)}
    rows = [tallies.get(label, _Tally()).row(label, voids.get(label, 0))
            for label in sorted(labels, key=lambda b: (place.get(b, len(place)), b))]
    return pd.DataFrame(rows, columns=COLUMNS)


def llm_section(path: Path | None, order: Sequence[str]) -> pd.DataFrame | None:
    """``llm_table`` of the store at ``path`` (``None`` without one).

    Raises:
        ResultsError: the store cannot be read, or a damaged log.
    """
    if path is None:
        return None
    import sqlite3

    from arena.errors import ResultsError
    from arena.results.logs import logged_games, void_counts
    from arena.results.store import connect_readonly

    conn = connect_readonly(path)
    try:
        return llm_table(logged_games(conn), void_counts(conn), order)
    except (sqlite3.Error, ValueError) as exc:
        raise ResultsError(f"cannot read results database {str(path)!r}: {exc}") from None
    finally:
        conn.close()


#: the table's title and note (``arena.reports.notes``)
TITLES = {"llm": "Language models: tokens and cost per game, latency, illegal answers per attempt, void games"}
NOTES = {"llm": "tokens_in/tokens_out and cost (USD) per game; latency: seconds per move (p50, p95); cached: share "
                "of moves answered from the response cache; illegal_1/_2/_3: share of answers that were no legal "
                "move at the first attempt, the first re-ask, later ones; void: games a provider's failure voided "
                "(kept apart, played again)."}
