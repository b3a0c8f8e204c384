"""Play one game: a game, one bot per seat, limits -> ``GameRecord``.

``play_game`` is the match loop (OpenSpiel's ``evaluate_bots`` is the model); ``referee_game``
wraps it with what a process that runs bots must also catch (``sys.exit``, ``MemoryError``,
an exception in ``reset``) and is what the tournament worker and ``arena play`` call.

At a chance node (``State.to_move == CHANCE``, OpenSpiel's dice) no bot is asked: the
outcome is drawn from the game's seed (``arena.referee.seeds.ChanceDraws``) and recorded as a
ply of seat ``CHANCE``; the bots are asked at the nodes after it.

Faults (``docs/arena.md`` "Contracts / Faults"): a bot whose ``choose`` raises
(``exception``), returns an illegal move (``illegal_move``), returns something that is not a
move (``bad_move``) or overruns ``limits.time + time_margin`` (``timeout``) loses the game: it
ranks last, the others share first place. At a simultaneous node (Ricochet) such an answer is
void for that round only. ``--adjudicate`` rules may end a game early after any ply
(``arena.referee.adjudicate``: ``adjudicated``, ``adjudicated_draw``). Hangs and crashes of the
whole process are the caller's business (``arena.tournament.pool``, ``arena.watch``).

A game's own exception while playing a proper move (anything but ``IllegalMoveError`` /
``MoveSyntaxError`` for the bot's move) is a bug in the game, not in a bot: the game ends with
``game_error``, nobody is blamed (every seat ranks first), and the traceback is logged on the
``arena.referee`` logger (the tournament's log file).
"""

from __future__ import annotations

import logging
import random
import time
import traceback
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from arena.errors import IllegalMoveError, MoveSyntaxError
from arena.games import CHANCE, SIMULTANEOUS, Answer, AnswerStatus, Game, Outcome, State, draw_chance
from arena.referee.adjudicate import Adjudicator
from arena.referee.clock import GameClocks
from arena.referee.private import Private, shares_state
from arena.referee.plain import plain_text
from arena.referee.records import BotFault, GameRecord, MoveRecord, Termination, forfeit
from arena.referee.reported import reported
from arena.referee.seeds import ChanceDraws, bot_seeds, derive_seed
from arena.referee.settings import NO_HOOKS, GameHooks, GameSettings, OnMove
from bots.base import Limits, Player, Resettable

log = logging.getLogger("arena.referee")


def random_opening(game: Game, seed: int, plies: int, start: str | None = None) -> list[str]:
    """``plies`` seeded uniformly random moves from the start (fewer if the game would end).

    The start is ``game.initial_state(seed)``, or the position text ``start``. Sequential
    nodes are played, and chance nodes (an outcome drawn by its probability with the same
    generator, ``arena.games.draw_chance``); an opening stops before a simultaneous node.

    Raises:
        PositionSyntaxError: ``start`` is not a position of the game.
    """
    rng = random.Random(derive_seed(seed, "opening"))
    state = game.parse_state(start) if start is not None else game.initial_state(seed)
    out: list[str] = []
    for _ in range(plies):
        if state.to_move == CHANCE:
            move = draw_chance(state.chance_outcomes(), rng.random())
        elif state.to_move < 0:
            break
        else:
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
        after = state.play(move)
        if after.is_terminal():
            break
        out.append(str(move))
        state = after
    return out


def exception_text(exc: BaseException) -> str:
    """A bot's exception as stored in ``fault_detail``: a first line ``Type: message``, then the
    full traceback (the bot's file and line are its last frame; ``last_frame`` reads it)."""
    return f"{type(exc).__name__}: {exc}\n" + "".join(traceback.format_exception(exc)).rstrip()


def last_frame(detail: str | None) -> str | None:
    """The last ``File "...", line N, in f`` line of a traceback in ``detail``, or ``None``."""
    frames = [line.strip() for line in (detail or "").splitlines() if line.strip().startswith("File ")]
    return frames[-1] if frames else None


