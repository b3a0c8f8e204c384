"""The pages of ``arena serve`` that read a stored tournament: the list, a tournament, the game
browser, a game's replay and the exports. The live parts (events, the summary, the games in
progress) are ``arena.serve.live``'s."""

from __future__ import annotations

import functools
import html
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from arena.errors import ArenaError
from arena.results.browse import GameFilter, filter_choices, game_page

#: Download formats: ``arena export`` 's, and the HTML report.
EXPORTS = {"jsonl": "application/x-ndjson", "csv": "text/csv", "parquet": "application/vnd.apache.parquet",
           "html": "text/html"}
#: Tables of the tournament page besides the live summary, in page order.
PAGE_TABLES = ("pairs", "payoff_pairs", "first_move", "crosstable", "fault_summary", "faults", "terminations")


@functools.cache
def _plotly() -> bytes:
    from plotly.offline import get_plotlyjs

    return get_plotlyjs().encode()


async def plotly_js(request: Request) -> Response:
    """plotly.js, served by the application itself: the pages load nothing from elsewhere."""
    return Response(_plotly(), media_type="text/javascript", headers={"Cache-Control": "max-age=86400"})


async def index(request: Request) -> Response:
    """The tournaments stored in the results folder (what ``arena list`` shows)."""
    from arena.tournament.listing import stored_tournaments

    site = request.app.state.site
    try:
        found = await run_in_threadpool(stored_tournaments, site.results)
    except ArenaError as exc:
        raise HTTPException(404, str(exc)) from None
    rows = [{**t, "games_cell": _games_cell(t) if "error" not in t else ""} for t in found]
    return site.page("index.html.j2", results=str(site.results), tournaments=rows)


def _games_cell(t: dict[str, Any]) -> str:
    """The games column of ``arena list``: ``46``, ``46 (SPRT: H1)`` when its own rule stopped
    the run, ``2/60`` when fewer are stored than planned and the run did not finish."""
    games, total = t["games"], t["total"]
    if t.get("stopped") and t.get("finished"):
        return f"{games} ({t['stopped']})"
    return str(games) if games >= total or t.get("finished") else f"{games}/{total}"


def _report_view(path: Any) -> dict[str, Any]:
    """The tournament page's report part: the HTML report's tables and plots."""
    from arena.reports.html import _figures, _tables
    from arena.reports.render import load, tables_for

    data = load(path, keep_state=False)  # the server never writes
    tables = tables_for(data)
    shown = [t for t in _tables(data, {k: v for k, v in tables.items() if k in PAGE_TABLES})]
    shown.sort(key=lambda t: PAGE_TABLES.index(t["name"]))
    return {"total_games": len(data.games), "tables": shown, "figures": _figures(data, tables)}


def _head(path: Any) -> dict[str, Any]:
    """What the tournament page shows first: the stored tournament and its bots (no game read)."""
    from arena.reports.render import bot_notes
    from arena.results.store import load_tournament

    tour = load_tournament(path)
    return {"tournament": tour, "num_players": tour.get("num_players"),
            "bots": [(label, bot_notes(tour, label), spec) for label, spec in (tour.get("bots") or {}).items()]}


async def tournament(request: Request) -> Response:
    """A tournament: the live summary (game count, field table, leaderboard) and the games in
    progress at once; the report's other tables and its plots follow (``report``)."""
    from arena.serve.live import summary_parts

    site = request.app.state.site
    name = request.path_params["name"]
    path = site.store(name)
    # a store a run is still creating, or damaged: the error page says so, 503 as its game list's
    head = await run_in_threadpool(_head, path)
    summary = await run_in_threadpool(summary_parts, request.app, path)
    return site.page("tournament.html.j2", name=name, summary=summary, exports=list(EXPORTS), **head)


async def report(request: Request) -> Response:
    """The report part of a tournament page (HTML fragment): tables and plots of the games
    stored now."""
    site = request.app.state.site
    path = site.store(request.path_params["name"])
    try:
        view = await run_in_threadpool(_report_view, path)
    except ArenaError as exc:
        return Response(f'<p class="error">{html.escape(str(exc))}</p>', media_type="text/html")
    return site.page("report_part.html.j2", **view)


#: The largest number a query may give (a game id, plies, a seat): SQLite's largest integer.
LARGEST = 2**63 - 1


