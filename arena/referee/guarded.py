"""``referee_game``: ``play_game`` plus what a process that runs bots must also catch.

A bot may raise ``SystemExit`` (``exit``) or any other ``BaseException`` (``exception``,
``KeyboardInterrupt`` and ``GeneratorExit`` too), exhaust ``--memory-limit`` (``memory``) or fail
outside ``choose`` (``reset``: ``exception``); each loses for the seat last on move (or being
reset), keeping the plies played. This is the one place that decides that blame, for the
tournament worker (``arena.tournament.worker``) and the child of ``arena play``
(``arena.watch``); a runner-side replay check, engine processes and cluster tasks call it the
same way. Hangs and deaths of the process itself are judged by the parent that watches it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from arena.games import Game, State
from arena.referee.play import OnMove, OnPly, exception_text, play_game
from arena.referee.records import GameRecord, MoveRecord, Termination, fault_record, forfeit
from bots.base import Limits, Player


def ply_text(state: State, record: MoveRecord) -> str:
    """The move stored for a ply given to ``on_ply``: the move, or at a simultaneous round
    (``record.status`` set) the round's text."""
    return (state.last_round or "") if record.status is not None else record.move


def _memory_text(memory_limit: int | None) -> str:
    return f"limit {memory_limit} MiB" if memory_limit else "no --memory-limit"


def referee_game(
    game: Game,
    bots: Sequence[Player],
    seed: int,
    *,
    labels: Sequence[str],
    opening: Sequence[str] = (),
    limits: Sequence[Limits | None] | Limits | None = None,
    time_margin: float = 0.5,
    memory_limit: int | None = None,
    on_move: OnMove | None = None,
    on_ply: OnPly | None = None,
    on_reset: Callable[[int], None] | None = None,
    seeds: Sequence[int] | None = None,
    start: str | None = None,
) -> GameRecord:
    """Play one game to a ``GameRecord``, whatever the bots do short of killing the process.

    Args: as ``arena.referee.play_game``; ``memory_limit``: the MiB cap in force (named in a
    ``memory`` fault's detail), ``None`` when none.
    """
    seat = -1
    moves: list[str] = []
    stats: list[MoveRecord] = []

    def moving(s: int, state: State) -> None:
        nonlocal seat
        seat = s
        if on_move:
            on_move(s, state)

    def resetting(s: int) -> None:
        nonlocal seat
        seat = s
        if on_reset:
            on_reset(s)

    def played(state: State, rec: MoveRecord) -> None:
        if on_ply:
            on_ply(state, rec)
        moves.append(ply_text(state, rec))
        if rec.status is None:
            stats.append(rec)

    began = time.perf_counter()

    def lost(reason: Termination, detail: str) -> GameRecord:
        return fault_record(tuple(labels), seed, tuple(opening), seat, reason, detail, moves, stats,
                            time.perf_counter() - began)

    try:
        record = play_game(game, bots, seed, labels=labels, opening=opening, limits=limits,
                           time_margin=time_margin, on_move=moving, on_ply=played, on_reset=resetting,
                           seeds=seeds, start=start)
    except SystemExit as exc:
        return lost(Termination.EXIT, f"bot called sys.exit({exc.code!r})")
    except MemoryError:
        return lost(Termination.MEMORY, f"MemoryError: out of memory ({_memory_text(memory_limit)})")
    except BaseException as exc:  # noqa: BLE001 - KeyboardInterrupt, GeneratorExit...: a bot's, as any exception
        return lost(Termination.EXCEPTION, exception_text(exc))
    detail = record.fault_detail or ""
    if record.outcome.termination == Termination.EXCEPTION and detail.startswith("MemoryError"):
        said = detail.split(":", 1)[1].strip() if ":" in detail else ""
        record = replace(record, outcome=forfeit(game.num_players, record.fault_seat, Termination.MEMORY),
                         fault_detail=f"MemoryError ({_memory_text(memory_limit)}){': ' + said if said else ''}")
    return record
