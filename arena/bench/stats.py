"""Report-statistics figure: the report's tables of a 100,000-game two-bot match, seconds
(goal < 5 s, ``docs/statistics.md``; issue "Numbers an engine tester can trust").

The match is synthetic but stored through the store API (``Store.begin`` / ``add_game``, one
committed game at a time, as ``arena run`` writes it): two bots, game pairs with the seats
swapped, seeded random results (the first bot a little stronger, about a fifth of the games
drawn), a few plies of made-up moves each. Timed: loading the games from the database
(``arena.reports.render.load`` without the per-ply moves) and computing every statistics
table (``build_tables``: leaderboard with TrueSkill, the pair table, Bradley–Terry Elo,
crosstable, first-move with its clustered intervals, lengths, terminations, faults). The
per-ply search table is not a statistic of the match and is left out.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from arena.bench import Figure
from arena.games.protocol import Outcome
from arena.referee import GameRecord, MoveRecord
from arena.results.store import Store

GAMES, QUICK_GAMES = 100_000, 10_000
STATISTICS = ("leaderboard", "pairs", "elo", "crosstable", "first_move", "lengths", "terminations", "faults")


def build_match(results: str | Path, name: str, games: int, seed: int = 1) -> Path:
    """Store a synthetic two-bot match of ``games`` games (pairs of seat-swapped games) under
    ``results``; returns the database path. Seeded: the same arguments store the same games."""
    rng = random.Random(seed)
    with Store.open(results, name) as store:
        store.begin(name, "interaction", {}, 2, seed, {"synthetic": True}, [("new", "random"), ("base", "random")],
                    games)
        for game_id in range(1, games + 1):
            series, second = divmod(game_id - 1, 2)
            seats = ("base", "new") if second else ("new", "base")
            u = rng.random()  # new wins 42%, draws 20%, loses 38%
            new_rank, base_rank = (1, 2) if u < 0.42 else (1, 1) if u < 0.62 else (2, 1)
            ranks = (new_rank, base_rank) if not second else (base_rank, new_rank)
            moves = tuple(f"m{rng.randrange(100)}" for _ in range(6))
            stats = tuple(MoveRecord(i, i % 2, m, 0.001, None, None, None) for i, m in enumerate(moves))
            record = GameRecord(seats, series, 0, moves, stats, Outcome((0.0, 0.0), ranks, "target"), 0.01)
            store.add_game(game_id, series, record)
    return Path(results) / f"{name}.sqlite"


def run(quick: bool) -> list[Figure]:
    from arena.reports.render import build_tables, load  # pandas, scipy: imported on use

    games = QUICK_GAMES if quick else GAMES
    with tempfile.TemporaryDirectory() as tmp:
        path = build_match(tmp, "stats", games)
        start, cpu = time.perf_counter(), time.process_time()
        data = load(path, moves=False)
        tables = build_tables(data, STATISTICS)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    pair = tables["pairs"].iloc[0]
    note = (f"{games:,} games: load + statistics tables; Elo {pair['elo']:+.1f} ± {pair['elo_error']:.1f}, "
            f"{int(pair['pairs']):,} pairs")
    return [Figure("stats", f"report statistics, {games:,}-game two-bot match", seconds, "s",
                   "< 5" if not quick else "", note),
            Figure("stats", "  the same, CPU time of this process", cpu, "s", "< 5" if not quick else "",
                   "wall minus CPU = time waiting for a shared machine's cores")]
