"""Report figures at scale (issues 14, 30 and 43): ``arena report`` on a store of a million
games copied in without their rating state (at most 30 s and 600 MiB; the second report, which
reads the state the first stored, at most 10 s), the end-of-run work of an ``arena run`` that
stored 100,000 games (at most 2 s) and ``arena report`` on a 100-bot round-robin of 9,900 games
(at most 10 s).

The stores hold real games, copied: ``DISTINCT`` seeded Interaction games of ``random``
against ``random`` per seat order are played (``play_game``), and every stored game is one of
them under a new id and series, stored through the public store API (``Store.begin``, then
``Store.add_games``: ``BATCH`` games per transaction, the same rows as ``arena run``'s
``add_game`` one at a time), with the runner's incremental rating state kept the same way
(``arena.results.rating_state``). Every stored move list replays under the rules.

- The two-bot store (``build_store``): game ``i`` in pairs with the seats swapped (series
  ``(i - 1) // 2``). It is built to 100,000 games, the end of a run measured, then extended
  to a million (``--games N``: N; ``--quick``: ``QUICK_RUN``, then ``QUICK_GAMES``).
- The field (``build_field_store``): the game ids, series and seats of ``arena run``'s
  round-robin of ``FIELD`` bots (``--quick``: ``QUICK_FIELD``), two games per pairing.

Timed: ``arena report NAME`` as a subprocess (console tables, Markdown and CSV files; 160
columns; twice on the million games, their rating tables dropped first: the first report rates
and stores them, the second reads the state), its wall time, CPU time and peak resident memory
(``os.wait4``'s usage); and, in this process, what ``arena run`` does after its last game (load the store, print the
summary, write the files and the HTML page). The notes give the machine's load average: on
a loaded machine compare the CPU times.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from arena.bench import Figure

GAMES, QUICK_GAMES = 1_000_000, 20_000
#: games of the store whose end of run is timed
RUN_GAMES, QUICK_RUN = 100_000, 10_000
#: bots of the round-robin store
FIELD, QUICK_FIELD = 100, 20
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
    """Store valid Interaction games (see the module doc) under ``results`` up to game id
    ``games`` (a stored tournament of that name is extended: its games stay) with the rating
    state kept as ``arena run`` keeps it; returns the database path."""
    pool = real_games(distinct, seed)  # game i of a pool was played with seed + i

    def rows(first: int) -> Iterator[tuple[int, int, object]]:
        for game_id in range(first, games + 1):
            series, second = divmod(game_id - 1, 2)
            yield game_id, series, pool[second][series % distinct]

    return _store(results, name, list(LABELS), games, seed, rows)


def field_labels(bots: int) -> list[str]:
    """The labels of a field of ``bots`` bots: ``r000``, ``r001``, ..."""
    return [f"r{i:03d}" for i in range(bots)]


def build_field_store(results: str | Path, name: str, bots: int, per_pairing: int = 2, seed: int = 1,
                      distinct: int = DISTINCT) -> Path:
    """Store a 2-player round-robin of ``bots`` random bots (``field_labels``), ``per_pairing``
    games per pairing, under ``results``: the game ids, series and seats of ``arena run``'s
    round-robin (``arena.tournament.series.schedule``). Game ``i`` of a series is game ``i``
    of one pair of ``real_games`` (one seed, the seats swapped), with the task's labels in its
    seats and that pair's seed (so it replays; the two games of a series differ, so neither is
    a copy); the rating state kept as the runner keeps it. Returns the database path."""
    import arena.games
    from arena.tournament.pairing import round_robin
    from arena.tournament.series import schedule

    labels = field_labels(bots)
    tasks = schedule(arena.games.make("interaction"), round_robin(labels, 2), per_pairing, seed)
    pool = real_games(distinct, seed)

    def rows(first: int) -> Iterator[tuple[int, int, object]]:
        for task in tasks[first - 1:]:
            pair = ((task.game_id - 1) // 2) % distinct  # the series' pair of real games
            yield task.game_id, task.series, replace(pool[task.index % 2][pair], seats=task.seats)

    return _store(results, name, labels, len(tasks), seed, rows)


def _store(results: str | Path, name: str, labels: list[str], games: int, seed: int, rows) -> Path:
    """Store ``rows(first)`` (``(game_id, series, record)`` in id order from id ``first``, the
    first not stored) as ``arena run`` would, ``BATCH`` games per transaction, with the
    rating state kept the same way."""
    from arena.results import rating_state
    from arena.results.aggregates import game_sums
    from arena.results.ratings import make_env
    from arena.results.store import Store

    sums: dict[tuple, dict] = {}  # the search sums of each distinct (record, seats)
    stored = (Path(results) / f"{name}.sqlite").exists()
    with Store.open(results, name) as store:
        store.begin(name, "interaction", {}, 2, seed, {"synthetic": True}, [(lab, "random") for lab in labels], games,
                    extend=stored)
        rater = rating_state.keeper(store.conn, store.path, make_env(), labels, None)
        batch = []
        for game_id, series, record in rows(rater.prefix + 1):
            batch.append((game_id, series, record, 1))
            key = (id(record.move_stats), record.seats)
            if key not in sums:
                sums[key] = game_sums(record.seats, record.move_stats)
            rater.unsaved += rater.add(game_id, record.seats, record.outcome.ranks, sums[key])
            if len(batch) == BATCH or game_id == games:  # the runner saves its state about once a second
                store.add_games(batch)
                batch = []
                rating_state.flush(store.conn, store.path, rater)
    return Path(results) / f"{name}.sqlite"


def forget_ratings(path: Path) -> None:
    """Drop the store's rating state and history, as a store whose games were copied in
    (``INSERT ... SELECT`` from other stores) has none for them."""
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        conn.execute("DROP TABLE IF EXISTS rating_state")
        conn.execute("DROP TABLE IF EXISTS rating_history")
        conn.commit()
    finally:
        conn.close()


def time_report(path: Path) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS in MiB) of ``arena report PATH`` in a subprocess
    (160 columns).

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
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def end_of_run(path: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of what ``arena run`` does after its last game: load,
    summary, files, page."""
    from rich.console import Console

    from arena.reports.html import write_html
    from arena.reports.output import print_summary, write_files
    from arena.reports.render import load

    start, cpu = time.perf_counter(), time.process_time()
    data = load(path)
    print_summary(data, Console(file=io.StringIO(), width=160))
    write_files(data, path.parent)
    write_html(path, data=data)
    return time.perf_counter() - start, time.process_time() - cpu


