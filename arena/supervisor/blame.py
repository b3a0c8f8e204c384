"""The parent side of a watched game: what a ``Status`` read at a given time says, in the one
wording of each verdict (``docs/arena.md`` "Contracts / Faults").

``overdue`` decides ``game_time`` and ``timeout`` from the status alone; the details name the
process killed (``what``: ``"worker"`` in a tournament, ``"bot process"`` for ``arena play``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.os_guard import PIPE_CLOSED, death_text
from arena.referee import Termination
from arena.supervisor.status import Status


#: seconds at least past a move's game clock (and margin) before a move still not back is killed
#: (the referee's own timing calls a late move ``timeout`` without a kill)
CLOCK_GRACE = 1.0


@dataclass(frozen=True)
class Deadlines:
    """When a watched game is overdue (seconds; ``None``: not watched).

    Attributes:
        game_time: wall-clock seconds per game (``--game-time``).
        move_time, time_margin: the per-move limit and its margin (``--move-time``,
            ``--time-margin``).
        grace: seconds more before a move still not back is killed (the margin of the
            bot's own timing, which measures a late move and lets it lose by ``timeout``
            without a kill); 0 for ``arena play``.
    """

    game_time: float | None = None
    move_time: float | None = None
    time_margin: float = 0.5
    grace: float = 0.0

    def lost_after(self, status: Status) -> float | None:
        """Seconds after which the move ``status`` times has lost on time: the tighter of
        ``--move-time`` plus margin and its game clock (``status.move_allowed``, margin
        included); ``None``: the move is not timed."""
        lost = [] if self.move_time is None else [self.move_time + self.time_margin]
        if status.move_allowed > 0:
            lost.append(status.move_allowed)
        return min(lost, default=None)

    def limit(self, status: Status) -> float | None:
        """Seconds after which the move ``status`` times is killed: ``lost_after`` plus the
        grace (at least ``CLOCK_GRACE`` under a game clock); ``None``: not timed."""
        lost = self.lost_after(status)
        if lost is None:
            return None
        return lost + (max(self.grace, CLOCK_GRACE) if status.move_allowed > 0 else self.grace)

    def next_check(self, status: Status, now: float) -> float:
        """Seconds until the game or its move is overdue (may be negative)."""
        left = [] if self.game_time is None else [status.game_started + self.game_time - now]
        limit = self.limit(status)
        if limit is not None and status.move_started > 0:
            left.append(status.move_started + limit - now)
        return min(left, default=float("inf"))


def on_move(status: Status, labels: Sequence[str]) -> str:
    """``seat 1 (mcts)``, or the words for no bot on move."""
    seat = status.seat
    return f"seat {seat} ({labels[seat]})" if 0 <= seat < len(labels) else "no bot (before the first move)"


def overdue(status: Status, now: float, limits: Deadlines, labels: Sequence[str],
            what: str) -> tuple[Termination, str] | None:
    """``(GAME_TIME or TIMEOUT, detail)`` when the game playing, timed from ``status``, is past
    ``limits`` at ``now`` (``time.monotonic()`` seconds), else ``None``."""
    if limits.game_time is not None and now - status.game_started > limits.game_time:
        return Termination.GAME_TIME, (f"game over {limits.game_time:g}s at ply {status.ply}; "
                                       f"{on_move(status, labels)} was choosing a move; {what} killed")
    limit = limits.limit(status)
    if limit is not None and status.move_started > 0 and now - status.move_started > limit:
        if limits.lost_after(status) == status.move_allowed:  # its game clock ran out first
            return Termination.TIMEOUT, (f"no move after {limit:.3f}s (the {status.move_allowed:.3f}s its clock "
                                         f"and --time-margin allowed + grace {limit - status.move_allowed:g}) at "
                                         f"ply {status.ply}; {what} killed")
        grace = f" + grace {limits.grace:g}" if limits.grace else ""
        return Termination.TIMEOUT, (f"no move after {limit:g}s (--move-time {limits.move_time:g} + --time-margin "
                                     f"{limits.time_margin:g}{grace}) at ply {status.ply}; {what} killed")
    return None


def died(status: Status, code: int | None, labels: Sequence[str], what: str) -> str:
    """The detail of a ``crash``: the process ended with exit code ``code`` while the game was playing."""
    why = " (the bot closed its pipe to the arena)" if code == PIPE_CLOSED else ""
    return f"{what} {death_text(code)}{why} at ply {status.ply} while {on_move(status, labels)} was choosing a move"


def forked(status: Status, labels: Sequence[str], what: str) -> str:
    """The detail of a ``crash`` by a fork marked in ``status``."""
    seat = status.fork_seat
    name = labels[seat] if 0 <= seat < len(labels) else "?"
    return (f"seat {seat} ({name}) forked the {what} (os.fork) at ply {status.fork_ply}; "
            f"it and its descendants killed")
