"""Asking a bot and judging its answer: ``ask`` (one ``choose`` call under the limits, its
fault), ``settle`` (a sequential answer read and played on the referee's state), ``Progress``
(what a game has played so far), the fault texts (``exception_text``, ``last_frame``).
Used by the match loop (``arena.referee.play``) and the rounds (``arena.referee.rounds``).
"""

from __future__ import annotations

import logging
import time
import traceback
from typing import Any

from arena.errors import IllegalMoveError, MoveSyntaxError, ProviderFailure
from arena.games import Game, State, View
from arena.referee.plain import plain_text
from arena.referee.records import BotFault, MoveRecord, Termination
from bots.base import Limits, Player

log = logging.getLogger("arena.referee")


def exception_text(exc: BaseException) -> str:
    """A bot's exception as stored in ``fault_detail``: a first line ``Type: message``, then the
    full traceback (the bot's file and line are its last frame; ``last_frame`` reads it)."""
    return f"{type(exc).__name__}: {exc}\n" + "".join(traceback.format_exception(exc)).rstrip()


def last_frame(detail: str | None) -> str | None:
    """The last ``File "...", line N, in f`` line of a traceback in ``detail``, or ``None``."""
    frames = [line.strip() for line in (detail or "").splitlines() if line.strip().startswith("File ")]
    return frames[-1] if frames else None


def ask(bot: Player, state: State | View, limits: Limits | None, margin: float,
        owed: float = 0.0, clock: tuple[float, str] | None = None) -> tuple[Any, float, str | None, str | None]:
    """(answer, seconds, fault, detail) of one ``choose`` call, the bot handed ``state`` (its
    private copy of the state, or in a game with hidden information its seat's view); an answer later than
    ``limits.time + margin`` seconds is a ``timeout``, and so is one that takes more than the
    seconds left on the seat's game clock plus the margin (``clock``: those seconds and the
    time control's text). ``owed``: seconds the bot already spent in ``reset``, counted against
    this move. ``KeyboardInterrupt`` raised by a bot is an ``exception`` like any other (a worker
    ignores SIGINT, so it never comes from the user), and so is any other ``BaseException``
    (``GeneratorExit``...) but ``SystemExit``, which ``arena.referee.guarded`` turns into ``exit``.
    ``arena.errors.ProviderFailure`` (the bot's remote provider failed) is ``void``: nobody's fault."""
    t0 = time.perf_counter() - owed
    try:
        answer = bot.choose(state, limits)  # type: ignore[arg-type]  # a View: bots.base.Plays.hidden_information
    except BotFault as exc:  # an engine process that timed out or died names its own fault
        return None, time.perf_counter() - t0, Termination(exc.reason), exc.detail
    except ProviderFailure as exc:  # the provider failed, not the bot: the game is void
        return None, time.perf_counter() - t0, Termination.VOID, f"provider failure: {exc}"
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - a bot's bug is a fault of that bot, never of the arena
        return None, time.perf_counter() - t0, Termination.EXCEPTION, exception_text(exc)
    secs = time.perf_counter() - t0
    t = None if limits is None else limits.time
    if t is not None and secs > t + margin:
        return answer, secs, Termination.TIMEOUT, f"{secs:.3f}s for a {t:g}s move"
    if clock is not None and secs > clock[0] + margin:
        return answer, secs, Termination.TIMEOUT, (f"{secs:.3f}s with {clock[0]:.3f}s left on the clock "
                                                   f"(tc {clock[1]}, margin {margin:g}s)")
    return answer, secs, None, None


def reads_as(game: Game, state: State, text: str) -> Any:
    """The move that ``text`` reads as in the game's notation, or ``None``."""
    try:
        return game.parse_move(state, text)
    except Exception:
        return None


def judge(game: Game, state: State, move: Any, text: str) -> tuple[State | None, str | None, str | None]:
    """(state after, fault, detail) of playing ``move`` (a bot's answer, or the game's reading
    of it), whose text is ``text``: the game's ``IllegalMoveError`` is the bot's fault
    (``illegal_move``, or ``bad_move`` when the answer is no move at all); any other exception
    for a proper move is the game's (``game_error``)."""
    try:
        return state.play(move), None, None
    except Exception as exc:
        read = reads_as(game, state, text)
        detail = f"{type(move).__name__} {text[:60]!r}: {type(exc).__name__}: {exc}"
        if isinstance(exc, (IllegalMoveError, MoveSyntaxError)):  # an object not of the move type is no move
            a_move = read is not None and (isinstance(move, str) or type(move) is type(read))
            return None, Termination.ILLEGAL_MOVE if a_move else Termination.BAD_MOVE, detail
        if read is None or read != move:
            return None, Termination.BAD_MOVE, detail
        log.error("game %s raised playing %r in %s", game.name, text, state.to_text(), exc_info=True)
        return None, Termination.GAME_ERROR, detail


def settle(game: Game, state: State, answer: Any) -> tuple[State | None, str, str | None, str | None]:
    """(state after, the move's text, fault, detail) of a bot's ``answer`` at a sequential
    node, read once at this boundary: a ``str`` (subclass too) is its characters as an exact
    ``str``; a move object is its text (``str``, read once) and must be the move that text
    reads as, of the same type (else ``bad_move``). What is played is the text, or the game's
    own reading of it, and the text is what is stored: the runner's replay of it is this play."""
    try:
        text = plain_text(answer)
    except Exception as exc:  # noqa: BLE001 - a ``__str__`` that raises: no move
        return None, "", Termination.BAD_MOVE, f"{type(answer).__name__}: str() raised {type(exc).__name__}: {exc}"
    if isinstance(answer, str):
        after, fault, detail = judge(game, state, text, text)
        return after, text, fault, detail
    read = reads_as(game, state, text)
    if read is None or type(read) is not type(answer) or read != answer:
        after, fault, detail = judge(game, state, answer, text)
        if fault is None:  # the object plays, but its text is another move (or none)
            fault, detail = Termination.BAD_MOVE, f"{type(answer).__name__} {text[:60]!r} does not read as itself"
        return None, text, fault, detail
    after, fault, detail = judge(game, state, read, text)
    return after, text, fault, detail


class Progress:
    """What a game has played so far, kept current by ``play_game`` for a caller that must
    make a record of it when the game is stopped by an exception (``referee_game``).

    Attributes:
        moves: every ply in notation, the opening's included once it is played.
        stats: the ``MoveRecord`` of each ply (each seat's at a simultaneous round).
        seat: the 0-based seat last asked to move or being reset (-1 before the first).
    """

    __slots__ = ("moves", "stats", "seat")

    def __init__(self) -> None:
        self.moves: list[str] = []
        self.stats: list[MoveRecord] = []
        self.seat = -1
