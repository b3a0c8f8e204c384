"""``arena engine check SPEC``: a compliance test of an engine against ``docs/engine-protocol.md``
(fastchess's ``--compliance`` is the model): each check is run in order on one engine process
and passes, fails (with what was expected and what came) or is skipped (a check that cannot run
after an earlier failure, or one that does not apply); the engine passes when none fails.

The checks: ``start`` (the process runs), ``aepok`` (the handshake within the start-up time;
its version), ``isready``, ``options`` (each declared option is well formed and takes its
default back without ``info string error``), ``newgame`` (``newgame``, ``seat``, ``isready``),
``start position`` and ``mid-game position`` (a legal ``bestmove`` within ``movetime`` and the
margin; in a game with hidden information the engine's seat's ``view`` is sent instead of the
position), ``clock`` (version 2 and later: a ``go`` with clock fields only, answered legally
within the clock; version 1: skipped, the arena sends such an engine ``movetime``), ``views``
(version 3: whole games with hidden information from each seat, ``arena.engine.walk``: every
view answered with one of its legal moves; before version 3: skipped, such an engine is refused
those games), ``output`` (every line the engine wrote is one of the protocol's) and ``quit``
(the process exits within ``QUIT_TIMEOUT``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import arena.games
from arena.engine.argv import engine_argv
from arena.engine.process import EngineClosed, EngineProcess, LineTooLong, StartError
from arena.engine.client import json_params
from arena.engine.protocol import (FROM_ENGINE, OPTION_TYPES, QUIT_TIMEOUT, STARTUP_TIMEOUT, VERSION, VIEWS_VERSION,
                                   Handshake, format_newgame, format_view, option_value_fits, parse_option)
from arena.engine.views import refusal, seat_view
from arena.engine.walk import decisions, view_games, walk
from arena.errors import ConfigError
from arena.games import Game, State
from arena.os_guard import orphans_reaped
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


class _Skipped(Exception):
    """A check does not apply here (the message says why)."""


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
        served = command[0] == sys.executable  # a Python bot served as arena engine serves it: its spec
        self.label = command[-1] if served else os.path.basename(command[0])
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
        if line is not None and line.startswith("info string fault "):  # its last words: named if it exits
            self.engine.last_info_string = line[len("info string "):]
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
        asked = VERSION
        self.engine.send(f"aep {asked}")
        while True:  # an engine that refuses the version naming it is asked the one before (as the arena does)
            line, before, took = self._until("aepok", self.timeout, f"aep {asked}")
            refused = [b for b in before if b.startswith("info string error") and "version" in b]
            if not refused or asked == 1:
                break
            asked -= 1
            self.engine.send(f"aep {asked}")
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

    def _ask(self, game: Game, state: State, seat: int, go: str, limit: float, what: str) -> tuple[str, float]:
        """(the engine's ``bestmove``, seconds) at ``state``: its position, or in a game with
        hidden information ``seat``'s view; the move must be legal and come within ``limit``
        seconds plus the margin.

        Raises:
            _Failed: no ``bestmove`` in time, or not a legal move.
        """
        if game.type.hidden_information:
            view = seat_view(state, seat)
            legal = [str(m) for m in view.moves]
            first = format_view(view.to_move, view.text)
        else:
            legal, first = list(map(str, state.legal_moves())), f"position {state.to_text()}"
        self.engine.send(first, f"legal {' '.join(legal)}", go)
        line, _, took = self._until("bestmove", limit + MARGIN, go)
        answer = line[len("bestmove"):].split()
        move = answer[0] if answer else ""
        if move not in legal:
            raise _Failed(f"bestmove {move!r} is not among the {len(legal)} legal moves of the {what}")
        return move, took

    def _move(self, moves: list[str] | None, go: str, limit: float, what: str) -> str:
        """Play the engine's move in the position after ``moves`` (in a game with hidden
        information, ``None``: at the first node where seat 0 chooses, else at the last one
        within ``MID_PLIES`` plies of a seeded random game)."""
        if self.game.type.hidden_information:
            why = refusal(self.handshake.version, self.label, self.game)
            if why is not None:  # the arena never offers it this game: no view is sent
                raise _Failed(why)
            found = decisions(self.game, self.seed, 0)
            if not found:
                raise _Skipped(f"seat 0 has no move in the seeded game of {self.game.name}")
            ply, state = found[0] if moves is None else ([d for d in found if d[0] <= MID_PLIES] or found)[-1]
            what = f"view of seat 0 after {ply} pl{'y' if ply == 1 else 'ies'}"
        else:
            state = self.game.initial_state(self.seed)
            for text in moves or ():
                state = state.play(self.game.parse_move(state, text))
        move, took = self._ask(self.game, state, 0, go, limit, what)
        return f"bestmove {move} after {took:.2f}s ({go})" + (f" to the {what}" if what.startswith("view") else "")

    def check_start_position(self) -> str:
        return self._move(None, f"go movetime {int(MOVE_TIME * 1000)}", MOVE_TIME, "start position")

    def check_mid_game_position(self) -> str:
        moves = [] if self.game.type.hidden_information else random_opening(self.game, self.seed, MID_PLIES)
        return self._move(moves, f"go movetime {int(MOVE_TIME * 1000)}", MOVE_TIME,
                          f"position after {len(moves)} plies")

    def check_clock(self) -> str | None:
        if self.handshake.version < 2:
            return None  # skipped: a version 1 engine gets movetime, never clock fields
        ms = int(CLOCK_TIME * 1000)
        seats = " ".join(f"time{s} {ms} inc{s} 0" for s in range(self.game.num_players))
        return self._move(None, f"go {seats}", CLOCK_TIME, "start position under a clock")

    def check_views(self) -> str | None:
        if self.handshake.version < VIEWS_VERSION:
            return None  # skipped: such an engine is refused games with hidden information before the first
        games, missing = ([self.game], []) if self.game.type.hidden_information else view_games()
        if not games:
            raise _Skipped(f"no game with hidden information to offer here ({'; '.join(missing)})")
        go = f"go movetime {int(MOVE_TIME * 1000)}"
        asked, simultaneous, played, declined = 0, 0, [], []
        for game in games:
            self.engine.send(format_newgame(game.name, json_params(game.params)), "isready")
            said = [b for b in self._until("readyok", self.timeout, f"newgame {game.name}")[1]
                    if b.startswith("info string error")]
            if said:  # the engine cannot play it and says so (as arena engine does for a bot of perfect information)
                declined.append(f"{game.name}: {said[0][:160]!r}")
                continue
            played.append(game.name)
            for seat in range(game.num_players):
                self.engine.send(format_newgame(game.name, json_params(game.params)), f"seat {seat} {self.seed}")
                self._sync(f"newgame {game.name}, seat {seat} and isready")

                def answer(state: State, ply: int, seat: int = seat, game: Game = game) -> str:
                    what = f"view of seat {seat} in {game.name}"
                    return self._ask(game, state, seat, go, MOVE_TIME, what)[0]
                n, rounds = walk(game, self.seed + seat, seat, answer)
                asked, simultaneous = asked + n, simultaneous + rounds
        if not played:
            raise _Skipped(f"the engine declines every game with hidden information offered: {'; '.join(declined)}")
        return (f"{asked} views answered with legal moves ({simultaneous} at simultaneous nodes), every seat of "
                f"{', '.join(played)}" + "".join(f"; {what}: {'; '.join(items)}" for what, items in
                                                (("declined", declined), ("not offered", missing)) if items))

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
                 ("clock", self.check_clock), ("views", self.check_views), ("output", self.check_output),
                 ("quit", self.check_quit)]
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
        except _Skipped as exc:
            return Check(name, "skip", str(exc))
        except EngineClosed:
            said = self.engine.last_info_string
            return Check(name, "fail", f"the engine exited ({self.engine.wait_exit()})" + (f": {said}" if said else ""))
        except LineTooLong as exc:
            return Check(name, "fail", str(exc))
        if detail is None and name == "views":
            return Check(name, "skip", f"protocol {self.handshake.version}: the arena refuses such an engine games "
                                       f"with hidden information (they need protocol {VIEWS_VERSION}'s view lines)")
        if detail is None:
            return Check(name, "skip", f"protocol {self.handshake.version}: the arena sends such an engine movetime, "
                                       "never clock fields")
        return Check(name, "pass", detail)


def check_engine(spec: str, game_name: str = "interaction", timeout: float = STARTUP_TIMEOUT,
                 on_check: Callable[[Check], None] | None = None, left: list[int] | None = None) -> list[Check]:
    """Every check of the engine of ``spec`` on ``game_name`` (module doc). Every process the
    engine started is killed when the checks end, those in a session of their own (``setsid``)
    too, as ``arena run`` kills them (``os_guard.orphans_reaped``); ``left`` receives their pids.

    Raises:
        BotSpecError: a bad spec or command. UnknownGameError: an unknown game. ConfigError: a
            game that starts with a simultaneous round.
    """
    game = arena.games.make(game_name)
    if not game.type.hidden_information and game.initial_state(1).to_move < 0:
        raise ConfigError(f"arena engine check plays sequential games of perfect information, or games with hidden "
                          f"information; {game.name} starts with a simultaneous round (try --game interaction)")
    compliance = Compliance(engine_command(spec), game, timeout)
    with orphans_reaped() as killed:
        results = compliance.run(on_check)
    if left is not None:
        left += killed
    return results

