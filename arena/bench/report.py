"""Report figures at scale (issue 14): ``arena report`` on a store of N games, its wall time
and peak memory, and the end-of-run work of ``arena run`` (goals: 1,000,000 games in
≤ 30 s and ≤ 1 GiB; cost at most linear in N; end of run ≤ 2 s for 100,000 games).

The store is synthetic but valid: ``DISTINCT`` real Interaction games of ``random`` against
``random`` per seat order are played (seeded, ``play_game``), and game ``i`` of the store is
one of them, in pairs with the seats swapped (series ``(i - 1) // 2``), stored through the public
store API (``Store.begin``, then ``Store.add_games``: ``BATCH`` games per transaction, the same
rows as ``arena run``'s ``add_game`` one at a time), with the runner's incremental rating state kept the same way
(``arena.rating_state``). Every stored move list replays under the rules.

Timed: ``arena report NAME`` as a subprocess (console tables, Markdown and CSV files), its
wall time and peak resident memory (``os.wait4``'s ``ru_maxrss``); and, in this process, what
``arena run`` does after its last game (load the store, print the summary, write the files
and the HTML page).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from arena.bench import Figure

GAMES, QUICK_GAMES = 100_000, 10_000
#: Real games played per seat order; the store repeats them.
DISTINCT = 200
LABELS = ("new", "base")
#: Games stored per transaction (``Store.add_games``).
BATCH = 1000


def real_games(distinct: int = DISTINCT, seed: int = 1) -> list[list]:
    """``[records with LABELS in seat order, records with the seats swapped]``: ``distinct``
    seeded random-vs-random Interaction games each."""
    import arena.games
    from arena.referee import GameSettings, play_game
    from bots import registry
    from bots.base import Limits

    game = arena.games.make("interaction")
    bots = [registry.make("random"), registry.make("random")]  # seeded by play_game per game
    out = []
    for order in (LABELS, LABELS[::-1]):
        out.append([play_game(GameSettings(game, seed + i, labels=order, limits=Limits()), bots)
                    for i in range(distinct)])
    return out


def build_store(results: str | Path, name: str, games: int, seed: int = 1, distinct: int = DISTINCT) -> Path:
    """Store ``games`` valid Interaction games (see the module doc) under ``results`` with the
    rating state kept as ``arena run`` keeps it; returns the database path."""
    from arena import rating_state
    from arena.ratings import make_env
    from arena.aggregates import game_sums
    from arena.store import Store

    pool = real_games(distinct, seed)
    with Store.open(results, name) as store:
        store.begin(name, "interaction", {}, 2, seed, {"synthetic": True}, [(lab, "random") for lab in LABELS], games)
        rater = rating_state.keeper(store.conn, store.path, make_env(), list(LABELS), None)
        batch = []
        for game_id in range(1, games + 1):
            series, second = divmod(game_id - 1, 2)
            record = replace(pool[second][series % distinct], seed=seed + series % distinct)
            batch.append((game_id, series, record, 1))
            rater.unsaved += rater.add(game_id, record.seats, record.outcome.ranks,
                                       game_sums(record.seats, record.move_stats))
            if game_id % BATCH == 0 or game_id == games:  # the runner saves its state about once a second
                store.add_games(batch)
                batch = []
                rating_state.flush(store.conn, store.path, rater)
    return Path(results) / f"{name}.sqlite"


def time_report(path: Path) -> tuple[float, float]:
    """(wall seconds, peak RSS in MiB) of ``arena report PATH`` in a subprocess.

    Raises:
        RuntimeError: the report exited with a non-zero code (its last stderr line).
    """
    env = {**os.environ, "COLUMNS": "160"}
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "arena", "report", str(path)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise RuntimeError(f"arena report failed ({proc.returncode}): {err.strip().splitlines()[-1:] or ''}")
    return seconds, usage.ru_maxrss / 1024


def end_of_run(path: Path) -> float:
    """Seconds of what ``arena run`` does after its last game: load, summary, files, page."""
    from rich.console import Console

    from arena.reports.html import write_html
    from arena.reports.output import print_summary, write_files
    from arena.reports.render import load

    start = time.perf_counter()
    data = load(path)
    print_summary(data, Console(file=io.StringIO(), width=160))
    write_files(data, path.parent)
    write_html(path, data=data)
    return time.perf_counter() - start


def run(quick: bool, games: int | None = None) -> list[Figure]:
    n = games or (QUICK_GAMES if quick else GAMES)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        path = build_store(tmp, "scale", n)
        built = time.perf_counter() - start
        seconds, rss = time_report(path)
        tail = end_of_run(path)
        size = path.stat().st_size / 2**20
    goal_s = f"≤ {30 * n / 1_000_000:.3g} (30 s per 1M)"
    return [
        Figure("report", f"arena report, {n:,} games", seconds, "s", goal_s,
               f"subprocess wall time; store {size:,.0f} MiB, built in {built:.0f} s"),
        Figure("report", "  its peak RSS", rss, "MiB", "≤ 1024", "ru_maxrss of the report process"),
        Figure("report", "  per 100,000 games", seconds * 100_000 / n, "s", "≤ 3 (linear)",
               "compare across --games: at most linear growth"),
        Figure("report", f"end of arena run, {n:,} games", tail, "s", "≤ 2 per 100k" if n <= 100_000 else "",
               "after the last game: load, summary, Markdown/CSV files, HTML page (in process)"),
    ]
