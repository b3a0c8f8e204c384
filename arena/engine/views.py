"""Views over the engine protocol (``docs/engine-protocol.md`` "Views"): in a game with hidden
information (``GameType.hidden_information``) an engine is sent its seat's view
(``arena.games.View``) in a ``view`` line, never the position, and only an engine of protocol
``VIEWS_VERSION`` or later is offered such a game."""

from __future__ import annotations

from arena.engine.protocol import VIEWS_VERSION
from arena.games import Game, State, View


def seat_view(state: State | View, seat: int) -> View:
    """0-based ``seat``'s view of ``state`` in a game with hidden information: ``state`` itself
    when the referee handed a ``View``, else the state's ``view(seat)``.

    Raises:
        TypeError: the game gives a state, not a ``View``, for a seat's view, or the view is
            another seat's (the game's or the referee's error: nothing is sent to the engine).
    """
    view = state if isinstance(state, View) else state.view(seat)
    if not isinstance(view, View) or view.seat != seat:
        what = type(view).__name__ if not isinstance(view, View) else f"seat {view.seat}'s view"
        game = getattr(getattr(state, "game", None), "name", "the game")
        raise TypeError(f"{game} has hidden information but gave {what} for seat {seat}: an engine is sent its "
                        "seat's View only, never a position")
    return view


def refusal(version: int | None, label: str, game: Game) -> str | None:
    """Why an engine that speaks protocol ``version`` (``None``: not known yet) cannot play
    ``game``, or ``None``: a game with hidden information needs ``VIEWS_VERSION``, whose
    ``view`` lines carry each seat's view (an older engine knows only ``position``)."""
    if version is None or version >= VIEWS_VERSION or not game.type.hidden_information:
        return None
    said = "aepok" if version == 1 else f"aepok {version}"
    return (f"engine {label!r} speaks protocol {version} ({said}); {game.name} has hidden information, played with "
            f"protocol {VIEWS_VERSION}'s view lines (each engine is sent its seat's view, never the position): "
            f"an engine answers aep {VIEWS_VERSION} with aepok {VIEWS_VERSION} (docs/engine-protocol.md, \"Views\")")
