"""Play one game in a watched child process (``arena play``; ``spec/arena.md`` "Contracts / Faults").

``watch_game`` forks a child that runs ``arena.match.play_game`` and sends each ply (the
``MoveRecord``, the diagram after it) and the final ``GameRecord`` through a pipe. The parent
keeps the per-move deadline: the child says when a bot starts thinking (``on_move``), and a
move that has not come back ``move_time + time_margin`` seconds later loses (``timeout``;
the child is killed). A child that dies (a bot killed its process) loses for the seat on move
(``crash``); ``sys.exit`` in a bot is ``exit``, ``MemoryError`` under ``memory_limit`` is
``memory``, an exception outside ``choose`` (``reset``) is ``exception``. In the child, fds 1
and 2 go to ``/dev/null``: a bot's prints never garble the caller's output.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from arena.games import Game, Outcome
from arena.match import GameRecord, MoveRecord, forfeit, play_game


@dataclass(frozen=True)
class Ply:
    """One ply as the child played it: its record, the diagram after it (``""`` when not
    asked for) and, at a simultaneous round, the round's text (``state.last_round``)."""

    record: MoveRecord
    diagram: str
    last_round: str | None


def _signal_text(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with code {code}"


def limit_memory(mib: int) -> None:
    """Cap this process's address space at its current size plus ``mib`` MiB (RLIMIT_AS), so
    a bot allocating without end gets ``MemoryError``. Linux (reads ``/proc/self/statm``)."""
    import resource
    with open("/proc/self/statm") as f:
        base = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = base + mib * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))


def die_with_parent() -> None:
    """Linux: SIGKILL this process when its parent dies (a killed run leaves no orphan)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _isolate(memory_limit: int | None) -> None:
    """Child side: output to /dev/null, no SIGINT (the parent stops it), die with the parent,
    cap the address space the bots may add (``memory_limit`` MiB)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    sys.stdout = sys.stderr = open(os.devnull, "w")
    die_with_parent()
    if memory_limit:
        limit_memory(memory_limit)


def _child(conn: Any, game: Game, bots: list, seed: int, options: dict, memory_limit: int | None,
           diagrams: bool) -> None:
    code = 0
    try:
        _isolate(memory_limit)
        for bot in bots:  # a fault in reset is blamed on its seat
            reset = getattr(bot, "reset", None)
            if reset is not None:
                def marked(g, seat, s, reset=reset):
                    conn.send(("move", seat, None))
                    return reset(g, seat, s)
                try:
                    bot.reset = marked
                except AttributeError:
                    pass
        record = play_game(
            game, bots, seed, **options,
            on_move=lambda seat, state: conn.send(("move", seat, time.monotonic())),
            on_ply=lambda state, rec: conn.send(
                ("ply", Ply(rec, state.diagram() if diagrams else "", getattr(state, "last_round", None)))),
        )
        if record.outcome.termination == "exception" and (record.fault_detail or "").startswith("MemoryError"):
            record = replace(record, outcome=forfeit(game.num_players, record.fault_seat, "memory"),
                             fault_detail=f"MemoryError: out of memory (--memory-limit {memory_limit} MiB)")
        conn.send(("done", record))
    except SystemExit as exc:
        conn.send(("fault", "exit", f"bot called sys.exit({exc.code!r})"))
    except MemoryError:
        conn.send(("fault", "memory", "MemoryError: out of memory (--memory-limit)"))
    except BaseException as exc:  # noqa: BLE001 - a bot's failure is reported, never raised here
        try:
            conn.send(("fault", "exception", f"{type(exc).__name__}: {exc}"))
        except BaseException:
            code = 1
    finally:
        os._exit(code)


def watch_game(
    game: Game,
    bots: Sequence[Any],
    seed: int,
    *,
    labels: Sequence[str],
    opening: Sequence[str] = (),
    limits: Sequence[Any] | Any = None,
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
        diagrams: send ``state.diagram()`` after each ply.
        Other arguments: as ``arena.match.play_game``.

    Raises:
        IllegalMoveError, MoveSyntaxError: as ``play_game``, for a bad opening (checked here,
            before the fork, so bad input is the caller's error, not a fault).
    """
    state = game.initial_state(seed)
    for text in opening:
        state = state.play(game.parse_move(state, text))
    ctx = multiprocessing.get_context("fork")
    receiver, sender = ctx.Pipe(duplex=False)
    options = dict(labels=labels, opening=opening, limits=limits, time_margin=time_margin)
    proc = ctx.Process(target=_child, args=(sender, game, list(bots), seed, options, memory_limit, diagrams),
                       daemon=True)
    start = time.perf_counter()
    proc.start()
    sender.close()
    n, seat, deadline = game.num_players, -1, None
    moves = list(opening)
    stats = [MoveRecord(i, -1, m) for i, m in enumerate(opening)]

    def lost(reason: str, detail: str) -> GameRecord:
        outcome = forfeit(n, seat, reason) if seat >= 0 else Outcome((0.0,) * n, (1,) * n, reason)
        return GameRecord(tuple(labels), seed, len(opening), tuple(moves), tuple(stats), outcome,
                          time.perf_counter() - start, seat if seat >= 0 else None, detail)

    try:
        while True:
            if not receiver.poll(None if deadline is None else max(0.0, deadline - time.monotonic())):
                proc.kill()
                return lost("timeout", f"no move after {move_time + time_margin:g}s "
                                       f"(--move-time {move_time:g} + --time-margin {time_margin:g}); bot process killed")
            try:
                msg = receiver.recv()
            except (EOFError, OSError):
                proc.join(5)
                return lost("crash", f"bot process {_signal_text(proc.exitcode)}")
            if msg[0] == "move":
                seat = msg[1]
                deadline = msg[2] + move_time + time_margin if move_time is not None and msg[2] else None
            elif msg[0] == "ply":
                deadline, ply = None, msg[1]
                moves.append((ply.last_round or "") if ply.record.status is not None else ply.record.move)
                if ply.record.status is None:
                    stats.append(ply.record)
                if on_ply:
                    on_ply(ply)
            elif msg[0] == "done":
                return msg[1]
            else:
                return lost(msg[1], msg[2])
    finally:
        receiver.close()
        if proc.is_alive():
            proc.kill()
        proc.join()
