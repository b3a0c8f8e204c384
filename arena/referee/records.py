"""Typed records of a played game and their one serialisation each way.

``MoveRecord`` (one ply) and ``GameRecord`` (a finished game) are what the referee produces and
what crosses every process boundary: worker -> runner and Dask worker -> client (``to_wire`` /
``from_wire``), the store (``arena.results.store.Store.add_game`` reads the fields by name). A watched
game (``arena.supervisor``) sends two messages: ``Ply`` (each ply, with the diagram when
``arena play`` shows it) and ``GameEnded`` (the record), written by ``message_to_wire`` and read
by ``message_from_wire``, the only serialisation of either; ``ply_to_wire`` / ``ply_from_wire``
are the bytes of a ``Ply`` in the shared ply buffer. fastchess's ``MatchData`` is the
model: one type passed whole, never positional tuples rebuilt in several modules.

``Termination`` names every ending the arena itself decides (``docs/arena.md`` "Contracts /
Faults"); a game's own rule endings (``"target"``, ``"rounds"``...) are plain strings the game
documents.
"""

from __future__ import annotations

import marshal
import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import partial
from typing import Any, NamedTuple

from arena.games import Outcome
from arena.referee.plain import number as _number, plain_float, plain_int, plain_text

#: version of the wire tuples of ``to_wire`` / ``ply_to_wire``; bumped when a field changes
RECORD_VERSION = 2


class Termination(StrEnum):
    """How the arena ended a game (a ``str``: stored values and ``== "timeout"`` keep working).

    A fault's seat ranks last, the others share first (``forfeit``); ``CRASH`` before any bot
    moved and ``GAME_ERROR`` blame nobody: every seat ranks first. Each member's ``__doc__``
    names the rule or fault that produces it (python-chess's ``Termination`` is the model).
    """

    def __new__(cls, value: str, doc: str = "") -> Termination:
        member = str.__new__(cls, value)
        member._value_ = value
        member.__doc__ = doc
        return member

    EXCEPTION = (
        "exception",
        "A bot's ``choose`` or ``reset`` raised (or its constructor, in a tournament worker).",
    )
    ILLEGAL_MOVE = (
        "illegal_move",
        "A bot answered a move of the game's notation that is not legal in the position (the "
        "game's ``play`` raised ``IllegalMoveError``).",
    )
    BAD_MOVE = (
        "bad_move",
        "A bot answered something that is not a move of the game at all (``parse_move`` of its "
        "text fails, or it is not the move its text reads as).",
    )
    TIMEOUT = (
        "timeout",
        "A move took longer than the move time plus ``--time-margin`` (measured, or killed by the "
        "watchdog after a grace of max(1 s, move time)), or the seat's game clock (``--tc``) went below "
        "−``--time-margin``; an engine that sends no ``bestmove`` in that time is killed and restarted "
        "for the next game.",
    )
    EXIT = (
        "exit",
        "A bot raised ``SystemExit`` (called ``sys.exit``).",
    )
    MEMORY = (
        "memory",
        "``MemoryError`` under ``--memory-limit`` (``RLIMIT_AS``) while a bot was on move.",
    )
    CRASH = (
        "crash",
        "The process playing the game died (SIGKILL, ``os._exit``, segfault, closed pipe) on "
        "every attempt (``--retries`` replays); or an engine process (``exec:``, ``--isolation process``) "
        "exited or closed its output mid-game, or could not be restarted for the game; or a bot forked "
        "the worker process. Blames the seat on move.",
    )
    GAME_TIME = (
        "game_time",
        "The game ran past ``--game-time`` seconds; its worker was killed.",
    )
    GAME_ERROR = (
        "game_error",
        "The game's own code raised while playing a proper move (a bug in the game, not in a "
        "bot): nobody is blamed, the traceback is in ``<results>/<name>.log``.",
    )
    ADJUDICATED = (
        "adjudicated",
        "``--adjudicate resign=MOVES:SCORE[:twosided]``: the seat whose reported score stayed at or "
        "below -SCORE for MOVES of its moves loses, the other wins (``arena.referee.adjudicate``); "
        "not a fault.",
    )
    ADJUDICATED_DRAW = (
        "adjudicated_draw",
        "``--adjudicate draw=AFTER:MOVES:SCORE`` (both scores within +-SCORE for MOVES moves each "
        "after AFTER plies) or ``max-plies=N`` (N plies played): every seat ranks first; not a fault.",
    )
    UNFINISHED = (
        "unfinished",
        "The worker reported an ending that the runner's replay of the stored moves does not reach "
        "(``arena.referee.check``: a bot tampered with the worker's objects): nobody is blamed, "
        "every seat ranks first, the mismatch is logged and counted.",
    )


