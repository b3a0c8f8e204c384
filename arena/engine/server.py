"""Serve a Python bot over the engine protocol (``arena engine SPEC``; ``docs/engine-protocol.md``).

The bot is made from its spec (built-in name, dotted path or ``file.py#Class``); options in
the spec are the defaults, ``setoption`` overrides them; a fresh bot is made for every
``newgame`` (as the in-process worker does). The protocol's output is a private copy of fd 1;
fd 1 itself then points at fd 2, so a bot's prints go to standard error (the log) and never
garble the protocol. The input is read with ``os.read`` and each answer leaves in one
``os.write``; the ``legal`` line's moves are handed to the parsed state when it takes them
(``given_legal``), so a bot asking for the legal moves does not generate them again.

In a game with hidden information the arena sends ``view`` instead of ``position``: the bot is
handed an ``arena.games.View`` of its seat (``View(game, seat, to_move, text, moves)``, the moves
those of the ``legal`` line, as text), never a state. Such a view has no sampler: a full state
consistent with it would need what the seat may not know, which never leaves the arena, so
``view.can_sample`` is false and a bot that needs ``view.sample`` plays in process only.

A malformed or out-of-order message (``ProtocolError``) is answered ``info string error TEXT``
and the engine serves on (``docs/engine-protocol.md`` "Messages, engine → arena"). A bot's
fault ends the process after one line ``info string fault REASON DETAIL`` (REASON
``exception``, ``exit`` or ``memory``), which the arena's client turns into the same
termination as in-process play; the client restarts the engine for the next game. Any
exception but ``SystemExit`` and ``MemoryError`` (``KeyboardInterrupt``, ``GeneratorExit``
included) is ``exception``, as in ``arena.referee``: its full traceback goes to standard error
(the tournament log) and DETAIL is ``Type: message`` then ``FRAME_SEP`` and the traceback's
last frame (``File "bot.py", line N, in f``), which the client puts on a line of its own.

Confined (``--isolation process``), at the first ``newgame`` the server caps its own address
space (hard ``RLIMIT_AS``) at its size then plus ``memory_limit`` MiB, the MiB the bot may add;
with ``drop_user`` (the arena running as root) it first warms the bot up as root (numba
compiles, lazy imports: the interpreter's files may be unreadable to the unprivileged user),
then drops to that user for good before the first real ``go``. A bot given as
``file.py#Class`` is only imported after the cap and the drop.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import Any, Protocol

import arena.games
from arena.engine import protocol as P
from arena.engine.confine import confine, load_confined
from arena.engine.fdio import FdOutput, read_lines
from arena.engine.protocol import exception_line
from arena.engine.views import no_sampler
from arena.errors import ArenaError, BotSpecError, ConfigError
from arena.games import SIMULTANEOUS, Game, State, View
from arena.games.protocol import coerce_params
from bots.base import Limits, refusal
from bots.registry import bot_class, parse_spec

#: exit code after a bot's fault (the reason is on the ``info string fault`` line)
FAULT_EXIT = 3
#: the commands an engine accepts (``docs/engine-protocol.md`` "Messages, arena → engine")
COMMANDS = ("aep", "setoption", "newgame", "seat", "isready", "position", "view", "legal", "go", "stop", "quit")


class ProtocolError(ValueError):
    """A malformed or out-of-order message: answered ``info string error MESSAGE`` and the
    engine keeps serving (the message names the problem and what is accepted)."""


class Output(Protocol):
    """Where the server writes its messages (``fdio.FdOutput``, or a ``StringIO`` in tests)."""

    def write(self, text: str, /) -> Any: ...

    def flush(self) -> Any: ...


class Server:
    """The protocol's engine side for one bot spec.

    Raises:
        BotSpecError: a bad spec or an unknown kind (at construction, unless the kind is a file
            imported after a privilege drop).
    """

    def __init__(self, spec: str, out: Output, drop_user: str | None = None, memory_limit: int | None = None) -> None:
        self.spec = parse_spec(spec)
        self.out, self.drop_user, self.memory_limit = out, drop_user, memory_limit
        self.confined = drop_user is None and memory_limit is None
        self.options: dict[str, str] = dict(self.spec.options)
        self.deferred = not self.confined and "#" in self.spec.kind
        self.cls: type | None = None if self.deferred else bot_class(self.spec.kind)
        if self.cls is not None and self.options:
            try:
                coerce_params(f"bot {self.spec.text!r}", self._params(), self.options)
            except ConfigError as exc:
                raise BotSpecError(str(exc)) from None
        self.games: dict[str, Game] = {}
        self.game: Game | None = None
        self.bot: Any = None
        self.state: State | View | None = None  # what the bot is handed at the next go
        self._limits: dict[tuple[str, int], Limits] = {}
        self.seat_index = 0  # the bot's 0-based seat (``seat K SEED``)
        self._info: tuple[tuple, str] = ((), "")  # the last figures and their info line

    def _params(self) -> dict:
        """The bot class's declared parameters (``PARAMS``; none known before a deferred load)."""
        return getattr(self.cls, "PARAMS", None) or {}

    def say(self, *lines: str) -> None:
        self.out.write("\n".join(lines) + "\n")
        self.out.flush()

    # messages -----------------------------------------------------------------------------
    def hello(self, version: int) -> None:
        self.say(f"id name {self.spec.label}", "id author arena")
        for name, param in (getattr(self.cls, "PARAMS", None) or {}).items():
            # the served spec's value is the default the engine declares (module docstring)
            self.say(P.format_option(name, param.type, self.options.get(name, param.default)))
        self.say("aepok" if version < 2 else f"aepok {version}")

    def aep(self, rest: str) -> None:
        """``aep N``: answered in version N (1; 2: ``aepok 2``, the game clocks of ``go`` read;
        3: ``aepok 3``, views read too)."""
        accepted = tuple(map(str, P.VERSIONS))
        if rest.strip() not in accepted:
            raise ProtocolError(f"unsupported protocol version {rest.strip()!r}; accepted: "
                                f"{', '.join('aep ' + v for v in accepted)}")
        self.hello(int(rest))

    def setoption(self, rest: str) -> None:
        """``setoption name N value V``: checked against the bot's ``PARAMS`` when known.

        Raises:
            ProtocolError: malformed, an undeclared name, or a value the option does not take
                (the option keeps its value).
        """
        name, has_value, value = rest.removeprefix("name ").partition(" value ")
        name, value = name.strip(), value.strip()
        if not rest.startswith("name ") or not name or not has_value:
            raise ProtocolError(f"bad setoption line 'setoption {rest[:80]}'; expected: setoption name N value V")
        params = self._params()
        if self.cls is not None and name not in params:
            raise ProtocolError(f"unknown option {name!r}; accepted: {', '.join(params) or 'none'}")
        if name in params:
            try:
                params[name].coerce(name, value, "setoption")
            except ConfigError as exc:
                why = str(exc).removeprefix("setoption: ")
                raise ProtocolError(f"option {name!r} refused: {why} (it takes {_kind(params[name])}); "
                                    f"it stays {self.options.get(name, params[name].default)!r}") from None
        self.options[name] = value

    def newgame(self, line: str) -> None:
        self.game = self.bot = self.state = None  # until this game is made: no go on the last one
        try:
            name, params = P.parse_newgame(line)
            key = P.format_newgame(name, params)
            if key not in self.games:
                self.games[key] = arena.games.make(name, **params)
        except (ValueError, ArenaError) as exc:  # bad JSON, unknown game or parameter
            raise ProtocolError(f"newgame: {exc}") from None
        except TypeError as exc:
            raise ProtocolError(f"newgame: bad parameters for {name!r}: {exc}") from None
        game = self.games[key]
        why = refusal(self.cls, game) if self.cls is not None and game.type.hidden_information else None
        if why is not None:  # a bot handed a View where it expects a state fails in its first go
            raise ProtocolError(f"newgame: bot {self.spec.text!r} cannot play {game.name}: {self.spec.kind} {why}")
        self.game = game
        if not self.confined:
            self._confine()
        assert self.cls is not None, "a deferred bot class is loaded by _confine"
        self.bot = self.cls(**self.options)

    def _confine(self) -> None:
        """Once, before the first game: confined (``arena.engine.confine``), then a deferred bot
        file loaded and checked."""
        confine(self.cls, self.options, self.game, self.drop_user, self.memory_limit)
        self.confined = True
        if self.deferred:
            assert self.game is not None
            self.cls = load_confined(self.spec, self.options, self.game, self.drop_user)

    def position(self, text: str) -> None:
        self.state = None
        if self.game is None:
            raise ProtocolError("position before newgame; send newgame GAME PARAMS_JSON first")
        try:
            self.state = round_state(self.game, text)
        except Exception as exc:  # noqa: BLE001 - the arena's parser, not the bot: any failure is a bad line
            raise ProtocolError(f"bad position {text[:80]!r} for {self.game.name}: "
                                f"{' '.join(str(exc).split())[:300] or type(exc).__name__}") from None

    def view(self, line: str) -> None:
        """``view K|all TEXT_JSON``: the seat's view, handed to the bot at ``go`` with the moves of
        the ``legal`` line that follows (``protocol.parse_view``).

        Raises:
            ProtocolError: before ``newgame``, or not a view line.
        """
        self.state = None
        if self.game is None:
            raise ProtocolError("view before newgame; send newgame GAME PARAMS_JSON first")
        try:
            to_move, text = P.parse_view(line, self.game.num_players)
        except ValueError as exc:
            raise ProtocolError(str(exc)) from None
        self.state = View(self.game, self.seat_index, to_move, text)

    def legal(self, rest: str) -> None:
        """``legal M1 M2 ...``: the moves of the view just sent, or handed to the position's state
        when it takes them (``given_legal``)."""
        state = self.state
        if isinstance(state, View):
            self.state = View(state.game, state.seat, state.to_move, state.text, rest.split())
            return
        given = getattr(state, "given_legal", None)
        if given is not None:  # the game takes the moves from the line instead of generating them
            given(rest.split())

    def seat(self, rest: str) -> None:
        words = rest.split()
        if len(words) != 2 or not all(w.lstrip("-").isdigit() for w in words):
            raise ProtocolError(f"bad seat line 'seat {rest[:80]}'; expected: seat K SEED (integers)")
        if self.game is None:
            raise ProtocolError("seat before newgame; send newgame GAME PARAMS_JSON first")
        seat, seed = int(words[0]), int(words[1])
        if not 0 <= seat < self.game.num_players:
            raise ProtocolError(f"bad seat {seat}; accepted: 0 to {self.game.num_players - 1} in {self.game.name}")
        self.seat_index = seat
        if hasattr(self.bot, "reset"):
            self.bot.reset(self.game, seat, seed)

    def limits(self, line: str) -> Limits:
        """The limits of a ``go`` line, read once per distinct line (an arena sends the same
        one at every move of a series without a clock); a clock's ``movestogo`` is the seat's."""
        key = (line, self.seat_index)
        limits = self._limits.get(key)
        if limits is None:
            if len(self._limits) >= 64:
                self._limits.clear()
            limits = self._limits[key] = P.parse_go(line).limits(self.seat_index)
        return limits

    def go(self, line: str) -> None:
        if self.state is None:
            raise ProtocolError("go before position or view; send position TEXT or view K|all TEXT_JSON (and "
                                "legal M1 M2 ...) first"
                                if self.game is not None else "go before newgame; send newgame GAME PARAMS_JSON first")
        try:
            answer = self.bot.choose(self.state, self.limits(line))
        except NotImplementedError as exc:  # a protocol view has no sampler: say why, in the bot's fault
            no_sampler(exc, self.state)
            raise
        stats = getattr(self.bot, "last_stats", None)
        info = "" if stats is None else self.info_line(stats)
        if answer is None:
            best = f"bestmove {P.NO_ANSWER}\n"
        elif isinstance(answer, (list, tuple)) and self.state.to_move == SIMULTANEOUS:
            best = f"bestmove {' '.join(map(str, answer))}\n"
        else:
            best = f"bestmove {answer}\n"
        self.out.write(info + best)  # one write: the arena wakes once
        self.out.flush()

    def info_line(self, stats: Any) -> str:
        """The ``info`` line (with its ``\\n``) of a bot's ``last_stats``; made again only when
        the figures differ from the last ones (a bot without a search repeats them)."""
        figures = (getattr(stats, "depth", None), getattr(stats, "nodes", None), getattr(stats, "evaluation", None),
                   getattr(stats, "seconds", None))
        if figures != self._info[0]:
            self._info = (figures, P.format_info(*figures) + "\n")
        return self._info[1]

    def handle(self, line: str) -> bool:
        """One message; ``False`` on ``quit``."""
        word, _, rest = line.strip().partition(" ")
        if word == "position":  # the three lines of every move first
            self.position(rest)
        elif word == "legal":
            self.legal(rest)
        elif word == "view":
            self.view(line.strip())
        elif word == "go":
            self.go(line)
        elif word == "aep":
            self.aep(rest)
        elif word == "setoption":
            self.setoption(rest)
        elif word == "newgame":
            self.newgame(line)
        elif word == "seat":
            self.seat(rest)
        elif word == "isready":
            self.say("readyok")
        elif word == "quit":
            return False
        elif word and word != "stop":  # stop: nothing to do (a synchronous engine)
            raise ProtocolError(f"unknown command {word[:80]!r}; accepted: {', '.join(COMMANDS)}")
        return True

    def run(self, lines: Iterable[str]) -> int:
        """Serve until ``quit`` or end of input; the exit code (``FAULT_EXIT`` after a fault).

        A malformed or out-of-order message (``ProtocolError``) is answered with one line
        ``info string error MESSAGE`` and the engine serves on: ``docs/engine-protocol.md`` is
        silent there, so this does what UCI engines (Stockfish) do with a command they cannot
        use: say so and go on. Only the bot's own failures end the process."""
        try:
            for line in lines:
                try:
                    if not self.handle(line):
                        break
                except ProtocolError as exc:
                    self.say(f"info string error {' '.join(str(exc).split())[:1000]}")
        except SystemExit as exc:
            return self.fault("exit", f"bot called sys.exit({exc.code!r})")
        except MemoryError:
            return self.fault("memory", "MemoryError: out of memory (--memory-limit)")
        except BaseException as exc:  # noqa: BLE001 - a bot's bug: reported, then the process ends
            return self.fault("exception", exception_line(exc))
        return 0

    def fault(self, reason: str, detail: str) -> int:
        try:
            self.say(f"info string fault {reason} {' '.join(detail.split())[:1000]}")
        except Exception:  # noqa: BLE001 - out of memory or a closed pipe: the exit code tells
            pass
        return FAULT_EXIT