def _ask(bot: Player, state: State, limits: Limits | None, margin: float,
         owed: float = 0.0, clock: tuple[float, str] | None = None) -> tuple[Any, float, str | None, str | None]:
    """(answer, seconds, fault, detail) of one ``choose`` call; an answer later than
    ``limits.time + margin`` seconds is a ``timeout``, and so is one that takes more than the
    seconds left on the seat's game clock plus the margin (``clock``: those seconds and the
    time control's text). ``owed``: seconds the bot already spent in ``reset``, counted against
    this move. ``KeyboardInterrupt`` raised by a bot is an ``exception`` like any other (a worker
    ignores SIGINT, so it never comes from the user), and so is any other ``BaseException``
    (``GeneratorExit``...) but ``SystemExit``, which ``arena.referee.guarded`` turns into ``exit``."""
    t0 = time.perf_counter() - owed
    try:
        answer = bot.choose(state, limits)
    except BotFault as exc:  # an engine process that timed out or died names its own fault
        return None, time.perf_counter() - t0, Termination(exc.reason), exc.detail
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


def _reads_as(game: Game, state: State, text: str) -> Any:
    """The move that ``text`` reads as in the game's notation, or ``None``."""
    try:
        return game.parse_move(state, text)
    except Exception:
        return None


def _judge(game: Game, state: State, move: Any, text: str) -> tuple[State | None, str | None, str | None]:
    """(state after, fault, detail) of playing ``move`` (a bot's answer, or the game's reading
    of it), whose text is ``text``: the game's ``IllegalMoveError`` is the bot's fault
    (``illegal_move``, or ``bad_move`` when the answer is no move at all); any other exception
    for a proper move is the game's (``game_error``)."""
    try:
        return state.play(move), None, None
    except Exception as exc:
        read = _reads_as(game, state, text)
        detail = f"{type(move).__name__} {text[:60]!r}: {type(exc).__name__}: {exc}"
        if isinstance(exc, (IllegalMoveError, MoveSyntaxError)):  # an object not of the move type is no move
            a_move = read is not None and (isinstance(move, str) or type(move) is type(read))
            return None, Termination.ILLEGAL_MOVE if a_move else Termination.BAD_MOVE, detail
        if read is None or read != move:
            return None, Termination.BAD_MOVE, detail
        log.error("game %s raised playing %r in %s", game.name, text, state.to_text(), exc_info=True)
        return None, Termination.GAME_ERROR, detail


def _settle(game: Game, state: State, answer: Any) -> tuple[State | None, str, str | None, str | None]:
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
        after, fault, detail = _judge(game, state, text, text)
        return after, text, fault, detail
    read = _reads_as(game, state, text)
    if read is None or type(read) is not type(answer) or read != answer:
        after, fault, detail = _judge(game, state, answer, text)
        if fault is None:  # the object plays, but its text is another move (or none)
            fault, detail = Termination.BAD_MOVE, f"{type(answer).__name__} {text[:60]!r} does not read as itself"
        return None, text, fault, detail
    after, fault, detail = _judge(game, state, read, text)
    return after, text, fault, detail


def _answer_text(move: Any) -> str:
    if move is None:
        return "-"
    return " ".join(map(plain_text, move)) if isinstance(move, (list, tuple)) else plain_text(move)


#: a fault at a simultaneous round, as the round's verdict on that seat's answer
_ROUND_FAULT: dict[str, str] = {Termination.EXCEPTION: AnswerStatus.CRASH, Termination.TIMEOUT: AnswerStatus.LATE}


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


