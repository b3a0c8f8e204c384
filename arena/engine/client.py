"""``EngineBot``: an engine process presented to the match loop as an ordinary bot.

``reset(game, seat, seed)`` sends ``newgame``/``seat``/``isready``; ``choose(state, limits)``
sends ``position``, ``legal`` (sequential nodes) and ``go``, reads ``info`` lines into
``last_stats`` and answers the ``bestmove`` (``docs/engine-protocol.md``). In a game with hidden
information it sends the seat's ``view`` instead of ``position`` (the view it is handed, or the
state's ``view(seat)``: never the full position) and the seat's own ``legal`` moves, also at a
simultaneous node; an engine of a protocol version before ``VIEWS_VERSION`` is never offered
such a game (``refusal``, checked before the first game; at ``reset`` it is a ``crash``). Faults
("Faults" there) become ``arena.referee.BotFault``: no ``bestmove`` within the move time plus a
grace is ``timeout``, an exit or closed output is ``crash``, a line over
``process.MAX_LINE_BYTES`` is ``bad_move`` when it is a ``bestmove`` (no move can be that
long) and ``crash`` otherwise, the engine killed either way (an isolated Python bot's own
``info string fault REASON ...`` line names ``exception``, ``exit`` or ``memory`` instead).
A ``bestmove`` that is no move or not legal is left to the referee (``bad_move``,
``illegal_move``), but a bare ``bestmove`` (no move at all) is ``bad_move`` "bestmove without
a move" here.

Processes are kept across games, one per (bot, seat) in each worker process, and replaced
after any fault; ``close_all`` quits them (and they die with the process that started them).
A process holds at most as many engines as the game has seats (fastchess #855): before each
game a worker calls ``for_game(bots)``, which keeps the engines of the game's bots (a bot's
engine follows it to its new seat: ``newgame`` and ``seat`` tell it) and kills the others; and a
``reset`` that needs a new engine first kills those used longest ago (``kept.make_room``), for
callers that play games without ``for_game``. ``arena.engine.kept`` holds them.
"""

from __future__ import annotations

import os
import shlex
import time
from collections.abc import Sequence
from typing import Any, NoReturn

from arena.engine import kept
from arena.engine.argv import engine_argv
# the engines kept across games: read here by the workers and the tests
from arena.engine.kept import close_all as close_all, running as running
from arena.engine.process import EngineClosed, EngineProcess, LineTooLong, StartError
from arena.engine.protocol import (FRAME_SEP, NO_ANSWER, NO_INFO, STARTUP_TIMEOUT, Go, Info, command_text,
                                   format_newgame, format_view, parse_info)
from arena.engine.views import refusal, seat_view
from arena.errors import BotSpecError
from arena.games import SIMULTANEOUS, Game, State
from arena.referee import BotFault
from arena.referee.private import share_state
from bots.base import Limits, SearchStats

#: seconds of grace after ``go movetime`` before the engine is killed: at least this, or the
#: move time again (the referee's ``--time-margin`` decides whether a late answer loses)
MIN_GRACE = 1.0
#: faults an isolated Python bot names itself in ``info string fault REASON DETAIL``
SELF_REPORTED = ("exception", "exit", "memory")

#: the limits of a move without any
NO_LIMITS = Limits()


def for_game(bots: Sequence[Any]) -> None:
    """Before a game of ``bots`` (in seat order): keep the running engines of its engine bots,
    each under its seat in this game (an engine a bot ran in another seat moves with it, the
    same seat first), and kill every other engine of this process (``kept.keep``)."""
    kept.keep([(seat, bot._ident()) for seat, bot in enumerate(bots) if isinstance(bot, EngineBot)])


