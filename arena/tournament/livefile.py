"""The games in progress, as a file beside the store: ``<results>/<name>.live.json``.

The local pool knows each game playing (``Pool.playing``: its task and its worker's shared
``Status``) and the plies played so far (the worker's ply buffer, ``PlyLog``); nothing of it
is in the store until the game ends. ``LiveFile`` writes it every ``EVERY`` seconds from a
thread of its own (the run's loop wakes when games end, when none is playing; the thread reads
the slots' shared status and ply buffers only), atomically (a reader never sees half a file),
so another process (``arena serve``) can draw the boards and clocks; its mode is the store's
(``PRIVATE_MODE``). The run removes it when it ends (a killed run's stays: its ``written``
time tells). A cluster's games are played on their Dask workers: no live file then.

The file (JSON): ``{"written": unix seconds, "games": [...]}``, a game being ``game_id``,
``series``, ``seed``, ``seats`` (labels by 0-based seat), ``opening``, ``start`` (position
text of an openings file, or null), ``moves`` (plies played, opening included), ``seat`` (the
0-based seat on move, -1 before the first), ``move_seconds`` (the move thinking, 0 when none is
timed), ``game_seconds`` (since the game began) and ``clocks`` (each seat's clock left after its
last move, seconds, or null).
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any

from arena.results.files import PRIVATE_MODE
from arena.supervisor.status import read_plies

#: Seconds between two writes of the file.
EVERY = 0.5


def live_path(results: str | os.PathLike, name: str) -> Path:
    """Where the run named ``name`` keeps its live file."""
    return Path(results) / f"{name}.live.json"


class LiveFile:
    """Writes the games playing in ``pool`` to ``path`` (see the module); never raises: a
    full disk or a removed folder costs the live view, not the run."""

    def __init__(self, path: Path) -> None:
        self.path, self.last = Path(path), -1e18
        self.thread: threading.Thread | None = None
        self.stopping = threading.Event()

    def write(self, pool: Any, now: float | None = None) -> None:
        """Write the games ``pool.slots`` play now, unless written less than ``EVERY`` s ago."""
        clock = time.monotonic() if now is None else now
        if clock - self.last < EVERY:
            return
        self.last = clock
        try:
            games = [entry for slot in list(getattr(pool, "slots", ())) if (entry := _entry(slot, clock)) is not None]
            tmp = self.path.with_name(self.path.name + ".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, PRIVATE_MODE)  # as the store's
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(json.dumps({"written": time.time(), "games": games}))
            os.replace(tmp, self.path)
        except Exception:  # noqa: BLE001 - the live view is best effort; the run goes on
            pass

    def start(self, pool: Any) -> LiveFile:
        """Write ``pool`` 's games every ``EVERY`` seconds from a thread of its own (the run's
        loop wakes when games end, which is when none is playing) until ``close``; returns itself."""
        self.stopping = threading.Event()

        def loop() -> None:
            while not self.stopping.wait(EVERY):
                self.write(pool)

        self.thread = threading.Thread(target=loop, daemon=True, name="arena-live-file")
        self.thread.start()
        return self

    def close(self) -> None:
        """Stop writing and remove the file (the run ended: no game is playing)."""
        if self.thread is not None:
            self.stopping.set()
            self.thread.join(5)
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            pass


def _entry(slot: Any, now: float) -> dict[str, Any] | None:
    task = slot.playing()
    if task is None:
        return None
    st = slot.status
    seat, started, game_started = int(st.seat), float(st.move_started), float(st.game_started)
    plies = read_plies(slot.buffer, st) if slot.buffer is not None else []
    clocks: list[float | None] = [None] * len(task.seats)
    for ply in plies:
        rec = ply.record
        if not ply.round and rec.clock is not None and 0 <= rec.seat < len(clocks):
            clocks[rec.seat] = float(rec.clock)
    return {"game_id": task.game_id, "series": task.series, "seed": task.seed, "seats": list(task.seats),
            "opening": list(task.opening), "start": task.start,
            "moves": list(task.opening) + [p.move for p in plies],
            "seat": seat, "move_seconds": round(now - started, 2) if started > 0 else 0.0,
            "game_seconds": round(now - game_started, 2) if game_started > 0 else 0.0, "clocks": clocks}
