"""Play one game in a watched child process (``arena play``; ``docs/arena.md`` "Contracts / Faults").

``watch_game`` forks a child that plays the game under ``arena.supervisor.Watched`` (the same
child side as a tournament worker: ``referee_game`` decides ``exit``, ``memory``, ``exception``
in ``reset``; the shared ``Status`` says who is on move since when; a fork is marked there) and
sends each ``Ply`` (the diagram after it) and then ``GameEnded`` through a pipe, as
``arena.referee.message_to_wire`` writes them. The parent reads the status: a move not back
``move_time + time_margin`` seconds after it was asked loses (``timeout``; the child is
killed), a child that dies loses for the seat on move (``crash``), a fork loses for the forking
seat (``crash``, the plies before it stand); the details are ``arena.supervisor.blame`` 's. The
child is guarded by ``arena.os_guard`` (fds 1 and 2 to ``/dev/null``: a bot's prints never
garble the caller's output), runs in a session of its own, and the caller is a child subreaper
while the game runs: when it ends, the child's process group and every descendant left
(``setsid`` ones included) are killed and reaped (``os_guard.kill_group``,
``os_guard.orphans_reaped``).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

from arena.os_guard import guard_child, new_session, orphans_reaped
from arena.referee import GameEnded, GameRecord, GameSettings, Ply, recv_message, send_message
from arena.supervisor import Deadlines, Status, Watched
from arena.supervisor.parent import Supervised, Verdict, died, forked, verdict
from bots.base import Player

#: seconds between two looks at the status while the parent waits for the child
POLL = 0.1
#: what ``arena play`` 's details call the child
WHAT = "bot process"


def _child(conn: Any, status: Status, buffer: None, settings: GameSettings, bots: list[Player], diagrams: bool) -> None:
    code = 0
    try:
        new_session()  # the parent kills the child's whole process group (os_guard.kill_group)
        guard_child(settings.memory_limit)
        watched = Watched(status, send=lambda ply: send_message(conn, ply), pipe_fd=conn.fileno(),
                          diagrams=diagrams)
        watched.begin(0, len(settings.opening))
        record = watched.play(settings, bots)
        send_message(conn, GameEnded(0, record))
    except BaseException:  # noqa: BLE001 - the pipe is gone or the record cannot be sent: the parent sees EOF
        code = 1
    finally:
        os._exit(code)


class _Parent:
    """The parent's view of the game: the plies received, the verdicts
    (``arena.supervisor.parent``, as a tournament's pool reads them)."""

    def __init__(self, settings: GameSettings, child: Supervised, on_ply: Callable[[Ply], None] | None) -> None:
        self.settings, self.child, self.status, self.on_ply = settings, child, child.status, on_ply
        self.labels = settings.labels or ()
        self.plies: list[Ply] = []
        self.start = time.perf_counter()

    def take(self, ply: Ply) -> None:
        self.plies.append(ply)
        if self.on_ply:
            self.on_ply(ply)

    def lost(self, verdict: Verdict) -> GameRecord:
        s = self.settings
        return verdict.record(self.labels, s.seed, s.opening, self.plies, time.perf_counter() - self.start)

    def forked(self) -> GameRecord:
        """The forking seat loses; the plies before the fork (some still in the pipe) stand."""
        lost, receiver = forked(self.status, self.labels, WHAT), self.child.conn
        while receiver.poll(0):
            try:
                message = recv_message(receiver)
            except (EOFError, OSError, ValueError):
                break
            if isinstance(message, Ply) and lost.upto is not None and message.record.ply < lost.upto:
                self.take(message)
        return self.lost(lost)

    def watch(self, limits: Deadlines) -> GameRecord:
        """Read the pipe and the status until the game ends or loses by a fault."""
        receiver, proc = self.child.conn, self.child.proc
        while True:
            ready = receiver.poll(max(0.0, min(POLL, limits.next_check(self.status, time.monotonic()))))
            if self.status.forked >= 0:
                return self.forked()
            if not ready:
                late = verdict(self.status, time.monotonic(), limits, self.labels, WHAT)
                if late:
                    self.child.kill()
                    return self.lost(late)
                continue
            try:
                message = recv_message(receiver)
            except (EOFError, OSError, ValueError):  # ValueError: bytes that are no message
                self.child.kill()
                if self.status.forked >= 0:
                    return self.forked()
                return self.lost(died(self.status, proc.exitcode, self.labels, WHAT))
            if isinstance(message, GameEnded):
                return message.record
            self.take(message)


def watch_game(settings: GameSettings, bots: Sequence[Player], *, move_time: float | None = None,
               diagrams: bool = True, on_ply: Callable[[Ply], None] | None = None) -> GameRecord:
    """Play one game in a forked child; ``on_ply`` gets each ``Ply`` as it is played.

    Args:
        settings: the game to play (``settings.labels`` required); ``memory_limit``: MiB the bots
            may add to the child (``RLIMIT_AS``).
        bots: one per 0-based seat.
        move_time: seconds per move kept by the parent (a move not back after
            ``move_time + settings.time_margin`` seconds loses by ``timeout``); ``None``: no deadline.
        diagrams: each ``Ply`` carries ``state.diagram()`` and ``state.to_text()``.

    Raises:
        IllegalMoveError, MoveSyntaxError: as ``play_game``, for a bad opening (checked here,
            before the fork, so bad input is the caller's error, not a fault).
        PositionSyntaxError: ``settings.start`` is not a position of the game.
    """
    game = settings.game
    state = game.parse_state(settings.start) if settings.start is not None else game.initial_state(settings.seed)
    for text in settings.opening:
        state = state.play(game.parse_move(state, text))
    child = Supervised(multiprocessing.get_context("fork"), _child, (settings, list(bots), diagrams), plies=False,
                       duplex=False)
    parent = _Parent(settings, child, on_ply)
    # a subreaper meanwhile: descendants in other sessions (setsid) come back here and are killed
    # when the block ends; the caller's own children are never touched
    with orphans_reaped():
        child.start()
        try:
            return parent.watch(Deadlines(move_time=move_time, time_margin=settings.time_margin))
        finally:
            child.conn.close()
            child.kill()  # the child and every descendant still in its session
