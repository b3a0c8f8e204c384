"""What a tournament page updates without reload: the server-sent events that say a game was
stored (or the games in progress moved), the summary (game count, field table, leaderboard)
and the games in progress with their boards and clocks.

**One look at a store for every page, work only on a change.** One ``StoreWatch`` per store
looks at the size and time of the store's files (the database and its ``-wal``) and of the
run's live file, every ``POLL`` seconds while a page's event stream is open (one task for all
of them) or when a page asks: three stats (and, while a live file is there, a look at the
run's lock: a killed run's file is no game in progress), no query while nothing changed. When the database
changed it reads ``arena.results.browse.change_mark`` (one short statement on a read-only
connection); when the games changed it has the summary recomputed (``Summaries``) if it is
due, renders the fragments that changed (the summary, the games in progress: once for every
page) and wakes the event streams. A stream with nothing new sleeps (no poll of its own); it
sends ``summary`` (the fragment's HTML) when new tables are ready, ``games`` (``{"games",
"last", "tables"}``: the games stored, the last id, the games the tables are of) right after it
and at most every ``EVENT_EVERY`` seconds for the count alone, ``live`` (the games in progress
fragment's HTML) when the live file changed. A page following a run makes no request.

**The tables' cost is bounded.** The field table and leaderboard are computed from every
stored game (``arena.reports``): ~80 ms of CPU for 6,000 games. They are recomputed when the
games changed and the last computation is ``REFRESH`` seconds old, or older than its own CPU
time divided by ``BUDGET``: the tables take at most that share of a core whatever the store's
size (6,000 games: every ~1.6 s; a store whose table costs more is updated more rarely: the
page says of how many games its tables are). It reads the store only (``keep_state=False``): the
same for a local run and a Dask run.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse

from arena.errors import ArenaError
from arena.results.browse import change_mark
from arena.results.files import read_regular
from arena.tournament.livefile import live_path

#: Seconds between two looks at a store's files while a page follows it.
POLL = 0.25
#: Seconds at least between two ``games`` events of one page that only move the game count.
EVENT_EVERY = 1.0
#: Seconds at least between two computations of a store's tables.
REFRESH = 1.0
#: Share of a core the tables of one store may take at most (their CPU time / seconds between two).
BUDGET = 0.05
#: Seconds after which a live file no run rewrote is a dead run's (the run rewrites it at least
#: every second while it plays)
STALE = 5.0
#: Seconds between keep-alive comments on an idle event stream.
KEEPALIVE = 15.0
#: Tables of the summary, in page order.
SUMMARY_TABLES = ("ratings", "payoff_ratings", "leaderboard")


def run_holds_lock(path: Path) -> bool:
    """Whether a run of the store ``path`` holds its run lock (``<name>.lock`` beside it) now,
    read from the kernel's table of locks (``/proc/locks``: an ``FLOCK`` on the lock file's
    device and inode), never by taking the lock: a run starting at that instant is never
    refused. ``False`` when there is no lock file; ``True`` when the table cannot be read (then
    only the live file's age tells)."""
    try:
        st = os.stat(path.parent / f"{path.stem}.lock")
    except FileNotFoundError:
        return False
    except OSError:
        return True
    try:
        table = Path("/proc/locks").read_text()
    except OSError:
        return True
    inode = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    return any(len(f) > 5 and f[1] == "FLOCK" and f[5] == inode for f in map(str.split, table.splitlines()))


def live_fresh(path: Path, written: float | None = None) -> bool:
    """Whether the live file of the store ``path`` is a running run's: written less than
    ``STALE`` seconds ago by its modification time and by its own ``written`` time (unix
    seconds, when given), and its run lock held (``run_holds_lock``); a killed run's is not."""
    try:
        mtime = live_path(path.parent, path.stem).stat().st_mtime
    except OSError:
        return False
    now = time.time()
    if now - mtime > STALE or (written is not None and now - written > STALE):
        return False
    return run_holds_lock(path)


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
    """What is known of one store (module docstring): ``mark`` (its ``change_mark``, ``None``
    while unreadable), ``live`` (its live file's size and time), ``tables`` (the games the
    summary's tables are of and when they were computed) and ``version``, which grows with any
    of them. Looked at again at most every ``POLL`` seconds, by its own task while event
    streams wait (``wait``) or by the first page to ask (``look``)."""

    def __init__(self, path: Path, app: Any) -> None:
        self.path, self.app, self.summaries, self.looked = path, app, app.state.summaries, -1e18
        self.files: tuple | None = None
        self.mark: tuple[int, int] | None = None
        self.live: tuple = ()
        self.tables: tuple | None = None
        #: the SSE messages of the summary and of the games in progress, with the state drawn
        self.summary: tuple[Any, str] = (None, "")
        self.drawn: tuple[Any, str] = (None, "")
        self.version, self.waiting = 0, 0
        self.lock = asyncio.Lock()
        self.changed = asyncio.Condition()
        self.task: asyncio.Task | None = None

    async def look(self) -> tuple[tuple[int, int] | None, tuple]:
        """``(change_mark or None while unreadable, the live file's size and time)``, looked
        at again when the last look is ``POLL`` seconds old."""
        async with self.lock:
            if time.monotonic() - self.looked >= POLL:
                self.looked = time.monotonic()
                before = (self.mark, self.live, self.tables, self.summary[0], self.drawn[0])
                files = files_mark(self.path)  # three stats: not worth a thread's hand-over
                if self.files is None or files[:4] != self.files[:4]:
                    try:
                        self.mark = await run_in_threadpool(change_mark, self.path)
                    except ArenaError:  # a store a run is still creating
                        pass
                # the live file's size and time, and whether a live run writes it (a killed run's stays)
                self.files, self.live = files, (*files[4:], files[4] is not None and live_fresh(self.path))
                if self.waiting and self.mark is not None and self.summaries.due(self.path, self.mark):
                    try:
                        await run_in_threadpool(self.summaries.get, self.path, self.mark)
                    except ArenaError:
                        pass
                self.tables = self.summaries.key(self.path)  # computed here or for a page
                if self.waiting:
                    await self._draw()
                if (self.mark, self.live, self.tables, self.summary[0], self.drawn[0]) != before:
                    self.version += 1
                    async with self.changed:
                        self.changed.notify_all()
        return self.mark, self.live

    async def _draw(self) -> None:
        """Render the fragments the streams send, once per state: the summary of the tables
        now held, the games in progress of the live file now."""
        if self.tables is not None and self.mark is not None and self.summary[0] != self.tables:
            try:
                parts = await run_in_threadpool(summary_parts, self.app, self.path, self.mark)
                self.summary = (self.tables, sse("summary", summary_html(self.app, self.path, parts)))
            except ArenaError:
                pass
        if self.drawn[0] != self.live:
            self.drawn = (self.live, sse("live", await playing_html(self.app, self.path, self.live)))

    async def _follow(self) -> None:
        """Look every ``POLL`` seconds while a stream waits."""
        while self.waiting:
            await self.look()
            await asyncio.sleep(POLL)
        self.task = None

    async def wait(self, version: int, timeout: float) -> int:
        """The ``version`` once it is no longer ``version``, or after ``timeout`` seconds."""
        self.waiting += 1
        try:
            if self.task is None:
                self.task = asyncio.get_running_loop().create_task(self._follow())
            async with self.changed:
                try:
                    await asyncio.wait_for(self.changed.wait_for(lambda: self.version != version), timeout)
                except asyncio.TimeoutError:
                    pass
        finally:
            self.waiting -= 1
        return self.version


def watch_of(app: Any, path: Path) -> StoreWatch:
    """The application's ``StoreWatch`` of ``path``."""
    watches = app.state.watches
    if path not in watches:
        watches[path] = StoreWatch(path, app)
    return watches[path]


class Summaries:
    """The summary of each store, shared by every client: recomputed when the store changed
    and the last one is old enough (module docstring), by one thread at a time per store."""

    def __init__(self) -> None:
        #: path -> (its change_mark, when computed (monotonic s), seconds before the next, tables)
        self.cache: dict[Path, tuple[tuple[int, int], float, float, list]] = {}
        self.locks: dict[Path, threading.Lock] = {}
        self.guard = threading.Lock()

    def due(self, path: Path, mark: tuple[int, int]) -> bool:
        """Whether the tables of ``path`` are of another ``mark`` and may be computed again."""
        held = self.cache.get(path)
        return held is None or (held[0] != mark and time.monotonic() - held[1] >= held[2])

    def key(self, path: Path) -> tuple[int, float] | None:
        """``(the games the tables of path are of, when they were computed)``, ``None`` before."""
        held = self.cache.get(path)
        return None if held is None else (held[0][0], held[1])

    def get(self, path: Path, mark: tuple[int, int] | None = None) -> dict[str, Any]:
        """``games`` stored now (``mark``: the store's ``change_mark`` when the caller has it),
        ``tables`` (display cells of the field table and the leaderboard), ``tables_games``
        (the games they are of), ``stale`` (the tables are of fewer games than stored),
        ``computed`` (when, monotonic seconds).

        Raises:
            ResultsError: unreadable database.
        """
        mark = change_mark(path) if mark is None else mark
        with self.guard:
            lock = self.locks.setdefault(path, threading.Lock())
        with lock:
            if self.due(path, mark):
                cpu = time.thread_time()
                tables = _tables(path) if mark[0] else []
                spent = time.thread_time() - cpu
                self.cache[path] = (mark, time.monotonic(), max(REFRESH, spent / BUDGET), tables)
            held = self.cache[path]
        return {"games": mark[0], "last": mark[1], "stale": held[0] != mark, "tables": held[3],
                "tables_games": held[0][0], "computed": held[1]}


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


def sse(event: str, text: str) -> str:
    """One server-sent event ``event`` whose data is ``text`` (its lines joined again by the
    browser)."""
    return f"event: {event}\n" + "".join(f"data: {line}\n" for line in text.split("\n")) + "\n"


def summary_html(app: Any, path: Path, parts: dict[str, Any]) -> str:
    """The summary fragment of ``parts`` (``summary_parts``), rendered once per state."""
    key = (parts["games"], parts["last"], parts["tables_games"], parts["stale"], id(parts["tables"]))
    held = app.state.rendered.get(("summary", path))
    if held is None or held[0] != key:
        held = (key, app.state.site.env.get_template("summary.html.j2").render(summary=parts))
        app.state.rendered[("summary", path)] = held
    return held[1]


async def summary(request: Request) -> Response:
    """The summary fragment (HTML) of a tournament page, rendered once per store state for
    every page; ``?json=1``: its figures as JSON."""
    site = request.app.state.site
    path = site.store(request.path_params["name"])
    mark, _ = await watch_of(request.app, path).look()
    parts = await run_in_threadpool(summary_parts, request.app, path, mark)
    if request.query_params.get("json"):
        return JSONResponse({k: v for k, v in parts.items() if k not in ("tables", "computed")})
    return HTMLResponse(summary_html(request.app, path, parts), headers={"X-Arena-Games": str(parts["games"]),
                                          "X-Arena-Stale": str(int(parts["stale"]))})


async def events(request: Request) -> Response:
    """Server-sent events of a tournament, each fragment rendered once for every page:
    ``summary`` (the summary fragment's HTML) when new tables are ready, then ``games``
    (``{"games": n, "last": id, "tables": t}``: ``t`` the games the tables are of) at once
    after it and at most every ``EVENT_EVERY`` s when only games were stored; ``live`` (the
    games in progress fragment's HTML) when they moved, at most every ``EVENT_EVERY`` s; a
    comment every ``KEEPALIVE`` s."""
    site = request.app.state.site
    path = site.store(request.path_params["name"])
    watch = watch_of(request.app, path)

    async def stream():
        yield "retry: 1000\n\n"
        version, shown_mark, shown_tables, shown_live = -1, None, None, None
        sent, quiet = {"games": -1e18, "live": -1e18}, time.monotonic()
        while True:
            now, pending = time.monotonic(), False
            mark, (tables, summary_event) = watch.mark, watch.summary
            if tables is not None and tables != shown_tables:
                yield summary_event
            if mark is not None and (mark != shown_mark or tables != shown_tables):
                if tables != shown_tables or now - sent["games"] >= EVENT_EVERY:
                    shown_mark, shown_tables, sent["games"], quiet = mark, tables, now, now
                    told = tables[0] if tables else None
                    yield f"event: games\ndata: {json.dumps({'games': mark[0], 'last': mark[1], 'tables': told})}\n\n"
                else:
                    pending = True
            live, live_event = watch.drawn
            if live is not None and live != shown_live:
                if now - sent["live"] >= EVENT_EVERY:
                    shown_live, sent["live"], quiet = live, now, now
                    yield live_event
                else:
                    pending = True
            if now - quiet >= KEEPALIVE:
                quiet = now
                yield ": keep-alive\n\n"
            idle = max(0.1, KEEPALIVE - (now - quiet))  # until the next keep-alive is due
            version = await watch.wait(version, min(EVENT_EVERY / 2, idle) if pending else idle)

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
    its file is no running run's (``live_fresh``: a killed run's, written ``STALE`` seconds
    ago or its run lock free)."""
    from arena.results.store import load_tournament

    try:
        held = json.loads(read_regular(live_path(path.parent, path.stem)))
        entries, written = held["games"], float(held["written"])
    except (OSError, ValueError, KeyError, TypeError):
        return []
    if not entries or not live_fresh(path, written):  # a run killed (kill -9) leaves its last file
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
    return HTMLResponse(await playing_html(request.app, path, live))


async def playing_html(app: Any, path: Path, live: tuple) -> str:
    """The games in progress fragment of the live file's state ``live``, drawn once per state."""
    held = app.state.rendered.get(("live", path))
    if held is None or held[0] != live:
        games = await run_in_threadpool(read_playing, path)
        held = (live, app.state.site.env.get_template("playing.html.j2").render(games=games))
        app.state.rendered[("live", path)] = held
    return held[1]
