"""The parent side of a watched game, written once for the tournament's pool
(``arena.tournament.slot``, ``pool``) and ``arena play`` (``arena.watch``).

``Supervised`` is a child process under watch: started with its pipe, its shared ``Status``
and (for a pool worker) its ply buffer, killed with its process group. ``verdict`` reads what
the status says of the game playing at a given time: a fork, a death, an overdue game or move
(``arena.supervisor.blame`` words each one), and ``Verdict.record`` makes the fault record,
with the plies that stand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.os_guard import kill_group
from arena.referee import GameRecord, Ply, Termination, fault_record
from arena.supervisor import blame
from arena.supervisor.blame import Deadlines
from arena.supervisor.status import PLY_BUFFER, Status, new_status, played, read_plies

#: seconds a killed child is waited for
JOIN_SECONDS = 5.0


class Supervised:
    """One child process under watch, from its parent: ``proc`` runs ``target(conn, status,
    buffer, *args)`` (the child's end of the pipe, the shared ``Status``, the ply buffer or
    ``None``); ``conn`` is the parent's end, ``status`` and ``buffer`` shared with the child.

    Args:
        ctx: a ``multiprocessing`` context (fork where there is one).
        target, args: the child's function and its arguments after the three above.
        plies: give the child a shared ply buffer (``arena.supervisor.PlyLog``): a pool
            worker's, read back after a kill; ``arena play`` streams its plies instead.
        duplex: a two-way pipe (a worker reads its tasks from it), else one the child writes.
    """

    def __init__(self, ctx: Any, target: Callable[..., None], args: Sequence[Any] = (), plies: bool = True,
                 duplex: bool = True) -> None:
        self.status: Status = new_status(ctx)
        self.buffer: Any = ctx.RawArray("c", PLY_BUFFER) if plies else None
        self.conn, self._child = ctx.Pipe(duplex)
        self.proc = ctx.Process(target=target, args=(self._child, self.status, self.buffer, *args), daemon=True)

    def start(self) -> None:
        """Start the child (which leads its own session: ``os_guard.new_session``); the
        child's end of the pipe is then closed here, whatever the start did."""
        try:
            self.proc.start()
        finally:
            self._child.close()

    def plies(self) -> list[Ply]:
        """The plies of the game playing, as the child wrote them to its buffer."""
        return [] if self.buffer is None else read_plies(self.buffer, self.status)

    def kill(self) -> None:
        """Kill the child, its process group (every descendant still in its session), and wait
        for it (``JOIN_SECONDS``). Descendants in other sessions are the caller's sweep
        (``os_guard.kill_orphans``, ``orphans_reaped``)."""
        if self.proc.pid is not None:
            kill_group(self.proc.pid)
            if self.proc.is_alive():
                self.proc.kill()
            self.proc.join(JOIN_SECONDS)


@dataclass(frozen=True)
class Verdict:
    """A watched game lost by a fault: the seat blamed (the seat on move; -1: none), why, the
    detail, and the plies that stand (``upto``: those before a fork; ``None``: all played)."""

    seat: int
    reason: Termination
    detail: str
    upto: int | None = None

    def record(self, labels: Sequence[str], seed: int, opening: Sequence[str], plies: Sequence[Ply],
               seconds: float) -> GameRecord:
        """The game's fault record: ``plies`` (as played after ``opening``) up to ``upto``,
        ``seconds`` of wall clock."""
        moves, stats = played(list(plies), self.upto, len(opening))
        return fault_record(tuple(labels), seed, list(opening), self.seat, self.reason, self.detail, moves, stats,
                            seconds)


def forked(status: Status, labels: Sequence[str], what: str) -> Verdict:
    """A bot forked the child (``Status.forked`` is marked): the forking seat loses (``crash``),
    the plies before the fork stand."""
    return Verdict(status.fork_seat, Termination.CRASH, blame.forked(status, labels, what), status.fork_ply)


def died(status: Status, code: int | None, labels: Sequence[str], what: str) -> Verdict:
    """The child ended with exit code ``code`` during the game: the seat on move loses (``crash``)."""
    return Verdict(status.seat, Termination.CRASH, blame.died(status, code, labels, what))


def overdue(status: Status, now: float, deadlines: Deadlines, labels: Sequence[str], what: str) -> Verdict | None:
    """The game or its move is past ``deadlines`` at ``now`` (``time.monotonic()`` seconds): the
    seat on move loses (``game_time``, ``timeout``); ``None`` while it is not."""
    late = blame.overdue(status, now, deadlines, labels, what)
    return None if late is None else Verdict(status.seat, *late)


def verdict(status: Status, now: float, deadlines: Deadlines, labels: Sequence[str], what: str,
            ended: bool = False, code: int | None = None) -> Verdict | None:
    """What the status of the game playing says at ``now``: a fork marked (``forked``), the
    child ended with ``code`` (``ended``: ``died``), or an overdue game or move (``overdue``);
    ``None`` when the game may go on."""
    if status.forked >= 0:
        return forked(status, labels, what)
    if ended:
        return died(status, code, labels, what)
    return overdue(status, now, deadlines, labels, what)
