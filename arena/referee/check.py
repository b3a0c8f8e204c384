"""The referee check: a game's stored result is the result of its stored moves.

Before a game is stored, the runner (never the worker, whose objects a bot in the same
process can reach) replays the record's moves from its seed with its own game object
(``referee_check``) and stores what the rules say (``docs/arena.md`` "Storage"): a record the
replay contradicts is corrected and the mismatch reported, so ``arena replay`` of a stored
game and its stored outcome agree by construction.

What the replay decides:

- a rule ending (the worker reported the game's own termination): the replay must reach a
  terminal position at the last stored move with the same outcome; otherwise the replay's
  outcome is stored (or ``unfinished``, nobody blamed, when the replay does not end);
- an arena ending (a fault, ``crash``, ``game_error``...): the moves must replay and the game
  must not have ended by the rules first; the fault stands;
- a stored ply the rules refuse: the game is cut before it and the seat that played it loses
  (``illegal_move``); plies after a rule ending are cut too;
- a stored chance ply after the opening that is not the outcome the game's seed draws there
  (``arena.referee.seeds.ChanceDraws``): the game is cut before it, nobody blamed
  (``unfinished``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from arena.games import CHANCE, SIMULTANEOUS, Answer, Game, Outcome
from arena.referee.records import GameRecord, Termination, forfeit
from arena.referee.seeds import ChanceDraws

#: endings the arena decides (everything else is a rule ending of the game)
ARENA_ENDINGS = frozenset(str(t) for t in Termination)


def round_answers(game: Game, state: Any, record: str) -> list[Answer]:
    """Answers reproducing a stored simultaneous round: the game's own reading of it where the
    game has ``parse_round(state, record)`` (OpenSpiel's joint actions: each seat's move,
    space-separated), else a race round ``<chip> <winning seat or -> <solution or ->``: the
    winner's solution, no answer from the others (``docs/arena.md`` "Storage").

    Raises:
        MoveSyntaxError, ValueError: the round text does not read.
    """
    own = getattr(game, "parse_round", None)
    if own is not None:
        return list(own(state, record))
    parts = record.split(" ", 2)
    answers = [Answer() for _ in range(game.num_players)]
    if len(parts) == 3 and parts[1] != "-":
        answers[int(parts[1])] = Answer(game.parse_move(state, parts[2]))
    return answers


@dataclass(frozen=True)
class Checked:
    """The record to store and, when the worker's record was wrong, one line on how."""

    record: GameRecord
    mismatch: str | None = None


def _same(a: Outcome, b: Outcome) -> bool:
    return (str(a.termination) == str(b.termination) and tuple(a.ranks) == tuple(b.ranks)
            and len(a.scores) == len(b.scores)
            and all(math.isclose(float(x), float(y), abs_tol=1e-9) for x, y in zip(a.scores, b.scores)))


def _cut(record: GameRecord, plies: int, outcome: Outcome, seat: int | None, detail: str | None,
         why: str) -> Checked:
    stats = tuple(m for m in record.move_stats if m.ply < plies)
    fixed = replace(record, moves=record.moves[:plies], move_stats=stats, outcome=outcome, fault_seat=seat,
                    fault_detail=detail)
    return Checked(fixed, why)


def _text(o: Outcome) -> str:
    return f"{o.termination} ranks {list(o.ranks)} scores {[float(s) for s in o.scores]}"


def referee_check(game: Game, record: GameRecord, start: str | None = None) -> Checked:
    """Replay ``record``'s moves from its seed (or ``start``, the position text of an openings
    file) with ``game`` and return the record to store (see the module doc).

    Args:
        game: a game object no bot has seen (the runner's own), parameters as the tournament's.
        record: the worker's record.
        start: the series' start position text, ``None``: ``game.initial_state(record.seed)``.

    Raises:
        PositionSyntaxError: ``start`` is not a position of the game.
    """
    n = game.num_players
    state = game.parse_state(start) if start is not None else game.initial_state(record.seed)
    draws = ChanceDraws(record.seed)
    for ply, text in enumerate(record.moves):
        if state.is_terminal():
            out = state.outcome()
            assert out is not None, "a terminal state has an outcome (State.outcome)"
            return _cut(record, ply, out, None, None,
                        f"the rules end the game at ply {ply} ({_text(out)}); the worker stored "
                        f"{len(record.moves)} plies and {_text(record.outcome)}")
        seat = state.to_move
        if seat == CHANCE and ply >= record.opening_plies:
            try:
                drawn = repr(str(draws.draw(state)))
            except Exception as exc:
                drawn = f"none: {type(exc).__name__}: {exc}"
            if drawn != repr(text):
                detail = f"ply {ply}: chance outcome {text!r} is not the one the game's seed draws ({drawn})"
                return _cut(record, ply, forfeit(n, None, Termination.UNFINISHED), None, detail, detail)
        try:
            move = round_answers(game, state, text) if seat == SIMULTANEOUS else game.parse_move(state, text)
            state = state.play(move)
        except Exception as exc:
            blamed = seat if seat >= 0 and ply >= record.opening_plies else None
            detail = f"ply {ply} {text!r} does not replay: {type(exc).__name__}: {exc}"
            reason = Termination.ILLEGAL_MOVE if blamed is not None else Termination.UNFINISHED
            return _cut(record, ply, forfeit(n, blamed, reason), blamed, detail, detail)
    reported = record.outcome
    if state.is_terminal():
        out = state.outcome()
        assert out is not None, "a terminal state has an outcome (State.outcome)"
        if str(reported.termination) not in ARENA_ENDINGS and _same(out, reported):
            return Checked(record)
        return _cut(record, len(record.moves), out, None, None,
                    f"the stored moves end by the rules with {_text(out)}; the worker reported {_text(reported)}")
    if str(reported.termination) in ARENA_ENDINGS:
        return Checked(record)
    detail = f"the worker reported {_text(reported)}; the stored moves do not end the game"
    return _cut(record, len(record.moves), forfeit(n, None, Termination.UNFINISHED), None, detail, detail)
