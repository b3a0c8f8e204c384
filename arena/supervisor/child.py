"""The child side of a watched game: ``Watched`` plays it with ``arena.referee.referee_game``
and keeps the shared ``Status`` current from the match loop's hooks.

Each hook first checks for a fork (``check``): in a copy of the process that a bot forked
(``os.fork`` without ``exec``), it marks the game (``Status.forked``: the id of the game being
played, ``fork_seat``, ``fork_ply``) and exits at once, before the copy can send anything or
touch the store; in the process itself, when a child that is a copy of it appeared
(``os_guard.forked_copies``; looked for only when the process has children at all), or a copy
that already ended left its mark (an exited copy shows no command line), it marks the game the
same way (or keeps the copy's mark) and waits to be killed: it never plays on past the fork.
The parent kills the process and its descendants; the plies before the fork stand and the
forking seat loses (``crash``).
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable, Sequence

from arena.games import SIMULTANEOUS, State
from arena.os_guard import PIPE_CLOSED, children, forked_copies, has_children
from arena.referee import GameHooks, GameRecord, GameSettings, MoveRecord, Ply, ply_entry, ply_text, referee_game
from arena.supervisor.status import PlyLog, Status
from bots.base import Player

#: seconds between two looks of a forked-into process at being killed
_WAIT = 0.05


def _keeps_time(bots: Sequence[Player]) -> list[bool]:
    """Per seat: a bot that keeps its own deadline (its late answer is voided, the game goes
    on): its ``keeps_own_deadline`` capability (``bots.base.Player``), true and nothing else."""
    return [getattr(bot, "keeps_own_deadline", False) is True for bot in bots]


class Watched:
    """One process playing watched games, one at a time (made in that process).

    Args:
        status: the ``Status`` shared with the parent.
        plies: the shared ply buffer each ``Ply`` is written to (cleared at each game's start).
        send: receives each ``Ply`` as it is played (``arena play`` 's pipe).
        pipe_fd: the parent's pipe, checked after each ply: a bot that closed it ends the
            process at once (``os_guard.PIPE_CLOSED``) while ``status.seat`` still names it.
        diagrams: each ``Ply`` carries ``state.diagram()`` and ``state.to_text()``.
    """

    def __init__(self, status: Status, plies: PlyLog | None = None, send: Callable[[Ply], None] | None = None,
                 pipe_fd: int | None = None, diagrams: bool = False) -> None:
        self.status, self.plies, self.send, self.pipe_fd, self.diagrams = status, plies, send, pipe_fd, diagrams
        self.home = os.getpid()
        #: the game ``play`` is playing: a copy marks this one, not ``status.game``, which the
        #: process may have moved on before the copy ran
        self.game = -1
        self.seat, self.ply = -1, 0  # seat last asked, plies played: a copy keeps the fork's
        self.known: set[int] | None = None  # children before the game (an engine's process...)

    def _mark_fork(self) -> None:
        self.status.fork_seat, self.status.fork_ply = self.seat, self.ply
        self.status.forked = self.game if self.game >= 0 else self.status.game

    def check(self) -> None:
        """Fork safety (see the module docstring): called in every hook and before every send.
        A copy of this game found (running), or marked by a copy already ended, stops the
        process (the game is the forking seat's loss; the parent kills the process).

        The process's children not seen before are added to ``known`` (an engine a bot started)."""
        if os.getpid() != self.home:
            try:
                self._mark_fork()
            finally:
                os._exit(0)
        if self.known is None:
            return
        # a copy that already ended shows no command line (``forked_copies`` cannot tell it),
        # but it marked its game before it exited: that mark stops this process as well
        marked = self.status.forked == self.game >= 0
        if marked or (has_children() and forked_copies(self.known)):
            if not marked:
                self._mark_fork()
            while True:  # the parent sees the mark and kills this process group
                time.sleep(_WAIT)

    def after_game(self) -> None:
        """Between games: a fork from now on is nobody's (seat and ply -1); checked at once."""
        self.seat, self.ply, self.known = -1, -1, None
        self.check()

    def _check_pipe(self) -> None:
        if self.pipe_fd is not None:
            try:
                fcntl.fcntl(self.pipe_fd, fcntl.F_GETFD)
            except OSError:
                os._exit(PIPE_CLOSED)

    def begin(self, game_id: int, opening_plies: int, guarded: bool = True) -> None:
        """Say that game ``game_id`` starts (``game_started`` before ``game``: see ``Status``).
        ``guarded`` (default): the children the process has now are noted for ``check``; a
        game whose bots run only the arena's code (``play``'s ``guarded`` off) is not looked at."""
        self.game, self.seat, self.ply = game_id, -1, opening_plies
        self.known = (children() if has_children() else set()) if guarded else None
        st = self.status
        st.seat, st.ply, st.move_started, st.move_allowed = -1, opening_plies, 0.0, 0.0
        if self.plies is not None:
            self.plies.clear()
        st.game_started = time.monotonic()
        st.game = game_id

    def ended(self) -> None:
        """The game ended (its record sent, or held to send in a group): no game is playing."""
        self.status.game = -1

    def hooks(self, bots: Sequence[Player], guarded: bool = True, timed: bool = True) -> GameHooks:
        """The match loop's hooks that keep ``status`` current and stream the plies; ``guarded``
        (default): each also checks for a fork (``check``) and the pipe (leave it off only for
        bots that run none of their author's code here: ``arena.tournament.worker.trusted``);
        ``timed`` (default): each move's start is written for the parent's move deadline
        (``Status.move_started``; leave it off only when the parent times no move and no seat
        has a game clock: no ``--move-time``, no ``--tc``: the seat on move is still written)."""
        own_deadline, st = _keeps_time(bots), self.status

        def on_move(seat: int, state: State, allowed: float | None) -> None:
            if guarded:
                self.check()
            self.seat = st.seat = seat
            st.move_allowed = 0.0 if allowed is None else max(allowed, 1e-6)  # > 0: timed by its clock
            # each move is timed, each seat's answer at a simultaneous round too, but an
            # engine's round (its client kills a late engine: ``late``, the game goes on)
            st.move_started = 0.0 if state.to_move == SIMULTANEOUS and own_deadline[seat] else time.monotonic()

        def on_reset(seat: int) -> None:
            if guarded:
                self.check()
            self.seat = st.seat = seat
            st.move_allowed = 0.0
            st.move_started = time.monotonic()  # reset counts against the first move: timed

        def on_ply(state: State, rec: MoveRecord) -> None:
            if guarded:
                self.check()
                self._check_pipe()  # before the seat on move changes: a bot closing fds is blamed
            self.ply += 1
            st.move_started = 0.0
            st.ply += 1
            if self.plies is None and self.send is None:
                return
            ply = Ply(ply_text(state, rec), rec, state.diagram() if self.diagrams else "",
                      state.to_text() if self.diagrams else "")
            if self.plies is not None:
                self.plies.add(ply)
            if self.send is not None:
                self.send(ply)

        plies = self.plies
        if plies is not None and self.send is None and not self.diagrams:
            write = plies.write

            def on_ply_logged(state: State, rec: MoveRecord) -> None:
                """``on_ply`` for a ply buffer alone: the same entry, no ``Ply`` made."""
                if guarded:
                    self.check()
                    self._check_pipe()
                self.ply += 1
                st.move_started = 0.0
                st.ply += 1
                write(ply_entry(rec.move if rec.status is None else ply_text(state, rec), rec))

            if guarded or timed:
                return GameHooks(on_move, on_ply_logged, on_reset)

            # unguarded and untimed (bots of the arena's own code, no clock): the seat on move,
            # the plies and the ply buffer only; ``self.seat`` and ``self.ply`` are a fork mark's,
            # and no fork is looked for here. Each ``ctypes`` field written costs about as much as
            # a Python call, so each is written once a ply, the buffer's end with the entry.
            buffer, size, ply = plies.buffer, plies.size, st.ply  # ``begin`` wrote the opening's plies

            def on_move_untimed(seat: int, state: State, allowed: float | None) -> None:
                """``on_move`` when no move is timed: the seat on move only."""
                st.seat = seat

            def on_ply_untimed(state: State, rec: MoveRecord) -> None:
                """``on_ply_logged`` when no move is timed (``move_started`` stays 0): ``PlyLog.write``
                written out."""
                nonlocal ply
                ply += 1
                st.ply = ply
                entry = ply_entry(rec.move if rec.status is None else ply_text(state, rec), rec)
                start = plies.end
                end = start + len(entry)
                if end <= size:  # else full: the parent keeps the plies that fit
                    buffer[start:end] = entry
                    plies.end = st.plies_end = end

            def on_reset_untimed(seat: int) -> None:
                """``on_reset`` when no move is timed: the seat being reset only."""
                st.seat = seat

            return GameHooks(on_move_untimed, on_ply_untimed, on_reset_untimed)
        return GameHooks(on_move, on_ply, on_reset)

    def play(self, settings: GameSettings, bots: Sequence[Player], guarded: bool = True,
             timed: bool = True) -> GameRecord:
        """Play the game ``begin`` announced under watch (``referee_game``), ``status`` current
        throughout; the bots are made between the two (a hang or a death there is the game's).
        ``guarded``, ``timed``: as ``hooks`` (``timed`` is kept whenever ``settings`` has a game
        clock)."""
        record = referee_game(settings, bots, self.hooks(bots, guarded, timed or settings.clocks is not None))
        if guarded:
            self.check()
        return record
