"""``arena engine check SPEC``: a compliance test of an engine against ``docs/engine-protocol.md``
(fastchess's ``--compliance`` is the model): each check is run in order on one engine process
and passes, fails (with what was expected and what came) or is skipped (a check that cannot run
after an earlier failure, or one that does not apply); the engine passes when none fails.

The checks: ``start`` (the process runs), ``aepok`` (the handshake within the start-up time;
its version), ``isready``, ``options`` (each declared option is well formed and takes its
default back without ``info string error``), ``newgame`` (``newgame``, ``seat``, ``isready``),
``start position`` and ``mid-game position`` (a legal ``bestmove`` within ``movetime`` and the
margin), ``clock`` (version 2: a ``go`` with clock fields only, answered legally within the
clock; version 1: skipped, the arena sends such an engine ``movetime``), ``output`` (every line
the engine wrote is one of the protocol's) and ``quit`` (the process exits within
``QUIT_TIMEOUT``).
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import arena.games
from arena.engine.argv import engine_argv
from arena.engine.process import EngineClosed, EngineProcess, LineTooLong, StartError
from arena.engine.client import json_params
from arena.engine.protocol import (FROM_ENGINE, OPTION_TYPES, QUIT_TIMEOUT, STARTUP_TIMEOUT, VERSION, Handshake,
                                   format_newgame, option_value_fits, parse_option)
from arena.errors import ConfigError
from arena.games import Game
from arena.referee import random_opening
from bots.registry import bot_class, parse_spec, precheck

#: the first words of the lines an engine may write (``protocol.FROM_ENGINE``, ``docs/engine-protocol.md``)
PROTOCOL_WORDS = tuple(dict.fromkeys(m.line.split()[0] for m in FROM_ENGINE))
#: seconds of ``go movetime`` in the position checks, and of each seat's clock in ``clock``
MOVE_TIME, CLOCK_TIME = 1.0, 2.0
#: seconds a move may overrun (the arena's default ``--time-margin``)
MARGIN = 0.5
#: random plies played before the mid-game position
MID_PLIES = 6


@dataclass(frozen=True)
class Check:
    """One check's result: ``status`` ``pass``, ``fail`` or ``skip``; ``detail`` one line."""

    name: str
    status: str
    detail: str = ""


class _Failed(Exception):
    """A check failed (the message is its detail); later checks that need the engine are skipped."""


def engine_command(spec: str) -> list[str]:
    """The command of ``SPEC``: ``exec:COMMAND``'s words, or any other bot spec served by
    ``python -m arena.engine SPEC`` (as ``--isolation process`` runs it, unconfined).

    Raises:
        BotSpecError: a bad spec or command.
    """
    parsed = parse_spec(spec)
    if parsed.kind.startswith("exec:"):
        return engine_argv(parsed.kind[len("exec:"):])
    precheck(parsed)  # a bad kind or option is one line here, not a failed handshake of the served bot
    bot_class(parsed.kind)
    return [sys.executable, "-m", "arena.engine", spec]


