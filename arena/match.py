"""Play one game: a game, one bot per seat, limits -> ``GameRecord``.

Faults (``spec/arena.md`` "Contracts / Faults"): a bot whose ``choose`` raises
(``exception``), returns an illegal move (``illegal_move``), returns something that is not a
move (``bad_move``) or overruns ``limits.time + time_margin`` (``timeout``) loses the game: it
ranks last, the others share first place. At a simultaneous node (Ricochet) such an answer is
void for that round only. Hangs and crashes of the whole process are the runner's business.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.games import SIMULTANEOUS, Answer, Game, Outcome, State

#: Termination reasons set by the arena (games add their own, e.g. "target", "repetition").
#: An engine process (``arena.engine``, ``docs/engine-protocol.md`` "Faults") loses with the
#: same reasons: no ``bestmove`` in time is ``timeout``, a process that exits or closes its
#: output mid-game (or cannot be restarted for the next game) is ``crash``; an isolated Python
#: bot's exception, ``sys.exit`` and ``MemoryError`` keep ``exception``, ``exit``, ``memory``.
FAULTS = ("exception", "illegal_move", "bad_move", "timeout", "exit", "crash", "game_time", "memory")


class BotFault(Exception):
    """Raised by a bot's ``choose`` to lose with a named fault (one of ``FAULTS``) rather than
    ``exception``: an engine process that timed out or died (``arena.engine.client``).

    Attributes:
        reason: the termination reason. detail: one line on what happened.
    """

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason, self.detail = reason, detail


def derive_seed(seed: int, *parts: Any) -> int:
    """A 63-bit seed derived from ``seed`` and labels (stable across runs and platforms)."""
    text = ":".join(map(str, (seed, *parts))).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


#: The current seeding scheme (stored with a tournament's settings as ``seeding``).
#: 2: a bot's seed is ``derive_seed(seed, "bot", index, label)``: series seed, the game's 0-based
#: index in its series, the bot's label (``docs/statistics.md`` "Games must be distinct").
#: 1: ``derive_seed(seed, "bot", seat)`` (before: two copies of a stochastic bot in a series
#: replayed one game with the seats swapped); kept only to finish tournaments stored with it.
SEEDING = 2
SEEDINGS = (1, 2)


def bot_seeds(seed: int, index: int, labels: Sequence[str], seeding: int = SEEDING) -> tuple[int, ...]:
    """Each seat's bot seed for one game, by the seeding scheme (see ``SEEDING``).

    Args:
        seed: the series seed (the game's stored ``seed``).
        index: the game's 0-based index in its series (its seat order's place in the rotation).
        labels: bot labels by 0-based seat (unique within a tournament).
        seeding: 2 (current) or 1 (tournaments stored before scheme 2).

    Raises:
        ValueError: an unknown scheme.
    """
    if seeding == 2:
        return tuple(derive_seed(seed, "bot", index, label) for label in labels)
    if seeding == 1:
        return tuple(derive_seed(seed, "bot", seat) for seat in range(len(labels)))
    raise ValueError(f"unknown seeding scheme {seeding!r}; accepted: {', '.join(map(str, SEEDINGS))}")


@dataclass(frozen=True)
class MoveRecord:
    """One ply (or Ricochet round) as played.

    Attributes:
        ply: 0-based ply index within the game, opening plies included.
        seat: 0-based seat that moved; -1 for an opening ply or a simultaneous round.
        move: the move (round record) in the game's notation.
        seconds: thinking time, seconds (0 for opening plies).
        nodes, depth, evaluation: the bot's ``last_stats`` for that move.
        status: at a simultaneous round, one record per seat (``ply`` = the round's index in
            ``moves``) with the game's verdict on that seat's answer: ``won``, ``valid``,
            ``invalid``, ``none`` (no answer), or the arena's ``late`` / ``crash``; ``None``
            for sequential plies.
    """

    ply: int
    seat: int
    move: str
    seconds: float = 0.0
    nodes: int = 0
    depth: int = 0
    evaluation: float | None = None
    status: str | None = None


@dataclass(frozen=True)
class GameRecord:
    """A finished game.

    Attributes:
        seats: bot labels by 0-based seat.
        seed: the game's (series) seed: the initial state, the opening plies and every bot's
            seed (``bot_seeds``, with the game's index in its series and the labels) derive
            from it.
        opening_plies: how many of ``moves`` were forced opening plies.
        moves: every ply in notation, opening included.
        move_stats: one ``MoveRecord`` per ply.
        outcome: scores, ranks and termination reason.
        seconds: wall-clock duration of the game, seconds.
        fault_seat: the seat that lost by a fault, or ``None``.
        fault_detail: one line on the fault (exception text...), or ``None``.
    """

    seats: tuple[str, ...]
    seed: int
    opening_plies: int
    moves: tuple[str, ...]
    move_stats: tuple[MoveRecord, ...]
    outcome: Outcome
    seconds: float
    fault_seat: int | None = None
    fault_detail: str | None = None

    @property
    def plies(self) -> int:
        return len(self.moves)


def forfeit(num_players: int, seat: int, termination: str) -> Outcome:
    """The outcome when ``seat`` loses by a fault: it ranks last, the others share first."""
    ranks = tuple(num_players if s == seat else 1 for s in range(num_players))
    return Outcome(tuple(0.0 for _ in range(num_players)), ranks, termination)


def random_opening(game: Game, seed: int, plies: int, start: str | None = None) -> list[str]:
    """``plies`` seeded uniformly random moves from the start (fewer if the game would end).

    The start is ``game.initial_state(seed)``, or the position text ``start``. Only sequential
    nodes are played; an opening stops before a simultaneous node.

    Raises:
        PositionSyntaxError: ``start`` is not a position of the game.
    """
    rng = random.Random(derive_seed(seed, "opening"))
    state = game.parse_state(start) if start is not None else game.initial_state(seed)
    out: list[str] = []
    for _ in range(plies):
        if state.to_move < 0:
            break
        moves = state.legal_moves()
        move = moves[rng.randrange(len(moves))]
        after = state.play(move)
        if after.is_terminal():
            break
        out.append(str(move))
        state = after
    return out


def _ask(bot: Any, state: State, limits: Any) -> tuple[Any, float, str | None, str | None]:
    """(answer, seconds, fault, detail) of one ``choose`` call."""
    t0 = time.perf_counter()
    try:
        answer = bot.choose(state, limits)
    except BotFault as exc:
        return None, time.perf_counter() - t0, exc.reason, exc.detail
    except Exception as exc:  # a bot's bug is a fault of that bot, never of the arena
        return None, time.perf_counter() - t0, "exception", f"{type(exc).__name__}: {exc}"
    return answer, time.perf_counter() - t0, None, None


#: a fault at a simultaneous round, as the round's verdict on that seat's answer
_ROUND_FAULT = {"exception": "crash", "timeout": "late"}


def _is_move_text(game: Game, state: State, move: Any) -> bool:
    """Whether ``move`` reads as a move of the game at all (else it is a non-move answer)."""
    if move is None:
        return False
    try:
        game.parse_move(state, str(move))
    except Exception:
        return False
    return True


def _stats(bot: Any) -> tuple[int, int, float | None]:
    st = getattr(bot, "last_stats", None)
    try:
        return int(st.nodes or 0), int(st.depth or 0), (None if st.evaluation is None else float(st.evaluation))
    except (AttributeError, TypeError, ValueError):
        return 0, 0, None


def play_game(
    game: Game,
    bots: Sequence[Any],
    seed: int,
    *,
    labels: Sequence[str] | None = None,
    opening: Sequence[str] = (),
    limits: Sequence[Any] | Any = None,
    time_margin: float = 0.5,
    on_move: Callable[[int, State], None] | None = None,
    on_ply: Callable[[State, MoveRecord], None] | None = None,
    seeds: Sequence[int] | None = None,
    start: str | None = None,
) -> GameRecord:
    """Play one game to the end.

    Args:
        game: the game (its parameters fixed).
        bots: one bot per 0-based seat; ``reset(game, seat, bot_seed)`` is called if present.
        seed: the game's (series) seed: ``game.initial_state(seed)``; the bots' seeds derive
            from it (``seeds``).
        labels: bot labels by seat, stored in the record (default: ``bot.label`` or kind).
        opening: forced opening plies in notation, played before the bots move.
        limits: ``bots.Limits`` for every seat, or one per seat; ``None`` = unlimited.
        time_margin: seconds a move may overrun ``limits.time`` before it loses (``timeout``).
        on_move: called with (seat, state) before a bot is asked (the runner tracks who is
            thinking, to blame a hang or a crash).
        on_ply: called with (state after, record) after each ply (``arena play`` prints).
        seeds: each seat's bot seed (a tournament passes ``bot_seeds`` of the game's index in
            its series); default ``bot_seeds(seed, 0, labels)`` (a label given twice is
            made unique with ``@seat``).
        start: position text the game starts from (``game.parse_state``) instead of
            ``game.initial_state(seed)`` (an opening from a file).

    Raises:
        IllegalMoveError, MoveSyntaxError: an opening ply is not legal (bad opening input).
        PositionSyntaxError: ``start`` is not a position of the game.
    """
    n = game.num_players
    if len(bots) != n:
        raise ValueError(f"{game.name} needs {n} bots, got {len(bots)}")
    per_seat = list(limits) if isinstance(limits, (list, tuple)) else [limits] * n
    labels = tuple(labels or (getattr(b, "label", None) or type(b).__name__ for b in bots))
    if seeds is None:  # a repeated label (library callers) is told apart by its seat
        seeds = bot_seeds(seed, 0, [f"{lab}@{i}" if labels.count(lab) > 1 else lab for i, lab in enumerate(labels)])
    state = game.parse_state(start) if start is not None else game.initial_state(seed)
    start_time = time.perf_counter()
    moves: list[str] = []
    stats: list[MoveRecord] = []
    for text in opening:
        move = game.parse_move(state, text)
        state = state.play(move)
        moves.append(str(move))
        stats.append(MoveRecord(len(moves) - 1, -1, str(move)))
    for seat, bot in enumerate(bots):
        if hasattr(bot, "reset"):
            bot.reset(game, seat, seeds[seat])

    def finish(outcome: Outcome, fault_seat=None, detail=None) -> GameRecord:
        return GameRecord(labels, seed, len(opening), tuple(moves), tuple(stats), outcome,
                          time.perf_counter() - start_time, fault_seat, detail)

    while not state.is_terminal():
        if state.to_move == SIMULTANEOUS:
            answers = []
            for seat, bot in enumerate(bots):
                if on_move:
                    on_move(seat, state)
                answer, secs, fault, _ = _ask(bot, state, per_seat[seat])
                nodes, _, _ = _stats(bot)
                t = getattr(per_seat[seat], "time", None)
                if fault is None and t is not None and secs > t + time_margin:
                    fault = "late"
                answers.append(Answer(None if fault else answer, secs, nodes, fault and _ROUND_FAULT.get(fault, fault)))
            state = state.play(answers)
            moves.append(state.last_round or "")
            verdicts = getattr(state, "last_status", None) or [None] * n
            for seat, (a, verdict) in enumerate(zip(answers, verdicts)):
                text = "-" if a.move is None else " ".join(map(str, a.move)) if isinstance(a.move, (list, tuple)) else str(a.move)
                stats.append(MoveRecord(len(moves) - 1, seat, text, a.seconds, a.nodes, status=a.error or verdict))
            if on_ply:
                on_ply(state, stats[-1])
            continue
        seat = state.to_move
        bot = bots[seat]
        if on_move:
            on_move(seat, state)
        move, secs, fault, detail = _ask(bot, state, per_seat[seat])
        t = getattr(per_seat[seat], "time", None)
        if fault is None and t is not None and secs > t + time_margin:
            fault, detail = "timeout", f"{secs:.3f}s for a {t:g}s move"
        if fault is None:
            try:
                after = state.play(move)
            except Exception as exc:
                fault = "illegal_move" if _is_move_text(game, state, move) else "bad_move"
                detail = f"{type(move).__name__} {str(move)[:60]!r}: {type(exc).__name__}: {exc}"
        if fault is not None:
            return finish(forfeit(n, seat, fault), seat, detail)
        state = after
        nodes, depth, evaluation = _stats(bot)
        moves.append(str(move))
        stats.append(MoveRecord(len(moves) - 1, seat, moves[-1], secs, nodes, depth, evaluation))
        if on_ply:
            on_ply(state, stats[-1])
    return finish(state.outcome())
