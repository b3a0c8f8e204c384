"""The messages of a watched game and their serialisation (split from ``arena.referee.records``).

A watched game (``arena.supervisor``) sends two messages: ``Ply`` (each ply, with the diagram
when ``arena play`` shows it) and ``GameEnded`` (the record), written by ``message_to_wire`` and
read by ``message_from_wire``, the only serialisation of either; ``ply_to_wire`` /
``ply_from_wire`` are the bytes of a ``Ply`` in the shared ply buffer (``ply_entry`` /
``ply_wire``: the short forms a watched game's hook writes on every ply). The records
themselves (``MoveRecord``, ``GameRecord``, ``to_wire`` / ``from_wire``) are in
``arena.referee.records``.
"""

from __future__ import annotations

import marshal
import math
import struct
from dataclasses import dataclass
from typing import Any

from arena.referee.plain import plain_int, plain_text
from arena.referee.records import RECORD_VERSION, GameRecord, MoveRecord, from_wire, plain_move, to_wire


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


def message_to_wire(message: Message, exact: bool = False) -> tuple:
    """``message`` as plain values (marshal- and pickle-able): ``(kind, ...)``. Values a bot
    reported in foreign number types (numpy, which ``marshal`` would write as raw bytes) are
    converted to Python numbers. ``exact``: a ``GameEnded`` whose record the arena's own code
    made alone (``to_wire``'s ``exact``). Read back with ``message_from_wire``."""
    if isinstance(message, Ply):
        return (_PLY, RECORD_VERSION, plain_text(message.move), plain_move(message.record), plain_text(message.diagram),
                plain_text(message.position))
    return (_ENDED, plain_int(message.game_id), to_wire(message.record, exact))


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
    data = marshal.dumps((_PLY, RECORD_VERSION, plain_text(move), plain_move(record), "", ""))
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
