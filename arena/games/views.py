"""Views: what one seat may know of a position, in a game with hidden information.

In a game of perfect information (``GameType.hidden_information`` false) a seat's view is the
state itself (``State.view`` returns ``self``): nothing changes for those games. In a game with
hidden information (cards, dice, the other side's pieces, simultaneous answers) the referee
keeps the full state to itself and hands each bot only ``state.view(seat)``: a ``View``.

A ``View`` holds the seat, the seat to move, the seat's own text of the position (for an
OpenSpiel game its information-state string where the game provides one, else its
observation string) and the seat's legal moves. Its attributes never lead to the full state.
A game may also give a *sampler*: ``view.sample(rng)`` draws a full state consistent with the
view (a determinization, for information-set search). The sampler needs the true state, so it
is kept outside the view, in this module's registry, and only its draws are handed out; a bot
in the same process could still dig the registry out of this module (Python hides nothing from
code that runs beside it): ``--isolation process`` or an ``exec:`` engine is the guarantee
against a curious bot (``docs/how-to/hidden-information.md``).
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from arena.games.nodes import TERMINAL

if TYPE_CHECKING:
    from arena.games.protocol import Game, State

class SampleError(RuntimeError):
    """A game's sampler found no full state consistent with a view within its bounded tries
    (``View.sample``; the message says why)."""


#: A game's sampler of one view: ``rng`` -> a full state consistent with the view.
Sampler = Callable[[random.Random], "State"]

#: the samplers of the views alive, by view (kept out of the views' own attributes)
_SAMPLERS: weakref.WeakKeyDictionary[View, Sampler] = weakref.WeakKeyDictionary()


class View:
    """One seat's view of a position in a game with hidden information (``State.view``).

    Attributes:
        game: the game (its rules and parameters; no position).
        seat: the 0-based seat whose view this is.
        to_move: the seat to move (0-based), ``SIMULTANEOUS`` when every seat answers at once,
            ``TERMINAL`` at the end (``arena.games.protocol``).
        text: what the seat may know of the position and of the play so far, in the game's own
            words (may span several lines; for OpenSpiel games its information-state string, or
            its observation string where the game has none: ``docs/openspiel.md``).
        moves: the seat's legal moves in the game's notation, in the game's order (``()`` when
            the seat is not to move).

    Raises (constructor):
        ValueError: ``seat`` is negative.
    """

    __slots__ = ("game", "seat", "to_move", "text", "moves", "__weakref__")

    game: Game
    seat: int
    to_move: int
    text: str
    moves: tuple[Any, ...]

    def __init__(self, game: Game, seat: int, to_move: int, text: str, moves: Sequence[Any] = (),
                 sampler: Sampler | None = None) -> None:
        if seat < 0:
            raise ValueError(f"a view belongs to a 0-based seat, got {seat}")
        setattr_ = object.__setattr__
        setattr_(self, "game", game)
        setattr_(self, "seat", seat)
        setattr_(self, "to_move", to_move)
        setattr_(self, "text", text)
        setattr_(self, "moves", tuple(moves))
        if sampler is not None:
            _SAMPLERS[self] = sampler

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a View is read-only (tried to set {name!r})")

    def legal_moves(self) -> list:
        """The seat's legal moves (``moves``) as a new list."""
        return list(self.moves)

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.to_move == TERMINAL

    @property
    def can_sample(self) -> bool:
        """Whether the game gave a sampler for this view (``sample``)."""
        return self in _SAMPLERS

    def sample(self, rng: random.Random) -> State:
        """A full state consistent with this view (same view for this seat), drawn with ``rng``
        by the game's sampler: a determinization for information-set search (``ismcts``).

        Raises:
            NotImplementedError: the game gives no sampler for its views.
            SampleError: the sampler found no consistent state within its bounded tries (a
                sampler that draws and rejects, such as OpenSpiel's replay sampler).
        """
        sampler = _SAMPLERS.get(self)
        if sampler is None:
            raise NotImplementedError(f"{self.game.name}: this game gives no sampler of states for a view")
        return sampler(rng)

    def to_text(self) -> str:
        """``text``: the view in the game's words."""
        return self.text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"View(seat={self.seat}, to_move={self.to_move}, text={self.text[:40]!r}, moves={len(self.moves)})"


def rebound(view: View, game: Game, own: Callable[[State], State]) -> View:
    """``view`` with another game object (a seat's own copy: ``arena.referee.Private``) and its
    samples passed through ``own`` (a seat's own copy of each sampled state); the same text,
    moves and sampler otherwise. The referee hands a bot this, so that nothing the bot reaches
    from its view is an object the referee keeps using."""
    sampler = _SAMPLERS.get(view)
    return View(game, view.seat, view.to_move, view.text, view.moves,
                None if sampler is None else lambda rng: own(sampler(rng)))
