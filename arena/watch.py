"""Play one game in a watched child process (``arena play``; ``docs/arena.md`` "Contracts / Faults").

``watch_game`` forks a child that runs ``arena.referee.referee_game`` (the same referee as a
tournament worker: ``exit``, ``memory``, ``exception`` in ``reset`` are decided there) and
sends each ply (the ``MoveRecord``, the diagram after it) and the final ``GameRecord`` through
a pipe. The parent keeps the per-move deadline: the child says when a bot starts thinking
(``on_move``), and a move that has not come back ``move_time + time_margin`` seconds later
loses (``timeout``; the child is killed). A child that dies (a bot killed its process) loses
for the seat on move (``crash``). The child is guarded by ``arena.os_guard`` (fds 1 and 2 to
``/dev/null``: a bot's prints never garble the caller's output).

As in a tournament worker (``arena.tournament.worker.check_pid``, ``docs/arena.md``
"Contracts / Faults"): a bot that forks the child (``os.fork`` without ``exec``) loses by
``crash`` at the ply it was choosing, the plies before stand; the child runs in a session of
its own and the caller is a child subreaper while the game runs, so when it ends the child's
process group is killed and every descendant left (``setsid`` ones included) is killed and
reaped (``os_guard.kill_group``, ``os_guard.orphans_reaped``).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.games import Game
from arena.os_guard import (children, death_text, forked_copies, guard_child, has_children, kill_group, new_session,
                            orphans_reaped)
from arena.referee import GameRecord, MoveRecord, Termination, fault_record, referee_game
from bots.base import Limits, Player

#: seconds between two looks at the fork mark while the parent waits for the child
FORK_POLL = 0.1


@dataclass(frozen=True)
class Ply:
    """One ply as the child played it: its record, the diagram after it (``""`` when not
    asked for), at a simultaneous round the round's text (``state.last_round``), and the
    position after it in the game's notation (``state.to_text()``; ``""`` with the diagram)."""

    record: MoveRecord
    diagram: str
    last_round: str | None
    text: str = ""


#: indices of the fork mark shared with the child: set (1.0), the forking seat, its ply
_MARK, _MARK_SEAT, _MARK_PLY = range(3)


def _check_fork(mark: Any, home: int, here: list[int], known: set[int]) -> None:
    """Fork safety of the child (as ``arena.tournament.worker.check_pid``): in a copy of the
    child that a bot forked, mark the fork and exit before the copy sends anything; in the child
    itself, when a new child of it is a copy (``os_guard.forked_copies``), mark the fork and wait
    for the parent to kill it. ``here``: [seat last asked, plies played]."""
    if os.getpid() != home:
        try:
            mark[_MARK_SEAT], mark[_MARK_PLY], mark[_MARK] = here[0], here[1], 1.0
        finally:
            os._exit(0)
    if has_children() and forked_copies(known):
        mark[_MARK_SEAT], mark[_MARK_PLY], mark[_MARK] = here[0], here[1], 1.0
        while True:  # the parent sees the mark and kills this process group
            time.sleep(0.05)


def _child(conn: Any, mark: Any, game: Game, bots: list[Player], seed: int, options: dict,
           memory_limit: int | None, diagrams: bool) -> None:
    code = 0
    try:
        new_session()  # the parent kills the child's whole process group (os_guard.kill_group)
        guard_child(memory_limit)
        home, here = os.getpid(), [-1, len(options["opening"])]
        known: set[int] = children() if has_children() else set()

        def moving(seat: int, when: float | None) -> None:
            _check_fork(mark, home, here, known)
            here[0] = seat
            conn.send(("move", seat, when))

        def played(state: Any, rec: MoveRecord) -> None:
            _check_fork(mark, home, here, known)
            here[1] += 1
            conn.send(("ply", Ply(rec, state.diagram() if diagrams else "", state.last_round,
                                  state.to_text() if diagrams else "")))

        record = referee_game(
            game, bots, seed, **options, memory_limit=memory_limit,
            on_reset=lambda seat: moving(seat, None),
            on_move=lambda seat, state: moving(seat, time.monotonic()),
            on_ply=played,
        )
        _check_fork(mark, home, here, known)
        conn.send(("done", record))
    except BaseException:  # noqa: BLE001 - the pipe is gone or the record cannot be sent: the parent sees EOF
        code = 1
    finally:
        os._exit(code)