#: Terminations that end a game by the arena's adjudication (``--adjudicate``), not by a fault.
ADJUDICATIONS = (Termination.ADJUDICATED, Termination.ADJUDICATED_DRAW)
#: Terminations that are a bot's fault (the seat ranks last).
FAULTS = tuple(t for t in Termination if t not in (Termination.GAME_ERROR, Termination.UNFINISHED, *ADJUDICATIONS))


class BotFault(Exception):
    """Raised by a bot's ``choose`` to lose with a named fault (a ``Termination`` among
    ``FAULTS``) rather than ``exception``: an engine process that timed out or died
    (``arena.engine.client``; ``docs/engine-protocol.md`` "Faults").

    Attributes:
        reason: the termination reason. detail: one line on what happened.
    """

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason, self.detail = reason, detail


class MoveRecord(NamedTuple):
    """One ply (or one seat's answer at a simultaneous round) as played.

    A named tuple (immutable, compared and hashed by its values): a game makes one a ply and
    the runner one for each it receives, and a tuple is made and read in C (``to_wire`` takes
    a game's records column by column), several times faster than a frozen dataclass.

    Attributes:
        ply: 0-based ply index within the game, opening plies included.
        seat: 0-based seat that moved; -1 for an opening ply; ``arena.games.CHANCE`` (-3) for
            a chance ply drawn by the referee after the opening (no bot moved).
        move: the move in the game's notation (at a simultaneous round: the seat's answer, ``-``
            for none).
        seconds: thinking time, seconds (0 for opening plies).
        nodes, depth, evaluation: the bot's ``last_stats`` for that move (count, plies, the
            bot's own units); ``None`` when the bot does not report the figure.
        status: at a simultaneous round, the verdict on the seat's answer: ``won``, ``valid``,
            ``invalid``, ``none`` (no answer), or the arena's ``late`` / ``crash``; ``None``
            for sequential plies.
        clock: seconds left on the seat's game clock after the move, increment (and a
            ``MOVES/`` refill) added; ``None`` when no clock timed the move.
    """

    ply: int
    seat: int
    move: str
    seconds: float = 0.0
    nodes: int | None = 0
    depth: int | None = 0
    evaluation: float | None = None
    status: str | None = None
    clock: float | None = None


_MOVE_FIELDS = MoveRecord._fields
#: a ``MoveRecord`` of a wire tuple's values, made in C (``from_wire`` checks the lengths)
_move_record = partial(tuple.__new__, MoveRecord)


@dataclass(frozen=True)
class GameRecord:
    """A finished game.

    Attributes:
        seats: bot labels by 0-based seat.
        seed: the game's (series) seed: the initial state, the opening plies and every bot's
            seed (``bot_seeds``, with the game's index in its series and the labels) derive
            from it.
        opening_plies: how many of ``moves`` were forced opening plies.
        moves: every ply in notation, opening included (a simultaneous round: its round text).
        move_stats: one ``MoveRecord`` per sequential ply, one per seat per simultaneous round.
        outcome: scores, ranks and termination (a ``Termination`` or the game's own reason).
        seconds: wall-clock duration of the game, seconds.
        fault_seat: the 0-based seat that lost by a fault, or ``None``.
        fault_detail: one line on the fault or game error (a traceback may follow it), or
            ``None``; bounded and storable whatever a bot raised (``fault_text``).
        adjudication: the ``--adjudicate`` rule that ended the game (``resign=3:500``,
            ``max-plies=200``...; its ply is the record's last), or ``None``.
    """

    seats: tuple[str, ...]
    seed: int
    opening_plies: int
    moves: tuple[str, ...]
    move_stats: tuple[MoveRecord, ...]
    outcome: Outcome
    seconds: float
    fault_seat: int | None = None
    fault_detail: str | None = None
    adjudication: str | None = None

    def __post_init__(self) -> None:
        if self.fault_detail is not None:  # every path that makes a record: a bot's text bounded once
            object.__setattr__(self, "fault_detail", fault_text(self.fault_detail))

    @property
    def plies(self) -> int:
        """Plies played, opening included (a simultaneous round counts one)."""
        return len(self.moves)


