"""The engine protocol's messages (``docs/engine-protocol.md`` "Messages").

One line per message, UTF-8, ``\\n``. Where the protocol is silent this module follows UCI as
cutechess-cli and fastchess drive it: ``go movetime`` in milliseconds, ``info`` fields in any
order, ``score cp N`` accepted beside ``score N``, ``info ... time MS``, unknown lines ignored.
"""

from __future__ import annotations

import json
import shlex
import sys
import traceback
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from arena.engine.go import CLOCKS_VERSION, MAX_SEATS, Go, parse_go  # noqa: F401 - the protocol's go line
from arena.games import SIMULTANEOUS

#: protocol version sent in the first line (``aep 3``): the highest the arena speaks. An engine
#: answers ``aepok`` (version 1), ``aepok 2`` (it reads the game clocks of ``go``) or ``aepok 3``
#: (it also reads ``view`` lines: games with hidden information)
VERSION = 3
#: the versions an engine may speak (``aepok [N]``)
VERSIONS = (1, 2, 3)
#: the first version whose engines are sent views (``view`` lines) in games with hidden
#: information; an engine of an earlier version is refused those games before the first one
VIEWS_VERSION = 3
#: ``view`` line: the seat-to-move word at a node where every seat answers at once
ALL_SEATS = "all"
#: seconds an engine has to answer ``aep``/``isready`` (``startup_timeout``)
STARTUP_TIMEOUT = 10.0
#: seconds an engine has to exit after ``quit`` before it is killed
QUIT_TIMEOUT = 1.0
#: answer meaning "no answer" at a simultaneous round (Ricochet)
NO_ANSWER = "-"
#: option types an engine may declare
OPTION_TYPES = ("int", "float", "string", "bool")
#: between an exception's ``Type: message`` and its last frame in ``info string fault exception``
FRAME_SEP = " | at "


class Message(NamedTuple):
    """One message of the protocol, for its reference: ``docs/engine-protocol.md``
    "Messages" and the summary in ``docs/guide.md`` are generated from ``TO_ENGINE`` and
    ``FROM_ENGINE`` (``tools/docgen.py``), so the lines have one source.

    Attributes:
        line: the message's syntax (``[...]`` optional, ``A|B`` a choice).
        meaning: what it means (Markdown).
        reply: for a message to the engine, the engine's answer (Markdown; ``""``: none).
    """

    line: str
    meaning: str
    reply: str = ""


#: Messages the engine sends (their syntax is what ``parse_info``, ``parse_option`` and the
#: handshake read).
ID = Message("id name TEXT / id author TEXT",
             "the name is stored with the bot (`bots.id_name`) and shown in reports (the `engine` column of the "
             "field table and the leaderboard, the bot list)")
OPTION = Message("option name N type int|float|string|bool default V",
                 "an option the engine accepts (`arena engine` writes `default none` for an option without a "
                 "default: the bot decides); a `setoption` for a name the engine did not declare is a spec error, "
                 "raised before any game is played")
AEPOK = Message("aepok / aepok 2 / aepok 3",
                "the end of the handshake, after the `id` and `option` lines: the protocol version the engine "
                "speaks. `aepok 3`: it reads `view` lines (games with hidden information) and the game clocks of "
                "`go`; `aepok 2`: the clocks, no views; `aepok`: neither (version 1: it is sent its share of the "
                "clock as `movetime`). An engine below version 3 is refused a game with hidden information before "
                "the first game")
READYOK = Message("readyok", "the answer to `isready`")
INFO = Message("info [depth D] [nodes N] [score S] [time MS] [pv M ...] [string TEXT]",
               "search figures, stored the same way as a Python bot's `last_stats` (`time` in milliseconds, "
               "else the arena's own measure), checked the same way: nodes and depth above 2^63 − 1 are stored "
               "clipped, negative or non-numeric figures and a score that is not a finite number are stored empty, "
               "with a note in the tournament log (`arena.referee.reported`); UCI's `score cp S` is read too. "
               "`info string fault REASON DETAIL` (`exception`, `exit`, `memory`) is an isolated bot's last "
               "words before it exits: the game is lost by that fault")
BESTMOVE = Message("bestmove MOVE", "the reply to `go` (at a simultaneous node: the seat's own move, or at a "
                   "Ricochet round its solution; `-` for no answer)")
