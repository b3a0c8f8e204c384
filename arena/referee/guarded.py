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
from collections.abc import Sequence
from dataclasses import replace

from arena.games import State
from arena.referee.play import Progress, exception_text, play_game
from arena.referee.records import GameRecord, MoveRecord, Termination, fault_record, forfeit
from arena.referee.settings import NO_HOOKS, GameHooks, GameSettings
from bots.base import Player


def ply_text(state: State, record: MoveRecord) -> str:
    """The move stored for a ply given to ``on_ply``: the move, or at a simultaneous round
    (``record.status`` set) the round's text."""
    return (state.last_round or "") if record.status is not None else record.move


def _memory_text(memory_limit: int | None) -> str:
    return f"limit {memory_limit} MiB" if memory_limit else "no --memory-limit"


def referee_game(settings: GameSettings, bots: Sequence[Player], hooks: GameHooks = NO_HOOKS) -> GameRecord:
    """Play one game to a ``GameRecord``, whatever the bots do short of killing the process.

    Args: as ``arena.referee.play_game``; ``settings.memory_limit`` is named in a ``memory``
    fault's detail.
    """
    progress = Progress()  # the plies played and the seat on move, as ``play_game`` goes (no hooks of ours)
    began, memory_limit = time.perf_counter(), settings.memory_limit

    def lost(reason: Termination, detail: str) -> GameRecord:
        after = len(settings.opening)  # ``progress`` holds the opening once it is played
        moves, stats = progress.moves[after:], [m for m in progress.stats[after:] if m.status is None]
        return fault_record(settings.labels or (), settings.seed, settings.opening, progress.seat, reason, detail,
                            moves, stats, time.perf_counter() - began)

    try:
        record = play_game(settings, bots, hooks, progress)
    except SystemExit as exc:
        return lost(Termination.EXIT, f"bot called sys.exit({exc.code!r})")
    except MemoryError:
        return lost(Termination.MEMORY, f"MemoryError: out of memory ({_memory_text(memory_limit)})")
    except BaseException as exc:  # noqa: BLE001 - KeyboardInterrupt, GeneratorExit...: a bot's, as any exception
        return lost(Termination.EXCEPTION, exception_text(exc))
    detail = record.fault_detail or ""
    if record.outcome.termination == Termination.EXCEPTION and detail.startswith("MemoryError"):
        first, _, trace = detail.partition("\n")  # ``Type: message``, then the traceback (exception_text)
        said = first.split(":", 1)[1].strip() if ":" in first else ""
        text = f"MemoryError ({_memory_text(memory_limit)}){': ' + said if said else ''}"
        record = replace(record, outcome=forfeit(settings.game.num_players, record.fault_seat, Termination.MEMORY),
                         fault_detail=text + ("\n" + trace if trace else ""))
    return record