#: characters of a fault detail's first line, and of the traceback after it
DETAIL_LINE, DETAIL_TRACE = 500, 20_000


def fault_text(detail: str) -> str:
    """``detail`` as a record keeps it: the first line squeezed to one line of at most
    ``DETAIL_LINE`` characters, a traceback after it (``arena.referee.play.exception_text``)
    kept up to ``DETAIL_TRACE`` characters, and what UTF-8 cannot encode (a lone surrogate in
    a bot's text) escaped (``\\udcff``), so any detail can be stored and shown. Idempotent."""
    head, _, trace = detail.partition("\n")
    text = " ".join(head[:4 * DETAIL_LINE].split())[:DETAIL_LINE]
    if trace.strip():
        text += "\n" + trace[:DETAIL_TRACE]
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def forfeit(num_players: int, seat: int | None, termination: str) -> Outcome:
    """The outcome when ``seat`` loses by a fault: it ranks last, the others share first.
    ``seat`` ``None`` or negative: nobody is blamed, every seat ranks first."""
    blamed = seat is not None and seat >= 0
    ranks = tuple(num_players if blamed and s == seat else 1 for s in range(num_players))
    return Outcome(tuple(0.0 for _ in range(num_players)), ranks, termination)


def fault_record(seats: tuple[str, ...], seed: int, opening: tuple[str, ...] | list[str], seat: int | None,
                 reason: str, detail: str, moves: list[str] | tuple = (), stats: list[MoveRecord] | tuple = (),
                 seconds: float = 0.0) -> GameRecord:
    """The record of a game stopped by a fault of ``seat`` (``None`` or < 0: nobody blamed).

    ``moves`` and ``stats``: the plies played after the ``opening``; ``detail`` as
    ``fault_text`` stores it.
    """
    blamed = seat if seat is not None and seat >= 0 else None
    opened = tuple(MoveRecord(i, -1, m) for i, m in enumerate(opening))
    return GameRecord(seats=tuple(seats), seed=seed, opening_plies=len(opening), moves=tuple(opening) + tuple(moves),
                      move_stats=opened + tuple(stats), outcome=forfeit(len(seats), blamed, reason), seconds=seconds,
                      fault_seat=blamed, fault_detail=detail)


_GAME_FIELDS = tuple(f.name for f in fields(GameRecord))
assert _GAME_FIELDS == ("seats", "seed", "opening_plies", "moves", "move_stats", "outcome", "seconds", "fault_seat",
                        "fault_detail", "adjudication"), "to_wire writes the fields in declaration order"


def to_wire(record: GameRecord) -> tuple:
    """``record`` as plain tuples: ``(RECORD_VERSION, field values in declaration order)`` with
    ``move_stats`` and ``outcome`` as tuples too (pickles several times faster than the
    dataclasses). Every value is an exact ``str``, ``int``, ``float``, ``None`` or a tuple of
    them (``plain_text`` / ``plain_int`` / ``plain_float``): whatever a bot put in the record
    (a ``str`` subclass, a number type with a ``__reduce__``) is converted here, in the
    process that played, so ``marshal`` writes it and nothing of a bot is unpickled by the
    reader. Read back with ``from_wire``.

    Raises:
        TypeError, ValueError, OverflowError: a field that no plain type reads.
    """
    r, o = record, record.outcome
    detail = None if r.fault_detail is None else plain_text(r.fault_detail)
    return (RECORD_VERSION, tuple(map(plain_text, r.seats)), plain_int(r.seed), plain_int(r.opening_plies),
            _plain_moves(r.moves), _plain_stats(r.move_stats),
            (tuple(map(_number, o.scores)), tuple(map(plain_int, o.ranks)), plain_text(o.termination)),
            plain_float(r.seconds), None if r.fault_seat is None else plain_int(r.fault_seat), detail,
            None if r.adjudication is None else plain_text(r.adjudication))


