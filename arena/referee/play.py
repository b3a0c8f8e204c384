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
ranks last, the others share first place. At a simultaneous round (``arena.referee.rounds``)
such an answer is void for that round only where the game judges free answers (Ricochet), and
loses the game where each seat must answer one of its moves (OpenSpiel's joint actions).

In a game with hidden information (``GameType.hidden_information``) each bot is handed only its
seat's view (``State.view``, through ``arena.referee.Private.handed``), never the state; its
answer is judged on the referee's full state. ``--adjudicate`` rules may end a game early after any ply
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
from collections.abc import Sequence
from dataclasses import replace

from arena.games import CHANCE, SIMULTANEOUS, Game, Outcome, State, draw_chance
from arena.referee.adjudicate import Adjudicator
from arena.referee.asking import Progress, ask, exception_text, last_frame, settle
from arena.referee.clock import GameClocks
from arena.referee.private import Private, shares_state
from arena.referee.records import BLAMELESS, GameRecord, MoveRecord, Termination, forfeit
from arena.referee.reported import MoveLogs, reported
from arena.referee.rounds import RoundFault, play_round, round_forfeit
from arena.referee.seeds import ChanceDraws, bot_seeds, derive_seed
from arena.referee.settings import NO_HOOKS, GameHooks, GameSettings
from bots.base import Limits, Player

log = logging.getLogger("arena.referee")

__all__ = ["Progress", "RoundFault", "exception_text", "last_frame", "play_game", "play_round", "random_opening"]


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
    """Reset each seat's bot that has ``reset`` (``Resettable``) with its seed; the seconds each took."""
    owed = [0.0] * len(bots)
    for seat, bot in enumerate(bots):
        reset = getattr(bot, "reset", None)  # Resettable, without isinstance's protocol check (5-15 µs a bot)
        if reset is not None:
            progress.seat = seat
            if hooks.on_reset:
                hooks.on_reset(seat)
            t0 = time.perf_counter()
            reset(views[seat].game, seat, seeds[seat])
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
    # each its own copies (arena.referee.private), but bots that run only the arena's code
    views = [Private(game, settings.trusted or shares_state(bot)) for bot in bots]
    progress = Progress() if progress is None else progress
    owed = _reset(bots, views, seeds, hooks, progress)  # seconds spent in reset, counted against the first move
    moves: list[str] = list(played)
    stats: list[MoveRecord] = [MoveRecord(i, -1, m) for i, m in enumerate(played)]
    progress.moves, progress.stats = moves, stats
    logs = MoveLogs(n)  # each move's ``last_log`` (network players), stored with the game

    def finish(outcome: Outcome, fault_seat: int | None = None, detail: str | None = None,
               rule: str | None = None) -> GameRecord:
        return GameRecord(seats=labels, seed=seed, opening_plies=len(played), moves=tuple(moves),
                          move_stats=tuple(stats), outcome=outcome, seconds=time.perf_counter() - start_time,
                          fault_seat=fault_seat, fault_detail=detail, adjudication=rule, log=logs.text())

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
                try:
                    state, records = play_round(state, bots, per_seat, time_margin, ply, on_move, views, progress)
                finally:
                    for k, bot in enumerate(bots):
                        logs.take(bot, ply, k)
            except RoundFault as exc:  # every faulted seat loses (ranks last); the round is not played
                void = next((f"seat {s} {d}" for s, f, d in exc.faults if f == Termination.VOID), None)
                if void is not None:  # a provider failed: the round cannot be judged, nobody is blamed
                    return finish(forfeit(n, None, Termination.VOID), None, void)
                return finish(round_forfeit(n, exc.faults), exc.faults[0][0], exc.detail())
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
        move, secs, fault, detail = ask(bots[seat], views[seat].handed(state, seat), limits, time_margin, owed[seat],
                                         None if allowed is None else (allowed, clocks.text(seat)))
        owed[seat] = 0.0
        logs.take(bots[seat], ply, seat)
        if fault is None:
            after, text, fault, detail = settle(game, state, move)
        if fault is not None:
            blamed = None if fault in BLAMELESS else seat
            detail = f"seat {seat} {detail}" if fault == Termination.VOID else detail  # whose provider failed
            return finish(forfeit(n, blamed, fault), blamed, detail)
        assert after is not None, "settle gives a state when it finds no fault"
        state = after
        st = reported(bots[seat])
        done = MoveRecord(ply, seat, text, secs, st.nodes, st.depth, st.evaluation, clock=clocks.charge(seat, secs))
        if record := played_ply(text, [done], seat, st.evaluation):
            return record
    outcome = state.outcome()
    assert outcome is not None, "a terminal state has an outcome (State.outcome)"
    return finish(outcome)