class Compliance:
    """The checks of one engine (``run``), on ``game``.

    Args:
        command: the engine's executable and arguments.
        game: the game the position checks play (its parameters set).
        timeout: seconds for ``aepok`` and each ``readyok``.
        seed: the seed of the positions and of ``seat``.
    """

    def __init__(self, command: list[str], game: Game, timeout: float = STARTUP_TIMEOUT, seed: int = 1) -> None:
        self.command, self.game, self.timeout, self.seed = command, game, timeout, seed
        self.engine = EngineProcess(command, "engine", timeout)
        self.handshake = Handshake()
        self.results: list[Check] = []
        self.stray: list[str] = []  # lines that are no protocol line
        self.malformed: list[str] = []  # option lines that do not read

    # lines ----------------------------------------------------------------------------------
    def _read(self, deadline: float) -> str | None:
        """The next line before ``deadline`` (``time.monotonic()``), or ``None``; a line that is
        no protocol line is kept for the ``output`` check."""
        line = self.engine.read_line(deadline)
        if line is not None and line.strip() and line.split()[0] not in PROTOCOL_WORDS:
            self.stray.append(line)
        return line

    def _until(self, word: str, seconds: float, what: str) -> tuple[str, list[str], float]:
        """``(the first line starting with word, the lines before it, seconds taken)``.

        Raises:
            _Failed: no such line within ``seconds``.
        """
        start = time.monotonic()
        before: list[str] = []
        while True:
            line = self._read(start + seconds)
            if line is None:
                raise _Failed(f"no {word} within {seconds:g}s of {what}")
            if line.split()[:1] == [word]:
                return line, before, time.monotonic() - start
            before.append(line)

    def _sync(self, what: str) -> float:
        self.engine.send("isready")
        return self._until("readyok", self.timeout, what)[2]

    # checks ---------------------------------------------------------------------------------
    def check_start(self) -> str:
        try:
            self.engine.spawn()
        except StartError as exc:
            raise _Failed(str(exc)) from None
        return " ".join(self.command)

    def check_aepok(self) -> str:
        self.engine.send(f"aep {VERSION}")
        line, before, took = self._until("aepok", self.timeout, f"aep {VERSION}")
        for earlier in before:
            self.handshake.read(earlier)
            if earlier.startswith("option") and parse_option(earlier) is None:
                self.malformed.append(earlier)
        self.handshake.done(line)
        name = self.handshake.ids.get("name")
        return (f"{line.strip()!r} after {took:.2f}s: protocol {self.handshake.version}"
                + (f", id name {name!r}" if name else ", no id name"))

    def check_options(self) -> str:
        declared = self.handshake.options
        if self.malformed:
            raise _Failed(f"malformed option line {self.malformed[0][:80]!r}; expected: option name N type T "
                          "default V")
        bad = [o.name for o in declared.values() if o.type not in OPTION_TYPES
               or not (o.default == "none" or option_value_fits(o.type, o.default))]  # none: the bot decides
        if bad:
            raise _Failed(f"option {bad[0]!r}: its type is not int, float, string or bool, or its default does "
                          "not fit it")
        for option in declared.values():
            self.engine.send(f"setoption name {option.name} value {option.default}")
        self.engine.send("isready")
        _, before, _ = self._until("readyok", self.timeout, "setoption and isready")
        refused = [line for line in before if line.startswith("info string error")]
        if refused:
            raise _Failed(f"refused its own default: {refused[0][:120]!r}")
        return f"{len(declared)} declared, each set to its default" if declared else "none declared"

    def check_isready(self) -> str:
        return f"readyok after {self._sync('isready'):.2f}s"

    def check_newgame(self) -> str:
        self.engine.send(format_newgame(self.game.name, json_params(self.game.params)), f"seat 0 {self.seed}")
        return f"readyok after {self._sync('newgame, seat and isready'):.2f}s"

    def _move(self, moves: list[str], go: str, limit: float, what: str) -> str:
        """Play the engine's move in the position after ``moves``; its ``bestmove`` must be legal
        and come within ``limit`` seconds plus the margin."""
        state = self.game.initial_state(self.seed)
        for text in moves:
            state = state.play(self.game.parse_move(state, text))
        legal = list(map(str, state.legal_moves()))
        self.engine.send(f"position {state.to_text()}", f"legal {' '.join(legal)}", go)
        line, _, took = self._until("bestmove", limit + MARGIN, go)
        answer = line[len("bestmove"):].split()
        move = answer[0] if answer else ""
        if move not in legal:
            raise _Failed(f"bestmove {move!r} is not among the {len(legal)} legal moves of the {what}")
        return f"bestmove {move} after {took:.2f}s ({go})"

    def check_start_position(self) -> str:
        return self._move([], f"go movetime {int(MOVE_TIME * 1000)}", MOVE_TIME, "start position")

    def check_mid_game_position(self) -> str:
        moves = random_opening(self.game, self.seed, MID_PLIES)
        return self._move(moves, f"go movetime {int(MOVE_TIME * 1000)}", MOVE_TIME,
                          f"position after {len(moves)} plies")

    def check_clock(self) -> str | None:
        if self.handshake.version < 2:
            return None  # skipped: a version 1 engine gets movetime, never clock fields
        ms = int(CLOCK_TIME * 1000)
        seats = " ".join(f"time{s} {ms} inc{s} 0" for s in range(self.game.num_players))
        return self._move([], f"go {seats}", CLOCK_TIME, "start position under a clock")

    def check_output(self) -> str:
        if self.stray:
            raise _Failed(f"{len(self.stray)} line(s) that are no protocol line, the first {self.stray[0][:80]!r}; "
                          f"an engine writes only {', '.join(PROTOCOL_WORDS)} lines (anything else to stderr)")
        return "every line a protocol line"

    def check_quit(self) -> str:
        self.engine.send("quit")
        start = time.monotonic()
        assert self.engine.proc is not None
        try:
            self.engine.proc.wait(QUIT_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise _Failed(f"still running {QUIT_TIMEOUT:g}s after quit") from None
        return f"exited after {time.monotonic() - start:.2f}s"

    # driver ---------------------------------------------------------------------------------
    def run(self, on_check: Callable[[Check], None] | None = None) -> list[Check]:
        """Run every check in order; ``on_check`` gets each result as it is known."""
        steps = [("start", self.check_start), ("aepok", self.check_aepok), ("isready", self.check_isready),
                 ("options", self.check_options), ("newgame", self.check_newgame),
                 ("start position", self.check_start_position), ("mid-game position", self.check_mid_game_position),
                 ("clock", self.check_clock), ("output", self.check_output), ("quit", self.check_quit)]
        broken = None
        try:
            for name, step in steps:
                if broken is not None and name != "output":
                    result = Check(name, "skip", f"not run: {broken} failed")
                else:
                    result = self._one(name, step)
                    if result.status == "fail" and name != "output":
                        broken = name
                self.results.append(result)
                if on_check:
                    on_check(result)
        finally:
            self.engine.kill()
        return self.results

    def _one(self, name: str, step: Callable[[], str | None]) -> Check:
        try:
            detail = step()
        except _Failed as exc:
            return Check(name, "fail", str(exc))
        except EngineClosed:
            return Check(name, "fail", f"the engine exited ({self.engine.wait_exit()})")
        except LineTooLong as exc:
            return Check(name, "fail", str(exc))
        if detail is None:
            return Check(name, "skip", f"protocol {self.handshake.version}: the arena sends such an engine movetime, "
                                       "never clock fields")
        return Check(name, "pass", detail)


def check_engine(spec: str, game_name: str = "interaction", timeout: float = STARTUP_TIMEOUT,
                 on_check: Callable[[Check], None] | None = None) -> list[Check]:
    """Every check of the engine of ``spec`` on ``game_name`` (module doc).

    Raises:
        BotSpecError: a bad spec or command. UnknownGameError: an unknown game. ConfigError: a
            game that starts with a simultaneous round.
    """
    game = arena.games.make(game_name)
    if game.initial_state(1).to_move < 0:
        raise ConfigError(f"arena engine check plays sequential games; {game.name} starts with a simultaneous "
                          "round (try --game interaction)")
    return Compliance(engine_command(spec), game, timeout).run(on_check)

