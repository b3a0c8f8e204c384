"""The web application of ``arena serve``: its routes, its templates and the token check.

``create_app(results, token)`` builds the Starlette application over the results folder
``results``. With a ``token`` every request must carry it: an ``Authorization: Bearer T`` or
``X-Arena-Token: T`` header, a ``?token=T`` query (which also sets a cookie, so the page's own
links and requests need nothing more), or that cookie; a request without it is answered 401,
one with another token 403.

Every request that changes something (any method but GET, HEAD and OPTIONS: starting a game,
a move) must come from the server's own pages: its ``Origin`` header (or, without one, its
``Referer``) must name the host and port of its ``Host`` header; any other is answered 403, so
a page of another site the user visits cannot post to the server on this machine.
"""

from __future__ import annotations

import hmac
import re
import sqlite3
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import jinja2
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from arena.errors import ArenaError, ResultsError, one_line
from arena.results.files import db_path

#: The cookie that carries the token once a ``?token=`` link was opened.
COOKIE = "arena_token"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")


class TokenGuard:
    """ASGI middleware refusing every HTTP request without ``token`` (module docstring)."""

    def __init__(self, app: Any, token: str) -> None:
        self.app, self.token = app, token

    def _given(self, scope: dict) -> tuple[str | None, bool]:
        """The token a request carries, and whether it came in the query."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        auth = headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip(), False
        if "x-arena-token" in headers:
            return headers["x-arena-token"], False
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if "token" in query:
            return query["token"][0], True
        cookie = SimpleCookie(headers.get("cookie", ""))
        return (cookie[COOKIE].value, False) if COOKIE in cookie else (None, False)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given, in_query = self._given(scope)
        refused = given is None or not hmac.compare_digest(given.encode(), self.token.encode())
        if refused and scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})  # policy violation
            return
        if refused:
            status = 401 if given is None else 403
            text = b"a token is required (?token=T or Authorization: Bearer T)" if status == 401 else b"wrong token"
            response = Response(text, status_code=status, media_type="text/plain",
                                headers={"WWW-Authenticate": "Bearer"} if status == 401 else None)
            await response(scope, receive, send)
            return
        if not in_query:
            await self.app(scope, receive, send)
            return

        async def send_cookie(message: dict) -> None:
            if message["type"] == "http.response.start":
                cookie = f"{COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict".encode("latin-1")
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
            await send(message)

        await self.app(scope, receive, send_cookie)


#: Methods that change nothing, allowed from any origin.
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def same_origin(headers: dict[str, str]) -> bool:
    """Whether a request's ``Origin`` (or, without one, ``Referer``) names the host and port
    of its ``Host`` header; ``False`` without either (lower-case header names)."""
    host = headers.get("host", "").strip().lower()
    origin = headers.get("origin", "").strip()
    source = origin if origin and origin != "null" else headers.get("referer", "").strip()
    if not host or not source:
        return False
    try:
        parts = urlsplit(source)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host


class OriginGuard:
    """ASGI middleware refusing (403) a request of another method than ``SAFE_METHODS`` that
    does not come from the server's own origin (``same_origin``; module docstring)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope.get("method", "GET") not in SAFE_METHODS:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            if not same_origin(headers):
                response = Response("refused: a request that changes something must come from this server's "
                                    "own pages (its Origin or Referer must be this server)", status_code=403,
                                    media_type="text/plain")
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def environment() -> jinja2.Environment:
    """The pages' templates (``arena/serve/templates``), with the HTML report's table."""
    loader = jinja2.ChoiceLoader([jinja2.PackageLoader("arena.serve", "templates"),
                                  jinja2.PackageLoader("arena.reports", "templates")])
    return jinja2.Environment(loader=loader, autoescape=jinja2.select_autoescape(["html", "j2"]),
                              undefined=jinja2.StrictUndefined)


class Site:
    """What the routes share: the results folder and the templates."""

    def __init__(self, results: Path) -> None:
        self.results = Path(results)
        self.env = environment()

    def store(self, name: str) -> Path:
        """The database of tournament ``name`` under the results folder.

        Raises:
            HTTPException: 404 for a name that is no stored tournament.
        """
        path = db_path(name, self.results)
        if not _NAME.match(name) or not path.is_file():
            raise HTTPException(404, f"no tournament {name!r} in {self.results}")
        return path

    def page(self, template: str, status: int = 200, **values: Any) -> HTMLResponse:
        return HTMLResponse(self.env.get_template(template).render(**values), status_code=status)


def _error(request: Request, exc: Exception) -> Response:
    site: Site = request.app.state.site
    if isinstance(exc, HTTPException):
        status, text = exc.status_code, str(exc.detail)
    elif isinstance(exc, (ResultsError, sqlite3.Error)):  # a damaged store, or one a run is making
        status, text = 503, one_line(exc) if isinstance(exc, ResultsError) else f"the store cannot be read: {exc}"
    else:  # another ArenaError: bad input
        status, text = 400, one_line(exc)
    if request.url.path.endswith((".json", "/events", "/state")) or "move" in request.url.path:
        return Response(text, status_code=status, media_type="text/plain")
    return site.page("error.html.j2", status=status, status_code=status, message=text)


def create_app(results: str | Path, token: str | None = None) -> Any:
    """The application over the results folder ``results`` (an ASGI app for uvicorn).

    Args:
        results: the folder of the results databases.
        token: when given, the token every request must carry (module docstring).
    """
    from arena.results.connect import never_write
    from arena.serve import live, pages, play

    never_write()  # the server only reads: an earlier arena's store is migrated in memory, not in its file
    site = Site(Path(results))
    routes = [
        Route("/", pages.index),
        Route("/plotly.js", pages.plotly_js),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/t/{name}", pages.tournament),
        Route("/t/{name}/summary", live.summary),
        Route("/t/{name}/report", pages.report),
        Route("/t/{name}/events", live.events),
        Route("/t/{name}/live", live.playing),
        Route("/t/{name}/games", pages.browser),
        Route("/t/{name}/games/{game_id:int}", pages.replay),
        Route("/t/{name}/export/{fmt}", pages.export),
        Route("/play", play.start, methods=["GET", "POST"]),
        Route("/play/{sid}", play.page),
        Route("/play/{sid}/state", play.state),
        Route("/play/{sid}/move", play.move, methods=["POST"]),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: _error, ArenaError: _error,
                                                           sqlite3.Error: _error})
    app.state.site = site
    app.state.summaries = live.Summaries()
    app.state.watches = {}  # path -> live.StoreWatch
    app.state.rendered = {}  # (part, path) -> (state, HTML): a fragment rendered once per state
    app.state.games = play.Games(site.results)
    guarded = OriginGuard(app)
    return TokenGuard(guarded, token) if token else guarded