#: Messages the engine receives, in the order of a game.
TO_ENGINE = (
    Message(f"aep {VERSION}",
            "always the first line. The engine replies with any `id` and `option` lines, then `aepok`",
            f"`{ID.line.split(' / ')[0]}`, `{OPTION.line}`, then `{AEPOK.line}`"),
    Message("setoption name N value V",
            "an option taken from the bot spec: `exec:PATH:depth=5` sends `setoption name depth value 5`",
            "nothing (an option it did not declare is a spec error before any game)"),
    Message("newgame GAME PARAMS_JSON",
            "a new game starts: the game's registered name and its parameters as one line of JSON (`{}` if "
            "there are none)"),
    Message("seat K SEED",
            "the engine's seat (0-based) and its seed for this game; all of its randomness must derive from the "
            "seed"),
    Message("isready",
            "the engine replies `readyok` once it is ready (after starting, after options, after `newgame`)",
            f"`{READYOK.line}`"),
    Message("position TEXT", "the current position, as the game's own position text, on one line (games of "
            "perfect information only)"),
    Message("view K|all TEXT_JSON",
            "version 3, instead of `position` in a game with hidden information: the engine's own view of the "
            "position (what its seat may know; never the full position), as one JSON string; `K` is the seat to "
            "move (the engine's own), `all` at a simultaneous node (see \"Views\")"),
    Message("legal M1 M2 ...",
            "every legal move in that position (after `view`: the engine's own legal moves), in the game's "
            "notation, so that a simple engine needs no rules of its own (not sent at a Ricochet round)"),
    Message("go [movetime MS] [nodes N] [depth D] [timeK MS incK MS ...] [movestogo N]",
            "choose a move and reply `bestmove MOVE`; the clock fields (version 2, under `--tc`): every seat's "
            "time left and increment, in milliseconds, and the moves to the next refill (see \"Game clocks\")",
            f"`{INFO.line}`, then `{BESTMOVE.line}`"),
    Message("stop", "reply `bestmove` at once with the best move found so far", f"`{BESTMOVE.line}`"),
    Message("quit", f"exit within {QUIT_TIMEOUT:g} s, or the process is killed", f"exit within {QUIT_TIMEOUT:g} s"),
)
#: Messages the engine sends, in the order of a game.
FROM_ENGINE = (ID, OPTION, AEPOK, READYOK, INFO, BESTMOVE)


class Info(NamedTuple):
    """The figures of the ``info`` lines of one search (UCI-style; ``None`` = not sent).

    Attributes:
        depth: plies. nodes: positions (or playouts). score: the engine's evaluation, its own
        units. seconds: from ``time MS``. pv: principal variation, moves. string: free text.
    """

    depth: int | None = None
    nodes: int | None = None
    score: float | None = None
    seconds: float | None = None
    pv: tuple[str, ...] = ()
    string: str | None = None

    def merge(self, other: Info) -> Info:
        """Each field of ``other`` when sent there, else this one's (later lines win)."""
        if self == NO_INFO:
            return other
        return Info(self.depth if other.depth is None else other.depth,
                    self.nodes if other.nodes is None else other.nodes,
                    self.score if other.score is None else other.score,
                    self.seconds if other.seconds is None else other.seconds,
                    other.pv or self.pv, self.string if other.string is None else other.string)


#: no figures (the start of a search's ``merge``)
NO_INFO = Info()


def _number(text: str, kind: type) -> Any:
    try:
        return kind(text)
    except ValueError:
        return None


#: ``info`` fields followed by one value (skipped with it when not stored)
_VALUED = frozenset(("depth", "nodes", "score", "time", "seldepth", "multipv", "nps", "hashfull"))
#: words that end a ``pv``
_PV_END = frozenset(("depth", "nodes", "score", "time", "string"))