@share_state  # choose only sends the state's text and legal moves: no private copy needed
class EngineBot:
    """An engine (any program speaking the protocol) as a bot.

    Args:
        command: executable and arguments.
        options: sent as ``setoption`` after the handshake (names the engine must declare).
        startup_timeout: seconds for ``aepok`` / ``readyok``.
        sandbox: an ``arena.engine.sandbox.Sandbox`` (isolated Python bots) or ``None``.
        check_options: refuse options the engine did not declare (``BotSpecError``).
        each: options sent only when the engine declares them (``--each`` for an isolated
            Python bot; ``options`` wins over them).

    Attributes:
        restart: start a new process for every game (``restart=on`` in the spec) instead of
            keeping it across the games of a worker.
    """

    name = "exec"
    #: the bot capabilities of ``bots.base.Player`` (a worker calls them for every class it made bots of)
    for_game = staticmethod(for_game)
    close_all = staticmethod(close_all)

    @property
    def keeps_own_deadline(self) -> bool:
        """``keeps_time``: this client's ``choose`` is the arena's own (``bots.base.Player``)."""
        return keeps_time(self)

    def __init__(self, command: list[str], options: dict[str, str] | None = None,
                 startup_timeout: float = STARTUP_TIMEOUT, sandbox: Any = None, check_options: bool = True,
                 each: dict[str, str] | None = None) -> None:
        if not command:
            raise BotSpecError("engine command is empty; expected an executable and its arguments")
        self.command, self.options = list(command), dict(options or {})
        self.startup_timeout, self.sandbox, self.check_options = float(startup_timeout), sandbox, check_options
        self.each, self.restart = dict(each or {}), False
        self.label = os.path.basename(self.command[0])
        self.last_stats = SearchStats()
        self.game: Game | None = None
        self.seat = self.seed = 0
        self.engine: EngineProcess | None = None
        self.id_name: str | None = None  # the engine's ``id name``, once ``probe`` has run
        self.protocol: int | None = None  # the protocol version it spoke at ``probe`` (``aepok [N]``)
        self.fault: tuple[str, str] | None = None  # a failed reset, reported at the next choose
        self._go: tuple[Limits | None, str] = (None, "")  # the last limits and their go line
        self._info: tuple[str, Info] = ("", NO_INFO)  # the last info line and its figures
        self._stats: tuple[Info | None, SearchStats] = (None, self.last_stats)  # the last timed figures, as stats

    # processes ----------------------------------------------------------------------------
    def _ident(self) -> tuple:
        """What makes two engine bots the same engine: label, command, options, sandbox."""
        return (self.label, tuple(self.command), tuple(self.options.items()), self.sandbox)

    def _key(self, seat: int) -> tuple:
        return (self._ident(), seat)

    def _start(self) -> EngineProcess:
        """A started engine (handshake and options done).

        Raises:
            StartError, BotSpecError: as ``EngineProcess.start``.
        """
        if self.sandbox is None:
            engine = EngineProcess(self.command, self.label, self.startup_timeout)
        else:  # a user and a private directory of its own (arena.engine.sandbox.Cell)
            try:
                cell = self.sandbox.cell()
            except OSError as exc:
                raise StartError(f"cannot confine the engine: {exc}") from None
            command = self.sandbox.command(self.command, cell)
            engine = EngineProcess(command, self.label, self.startup_timeout, self.sandbox.preexec(cell, command),
                                   cell.workdir, release=cell.release)
        engine.start(self.options, self.check_options, self.each)
        return engine

    def probe(self) -> dict[str, str]:
        """Start the engine once and quit it: its ``id`` lines (a spec check before any game).

        Raises:
            BotSpecError: it cannot be started, does not finish the handshake, or refuses an
                option.
        """
        try:
            engine = self._start()
        except StartError as exc:
            hint = ""
            if len(self.command) > 1 and os.sep in self.command[0] and not os.path.exists(self.command[0]):
                hint = f"; a path with spaces is quoted: exec:{shlex.quote(' '.join(self.command))}"
            raise BotSpecError(f"engine {self.label!r} ({command_text(self.command)}) cannot be made: "
                               f"{exc}{hint}") from None
        engine.quit()
        self.id_name = engine.handshake.ids.get("name")
        self.protocol = engine.handshake.version
        return dict(engine.handshake.ids)

    def close(self) -> None:
        """Quit this bot's engine (if running) and forget it; the next ``reset`` starts a new one."""
        if self.engine is not None:
            self.engine.quit()
            kept.RUNNING.pop(self._key(self.seat), None)
            self.engine = None

    def _drop(self, seat: int | None = None) -> None:
        if self.engine is not None:
            self.engine.kill()
            kept.RUNNING.pop(self._key(self.seat if seat is None else seat), None)
            self.engine = None

    # the bot protocol ---------------------------------------------------------------------
    def reset(self, game: Game, seat: int, seed: int) -> None:
        """``newgame``, ``seat``, ``isready`` on this seat's engine (started or restarted). A
        fault is kept for the next ``choose``: ``timeout`` when no ``readyok`` comes within
        ``startup_timeout`` seconds of ``seat`` (a slow constructor or ``reset``), ``crash`` (or
        the reason the engine reported) when it cannot be started or ends."""
        self.game, self.seat, self.seed, self.fault = game, seat, seed, None
        key = self._key(seat)
        self.engine = kept.RUNNING.pop(key, None)  # put back last: the one used most recently
        if self.restart and self.engine is not None:  # restart=on: a new process for every game
            self.engine.quit()
            self.engine = None
        try:
            if self.engine is None or not self.engine.alive:
                self._drop()
                kept.make_room(game.num_players)
                self.engine = self._start()
            kept.RUNNING[key] = self.engine
            why = refusal(self.engine.handshake.version, self.label, game)
            if why is not None:  # never the full position of a game with hidden information
                self.fault = ("crash", why)
                return
            self.engine.send(format_newgame(game.name, json_params(game.params)), f"seat {seat} {seed}")
            try:
                self.engine.sync(self.startup_timeout)
            except StartError as exc:  # the bot's constructor or reset is slow: its loss, as in-process
                self.fault = ("timeout", f"no readyok within {self.startup_timeout:g}s of newgame and seat "
                                         f"(the bot's constructor and reset); engine killed: {exc}")
                self._drop()
                return
        except (StartError, BotSpecError, EngineClosed, LineTooLong) as exc:
            said = self._self_reported(self.engine.last_info_string if self.engine else None)
            self.fault = said or ("crash", f"engine cannot be (re)started for this game: {exc}")
            self._drop()

    def choose(self, state: State, limits: Limits | None) -> Any:
        """The engine's ``bestmove`` for ``state``, as a move of the game (or the raw text
        when it does not parse, for the referee to call ``bad_move``); ``None`` for
        ``bestmove -`` at a simultaneous round.

        Raises:
            BotFault: ``timeout``, ``crash`` (or a reason the isolated bot reported), or a
                line over ``MAX_LINE_BYTES`` (``bad_move`` for a ``bestmove``, else ``crash``);
                ``bad_move`` for a bare ``bestmove`` at a sequential node.
            RuntimeError: ``reset`` was not called first.
        """
        if self.game is None:
            raise RuntimeError("EngineBot: reset(game, seat, seed) must be called before choose")
        simultaneous = state.to_move == SIMULTANEOUS
        if self.engine is None and self.fault is None and simultaneous:
            self.reset(self.game, self.seat, self.seed)  # killed at an earlier round: rounds stand alone
        if self.fault is not None:
            raise BotFault(*self.fault)
        if self.engine is None:
            raise BotFault("crash", "the engine was killed earlier in this game")
        limits = limits or NO_LIMITS
        start = time.perf_counter()
        if self._go[0] is not limits:  # the referee passes a seat the same limits at every move (clockless)
            self._go = (limits, Go.of(limits, self.seat, self.engine.handshake.version).line())
        view = seat_view(state, self.seat) if self.game.type.hidden_information else None
        if view is not None:  # the seat's view and its own moves, never the position
            legal = list(map(str, view.moves))
            message = f"{format_view(view.to_move, view.text)}\nlegal {' '.join(legal)}\n{self._go[1]}\n"
        elif simultaneous:
            legal = []
            puzzle = getattr(state, "puzzle", None)
            message = f"position {puzzle if puzzle is not None else state.to_text()}\n{self._go[1]}\n"
        else:
            legal = list(map(str, state.legal_moves()))
            message = f"position {state.to_text()}\nlegal {' '.join(legal)}\n{self._go[1]}\n"
        allowed = _allowed(limits, self.seat)
        deadline = None if allowed is None else time.monotonic() + allowed + max(MIN_GRACE, allowed)
        info = NO_INFO
        try:
            self.engine.write(message)
            while True:
                line = self.engine.read_line(deadline)
                if line is None:
                    self._drop()
                    raise BotFault("timeout", f"no bestmove within {time.perf_counter() - start:.2f}s "
                                              f"({self._go[1]}); engine killed")
                if line.startswith("bestmove"):
                    break
                if line.startswith("info"):
                    if line != self._info[0]:  # an engine without a search repeats its line: read once
                        self._info = (line, parse_info(line))
                    info = info.merge(self._info[1])
                else:
                    self.engine.other(line)
        except EngineClosed:
            self._crashed(info)
        except LineTooLong as exc:  # read no further: the line's end may be megabytes away, or never come
            self._drop()
            reason = "bad_move" if exc.head.startswith(b"bestmove") else "crash"
            raise BotFault(reason, f"{exc}; engine killed") from None
        if info.seconds is None:
            self.last_stats = SearchStats(info.nodes or 0, info.depth or 0, time.perf_counter() - start, info.score)
        elif info is not self._stats[0]:  # the same figures as the last move: the same stats
            self._stats = (info, SearchStats(info.nodes or 0, info.depth or 0, info.seconds, info.score))
            self.last_stats = self._stats[1]
        else:
            self.last_stats = self._stats[1]
        text = line[len("bestmove"):].strip()
        if simultaneous and view is None:
            return None if text in ("", NO_ANSWER) else self._parse(state, text)
        move = text.split()[0] if text else ""  # UCI: words after the move (``ponder M``) are ignored
        if simultaneous and move not in legal and move in ("", NO_ANSWER):
            return None  # no answer this round
        if move not in legal:  # the referee calls the fault; this engine is restarted for the next game
            self._drop()
        if not move:  # "not parseable as a move" (docs/engine-protocol.md "Faults"), said plainly
            raise BotFault("bad_move", "bestmove without a move")
        if view is not None:  # the view's own move object (its text otherwise: the referee judges it)
            return next((m for m in view.moves if str(m) == move), move)
        return self._parse(state, move)

    @staticmethod
    def _self_reported(string: str | None, code: str | None = None) -> tuple[str, str] | None:
        """(reason, detail) of ``fault REASON DETAIL`` (an isolated bot's last words), or None.

        The detail reads as in-process play's: ``Type: message (code)``, then the bot's last
        frame (``File "bot.py", line N, in f``, after ``protocol.FRAME_SEP``) on a line of its own,
        where ``arena.referee.last_frame`` finds it (the full traceback is in the log)."""
        said = (string or "").split(None, 2)
        if len(said) >= 2 and said[0] == "fault" and said[1] in SELF_REPORTED:
            head, _, frame = (said[2] if len(said) > 2 else said[1]).partition(FRAME_SEP)
            head = f"{head} ({code})" if code else head
            return said[1], f"{head}\n  {frame}" if frame else head
        return None

    def _crashed(self, info: Info) -> NoReturn:
        """Raise the fault of an engine that closed its output mid-search (its own words, or
        ``crash``).

        Raises:
            BotFault: always.
        """
        code = self.engine.wait_exit() if self.engine is not None else "not started"

        reason, detail = self._self_reported(info.string, code) or ("crash", f"engine exited mid-game ({code})")
        self._drop()
        raise BotFault(reason, detail)

    def _parse(self, state: State, text: str) -> Any:
        if self.game is None:
            return text
        try:
            return self.game.parse_move(state, text)
        except Exception:  # not a move: the referee calls it bad_move
            return text

    def __repr__(self) -> str:
        return f"EngineBot({self.command!r}, options={self.options!r})"


