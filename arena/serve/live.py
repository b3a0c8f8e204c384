"""What a tournament page updates without reload: the server-sent events that say a game was
stored (or the games in progress moved), the summary (game count, field table, leaderboard)
and the games in progress with their boards and clocks.

**Cheap polling, shared by every page.** One ``StoreWatch`` per store looks, at most every ``POLL``
seconds whoever asks, at the size and time of the store's files (the database and its ``-wal``)
and of the run's live file: no query while nothing changed. When they change it reads
``arena.results.browse.change_mark`` (one short statement on a read-only connection). Each
page's event stream sends ``games`` (at most every ``EVENT_EVERY`` seconds) when a game was
stored. The summary is computed once per change for every client (``Summaries``), at most
every ``REFRESH`` seconds, and its HTML rendered once per store state; the games in progress
are drawn once per state of the live file: 20 pages following a run cost it one field table a
second, not twenty. A summary older than the store says so (``stale``), and the page asks
again ``REFRESH`` seconds later, so the last game of a burst shows too. It reads the store
only: the same for a local run and a Dask run.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse

from arena.errors import ArenaError
from arena.results.browse import change_mark
from arena.tournament.livefile import live_path

#: Seconds between two looks of an event stream at the store's files.
POLL = 0.5
#: Seconds at least between two events of one kind on a page's stream.
EVENT_EVERY = 1.0
#: Seconds at least between two computations of a store's field table.
REFRESH = 1.0
#: Seconds after which a live file no run rewrote is a dead run's (the run rewrites it at least
#: every second while it plays)
STALE = 5.0
#: Seconds between keep-alive comments on an idle event stream.
KEEPALIVE = 15.0
#: Tables of the summary, in page order.
SUMMARY_TABLES = ("ratings", "payoff_ratings", "leaderboard")


def files_mark(path: Path) -> tuple:
    """Size and modification time of the database, its ``-wal`` and the live file (a stat each)."""
    out: list[Any] = []
    for p in (path, Path(f"{path}-wal"), live_path(path.parent, path.stem)):
        try:
            st = p.stat()
            out += [st.st_size, st.st_mtime_ns]
        except OSError:
            out += [None, None]
    return tuple(out)


class StoreWatch:
    """What is known of one store, looked at again at most every ``POLL`` seconds (by the
    first page to ask): its files' ``files_mark``, its ``change_mark`` and its live file's."""

    def __init__(self, path: Path) -> None:
        self.path, self.looked = path, -1e18
        self.files: tuple | None = None
        self.mark: tuple[int, int] | None = None
        self.live: tuple = ()
        self.lock = asyncio.Lock()

    async def look(self) -> tuple[tuple[int, int] | None, tuple]:
        """``(change_mark or None while unreadable, the live file's size and time)``."""
        async with self.lock:
            if time.monotonic() - self.looked >= POLL:
                self.looked = time.monotonic()
                files = files_mark(self.path)  # three stats: not worth a thread's hand-over
                if self.files is None or files[:4] != self.files[:4]:
                    try:
                        self.mark = await run_in_threadpool(change_mark, self.path)
                    except ArenaError:  # a store a run is still creating
                        pass
                self.files, self.live = files, files[4:]
        return self.mark, self.live


def watch_of(app: Any, path: Path) -> StoreWatch:
    """The application's ``StoreWatch`` of ``path``."""
    watches = app.state.watches
    if path not in watches:
        watches[path] = StoreWatch(path)
    return watches[path]


class Summaries:
    """The summary of each store, shared by every client: recomputed when the store changed
    and the last one is ``REFRESH`` seconds old, by one thread at a time per store."""

    def __init__(self) -> None:
        self.cache: dict[Path, tuple[tuple[int, int], float, dict[str, Any]]] = {}
        self.locks: dict[Path, threading.Lock] = {}
        self.guard = threading.Lock()

    def get(self, path: Path, mark: tuple[int, int] | None = None) -> dict[str, Any]:
        """``games`` stored now (``mark``: the store's ``change_mark`` when the caller has it),
        ``tables`` (display cells of the field table and the leaderboard), ``stale`` (the
        tables are of fewer games than stored).

        Raises:
            ResultsError: unreadable database.
        """
        mark = change_mark(path) if mark is None else mark
        with self.guard:
            lock = self.locks.setdefault(path, threading.Lock())
        with lock:
            held = self.cache.get(path)
            if held is None or (held[0] != mark and time.monotonic() - held[1] >= REFRESH):
                tables = _tables(path) if mark[0] else []
                held = (mark, time.monotonic(), {"tables": tables})
                self.cache[path] = held
        return {"games": mark[0], "last": mark[1], "stale": held[0] != mark, "tables": held[2]["tables"],
                "tables_games": held[0][0]}


def _tables(path: Path) -> list[dict[str, Any]]:
    from arena.reports.html import _tables as display
    from arena.reports.render import load, tables_for

    data = load(path, moves=False, keep_state=False)  # the server never writes
    wanted = [s for s in ("ratings", "leaderboard") if s != "ratings" or data.num_players >= 2]
    tables = tables_for(data, wanted)
    out = display(data, {k: v for k, v in tables.items() if k in SUMMARY_TABLES})
    return sorted(out, key=lambda t: SUMMARY_TABLES.index(t["name"]))


def summary_parts(app: Any, path: Path, mark: tuple[int, int] | None = None) -> dict[str, Any]:
    """The summary of ``path`` from the application's shared ``Summaries``.

    Raises:
        ResultsError: unreadable database.
    """
    return app.state.summaries.get(path, mark)


async def summary(request: Request) -> Response:
    """The summary fragment (HTML) of a tournament page, rendered once per store state for
    every page; ``?json=1``: its figures as JSON."""
    site = request.app.state.site
    path = site.store(request.path_params["name"])
    mark, _ = await watch_of(request.app, path).look()
    parts = await run_in_threadpool(summary_parts, request.app, path, mark)
    if request.query_params.get("json"):
        return JSONResponse({k: v for k, v in parts.items() if k != "tables"})
    key = (parts["games"], parts["last"], parts["tables_games"], parts["stale"], id(parts["tables"]))
    held = request.app.state.rendered.get(("summary", path))
    if held is None or held[0] != key:
        held = (key, site.env.get_template("summary.html.j2").render(summary=parts))
        request.app.state.rendered[("summary", path)] = held
    return HTMLResponse(held[1], headers={"X-Arena-Games": str(parts["games"]),
                                          "X-Arena-Stale": str(int(parts["stale"]))})


async def events(request: Request) -> Response:
    """Server-sent events of a tournament: ``games`` (``{"games": n, "last": id}``) when games
    were stored, ``live`` when the games in progress moved (each at most every
    ``EVENT_EVERY`` s); a comment every ``KEEPALIVE`` s."""
    site = request.app.state.site
    path = site.store(request.path_params["name"])
    watch = watch_of(request.app, path)

    async def stream():
        seen_mark, seen_live, sent, quiet = None, None, {"games": -1e18, "live": -1e18}, time.monotonic()
        yield "retry: 1000\n\n"
        while True:
            mark, live = await watch.look()
            now = time.monotonic()
            if mark is not None and mark != seen_mark and now - sent["games"] >= EVENT_EVERY:
                seen_mark, sent["games"], quiet = mark, now, now
                yield f"event: games\ndata: {json.dumps({'games': mark[0], 'last': mark[1]})}\n\n"
            if live != seen_live and now - sent["live"] >= EVENT_EVERY:
                seen_live, sent["live"], quiet = live, now, now
                yield "event: live\ndata: {}\n\n"
            if now - quiet > KEEPALIVE:
                quiet = now
                yield ": keep-alive\n\n"
            await asyncio.sleep(POLL)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _board(game_name: str, params: dict, entry: dict[str, Any]) -> str | None:
    """The picture of a game in progress: its start replayed through the plies played."""
    import arena.games
    from arena.games import SIMULTANEOUS
    from arena.referee.check import round_answers

    game = arena.games.make(game_name, **params)
    state = game.parse_state(entry["start"]) if entry.get("start") else game.initial_state(int(entry["seed"]))
    last, before = None, None
    for text in entry["moves"]:
        move = round_answers(game, state, text) if state.to_move == SIMULTANEOUS else game.parse_move(state, text)
        before, last, state = state, text, state.play(move)
    return game.render_svg(state, last, before) if last is not None else game.render_svg(state)


def read_playing(path: Path) -> list[dict[str, Any]]:
    """The games in progress of the run writing ``path`` (its live file), each with ``svg``
    (its board, or ``None``) and ``clock_text`` (per seat); ``[]`` when no run writes one, or
    its file was last written ``STALE`` seconds ago (a killed run's)."""
    from arena.results.store import load_tournament

    try:
        held = json.loads(live_path(path.parent, path.stem).read_text(encoding="utf-8"))
        entries, written = held["games"], float(held["written"])
    except (OSError, ValueError, KeyError, TypeError):
        return []
    if not entries or time.time() - written > STALE:  # a run killed (kill -9) leaves its last file
        return []
    tour = load_tournament(path)
    for entry in entries:
        try:
            entry["svg"] = _board(tour["game"], tour.get("params") or {}, entry)
        except Exception:  # noqa: BLE001 - a ply the rules refuse: the game is shown without its board
            entry["svg"] = None
        entry["clock_text"] = ["-" if c is None else f"{c:.1f} s" for c in entry.get("clocks") or []]
    return sorted(entries, key=lambda e: e["game_id"])


async def playing(request: Request) -> Response:
    """The games in progress fragment (HTML) of a tournament page, drawn once per state of
    the run's live file for every page."""
    site = request.app.state.site
    path = site.store(request.path_params["name"])
    _, live = await watch_of(request.app, path).look()
    held = request.app.state.rendered.get(("live", path))
    if held is None or held[0] != live:
        games = await run_in_threadpool(read_playing, path)
        held = (live, site.env.get_template("playing.html.j2").render(games=games))
        request.app.state.rendered[("live", path)] = held
    return HTMLResponse(held[1])