def parse_info(line: str) -> Info:
    """An ``info`` line's figures; unknown fields and bad numbers are skipped (UCI practice;
    a field sent twice: the later one).

    ``info depth 3 nodes 120 score cp 15 time 4 pv a b string text to the end``.
    """
    words = line.split()
    n = len(words)
    depth = nodes = score = seconds = string = None
    pv: tuple[str, ...] = ()
    i = 1
    while i < n:
        key = words[i]
        if key not in _VALUED:
            if key == "string":
                string = " ".join(words[i + 1:])
                break
            if key == "pv":
                j = i + 1
                while j < n and words[j] not in _PV_END:
                    j += 1
                pv = tuple(words[i + 1:j])
                i = j
            else:
                i += 1
            continue
        if i + 1 < n:
            value = words[i + 1]
            if key == "depth":
                depth = _number(value, int)
            elif key == "nodes":
                nodes = _number(value, int)
            elif key == "time":
                ms = _number(value, float)
                seconds = None if ms is None else ms / 1000.0
            elif key == "score":
                if value in ("cp", "mate"):  # UCI form; a mate score is not a number of ours
                    if value == "cp" and i + 2 < n:
                        score = _number(words[i + 2], float)
                    i += 3
                    continue
                score = _number(value, float)
        i += 2
    return Info(depth, nodes, score, seconds, pv, string)


def format_info(depth: int | None, nodes: int | None, score: float | None, seconds: float | None) -> str:
    """``info depth D nodes N score S time MS`` (fields that are ``None`` left out, and those
    that cannot be written as a number: a bot's ``str``, NaN or an integer beyond the
    int-to-text limit; the arena checks the figures it reads, ``arena.referee.reported``)."""
    parts = ["info"]
    for word, value, write in (("depth", depth, _whole), ("nodes", nodes, _whole), ("score", score, _real),
                               ("time", seconds, _millis)):
        if value is not None:
            try:
                parts += [word, write(value)]
            except (TypeError, ValueError, OverflowError):
                pass
    return " ".join(parts)


def _whole(value: Any) -> str:
    return str(int(value))


def _real(value: Any) -> str:
    return f"{float(value):.6g}"


def _millis(seconds: Any) -> str:
    return str(int(round(float(seconds) * 1000)))


@dataclass(frozen=True)
class Option:
    """An option an engine declares: ``option name N type T default V``."""

    name: str
    type: str = "string"
    default: str = ""


def option_value_fits(kind: str, value: str) -> bool:
    """Whether ``value`` is a value of a declared option type (``docs/engine-protocol.md``
    "Messages": ``int``, ``float``, ``bool`` as ``true``/``false`` or ``1``/``0``; ``string``
    and an undeclared type take anything)."""
    if kind == "int":
        return _number(value, int) is not None
    if kind == "float":
        return _number(value, float) is not None
    if kind == "bool":
        return value.lower() in ("true", "false", "1", "0")
    return True


def parse_option(line: str) -> Option | None:
    """The ``option`` line's declaration, or ``None`` when it is not one (ignored, UCI)."""
    words = line.split()
    if len(words) < 3 or words[1] != "name":
        return None
    fields_: dict[str, list[str]] = {"name": []}
    key = "name"
    for w in words[2:]:
        if w in ("type", "default", "min", "max", "var"):
            key = w
            fields_.setdefault(key, [])
            continue
        fields_[key].append(w)
    name = " ".join(fields_["name"])
    if not name:
        return None
    return Option(name, " ".join(fields_.get("type", [])) or "string", " ".join(fields_.get("default", [])))


def format_option(name: str, kind: type, default: Any) -> str:
    """``option name N type int|float|string|bool default V`` for a Python parameter; ``V`` is
    ``none`` for a parameter without a default (the bot then decides; ``setoption ... value
    none`` sets that again), so that every line has its value after ``default``."""
    t = {int: "int", float: "float", bool: "bool"}.get(kind, "string")
    value = str(default).lower() if isinstance(default, bool) else ("none" if default is None else str(default))
    return f"option name {name} type {t} default {value}"


def format_newgame(game: str, params: dict) -> str:
    """``newgame GAME PARAMS_JSON`` (one line, keys sorted; ``{}`` when none)."""
    return f"newgame {game} {json.dumps(params, sort_keys=True, separators=(',', ':'), default=str)}"


def parse_newgame(line: str) -> tuple[str, dict]:
    """(game, params) of a ``newgame`` line.

    Raises:
        ValueError: not ``newgame GAME JSON`` with a JSON object.
    """
    words = line.split(None, 2)
    if len(words) < 2:
        raise ValueError(f"bad newgame line {line[:80]!r}; expected: newgame GAME PARAMS_JSON")
    try:
        params = json.loads(words[2]) if len(words) == 3 else {}
    except ValueError as exc:
        raise ValueError(f"bad newgame parameters {words[2][:80]!r} ({exc}); expected a JSON object, "
                         f"e.g. {{}} or {{\"max_plies\": 100}}") from None
    if not isinstance(params, dict):
        raise ValueError(f"bad newgame parameters {words[2][:80]!r}; expected a JSON object")
    return words[1], params