def engine_refusal(bot: Any, game: Game) -> str | None:
    """Why ``bot``, when it is an engine client probed at its start (``EngineBot.probe``), cannot
    play ``game`` (``refusal``), or ``None``: the field check's test before the first game."""
    if not isinstance(bot, EngineBot):
        return None
    return refusal(bot.protocol, bot.label, game)


def _allowed(limits: Limits, seat: int) -> float | None:
    """Seconds a move may take before it has lost on time (the referee's margin aside): the
    move time, or what is left on the seat's game clock, the smaller; ``None``: untimed."""
    left = None if limits.clock is None or not 0 <= seat < len(limits.clock.remaining) else \
        limits.clock.remaining[seat]
    times = [t for t in (limits.time, left) if t is not None]
    return min(times) if times else None


def json_params(params: dict) -> dict:
    """Game parameters as JSON values (tuples as lists, other objects as text)."""
    return {k: v if isinstance(v, (int, float, str, bool, type(None), list)) else
            list(v) if isinstance(v, tuple) else str(v) for k, v in params.items()}


#: options of an ``exec:`` spec that are the arena's, never sent as ``setoption``:
#: ``startup_timeout`` (seconds); ``_isolation``/``_memory_limit`` (set by ``--isolation process``);
#: ``_each`` (``--each`` for an isolated Python bot: ``key=value;...``, sent when declared)
ARENA_OPTIONS = ("startup_timeout", "_isolation", "_memory_limit", "_each")
_CLASSES: dict[str, type] = {}


