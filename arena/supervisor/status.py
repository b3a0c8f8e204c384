"""What a watched process tells its supervisor without a message: the ``Status`` record and
the ply buffer (``PlyLog``), both in shared memory.

The child writes them from the match loop's hooks (``arena.supervisor.child``); the parent
reads them at any time, also after killing the child, to blame the seat on move and keep the
plies played.
"""

from __future__ import annotations

import ctypes
from typing import Any

from arena.referee import PLY_LENGTH, MoveRecord, Ply, ply_from_wire, ply_to_wire

#: bytes of a worker's ply buffer: the plies of the game playing, so a game whose process is
#: killed or dies keeps the moves played (a longer game keeps those that fit)
PLY_BUFFER = 1 << 20


class Status(ctypes.Structure):
    """The state of a watched process, one record in shared memory (``new_status``).

    Fields (times are ``time.monotonic()`` seconds of the child, the same clock as the parent's):
        seat: 0-based seat on move (last asked or being reset); -1 before the first.
        ply: plies played in the game playing, opening included.
        move_started: when the seat on move was asked (each seat of a simultaneous round too);
            0 when no move is timed: between moves, and while an engine client, which keeps its
            own deadline, answers a round.
        game: id of the game playing (``GameTask.game_id``; 0 for ``arena play``); -1 between
            games. Written after ``game_started`` and cleared only after the game's record is
            sent: a parent that reads ``game`` first never times a game from a stale start.
        game_started: when the game playing began.
        plies_end: end (bytes) of the last complete entry of the ply buffer (``PlyLog``).
        forked: id of the game whose bot forked the process (``game`` of the copy's game);
            -1 when no fork is marked.
        fork_seat: the 0-based seat that forked (-1: none on move).
        fork_ply: the ply it was choosing (-1: after the game).
        move_allowed: seconds the game clock gives the move being timed (``--tc``: the seat's
            clock plus the margin); 0 when no clock times it (``--move-time`` is the parent's own).
    """

    _fields_ = [
        ("seat", ctypes.c_int),
        ("ply", ctypes.c_int),
        ("move_started", ctypes.c_double),
        ("game", ctypes.c_longlong),
        ("game_started", ctypes.c_double),
        ("plies_end", ctypes.c_longlong),
        ("forked", ctypes.c_longlong),
        ("fork_seat", ctypes.c_int),
        ("fork_ply", ctypes.c_int),
        ("move_allowed", ctypes.c_double),
    ]

    seat: int
    ply: int
    move_started: float
    game: int
    game_started: float
    plies_end: int
    forked: int
    fork_seat: int
    fork_ply: int
    move_allowed: float


def new_status(ctx: Any = None) -> Status:
    """A ``Status`` with no game and no fork: in shared memory of the ``multiprocessing``
    context ``ctx`` (``ctx.RawValue``: no lock, each field one aligned write), or a private one
    when ``ctx`` is ``None`` (a game played in this process)."""
    status = Status() if ctx is None else ctx.RawValue(Status)
    status.seat, status.game, status.forked, status.fork_seat, status.fork_ply = -1, -1, -1, -1, -1
    return status


class PlyLog:
    """The plies of the game playing, in a buffer shared with the parent (child side).

    Each entry is a 4-byte length (``arena.referee.PLY_LENGTH``) and the ``Ply``'s bytes
    (``arena.referee.ply_to_wire``, or ``ply_wire`` as the hook writes them);
    ``status.plies_end`` is the end of the last complete entry (written after it).
    """

    def __init__(self, buffer: Any, status: Status) -> None:
        self.buffer, self.status, self.end = memoryview(buffer).cast("B"), status, 0
        self.size = len(self.buffer)

    def clear(self) -> None:
        self.end = 0
        self.status.plies_end = 0

    def add(self, ply: Ply) -> None:
        """Append ``ply``; a full buffer keeps what fits. Never raises: an error in the game's
        hook would be blamed on a bot."""
        data = ply_to_wire(ply)
        self.write(PLY_LENGTH.pack(len(data)) + data)

    def write(self, entry: bytes) -> None:
        """Append one entry: a ply's bytes after their length (``arena.referee.ply_entry``, the
        hook's own path: no ``Ply`` made); a full buffer keeps what fits. Never raises."""
        start = self.end
        end = start + len(entry)
        if end > self.size:
            return  # full: the parent keeps the plies that fit
        self.buffer[start:end] = entry
        self.end = end
        self.status.plies_end = end


def read_plies(buffer: Any, status: Status) -> list[Ply]:
    """The plies of a ``PlyLog`` (parent side; the child stopped or killed)."""
    data, pos, out = buffer[:int(status.plies_end)], 0, []
    while pos + 4 <= len(data):
        (size,) = PLY_LENGTH.unpack_from(data, pos)
        out.append(ply_from_wire(data[pos + 4:pos + 4 + size]))
        pos += 4 + size
    return out


def played(plies: list[Ply], upto: int | None = None, opening_plies: int = 0) -> tuple[list[str], list[MoveRecord]]:
    """``(moves, move records)`` of ``plies`` as a fault record keeps them
    (``arena.referee.fault_record``): every ply's move, the records of sequential plies only.
    ``upto``: keep only the plies before ply ``upto`` (0-based, opening included: the plies
    before a fork), of a game with ``opening_plies`` forced plies before ``plies``."""
    if upto is not None:
        plies = plies[:max(0, upto - opening_plies)]
    return [p.move for p in plies], [p.record for p in plies if not p.round]
