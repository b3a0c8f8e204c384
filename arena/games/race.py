"""Puzzle races: one round = every seat answers the same puzzle at once (a simultaneous
node), the shortest valid solution wins the round's chip (``docs/rules/ricochet.md`` "A
round", items 3-4). Shared by Ricochet Robots and the Solo Interaction race.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from arena.errors import IllegalMoveError, MoveSyntaxError
from arena.games.protocol import Answer, AnswerStatus

#: ``ties`` values: equal lengths go to fewer chips then the lower seat, or to the first answer.
TIES = ("fewer-chips", "first")


def check_answers(answers: Sequence[Answer], seats: int) -> None:
    """Raises ``IllegalMoveError`` unless ``answers`` is one ``Answer`` per seat."""
    if not isinstance(answers, (list, tuple)) or len(answers) != seats or \
            not all(isinstance(a, Answer) for a in answers):
        raise IllegalMoveError(f"a round takes one Answer per seat ({seats} seats)")


def resolve_round(answers: Sequence[Answer], check: Callable[[Any], Any], chips: Sequence[int],
                  ties: str) -> tuple[int | None, list[str], dict[int, Any]]:
    """Judge one round.

    Args:
        answers: one per 0-based seat.
        check: an answer's move -> ``(solution, result)`` when it is a valid solution, else
            ``None`` (``MoveSyntaxError`` also counts as invalid); ``len(solution)`` is its
            length in moves.
        chips: chips held per seat (the fewer-chips tie rule).
        ties: ``"fewer-chips"`` (then the lower seat) or ``"first"`` (the shorter measured
            thinking time, seconds, then the lower seat).

    Returns:
        (winning seat or ``None``, status per seat: ``won`` / ``valid`` / ``invalid`` /
        ``none`` / the answer's error, {seat: (solution, result)} of the valid answers).
    """
    status: list[str] = []
    valid: dict[int, Any] = {}
    for seat, a in enumerate(answers):
        if a.error:
            status.append(str(a.error))
        elif a.move is None:
            status.append(AnswerStatus.NONE)
        else:
            try:
                got = check(a.move)
            except MoveSyntaxError:
                got = None
            if got is None:
                status.append(AnswerStatus.INVALID)
            else:
                status.append(AnswerStatus.VALID)
                valid[seat] = got
    if not valid:
        return None, status, valid
    if ties == "first":
        winner = min(valid, key=lambda s: (len(valid[s][0]), answers[s].seconds, s))
    else:
        winner = min(valid, key=lambda s: (len(valid[s][0]), chips[s], s))
    status[winner] = AnswerStatus.WON
    return winner, status, valid


def parse_answer(text: str, parse: Callable[[str], Any], example: str) -> Any:
    """A race answer: a solution read by ``parse`` (e.g. ``Solution.parse``), or ``None`` for
    ``-`` (no answer).

    Raises:
        MoveSyntaxError: empty text (``example``: the accepted form, for the message), or
            whatever ``parse`` raises for a bad move.
    """
    t = str(text).strip()
    if t == "-":
        return None
    if not t:
        raise MoveSyntaxError(f"empty solution; accepted: moves like {example!r}, or - for none")
    return parse(t)


__all__ = ["TIES", "check_answers", "parse_answer", "resolve_round"]