def play_round(state: State, bots: Sequence[Player], limits: Sequence[Limits | None], margin: float,
               ply: int, on_move: OnMove | None = None,
               views: Sequence[Private] | None = None,
               progress: Progress | None = None) -> tuple[State, list[MoveRecord]]:
    """One simultaneous round: every seat answers, ``state.play(answers)``.

    A seat whose ``choose`` raises or answers late gives no answer this round (status
    ``crash`` / ``late``); it does not lose the game. Returns the state after and one
    ``MoveRecord`` per seat (``ply``: the round's index in the game's moves). ``views``: each
    seat's ``Private`` view (default: fresh ones); a bot is asked with its own copy.
    ``progress``: its ``seat`` follows the seat asked.

    Raises:
        Exception: whatever the game's ``play`` raises (the caller's ``game_error``).
    """
    answers = []
    # a state without ``game`` gives views of None (Private copies whatever it is given)
    views = views or [Private(getattr(state, "game", None), shares_state(bot))  # type: ignore[arg-type]
                      for bot in bots]
    for seat, bot in enumerate(bots):
        if progress is not None:
            progress.seat = seat
        if on_move:
            on_move(seat, state, None)  # a round keeps its own thinking time: no clock
        answer, secs, fault, _ = _ask(bot, views[seat].state(state), limits[seat], margin)
        if fault is None and answer is not None:
            try:  # the answer's text, read once, is what the game judges and the round stores
                answer = _answer_text(answer)
            except Exception:  # noqa: BLE001 - a ``__str__`` that raises: the seat's answer is void
                fault = Termination.EXCEPTION
        void = None if fault is None else _ROUND_FAULT.get(fault, str(fault))
        answers.append(Answer(None if void else answer, secs, reported(bot).nodes, void))
    after = state.play(answers)
    verdicts = after.last_status or [None] * len(bots)
    records = [MoveRecord(ply, seat, _answer_text(a.move), a.seconds, a.nodes, status=a.error or verdict)
               for seat, (a, verdict) in enumerate(zip(answers, verdicts))]
    return after, records


def _labels_and_seeds(settings: GameSettings, bots: Sequence[Player]) -> tuple[tuple[str, ...], Sequence[int]]:
    """The labels (given, or each bot's ``label`` or class name) and bot seeds (given, or
    ``bot_seeds`` of index 0, a repeated label told apart by its seat) of a game."""
    labels = settings.labels or tuple(getattr(b, "label", None) or type(b).__name__ for b in bots)
    if settings.seeds is not None:
        return labels, settings.seeds
    return labels, bot_seeds(settings.seed, 0, [f"{lab}@{i}" if labels.count(lab) > 1 else lab
                                                for i, lab in enumerate(labels)])


def _opening(game: Game, state: State, opening: Sequence[str]) -> tuple[State, list[str]]:
    """``(state after, the plies as the game writes them)`` of the forced ``opening``.

    Raises:
        IllegalMoveError, MoveSyntaxError: an opening ply is not legal.
    """
    played = []
    for text in opening:
        move = game.parse_move(state, text)
        state = state.play(move)
        played.append(str(move))
    return state, played


def _reset(bots: Sequence[Player], views: Sequence[Private], seeds: Sequence[int], hooks: GameHooks,
           progress: Progress) -> list[float]:
    """Reset each seat's bot that has ``reset`` with its seed; the seconds each took."""
    owed = [0.0] * len(bots)
    for seat, bot in enumerate(bots):
        if isinstance(bot, Resettable):
            progress.seat = seat
            if hooks.on_reset:
                hooks.on_reset(seat)
            t0 = time.perf_counter()
            bot.reset(views[seat].game, seat, seeds[seat])
            owed[seat] = time.perf_counter() - t0
    return owed