def engine_class(command: str) -> type:
    """The bot class of ``exec:COMMAND`` (``COMMAND``: a path relative to the current
    directory or absolute, or a shell-quoted executable and arguments, as ``arena.engine.argv.engine_argv``
    splits them), made once per absolute command: a relative path is resolved at each call, so
    the same text in another current directory is another engine.

    ``cls(**options)``: ``startup_timeout`` is the arena's (seconds); the others are sent as
    ``setoption``.

    Raises:
        BotSpecError: as ``arena.engine.argv.engine_argv``.
    """
    argv = engine_argv(command)
    key = "\0".join(argv)
    if key in _CLASSES:
        return _CLASSES[key]

    def __init__(self, **options: str) -> None:
        from arena.engine.sandbox import Sandbox
        options = {k: str(v) for k, v in options.items()}
        try:
            startup = float(options.pop("startup_timeout", STARTUP_TIMEOUT))
            memory = options.pop("_memory_limit", None)
            sandbox = Sandbox(int(memory) if memory else None) if options.pop("_isolation", None) else None
        except ValueError as exc:
            raise BotSpecError(f"engine {command!r}: bad startup_timeout: {exc}") from None
        if not startup > 0:
            raise BotSpecError(f"engine {command!r}: startup_timeout must be > 0 seconds, got {startup}")
        each = dict(item.split("=", 1) for item in options.pop("_each", "").split(";") if "=" in item)
        EngineBot.__init__(self, argv, options, startup, sandbox, each=each)

    cls = share_state(type("Engine", (EngineBot,), {"__init__": __init__, "__doc__": f"The engine {command!r}."}))
    _CLASSES[key] = cls
    return cls


def keeps_time(bot: Any) -> bool:
    """``bot`` is an engine client with the arena's own ``choose``, which keeps the move's
    deadline itself (kills a late engine, raises ``BotFault``: ``late`` at a simultaneous
    round, the game goes on); a subclass overriding ``choose`` is not trusted to."""
    return isinstance(bot, EngineBot) and type(bot).choose is EngineBot.choose