def _kind(param: Any) -> str:
    """What a parameter accepts, for a message: ``an int >= 1``, ``one of a, b``..."""
    if param.choices:
        return f"one of {', '.join(map(str, param.choices))}"
    t = param.type
    kind = {int: "an int", float: "a float", bool: "a bool (true, false, 1, 0)"}.get(t, f"a {t.__name__}")
    return f"{kind} >= {param.minimum:g}" if param.minimum is not None and t in (int, float) else kind


def round_state(game: Game, text: str) -> State:
    """The state of a ``position`` line: the game's position text, or at a simultaneous round
    the round's puzzle text (Ricochet: ``board robots target``, completed to a state with no
    chips won, which is all a solver looks at).

    Raises:
        PositionSyntaxError: neither.
    """
    try:
        return game.parse_state(text)
    except ArenaError:
        padded = f"{text} stack=- chips={';'.join('-' * game.num_players)} round=0"
        try:
            state = game.parse_state(padded)
        except ArenaError:
            pass
        else:
            if state.to_move == SIMULTANEOUS:
                return state
        raise


def main(spec: str, drop_user: str | None = None, memory_limit: int | None = None) -> int:
    """``arena engine SPEC``: serve on this process's stdin/stdout; the exit code.

    Raises:
        BotSpecError: a bad spec (before the handshake).
    """
    out = FdOutput(os.dup(1))
    os.dup2(2, 1)  # the bot's prints: to standard error
    sys.stdout = sys.stderr
    server = Server(spec, out, drop_user, memory_limit)
    return server.run(read_lines(0))
