"""Simultaneous rounds: every seat answers at once (``play_round``), each bot handed what its
seat may see; the game combines the answers (Ricochet judges puzzle solutions, an OpenSpiel
game applies the joint action). Faults at a round: ``play_round``'s doc.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.games import Answer, AnswerStatus, Game, Outcome, State, View
from arena.referee.asking import Progress, ask, exception_text, reads_as
from arena.referee.plain import plain_text
from arena.referee.private import Private, shares_state
from arena.referee.records import MoveRecord, Termination
from arena.referee.reported import reported
from arena.referee.settings import OnMove
from bots.base import Limits, Player


def answer_text(move: Any) -> str:
    """An answer at a round as stored: its text (a sequence: the texts space-separated), ``-``
    for none."""
    if move is None:
        return "-"
    return " ".join(map(plain_text, move)) if isinstance(move, (list, tuple)) else plain_text(move)


#: a fault at a simultaneous round, as the round's verdict on that seat's answer
ROUND_FAULT: dict[str, str] = {Termination.EXCEPTION: AnswerStatus.CRASH, Termination.TIMEOUT: AnswerStatus.LATE}


class RoundFault(Exception):
    """Seats that faulted at a simultaneous round where each must answer one of its moves
    (``play_round``): ``faults`` is ``(seat, termination, detail)`` per faulted seat, in seat
    order."""

    def __init__(self, faults: list[tuple[int, str, str]]) -> None:
        super().__init__("; ".join(f"seat {seat}: {fault}: {(detail.splitlines() or [''])[0]}"
                                   for seat, fault, detail in faults))
        self.faults = faults

    def detail(self) -> str:
        """The game's ``fault_detail``: the first faulted seat's detail when it is the only one;
        else one line naming each seat's fault, then the first's detail after its first line
        (a traceback: ``last_frame`` reads the blamed seat's)."""
        first = self.faults[0][2]
        if len(self.faults) == 1:
            return first
        rest = first.split("\n", 1)[1:]
        return "\n".join([str(self), *rest])


def joint_fault(game: Game, state: State, own: Sequence[Any], answer: Any) -> tuple[str, str] | None:
    """The fault of an answer at a joint action (the seat's view lists its moves ``own``):
    ``None`` when its text is one of them, ``illegal_move`` when it reads as a move of the
    position (another seat's), else ``bad_move`` (no answer included)."""
    if answer is None:
        return Termination.BAD_MOVE, "no answer; every seat answers one of its moves at this round"
    if answer in own:
        return None
    a_move = reads_as(game, state, answer) is not None
    return (Termination.ILLEGAL_MOVE if a_move else Termination.BAD_MOVE,
            f"{answer[:60]!r} is not one of the seat's moves: {', '.join(map(str, own[:12]))}"
            + (", ..." if len(own) > 12 else ""))


def play_round(state: State, bots: Sequence[Player], limits: Sequence[Limits | None], margin: float,
               ply: int, on_move: OnMove | None = None,
               views: Sequence[Private] | None = None,
               progress: Progress | None = None) -> tuple[State, list[MoveRecord]]:
    """One simultaneous round: every seat answers, ``state.play(answers)``.

    Each bot is handed what ``Private.handed`` gives its seat (in a game with hidden
    information its view, never the state). Two kinds of round:

    - the seat's view lists no moves (Ricochet's puzzle rounds: any answer, judged by the
      game): a seat whose ``choose`` raises or answers late gives no answer this round (status
      ``crash`` / ``late``); it does not lose the game;
    - the seat's view lists its moves (OpenSpiel's joint actions: the round is played only
      when every seat answered one of its moves): a seat that raises, answers late, answers
      nothing or something not among its moves is at fault as at a sequential ply
      (``exception``, ``timeout``, ``bad_move``, ``illegal_move``), and the round is not
      played: ``RoundFault``.

    Returns the state after and one ``MoveRecord`` per seat (``ply``: the round's index in the
    game's moves). ``views``: each seat's ``Private`` (default: fresh ones). ``progress``: its
    ``seat`` follows the seat asked.

    Raises:
        RoundFault: seats at fault at a round of joint actions (every seat is asked first); or,
            at once, a seat whose provider failed (``void``, after the faults of the seats asked
            before it; the caller voids the game).
        Exception: whatever the game's ``play`` raises (the caller's ``game_error``).
    """
    answers: list[Answer] = []
    faults: list[tuple[int, str, str]] = []
    game = getattr(state, "game", None)
    # a state without ``game`` gives views of None (Private copies whatever it is given)
    views = views or [Private(game, shares_state(bot)) for bot in bots]  # type: ignore[arg-type]
    for seat, bot in enumerate(bots):
        if progress is not None:
            progress.seat = seat
        if on_move:
            on_move(seat, state, None)  # a round keeps its own thinking time: no clock
        handed = views[seat].handed(state, seat) if game is not None else views[seat].state(state)
        own = handed.legal_moves() if isinstance(handed, View) else []
        answer, secs, fault, detail = ask(bot, handed, limits[seat], margin)
        if fault == Termination.VOID:  # a provider failed: the game is void, no other seat is asked
            raise RoundFault([*faults, (seat, str(fault), detail or "")])
        if fault is None and answer is not None:
            try:  # the answer's text, read once, is what the game judges and the round stores
                answer = answer_text(answer)
            except Exception as exc:  # noqa: BLE001 - a ``__str__`` that raises: the seat's answer is void
                fault, detail = Termination.EXCEPTION, exception_text(exc)
        if own and fault is None:
            fault, detail = joint_fault(game, state, own, answer) or (None, None)  # type: ignore[arg-type]
        if own and fault is not None:
            faults.append((seat, str(fault), detail or ""))
        void = None if fault is None else ROUND_FAULT.get(fault, str(fault))
        answers.append(Answer(None if void else answer, secs, reported(bot).nodes, void))
    if faults:
        raise RoundFault(faults)
    after = state.play(answers)
    verdicts = after.last_status or [None] * len(bots)
    records = [MoveRecord(ply, seat, answer_text(a.move), a.seconds, a.nodes, status=a.error or verdict)
               for seat, (a, verdict) in enumerate(zip(answers, verdicts))]
    return after, records


def round_forfeit(n: int, faults: list[tuple[int, str, str]]) -> Outcome:
    """The outcome of a round at which the seats of ``faults`` faulted: they share last place,
    the others share first; the termination is the first faulted seat's fault (seat order)."""
    blamed = {seat for seat, _, _ in faults}
    last = n - len(blamed) + 1 if len(blamed) < n else 1
    return Outcome(tuple(0.0 for _ in range(n)), tuple(last if s in blamed else 1 for s in range(n)), faults[0][1])