#: each ``MoveRecord`` field's types that ``_plain`` takes as they are (``_plain_stats``)
_COLUMN_TYPES = tuple(frozenset(kinds) for kinds in ((int,), (int,), (str,), (float,), (int, type(None)),
                                                      (int, type(None)), (float, type(None)), (str, type(None)),
                                                      (float, type(None))))


def _plain_moves(moves: Sequence[str]) -> tuple[str, ...]:
    """``tuple(map(plain_text, moves))``, taken as it is when every move is an exact ``str``
    (the referee's: one type look-up each, in C)."""
    if set(map(type, moves)) <= {str}:
        return tuple(moves)
    return tuple(map(plain_text, moves))


def _plain_stats(stats: Sequence[MoveRecord]) -> tuple[tuple, ...]:
    """``tuple(map(_plain, stats))``, in C loops when every record is a ``MoveRecord`` whose
    values are each of its field's exact types (the referee's records: each column's types
    checked); anything else goes through ``_plain``."""
    if set(map(type, stats)) <= {MoveRecord} and all(
            set(map(type, column)) <= kinds for column, kinds in zip(zip(*stats), _COLUMN_TYPES)):
        return tuple(map(tuple, stats))
    return tuple(map(_plain, stats))


def from_wire(data: tuple) -> GameRecord:
    """The ``GameRecord`` of ``to_wire``.

    Raises:
        ValueError: the tuple was written by another ``RECORD_VERSION``, or has the wrong
            number of values.
    """
    if data[0] != RECORD_VERSION:
        raise ValueError(f"game record of version {data[0]!r}; this arena reads version {RECORD_VERSION}")
    if len(data) != 1 + len(_GAME_FIELDS):
        raise ValueError(f"game record of {len(data) - 1} values; this arena reads {len(_GAME_FIELDS)}")
    seats, seed, opening_plies, moves, stats, outcome, seconds, fault_seat, detail, adjudication = data[1:]
    if not set(map(len, stats)) <= {len(_MOVE_FIELDS)}:
        raise ValueError(f"a move record of other than {len(_MOVE_FIELDS)} values")
    return GameRecord(seats, seed, opening_plies, moves, tuple(map(_move_record, stats)), Outcome(*outcome), seconds,
                      fault_seat, detail, adjudication)


@dataclass(frozen=True)
class Ply:
    """Message: one ply as a watched process played it (to the ply buffer, or ``arena play`` 's pipe).

    Attributes:
        move: the move stored for it (``ply_text``: at a simultaneous round, the round's text).
        record: the ``MoveRecord`` given to ``on_ply`` (at a simultaneous round the last seat's,
            ``status`` set: it is then not one of the game's ``move_stats``).
        diagram: ``state.diagram()`` after it, ``""`` when not asked for.
        position: ``state.to_text()`` after it, ``""`` when not asked for.
    """

    move: str
    record: MoveRecord
    diagram: str = ""
    position: str = ""

    @property
    def round(self) -> bool:
        """A simultaneous round (its ``record`` is no sequential ply's)."""
        return self.record.status is not None


@dataclass(frozen=True)
class GameEnded:
    """Message: the record of a finished game, from the process that played it.

    Attributes:
        game_id: the tournament's game id (``GameTask.game_id``; 0 for ``arena play``).
        record: the finished game.
    """

    game_id: int
    record: GameRecord


#: a message between a watched process and its supervisor
Message = Ply | GameEnded
_PLY, _ENDED = "ply", "ended"