def format_view(to_move: int, text: str) -> str:
    """``view K|all TEXT_JSON``: a seat's view (``arena.games.View``) on one line. ``to_move``:
    the 0-based seat to move, or ``SIMULTANEOUS`` (written ``all``); ``text``: the view's text,
    which may span lines, as a JSON string (RFC 8259: ``\\n`` for a line break, ``\\"`` and
    ``\\\\``, every other control character and every non-ASCII character as ``\\uXXXX``), so
    the line is plain ASCII and keeps the text exactly (trailing spaces included)."""
    return f"view {ALL_SEATS if to_move == SIMULTANEOUS else int(to_move)} {json.dumps(text)}"


def parse_view(line: str, seats: int) -> tuple[int, str]:
    """(seat to move, text) of a ``view`` line; the seat to move is ``SIMULTANEOUS`` for ``all``.

    Raises:
        ValueError: not ``view K|all TEXT_JSON`` with K a 0-based seat below ``seats`` and one
            JSON string after it.
    """
    words = line.split(None, 2)
    if len(words) < 3 or words[0] != "view":
        raise ValueError(f"bad view line {line[:80]!r}; expected: view K|all TEXT_JSON")
    who, raw = words[1], words[2]
    if who == ALL_SEATS:
        to_move = SIMULTANEOUS
    elif who.isascii() and who.isdigit() and len(who) <= 3 and int(who) < seats:
        to_move = int(who)
    else:
        raise ValueError(f"bad seat to move {who[:20]!r} in a view line; accepted: 0 to {seats - 1}, or "
                         f"{ALL_SEATS} at a simultaneous node")
    try:
        text = json.loads(raw)
    except ValueError as exc:
        raise ValueError(f"bad view text {raw[:80]!r} ({exc}); expected one JSON string, e.g. \"P0 hand: 1\\n\"") \
            from None
    if not isinstance(text, str):
        raise ValueError(f"bad view text {raw[:80]!r}; expected one JSON string, not {type(text).__name__}")
    return to_move, text


@dataclass
class Handshake:
    """What an engine said before ``aepok``: ``id`` lines and declared options."""

    ids: dict[str, str] = field(default_factory=dict)
    options: dict[str, Option] = field(default_factory=dict)
    other: list[str] = field(default_factory=list)
    #: the protocol version the engine speaks (``aepok N``; 1 for a bare ``aepok``)
    version: int = 1

    def done(self, line: str) -> bool:
        """Whether ``line`` ends the handshake (``aepok`` or ``aepok N``); ``version`` is set
        from it (a version the arena does not know counts as the highest it does)."""
        words = line.split()
        if not words or words[0] != "aepok" or len(words) > 2:
            return False
        version = _number(words[1], int) if len(words) == 2 else 1
        self.version = 1 if version is None or version < 1 else min(version, VERSION)
        return True

    def read(self, line: str) -> None:
        """Take one line of the engine's start-up: an ``id``, an ``option``, or any other
        line (kept in ``other`` for the log)."""
        words = line.split(None, 2)
        if words[:1] == ["id"] and len(words) == 3:
            self.ids[words[1]] = words[2]
        elif words[:1] == ["option"]:
            opt = parse_option(line)
            if opt is not None:
                self.options[opt.name] = opt
        else:
            self.other.append(line)


def command_text(command: list[str]) -> str:
    """A command list as one shell-quoted line (for messages and logs)."""
    return shlex.join(command)


def exception_line(exc: BaseException) -> str:
    """``Type: message`` (at most 400 characters) plus ``FRAME_SEP`` and the traceback's last
    frame, for ``info string fault exception``; the full traceback is written to standard error."""
    traceback.print_exception(exc, file=sys.stderr)
    sys.stderr.flush()
    head = " ".join(f"{type(exc).__name__}: {exc}".split())[:400]
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return head
    last = frames[-1]
    return f'{head}{FRAME_SEP}File "{last.filename}", line {last.lineno}, in {last.name}'
