"""The human seat in the browser: a person plays a game against a chosen bot by clicking or
typing moves, and the game is stored and rated like any other.

The seat is ``bots.human.Human`` with a ``WebSource`` (its ``MoveSource``): the game is played
by the referee (``arena.referee.play_game``) in a thread of the server; when the person is on
move, ``WebSource.ask`` waits for the page's answer (``POST /play/{sid}/move``); the page polls
``/play/{sid}/state`` for the position, the legal moves and the reason an entry was refused. No
clock times the person. At the end the game is stored in the results folder, in the tournament
``human-<game>-<bot>`` (one per game and opponent: its field is the two of them), as the next
game id, its own series; the reports rate it as any stored game. ``quit`` resigns
(``resigned``).
"""

from __future__ import annotations

import re
import secrets
import threading
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from arena.errors import ArenaError

#: Games offered on the play page (a person's game: two seats, a board drawn).
PLAYABLE = ("interaction",)
#: Seconds a person's move may wait before the game is given up (the page was closed).
ABANDON = 3600.0


class WebSource:
    """A ``bots.human.MoveSource`` fed by the page: ``ask`` publishes the position and waits
    for ``answer`` (``None`` resigns: the page is gone for ``ABANDON`` seconds)."""

    def __init__(self, game: Any) -> None:
        self.game, self.cond = game, threading.Condition()
        self.asking: dict[str, Any] | None = None
        self.reply: str | None = None
        self.answered = False

    def ask(self, position: Any, seat: int, legal_moves: list[str], seconds_left: float | None,
            problem: str | None = None) -> str | None:
        svg = self.game.render_svg(position) if hasattr(position, "to_text") else None
        with self.cond:
            text = position.diagram() if hasattr(position, "diagram") else getattr(position, "text", "")
            self.asking = {"seat": seat, "legal": legal_moves, "problem": problem, "svg": svg, "text": text}
            self.answered = False
            if not self.cond.wait_for(lambda: self.answered, timeout=ABANDON):
                self.asking = None
                return None
            self.asking = None
            return self.reply

    def answer(self, text: str | None) -> bool:
        """Hand the page's entry to the waiting ``ask``; ``False`` when no move is asked."""
        with self.cond:
            if self.asking is None:
                return False
            self.reply, self.answered = text, True
            self.cond.notify_all()
            return True


class Session:
    """One game of a person against a bot, played in its own thread."""

    def __init__(self, results: Path, game_name: str, spec: str, seat: int) -> None:
        import arena.games
        from bots import registry
        from bots.human import Human

        self.results, self.game_name, self.spec, self.seat = results, game_name, spec, seat
        self.game = arena.games.make(game_name)
        self.source = WebSource(self.game)
        self.human = Human(source=self.source)
        self.bot = registry.make(spec)
        self.label = re.sub(r"[^A-Za-z0-9._+-]", "-", spec)
        self.labels = ["human", self.label] if seat == 0 else [self.label, "human"]
        self.store_name = f"human-{game_name}-{self.label}"
        self.record: Any = None
        self.stored: int | None = None
        self.error: str | None = None
        self.thread = threading.Thread(target=self._play, daemon=True, name=f"arena-play-{self.store_name}")
        self.thread.start()

    def _play(self) -> None:
        from arena.referee import GameSettings, play_game
        from bots.base import Limits

        try:
            bots = [self.human, self.bot] if self.seat == 0 else [self.bot, self.human]
            seed = secrets.randbelow(2**31)  # the game's seed is stored with it: the game replays
            record = play_game(GameSettings(self.game, seed, labels=tuple(self.labels), limits=Limits()), bots)
            self.stored = store_game(self.results, self.store_name, self.game, self.labels,
                                     ["human", self.spec] if self.seat == 0 else [self.spec, "human"], record)
            self.record = record  # over once stored
        except Exception as exc:  # noqa: BLE001 - shown on the page; the server goes on
            self.error = f"{type(exc).__name__}: {exc}"

    def state(self) -> dict[str, Any]:
        asking = self.source.asking
        out: dict[str, Any] = {"seats": self.labels, "human_seat": self.seat, "store": self.store_name,
                               "over": self.record is not None or self.error is not None, "error": self.error,
                               "stored": self.stored, "asking": asking}
        if self.record is not None:
            out.update(result=list(self.record.outcome.ranks), termination=str(self.record.outcome.termination),
                       plies=len(self.record.moves))
        return out