def message_to_wire(message: Message) -> tuple:
    """``message`` as plain values (marshal- and pickle-able): ``(kind, ...)``. Values a bot
    reported in foreign number types (numpy, which ``marshal`` would write as raw bytes) are
    converted to Python numbers. Read back with ``message_from_wire``."""
    if isinstance(message, Ply):
        return (_PLY, RECORD_VERSION, plain_text(message.move), _plain(message.record), plain_text(message.diagram),
                plain_text(message.position))
    return (_ENDED, plain_int(message.game_id), to_wire(message.record))


def message_from_wire(data: tuple) -> Message:
    """The message of ``message_to_wire``.

    Raises:
        ValueError: an unknown kind, or values written by another ``RECORD_VERSION``.
    """
    if data[0] == _ENDED:
        return GameEnded(data[1], from_wire(data[2]))
    if data[0] != _PLY:
        raise ValueError(f"unknown message kind {data[0]!r}")
    if data[1] != RECORD_VERSION:
        raise ValueError(f"ply of version {data[1]!r}; this arena reads version {RECORD_VERSION}")
    return Ply(data[2], MoveRecord(*data[3]), data[4], data[5])


def send_message(conn: Any, message: Message) -> None:
    """Send ``message`` on a ``multiprocessing`` connection as ``marshal`` bytes of
    ``message_to_wire``: the reader never unpickles what a process running bots wrote.

    Raises:
        OSError, ValueError: the connection is closed.
    """
    conn.send_bytes(marshal.dumps(message_to_wire(message)))


def recv_message(conn: Any) -> Message:
    """The next message ``send_message`` wrote on ``conn`` (read with ``marshal``, which builds
    plain values only and runs no code).

    Raises:
        EOFError, OSError: the writer is gone. ValueError: bytes that are no message.
    """
    data = conn.recv_bytes()
    try:
        return message_from_wire(marshal.loads(data))
    except (EOFError, TypeError, IndexError, KeyError) as exc:
        raise ValueError(f"unreadable message ({type(exc).__name__}: {exc})") from None


_INT_OR_NONE, _FLOAT_OR_NONE, _STR_OR_NONE = {int, type(None)}, {float, type(None)}, {str, type(None)}


def ply_to_wire(ply: Ply) -> bytes:
    """One ``Ply`` as bytes for a shared buffer (``marshal`` of ``message_to_wire``)."""
    return marshal.dumps(message_to_wire(ply))


#: a ply buffer entry in short (``ply_entry``): tag 0 (no ``marshal`` text begins with it), ply,
#: seat, seconds, nodes, depth (-1: ``None``), evaluation, clock (NaN: ``None``); the move's UTF-8 follows
_SHORT = struct.Struct("<Biidqqdd")
#: the length of an entry of the ply buffer, before its bytes (``ply_entry``)
PLY_LENGTH = struct.Struct("<I")
#: a short entry with its length before it
_SHORT_ENTRY = struct.Struct("<I" + _SHORT.format[1:])
#: a ply buffer entry of a bot that reports no figures (``ply_entry``): tag 1, ply, seat, seconds; the move follows
_BARE = struct.Struct("<Biid")
_BARE_ENTRY = struct.Struct("<I" + _BARE.format[1:])


def ply_entry(move: str, record: MoveRecord) -> bytes:
    """``Ply(move, record)`` as an entry of the shared ply buffer (``arena.supervisor.PlyLog``):
    its length (``PLY_LENGTH``), then ``ply_wire``'s bytes. A watched game's hook writes one a
    ply."""
    ply, seat, text, seconds, nodes, depth, evaluation, status, clock = record
    if (nodes is None and depth is None and evaluation is None and status is None and clock is None
            and type(move) is str and move == text):
        try:
            data = move.encode("utf-8", "surrogatepass")
            return _BARE_ENTRY.pack(_BARE.size + len(data), 1, ply, seat, seconds) + data
        except (struct.error, TypeError, ValueError, OverflowError):
            pass  # as below
    if (status is None and type(move) is str and move == text and (nodes is None or nodes >= 0)
            and (depth is None or depth >= 0) and evaluation == evaluation and clock == clock):
        try:
            data = move.encode("utf-8", "surrogatepass")
            return _SHORT_ENTRY.pack(_SHORT.size + len(data), 0, ply, seat, seconds, -1 if nodes is None else nodes,
                                     -1 if depth is None else depth, math.nan if evaluation is None else evaluation,
                                     math.nan if clock is None else clock) + data
        except (struct.error, TypeError, ValueError, OverflowError):
            pass  # a value out of the struct's range, or of another type: as ``ply_to_wire``
    data = marshal.dumps((_PLY, RECORD_VERSION, plain_text(move), _plain(record), "", ""))
    return PLY_LENGTH.pack(len(data)) + data


