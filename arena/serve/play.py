"""The human seat in the browser: a person plays a game against a chosen bot by clicking or
typing moves, and the game is stored and rated like any other.

The seat is ``bots.human.Human`` with a ``WebSource`` (its ``MoveSource``): the game is played
by the referee (``arena.referee.play_game``) in a thread of the server; when the person is on
move, ``WebSource.ask`` waits for the page's answer (``POST /play/{sid}/move``); the page polls
``/play/{sid}/state`` for the position, the legal moves and the reason an entry was refused. No
clock times the person. The game is stored as ``arena play --bot human`` stores one
(``arena.tournament.played``): the next game of the tournament ``play-GAME`` of the results
folder, its own series, the bots members with versions, rated into the stored rating state.
The tournament's run lock is held only while it is written: when the game starts it is opened
and closed again (a tournament that cannot take the game is refused before any move), and
when the game ends it is opened again (waiting up to ``STORE_WAIT`` seconds while another
process holds it) to store the game; so an unfinished game blocks nobody (``arena play``,
another game of the page). ``quit`` resigns (``resigned``).

What a visitor may start is bounded: the bot's seat plays under a per-move time limit of
``BOT_MOVE_TIME`` seconds (the tighter of it and the bot's own options: ``alphabeta:depth=50``
stops deepening there, ``mcts:playouts=10000000`` stops its playouts), an option that costs memory
rather than time is refused above ``OPTION_MOST``, and at most ``MAX_PLAYING`` games are in
progress at once (another is refused, 503). A finished game's page is kept ``KEEP_FINISHED``
seconds, and at most ``KEEP_MOST`` finished games are kept (the oldest dropped first); its page
is then 404, its game stays in the store.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from arena.errors import ArenaError, BotSpecError

#: Games offered on the play page (a person's game: two seats, a board drawn).
PLAYABLE = ("interaction",)
#: Seconds a person's move may wait before the game is given up (the page was closed).
ABANDON = 3600.0
#: Seconds a finished game waits at most for its tournament's lock (another process storing).
STORE_WAIT = 600.0
#: Seconds between two tries to take that lock.
STORE_RETRY = 0.2
#: This server's games take turns to open and write the store.
_STORING = threading.RLock()
#: Seconds the bot of a page's game may think per move (the arena's limit on its seat; a move
#: over it plus the referee's margin loses by ``timeout``).
BOT_MOVE_TIME = 5.0
#: The largest value a page may give an option that costs memory, not time (the option's name
#: -> the most): alphabeta's transposition table entries, kept between moves.
OPTION_MOST = {"tt": 1_000_000}
#: Games in progress at once on one server (each a thread; its bot's moves a core).
MAX_PLAYING = 8
#: Seconds a finished game stays in the server's memory (its page, its state) after it ended.
KEEP_FINISHED = 3600.0
#: Finished games kept in memory at most (the oldest dropped first).
KEEP_MOST = 100


def web_kinds(game: Any = None) -> list[str]:
    """The bot kinds the page may start (``allowed_spec``): the built-in kinds that are not
    interactive and whose class loads here, sorted; with ``game``, only those that can play it
    (``bots.base.refusal``, as the arena refuses the others before any game)."""
    from bots.base import refusal
    from bots.kinds import bot_class, builtin, names

    kinds = []
    for kind in names():
        if not builtin(kind):
            continue
        try:
            cls = bot_class(kind)
        except (ArenaError, ImportError):  # a kind whose library is not installed here
            continue
        if not getattr(cls, "interactive", False) and (game is None or refusal(cls, game) is None):
            kinds.append(kind)
    return kinds


def allowed_spec(text: str, game: Any) -> Any:
    """The parsed spec ``text`` when it names a bot the page may start: a built-in kind (the
    arena's own code: ``random``, ``alphabeta:depth=3``...) that is not interactive, with
    options its class accepts (a memory option at most its ``OPTION_MOST``), that plays
    ``game``; checked before any bot is made. A file,
    dotted, installed, ``llm`` or prefix kind (``exec:CMD``) is refused: a web page (any
    site the user visits may post to it) must not run a command, import a file or send a
    key from the server's environment.

    Raises:
        BotSpecError: any other spec (one line naming the accepted kinds).
    """
    from arena.games.params import coerce_params
    from bots.kinds import bot_class
    from bots.registry import parse_spec, precheck

    accepted = web_kinds(game)
    listed = f"accepted: {', '.join(accepted)} (with their options, e.g. alphabeta:depth=3)"
    try:
        spec = parse_spec(text)
    except BotSpecError as exc:  # the command line's list of kinds is not the page's
        raise BotSpecError(f"{str(exc).partition('; accepted kinds:')[0]}; {listed}") from None
    if spec.kind not in accepted:
        why = f"cannot play {game.name}" if spec.kind in web_kinds() else "cannot be started from a web page"
        raise BotSpecError(f"bot kind {spec.kind!r} {why}; {listed}")
    if spec.label == "human":
        raise BotSpecError(f"bot label 'human' of {spec.text!r} is your seat's; give the bot another label "
                           "(LABEL=SPEC) or none")
    precheck(spec, game)
    values = coerce_params(spec.kind, getattr(bot_class(spec.kind), "PARAMS", {}), dict(spec.options))
    for key, most in OPTION_MOST.items():
        if key in spec.options and isinstance(values[key], int) and values[key] > most:
            raise BotSpecError(f"bot {spec.text!r}: {key}={spec.options[key]} is more than a web page may start "
                               f"(at most {most}); play it with arena play --bot human in a terminal")
    return spec


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
    """One game of a person against a bot, played in its own thread and stored as ``arena
    play`` stores a person's game (``arena.tournament.played``).

    Raises:
        BotSpecError: a bad bot spec.
        ConfigError: a bot that does not play the game.
        ResultsError: the tournament ``play-GAME`` cannot be opened (another game's, a run's).
    """

    def __init__(self, results: Path, game_name: str, spec: str, seat: int) -> None:
        import arena.games
        from bots.registry import assign_labels, check_field, make

        self.results, self.seat = results, seat
        self.game = arena.games.make(game_name)
        self.specs = assign_labels(["human", spec] if seat == 0 else [spec, "human"], typed=2)
        check_field(self.specs, self.game)
        self.store_name = "play-" + self.game.name.replace(":", "-")  # as arena play names it
        self.waiting: str | None = None  # why a finished game is not stored yet
        self.labels = list(self._with_store(lambda played: played.labels, wait=0.0))  # refused now, before any move
        self.bots = [make(s) for s in self.specs]
        self.source = WebSource(self.game)
        self.bots[seat].source = self.source  # the Human seat's moves come from this page
        self.record: Any = None
        self.stored: int | None = None
        self.error: str | None = None
        self.ended: float | None = None  # ``time.monotonic()`` when the game was over (stored or not)
        self.label = self.labels[1 - seat]
        self.thread = threading.Thread(target=self._play, daemon=True, name=f"arena-play-{self.store_name}")
        self.thread.start()

    def _with_store(self, action: Any, wait: float) -> Any:
        """``action(played)`` on the tournament opened for this game (``open_played``), closed
        again at once: its lock is held only meanwhile. Waits up to ``wait`` seconds while
        another process holds the lock (``arena play``, another server storing a game): every
        refusal for the lock is tried again, a lock released since included; any other refusal
        is raised at once.

        Raises:
            ResultsError: it cannot be opened (another game's, a run's; still locked after
                ``wait``) or written.
        """
        from arena.errors import RunLockedError
        from arena.tournament.played import open_played

        deadline = time.monotonic() + wait
        while True:
            try:
                with _STORING:  # this server's games take turns; other processes: the lock
                    played = open_played(self.results, self.store_name, self.game, self.specs)
                    try:
                        return action(played)
                    finally:
                        played.close()
            except RunLockedError:  # tried again until the deadline, even if free by now
                busy = (f"another process is writing the tournament {self.store_name!r} of the results folder "
                        "(arena play storing a game, or another server)")
                if time.monotonic() >= deadline:
                    raise RunLockedError(f"{busy}; try again once it is done" if wait <= 0 else
                                         f"{busy} still after {wait:g} s; the game could not be stored") from None
                self.waiting = f"waiting to store the game: {busy}"
                time.sleep(STORE_RETRY)

    def _play(self) -> None:
        from arena.referee import GameSettings, bot_seeds, play_game
        from arena.tournament.played import store_game
        from bots.base import Limits
        from bots.registry import seed_name

        def store(played: Any) -> tuple[int, Any]:
            done = record
            if tuple(played.labels) != done.seats:  # a bot's new version stored meanwhile
                done = dataclasses.replace(done, seats=tuple(played.labels))
            return store_game(played, done), done

        try:
            seed = secrets.randbelow(2**63)  # the game's seed is stored with it: the game replays
            seeds = bot_seeds(seed, 0, [seed_name(spec) for spec in self.specs])
            limits = tuple(None if k == self.seat else Limits(time=BOT_MOVE_TIME) for k in range(2))
            settings = GameSettings(self.game, seed, labels=tuple(self.labels), limits=limits, seeds=seeds)
            record = play_game(settings, self.bots)
            self.stored, stored = self._with_store(store, STORE_WAIT)  # the lock held only while writing
            self.waiting, self.labels, self.record = None, list(stored.seats), stored  # over once stored
        except Exception as exc:  # noqa: BLE001 - shown on the page; the server goes on
            self.waiting, self.error = None, f"{type(exc).__name__}: {exc}"
        finally:
            self.ended = time.monotonic()

    def state(self) -> dict[str, Any]:
        asking = self.source.asking
        out: dict[str, Any] = {"seats": self.labels, "human_seat": self.seat, "store": self.store_name,
                               "over": self.record is not None or self.error is not None, "error": self.error,
                               "stored": self.stored, "asking": asking, "waiting": self.waiting}
        if self.record is not None:
            out.update(result=list(self.record.outcome.ranks), termination=str(self.record.outcome.termination),
                       plies=len(self.record.moves))
        return out


class Games:
    """The sessions of a server, by id: at most ``playing`` games in progress; a finished one
    is dropped ``keep`` seconds after it ended, or sooner when more than ``most`` are finished
    (the oldest first)."""

    def __init__(self, results: Path, playing: int = MAX_PLAYING, keep: float = KEEP_FINISHED,
                 most: int = KEEP_MOST) -> None:
        self.results, self.lock = Path(results), threading.Lock()
        self.playing, self.keep, self.most = playing, keep, most
        self.sessions: dict[str, Session] = {}

    def start(self, game: str, spec: str, seat: int) -> str:
        """Start a game; its id.

        Raises:
            HTTPException: 503 when ``playing`` games are in progress.
            ArenaError: as ``Session``.
        """
        with self.lock:
            self.prune()
            if sum(s.ended is None for s in self.sessions.values()) >= self.playing:
                raise HTTPException(503, f"{self.playing} games are in progress on this server, the most it "
                                         "plays at once; finish one (quit resigns) or try again later")
            sid = secrets.token_urlsafe(8)
            self.sessions[sid] = Session(self.results, game, spec, seat)
        return sid

    def prune(self) -> None:
        """Drop the finished games ended more than ``keep`` seconds ago, then the oldest
        finished ones beyond ``most`` (called under ``lock``)."""
        now = time.monotonic()
        ended = sorted((s.ended, sid) for sid, s in self.sessions.items() if s.ended is not None)
        old = sum(now - at > self.keep for at, _ in ended)  # the oldest first: a prefix of ``ended``
        for _, sid in ended[:max(old, len(ended) - self.most)]:
            del self.sessions[sid]

    def get(self, sid: str) -> Session:
        """The game ``sid``.

        Raises:
            HTTPException: 404 for no game of that id (never started, or dropped once finished).
        """
        with self.lock:
            self.prune()
            session = self.sessions.get(sid)
        if session is None:
            raise HTTPException(404, f"no game {sid!r} on this server (a finished game is kept "
                                     f"{self.keep / 60:g} minutes; its game is in the store)")
        return session


async def start(request: Request) -> Response:
    """GET: the form (game, opponent, seat); POST: start the game and open its page."""
    site = request.app.state.site
    if request.method == "GET":
        import arena.games

        bots = sorted({kind for game in PLAYABLE for kind in web_kinds(arena.games.make(game))})
        return site.page("play.html.j2", games=PLAYABLE, bots=bots, move_time=BOT_MOVE_TIME)
    form = await _form(request)
    game, spec = form.get("game", "interaction"), form.get("bot", "").strip()
    seat_text = form.get("seat", "0")
    if game not in PLAYABLE or seat_text not in ("0", "1") or not spec:
        raise HTTPException(400, f"choose a game ({', '.join(PLAYABLE)}), a bot spec and seat 0 or 1")
    try:
        import arena.games

        allowed_spec(spec, arena.games.make(game))
        sid = await run_in_threadpool(request.app.state.games.start, game, spec, int(seat_text))
    except ArenaError as exc:
        raise HTTPException(400, str(exc)) from None
    return RedirectResponse(f"/play/{sid}", status_code=303)


async def _form(request: Request) -> dict[str, str]:
    """A url-encoded form's fields (the last value of each): no multipart parser needed."""
    return {k: v[-1] for k, v in parse_qs((await request.body()).decode("utf-8", "replace")).items()}


def board_grid(game: Any) -> dict[str, int] | None:
    """Where the cells are on the game's SVG board (viewBox units): ``margin``, ``cell`` and
    ``size`` (cells a side), for a click on the board to name its cell (``a1`` at bottom left);
    ``None`` for a game whose board is not such a grid."""
    if game.name != "interaction":
        return None
    from arena.games.interaction.geometry import SIZE
    from arena.games.interaction.svg import CELL, MARGIN

    return {"margin": MARGIN, "cell": CELL, "size": SIZE}


async def page(request: Request) -> Response:
    """The board of a game being played, its legal moves as buttons and a field to type one; a
    click on a cell of the board keeps the moves from that cell."""
    session = request.app.state.games.get(request.path_params["sid"])
    return request.app.state.site.page("play_game.html.j2", sid=request.path_params["sid"], session=session,
                                       grid=board_grid(session.game))


async def state(request: Request) -> Response:
    """The game's state as JSON: ``asking`` (the position, legal moves and the last problem
    while the person is on move), ``over``, ``stored`` (its game id), ``result``."""
    return JSONResponse(request.app.state.games.get(request.path_params["sid"]).state())


async def move(request: Request) -> Response:
    """The person's entry (url-encoded form or JSON field ``move``; ``quit`` resigns); 400 when
    the field ``move`` is missing or not text (the game goes on), 409 when no move is asked."""
    session = request.app.state.games.get(request.path_params["sid"])
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            body = json.loads(await request.body())
        except ValueError:  # not JSON, or not UTF-8
            body = None
        if not isinstance(body, dict):
            return JSONResponse({"error": 'the body must be a JSON object {"move": TEXT}'}, status_code=400)
        text = body.get("move")
    else:
        text = (await _form(request)).get("move")
    if not isinstance(text, str):  # only quit resigns: a request without a move is no entry
        return JSONResponse({"error": "the request has no field 'move' (a move's text, or quit to resign), as "
                                      'a url-encoded form move=TEXT or JSON {"move": TEXT}'}, status_code=400)
    if not session.source.answer(text):
        return JSONResponse({"error": "no move is asked now"}, status_code=409)
    return JSONResponse({"ok": True})