def _timed(build) -> tuple[Path, float]:
    start = time.perf_counter()
    path = build()
    return path, time.perf_counter() - start


def _load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def run(quick: bool, games: int | None = None) -> list[Figure]:
    n = games or (QUICK_GAMES if quick else GAMES)
    mid = min(n, QUICK_RUN if quick else RUN_GAMES)
    bots = QUICK_FIELD if quick else FIELD
    with tempfile.TemporaryDirectory() as tmp:
        path, built = _timed(lambda: build_store(tmp, "scale", mid))
        tail, tail_cpu = end_of_run(path)
        load_tail = _load()
        path, more = _timed(lambda: build_store(tmp, "scale", n))
        forget_ratings(path)  # games copied in: no rating state for them
        seconds, cpu, rss = time_report(path)
        load_big = _load()
        again, again_cpu, again_rss = time_report(path)
        load_again = _load()
        size = path.stat().st_size / 2**20
        field, field_built = _timed(lambda: build_field_store(tmp, "field", bots))
        field_s, field_cpu, field_rss = time_report(field)
        load_field = _load()
        field_tail, field_tail_cpu = end_of_run(field)
    field_games = bots * (bots - 1)
    return [
        Figure("report", f"arena report, {n:,} copied games", seconds, "s", f"≤ {30 * n / 1_000_000:.3g} (30 s per 1M)",
               f"no rating state (rated and stored by it); subprocess wall time, CPU {cpu:.1f} s, {load_big}; "
               f"store {size:,.0f} MiB, built in "
               f"{built + more:.0f} s"),
        Figure("report", "  its peak RSS", rss, "MiB", "≤ 600", "ru_maxrss of the report process"),
        Figure("report", f"  the second arena report, {n:,} games", again, "s",
               f"≤ {10 * n / 1_000_000:.3g} (10 s per 1M)",
               f"the rating state the first stored: CPU {again_cpu:.1f} s, peak {again_rss:,.0f} MiB, {load_again}"),
        Figure("report", "  per 100,000 games", seconds * 100_000 / n, "s", "≤ 3 (linear)",
               "compare across --games: at most linear growth"),
        Figure("report", f"end of arena run, {mid:,} games", tail, "s", "≤ 2" if mid <= RUN_GAMES else "",
               f"after the last game: load, summary, Markdown/CSV files, HTML page (in process); CPU "
               f"{tail_cpu:.1f} s, {load_tail}"),
        Figure("report", f"arena report, {bots}-bot round-robin ({field_games:,} games)", field_s, "s",
               "≤ 10" if bots <= FIELD else "",
               f"subprocess wall time, CPU {field_cpu:.1f} s, peak {field_rss:,.0f} MiB, {load_field}; "
               f"store built in {field_built:.0f} s"),
        Figure("report", f"end of arena run, {bots}-bot round-robin", field_tail, "s", "",
               f"load, summary, files, HTML page (in process); CPU {field_tail_cpu:.1f} s"),
    ]