def watch_game(
    game: Game,
    bots: Sequence[Player],
    seed: int,
    *,
    labels: Sequence[str],
    opening: Sequence[str] = (),
    limits: Sequence[Limits | None] | Limits | None = None,
    move_time: float | None = None,
    time_margin: float = 0.5,
    memory_limit: int | None = None,
    diagrams: bool = True,
    on_ply: Callable[[Ply], None] | None = None,
) -> GameRecord:
    """Play one game in a forked child; ``on_ply`` gets each ``Ply`` as it is played.

    Args:
        move_time: seconds per move kept by the parent (a move not back after
            ``move_time + time_margin`` seconds loses by ``timeout``); ``None``: no deadline.
        time_margin: seconds of grace over ``move_time``.
        memory_limit: MiB the bots may add to the child (``RLIMIT_AS``); ``None``: no cap.
        diagrams: send ``state.diagram()`` and ``state.to_text()`` after each ply.
        Other arguments: as ``arena.referee.play_game``.

    Raises:
        IllegalMoveError, MoveSyntaxError: as ``play_game``, for a bad opening (checked here,
            before the fork, so bad input is the caller's error, not a fault).
    """
    state = game.initial_state(seed)
    for text in opening:
        state = state.play(game.parse_move(state, text))
    ctx = multiprocessing.get_context("fork")
    receiver, sender = ctx.Pipe(duplex=False)
    mark = ctx.RawArray("d", 3)
    options = dict(labels=labels, opening=opening, limits=limits, time_margin=time_margin)
    proc = ctx.Process(target=_child, args=(sender, mark, game, list(bots), seed, options, memory_limit, diagrams),
                       daemon=True)
    # a subreaper meanwhile: descendants in other sessions (setsid) come back here and are killed
    # when the block ends; the caller's own children are never touched
    with orphans_reaped():
        start = time.perf_counter()
        proc.start()
        sender.close()
        seat, deadline = -1, None
        moves: list[str] = []
        stats: list[MoveRecord] = []

        def lost(reason: Termination, detail: str) -> GameRecord:
            return fault_record(tuple(labels), seed, tuple(opening), seat, reason, detail, moves, stats,
                                time.perf_counter() - start)

        def take(msg: tuple) -> None:
            """A ply the child played: kept, and shown."""
            ply = msg[1]
            moves.append((ply.last_round or "") if ply.record.status is not None else ply.record.move)
            if ply.record.status is None:
                stats.append(ply.record)
            if on_ply:
                on_ply(ply)

        def forked() -> GameRecord:
            nonlocal seat
            seat, ply = int(mark[_MARK_SEAT]), int(mark[_MARK_PLY])
            while receiver.poll(0):  # plies played before the fork may still be in the pipe
                try:
                    msg = receiver.recv()
                except (EOFError, OSError):
                    break
                if msg[0] == "ply" and msg[1].record.ply < ply:
                    take(msg)
            del moves[max(0, ply - len(opening)):]  # the plies before the fork stand
            stats[:] = [m for m in stats if m.ply < ply]
            return lost(Termination.CRASH, f"seat {seat} ({labels[seat] if 0 <= seat < len(labels) else '?'}) forked "
                                           f"the bot process (os.fork) at ply {ply}; it and its descendants killed")

        try:
            while True:
                ready = receiver.poll(FORK_POLL if deadline is None else
                                      min(FORK_POLL, max(0.0, deadline - time.monotonic())))
                if mark[_MARK]:
                    return forked()
                if not ready:
                    if deadline is None or time.monotonic() < deadline:
                        continue
                    proc.kill()
                    return lost(Termination.TIMEOUT, f"no move after {move_time + time_margin:g}s "
                                           f"(--move-time {move_time:g} + --time-margin {time_margin:g}); bot process killed")
                try:
                    msg = receiver.recv()
                except (EOFError, OSError):
                    proc.join(5)
                    if mark[_MARK]:
                        return forked()
                    return lost(Termination.CRASH, f"bot process {death_text(proc.exitcode)}")
                if msg[0] == "move":
                    seat = msg[1]
                    deadline = msg[2] + move_time + time_margin if move_time is not None and msg[2] else None
                elif msg[0] == "ply":
                    deadline = None
                    take(msg)
                else:  # "done"
                    return msg[1]
        finally:
            receiver.close()
            kill_group(proc.pid)  # the child and every descendant still in its session
            if proc.is_alive():
                proc.kill()
            proc.join()
