"""What one game is played with: ``GameSettings`` (data, picklable with its game) and
``GameHooks`` (the callbacks a supervisor hangs on the match loop).

One settings object replaces the keyword list that ``play_game``, ``referee_game`` and the
supervisor of a watched game (``arena.supervisor``) each repeated; each of them takes it whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from arena.games import Game, State
from arena.referee.records import MoveRecord
from arena.referee.adjudicate import Adjudication
from bots.base import Limits
from bots.clock import TimeControl

#: ``on_move(seat, state, allowed)``: a bot is about to be asked (0-based seat, the state it
#: sees, and the seconds its game clock allows the move before it loses: clock plus margin;
#: ``None`` when no clock times the move)
OnMove = Callable[[int, State, "float | None"], None]
#: ``on_ply(state after, record)``: a ply was played (once per simultaneous round, last seat's record)
OnPly = Callable[[State, MoveRecord], None]
#: ``on_reset(seat)``: a seat's bot is about to be reset
OnReset = Callable[[int], None]


def _tuple(value: Sequence | None) -> tuple | None:
    return None if value is None else tuple(value)


@dataclass(frozen=True)
class GameSettings:
    """One game to play.

    Attributes:
        game: the game (its parameters fixed).
        seed: the game's (series) seed: ``game.initial_state(seed)``, the opening plies and the
            bots' seeds (``seeds``) derive from it.
        labels: bot labels by 0-based seat, stored in the record (``None``: ``bot.label`` or the
            class name).
        opening: forced opening plies in the game's notation, played before the bots move.
        limits: ``Limits`` for every seat, a tuple of one per seat, or ``None`` (unlimited).
        time_margin: seconds a move may overrun ``limits.time`` before it loses (``timeout``).
        seeds: each seat's bot seed (a tournament passes ``bot_seeds`` of the game's index in
            its series); ``None``: ``bot_seeds(seed, 0, labels)`` (a label given twice is made
            unique with ``@seat``).
        start: position text the game starts from (``game.parse_state``) instead of
            ``game.initial_state(seed)`` (an opening from a file), or ``None``.
        memory_limit: MiB of address space the bots may add to the process playing (named in a
            ``memory`` fault's detail; enforced by ``arena.os_guard``), or ``None``.
        clocks: game clocks (``--tc``, a spec's ``tc=``): one ``TimeControl`` for every seat, a
            tuple of one per seat (``None``: that seat has no clock), or ``None`` (no clocks;
            ``arena.referee.clock``).
        adjudication: the ``--adjudicate`` rules (``arena.referee.adjudicate``), or ``None``.
        trusted: every bot runs only the arena's own code here (a built-in bot, or a client
            of a bot in a process of its own: ``arena.tournament.worker.trusted``), so each is
            handed the referee's state itself, no private copy (``arena.referee.private``; in a
            game with hidden information still only its seat's view).

    Sequences given as lists are kept as tuples.
    """

    game: Game
    seed: int
    labels: tuple[str, ...] | None = None
    opening: tuple[str, ...] = ()
    limits: Limits | tuple[Limits | None, ...] | None = None
    time_margin: float = 0.5
    seeds: tuple[int, ...] | None = None
    start: str | None = None
    memory_limit: int | None = None
    clocks: TimeControl | tuple[TimeControl | None, ...] | None = None
    adjudication: Adjudication | None = None
    trusted: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "labels", _tuple(self.labels))
        object.__setattr__(self, "opening", tuple(self.opening))
        object.__setattr__(self, "seeds", _tuple(self.seeds) or None)
        if isinstance(self.limits, (list, tuple)):
            object.__setattr__(self, "limits", tuple(self.limits))
        if isinstance(self.clocks, list):
            object.__setattr__(self, "clocks", tuple(self.clocks))

    def per_seat(self) -> list[Limits | None]:
        """The limits of each 0-based seat (``game.num_players`` entries)."""
        if isinstance(self.limits, tuple):
            return list(self.limits)
        return [self.limits] * self.game.num_players

    def seat_clocks(self) -> list[TimeControl | None]:
        """The time control of each 0-based seat (``None``: no clock)."""
        if isinstance(self.clocks, tuple):
            return list(self.clocks)
        return [self.clocks] * self.game.num_players


@dataclass(frozen=True)
class GameHooks:
    """Callbacks of the match loop, all optional (``None``: not called).

    Attributes:
        on_move: ``(seat, state, allowed)`` before a bot is asked (a supervisor tracks who is
            thinking, to blame a hang or a crash; ``allowed``: seconds the seat's game clock
            gives the move, margin included, or ``None``); at a simultaneous round, once per seat.
        on_ply: ``(state after, MoveRecord)`` after each ply; once per simultaneous round, with
            the last seat's record.
        on_reset: ``(seat)`` before that seat's bot is reset.
    """

    on_move: OnMove | None = None
    on_ply: OnPly | None = None
    on_reset: OnReset | None = None


NO_HOOKS = GameHooks()