def store_game(results: Path, name: str, game: Any, labels: list[str], specs: list[str], record: Any) -> int:
    """Store ``record`` as the next game of the tournament ``name`` under ``results`` (made
    with these two bots when new); returns its game id.

    Raises:
        ResultsError: the store cannot be written, or is another tournament's.
    """
    from arena.results.store import Store

    with Store.open(results, name) as store:
        stored = store.stored()
        done = sorted(store.done_ids())
        game_id = (done[-1] if done else 0) + 1
        field = sorted(zip(labels, specs))
        if stored is None:
            store.begin(name, game.name, {}, game.num_players, 0, {"games": game_id}, field, game_id)
        else:
            store.begin(name, game.name, {}, game.num_players, 0, {"games": game_id}, field, game_id, extend=True)
        store.add_game(game_id, game_id - 1, record)
    return game_id


class Games:
    """The sessions of a server, by id."""

    def __init__(self, results: Path) -> None:
        self.results, self.lock = Path(results), threading.Lock()
        self.sessions: dict[str, Session] = {}

    def start(self, game: str, spec: str, seat: int) -> str:
        sid = secrets.token_urlsafe(8)
        session = Session(self.results, game, spec, seat)
        with self.lock:
            self.sessions[sid] = session
        return sid

    def get(self, sid: str) -> Session:
        session = self.sessions.get(sid)
        if session is None:
            raise HTTPException(404, f"no game {sid!r} on this server")
        return session


async def start(request: Request) -> Response:
    """GET: the form (game, opponent, seat); POST: start the game and open its page."""
    site = request.app.state.site
    if request.method == "GET":
        from bots.kinds import names

        return site.page("play.html.j2", games=PLAYABLE, bots=[k for k in names() if k != "human"])
    form = await _form(request)
    game, spec = form.get("game", "interaction"), form.get("bot", "").strip()
    seat_text = form.get("seat", "0")
    if game not in PLAYABLE or seat_text not in ("0", "1") or not spec or spec.startswith("human"):
        raise HTTPException(400, f"choose a game ({', '.join(PLAYABLE)}), a bot spec and seat 0 or 1")
    try:
        sid = request.app.state.games.start(game, spec, int(seat_text))
    except ArenaError as exc:
        raise HTTPException(400, str(exc)) from None
    return RedirectResponse(f"/play/{sid}", status_code=303)


async def _form(request: Request) -> dict[str, str]:
    """A url-encoded form's fields (the last value of each): no multipart parser needed."""
    return {k: v[-1] for k, v in parse_qs((await request.body()).decode("utf-8", "replace")).items()}


async def page(request: Request) -> Response:
    """The board of a game being played, its legal moves as buttons and a field to type one."""
    session = request.app.state.games.get(request.path_params["sid"])
    return request.app.state.site.page("play_game.html.j2", sid=request.path_params["sid"], session=session)


async def state(request: Request) -> Response:
    """The game's state as JSON: ``asking`` (the position, legal moves and the last problem
    while the person is on move), ``over``, ``stored`` (its game id), ``result``."""
    return JSONResponse(request.app.state.games.get(request.path_params["sid"]).state())


async def move(request: Request) -> Response:
    """The person's entry (form or JSON field ``move``; ``quit`` resigns); 409 when no move is asked."""
    session = request.app.state.games.get(request.path_params["sid"])
    if request.headers.get("content-type", "").startswith("application/json"):
        text = (await request.json()).get("move")
    else:
        text = (await _form(request)).get("move")
    if not session.source.answer(None if text is None else str(text)):
        return JSONResponse({"error": "no move is asked now"}, status_code=409)
    return JSONResponse({"ok": True})