def ply_wire(move: str, record: MoveRecord) -> bytes:
    """The bytes of ``Ply(move, record)`` in the shared ply buffer (``ply_entry`` without its
    length): a sequential ply (``move`` is ``record.move``, no ``status``) whose nodes and
    depth are ``None`` or not negative and whose evaluation and clock are no NaN in one
    ``struct`` (a few times cheaper than ``marshal``, no ``Ply`` made; the numbers converted to
    exact ``int`` / ``float`` as ``to_wire`` does; a shorter one when the bot reports no figure
    and no clock times it), any other as ``ply_to_wire``.
    ``ply_from_wire`` reads both.

    Raises:
        Exception: a value no plain type reads (as ``ply_to_wire``).
    """
    return ply_entry(move, record)[PLY_LENGTH.size:]


def _plain(record: MoveRecord) -> tuple:
    """A ``MoveRecord``'s values, each an exact ``int`` / ``float`` / ``str`` or ``None``
    (those already exact, as the referee makes them, are taken as they are: one type check
    each, on every ply)."""
    r = record
    if (type(r.ply) is int and type(r.seat) is int and type(r.move) is str and type(r.seconds) is float
            and type(r.nodes) in _INT_OR_NONE and type(r.depth) in _INT_OR_NONE
            and type(r.evaluation) in _FLOAT_OR_NONE and type(r.status) in _STR_OR_NONE
            and type(r.clock) in _FLOAT_OR_NONE):
        return (r.ply, r.seat, r.move, r.seconds, r.nodes, r.depth, r.evaluation, r.status, r.clock)

    def opt(value: Any, kind: Any) -> Any:
        return None if value is None else kind(value)
    return (plain_int(record.ply), plain_int(record.seat), plain_text(record.move), plain_float(record.seconds),
            opt(record.nodes, plain_int), opt(record.depth, plain_int), opt(record.evaluation, plain_float),
            opt(record.status, plain_text), opt(record.clock, plain_float))


def ply_from_wire(data: bytes) -> Ply:
    """The ``Ply`` of ``ply_to_wire`` or ``ply_wire``.

    Raises:
        ValueError: bytes of another record version, or not a ply.
    """
    if data[:1] == b"\1":
        try:
            _, ply, seat, seconds = _BARE.unpack_from(data)
            move = bytes(data[_BARE.size:]).decode("utf-8", "surrogatepass")
        except (struct.error, UnicodeDecodeError) as exc:
            raise ValueError(f"unreadable ply ({exc})") from None
        return Ply(move, MoveRecord(ply, seat, move, seconds, None, None, None, None, None))
    if data[:1] == b"\0":
        try:
            _, ply, seat, seconds, nodes, depth, evaluation, clock = _SHORT.unpack_from(data)
            move = bytes(data[_SHORT.size:]).decode("utf-8", "surrogatepass")
        except (struct.error, UnicodeDecodeError) as exc:
            raise ValueError(f"unreadable ply ({exc})") from None
        return Ply(move, MoveRecord(ply, seat, move, seconds, None if nodes < 0 else nodes,
                                    None if depth < 0 else depth, None if evaluation != evaluation else evaluation,
                                    None, None if clock != clock else clock))
    message = message_from_wire(marshal.loads(data))
    if not isinstance(message, Ply):
        raise ValueError("a game record where a ply was expected")
    return message