def _int(request: Request, key: str) -> int | None:
    """The query's whole number ``key`` (0 to ``LARGEST``), or ``None`` when not given.

    Raises:
        HTTPException: 400 for another text or a number out of that range.
    """
    text = request.query_params.get(key, "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= LARGEST or len(text) > 20:
        shown = text if len(text) <= 30 else text[:30] + "..."
        raise HTTPException(400, f"{key}: {shown!r} is not accepted; accepted: a whole number from 0 to {LARGEST}")
    return value


async def browser(request: Request) -> Response:
    """The game browser: stored games filtered by bot, seat, opening, termination and length,
    newest first, ``arena.results.browse.PAGE`` a page."""
    site = request.app.state.site
    name = request.path_params["name"]
    path = site.store(name)
    q = request.query_params
    flt = GameFilter(bot=q.get("bot") or None, seat=_int(request, "seat"), opening=q.get("opening") or None,
                     termination=q.get("termination") or None, min_plies=_int(request, "min_plies"),
                     max_plies=_int(request, "max_plies"))
    page = await run_in_threadpool(game_page, path, flt, _int(request, "before"), _int(request, "after"))
    choices = await run_in_threadpool(_choices, path)
    kept = {k: v for k, v in q.items() if k not in ("before", "after", "token") and v != ""}
    from urllib.parse import urlencode

    older = urlencode({**kept, "before": page.older}) if page.older is not None else None
    newer = urlencode({**kept, "after": page.newer}) if page.newer is not None else None
    from arena.reports.html import result_text

    rows = [{**g, "result": result_text(g["seats"], g["ranks"])} for g in page.games]
    return site.page("games.html.j2", name=name, page=page, rows=rows, choices=choices, flt=flt, q=kept,
                     older=older, newer=newer)


#: Seats offered by the seat filter of a store that does not say its game's number of players.
MAX_SEATS = 8


def _choices(path: Any) -> dict[str, list]:
    """``filter_choices`` of ``path`` and ``seats`` (its game's 0-based seats), read again only
    once a game was stored since."""
    from arena.results.browse import change_mark

    mark = change_mark(path)
    held = _CHOICES.get(path)
    if held is None or held[0] != mark:
        from arena.results.store import load_tournament

        seats = load_tournament(path).get("num_players") or MAX_SEATS  # the game's seats, 0-based
        held = _CHOICES[path] = (mark, {**filter_choices(path), "seats": list(range(int(seats)))})
    return held[1]


#: path -> (the store's change mark, its filter choices): shared by the server's requests
_CHOICES: dict[Any, tuple[tuple[int, int], dict[str, list]]] = {}


def _frames(path: Any, game_id: int) -> dict[str, Any]:
    import arena.games
    from arena.reports.html import _answers, result_text
    from arena.reports.replay import replay_frames, timing_notes
    from arena.results import store

    tour = store.load_tournament(path)
    try:
        row = store.load_game(path, game_id)
    except (ArenaError, KeyError, TypeError) as exc:
        raise HTTPException(404, f"no game {game_id} stored in {tour['name']}") from exc
    moves = store.load_moves(path, game_id)
    game = arena.games.make(tour["game"], **tour.get("params", {}))
    start = store.load_series_start(path, row["series"])
    frames, stopped = replay_frames(game, row["seed"], row["moves"], row["seats"], row["opening_plies"],
                                    _answers(moves), start, timing_notes(moves))
    fault = row["fault_seat"]
    return {"id": game_id, "seats": row["seats"], "result": result_text(row["seats"], row["ranks"]),
            "termination": row["termination"], "plies": row["plies"], "stopped": stopped or "",
            "fault": "" if fault is None else f"seat {fault} {row['seats'][fault]}: {row['fault_detail'] or ''}",
            "frames": [f.to_dict() for f in frames]}


async def replay(request: Request) -> Response:
    """One stored game, ply by ply: buttons, the arrow keys, and its move list."""
    site = request.app.state.site
    name = request.path_params["name"]
    path = site.store(name)
    game = await run_in_threadpool(_frames, path, request.path_params["game_id"])
    frames = json.dumps(game["frames"]).replace("<", "\\u003c")  # a move's text never closes the script element
    return site.page("replay.html.j2", name=name, game=game, frames_json=frames)


def _export(path: Any, fmt: str) -> bytes:
    """The bytes of ``arena export``'s file (run as a command: its own code, its own checks),
    or the HTML report's page.

    Raises:
        HTTPException: 503 with ``arena export``'s one-line error when it refused the store
            (exit code 2: damaged, unreadable), 500 when it failed otherwise.
    """
    if fmt == "html":
        from arena.reports.html import render_html

        return render_html(path).encode()
    with tempfile.TemporaryDirectory(prefix="arena-serve-") as tmp:
        out = Path(tmp) / f"export.{fmt}"
        done = subprocess.run([sys.executable, "-m", "arena", "export", str(path), "--format", fmt, "--out", str(out)],
                              capture_output=True, text=True, timeout=3600)
        if done.returncode != 0:
            line = (done.stderr.strip().splitlines() or ["arena export failed"])[-1]
            raise HTTPException(503 if done.returncode == 2 else 500, line)
        return out.read_bytes()


async def export(request: Request) -> Response:
    """A tournament's games as ``arena export`` writes them (jsonl, csv, parquet), or its HTML
    report, for download."""
    site = request.app.state.site
    name, fmt = request.path_params["name"], request.path_params["fmt"]
    path = site.store(name)
    if fmt not in EXPORTS:
        raise HTTPException(404, f"no export {fmt!r}; accepted: {', '.join(EXPORTS)}")
    body = await run_in_threadpool(_export, path, fmt)
    return Response(body, media_type=EXPORTS[fmt],
                    headers={"Content-Disposition": f'attachment; filename="{name}.{fmt}"'})