def play_game(settings: GameSettings, bots: Sequence[Player], hooks: GameHooks = NO_HOOKS,
              progress: Progress | None = None) -> GameRecord:
    """Play one game to the end.

    Args:
        settings: the game, seed, labels, opening, limits, margin, seeds and start
            (``GameSettings``).
        bots: one bot per 0-based seat; ``reset(game, seat, its seed)`` is called when it has one.
        hooks: callbacks on each move, ply and reset (``GameHooks``).
        progress: kept current as the game goes (``Progress``: what an exception leaves).

    Raises:
        IllegalMoveError, MoveSyntaxError: an opening ply is not legal (bad opening input).
        PositionSyntaxError: ``settings.start`` is not a position of the game.
        ValueError: not one bot per seat.
    """
    game, seed, time_margin = settings.game, settings.seed, settings.time_margin
    on_move, on_ply = hooks.on_move, hooks.on_ply
    n = game.num_players
    if len(bots) != n:
        raise ValueError(f"{game.name} needs {n} bots, got {len(bots)}")
    per_seat = settings.per_seat()
    clocks = GameClocks(settings.seat_clocks())
    labels, seeds = _labels_and_seeds(settings, bots)
    state = game.parse_state(settings.start) if settings.start is not None else game.initial_state(seed)
    start_time = time.perf_counter()
    state, played = _opening(game, state, settings.opening)  # the opening as the game writes it
    views = [Private(game, shares_state(bot)) for bot in bots]  # each its own copies (arena.referee.private)
    progress = Progress() if progress is None else progress
    owed = _reset(bots, views, seeds, hooks, progress)  # seconds spent in reset, counted against the first move
    moves: list[str] = list(played)
    stats: list[MoveRecord] = [MoveRecord(i, -1, m) for i, m in enumerate(played)]
    progress.moves, progress.stats = moves, stats

    def finish(outcome: Outcome, fault_seat: int | None = None, detail: str | None = None,
               rule: str | None = None) -> GameRecord:
        return GameRecord(seats=labels, seed=seed, opening_plies=len(played), moves=tuple(moves),
                          move_stats=tuple(stats), outcome=outcome, seconds=time.perf_counter() - start_time,
                          fault_seat=fault_seat, fault_detail=detail, adjudication=rule)

    draws = ChanceDraws(seed)
    judge = None if settings.adjudication is None else Adjudicator(settings.adjudication, n)

    def adjudged(seat: int | None, score: float | None) -> GameRecord | None:
        """The record of a game the adjudication rules end after this ply (``None``: play on)."""
        verdict = None if judge is None or state.is_terminal() else judge.after_ply(len(moves), seat, score)
        return None if verdict is None else finish(verdict[0], rule=verdict[1])

    def played_ply(text: str, records: list[MoveRecord], seat: int | None = None,
                   score: float | None = None) -> GameRecord | None:
        """Store one ply (a chance outcome, a round or a bot's move), tell ``on_ply``, and
        return the record of a game the adjudication rules end here (max-plies counts every
        kind of ply)."""
        moves.append(text)
        stats.extend(records)
        if on_ply:
            on_ply(state, records[-1])
        return adjudged(seat, score)

    if moves and (record := adjudged(None, None)):  # max-plies within the opening
        return record
    while not state.is_terminal():
        ply = len(moves)
        if state.to_move == CHANCE:  # no bot is asked: the outcome is drawn from the game's seed
            try:
                outcome = draws.draw(state)
                state = state.play(outcome)
            except Exception as exc:
                log.error("game %s raised at a chance node in %s", game.name, state.to_text(), exc_info=True)
                return finish(forfeit(n, None, Termination.GAME_ERROR), None, f"{type(exc).__name__}: {exc}")
            if record := played_ply(str(outcome), [MoveRecord(ply, CHANCE, str(outcome))]):
                return record
            continue
        if state.to_move == SIMULTANEOUS:
            try:
                state, records = play_round(state, bots, per_seat, time_margin, ply, on_move, views, progress)
            except Exception as exc:
                log.error("game %s raised playing a round in %s", game.name, state.to_text(), exc_info=True)
                return finish(forfeit(n, None, Termination.GAME_ERROR), None, f"{type(exc).__name__}: {exc}")
            if record := played_ply(state.last_round or "", records):
                return record
            continue
        seat = state.to_move
        allowed, limits = clocks.allowed(seat), per_seat[seat]
        if clocks.timed:  # every seat's clock as the bot sees it
            limits = replace(limits or Limits(), clock=clocks.view())
        progress.seat = seat
        if on_move:
            on_move(seat, state, None if allowed is None else allowed + time_margin)
        move, secs, fault, detail = _ask(bots[seat], views[seat].state(state), limits, time_margin, owed[seat],
                                         None if allowed is None else (allowed, clocks.text(seat)))
        owed[seat] = 0.0
        if fault is None:
            after, text, fault, detail = _settle(game, state, move)
        if fault is not None:
            blamed = None if fault == Termination.GAME_ERROR else seat
            return finish(forfeit(n, blamed, fault), blamed, detail)
        assert after is not None, "_judge gives a state when it finds no fault"
        state = after
        st = reported(bots[seat])
        done = MoveRecord(ply, seat, text, secs, st.nodes, st.depth, st.evaluation, clock=clocks.charge(seat, secs))
        if record := played_ply(text, [done], seat, st.evaluation):
            return record
    outcome = state.outcome()
    assert outcome is not None, "a terminal state has an outcome (State.outcome)"
    return finish(outcome)
