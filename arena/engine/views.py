"""Views over the engine protocol (``docs/engine-protocol.md`` "Views"): in a game with hidden
information (``GameType.hidden_information``) an engine is sent its seat's view
(``arena.games.View``) in a ``view`` line, never the position, and only an engine of protocol
``VIEWS_VERSION`` or later is offered such a game. An isolated bot is asked one move of such a
game before the first game (``trial``): a bot that cannot play from a protocol view (one that
samples states: such a view has no sampler) is refused then, in one line."""

from __future__ import annotations

import time
from traceback import walk_tb
from typing import Any

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


#: why ``View.sample`` fails on a view made from a ``view`` line (added to its exception)
NO_SAMPLER = ("a view sent over the engine protocol has no sampler (the states behind it never leave the arena): "
              "a bot that samples states plays games with hidden information in process, not as an engine")


def no_sampler(exc: NotImplementedError, handed: Any) -> None:
    """Make ``NO_SAMPLER`` the message of ``exc`` when ``View.sample`` of the view ``handed`` to a
    bot served over the protocol raised it (the game's own words would say the game gives no
    sampler, when it may give one in process: over the protocol none of its views has one)."""
    sample = View.sample.__code__
    if isinstance(handed, View) and any(frame.f_code is sample for frame, _ in walk_tb(exc.__traceback__)):
        exc.args = (f"{handed.game.name}: {NO_SAMPLER}",)


#: the ``go`` of the trial move of an isolated bot before the first game (``trial``)
TRIAL_GO = "go movetime 200 nodes 50 depth 1"


def trial(engine: Any, game: Game, seconds: float) -> str | None:
    """Ask a started engine (an isolated bot, ``arena.engine.sandbox.check_isolated``) one move of
    ``game``, a game with hidden information: seat 0's view at its first move in a seeded random
    game (``arena.engine.walk``), ``TRIAL_GO``. Returns the fault the bot named before it exited
    (``info string fault ...``: a bot that cannot play from a view sent over the protocol, e.g.
    one that samples states, ``view.sample``), or ``None``: it answered, or it was still thinking
    after ``seconds`` (its games judge that), or the game gives seat 0 no move."""
    from arena.engine.process import EngineClosed, LineTooLong
    from arena.engine.protocol import format_view
    from arena.engine.walk import decisions
    found = decisions(game, 0, 0)
    if not found:
        return None
    view = seat_view(found[0][1], 0)
    deadline = time.monotonic() + seconds
    try:
        engine.send("seat 0 0", format_view(view.to_move, view.text), "legal " + " ".join(map(str, view.moves)),
                    TRIAL_GO)
        while (line := engine.read_line(deadline)) is not None and not line.startswith("bestmove"):
            engine.other(line)  # keeps an ``info string fault`` line
    except (EngineClosed, LineTooLong):
        said = engine.last_info_string or "its engine ended"
        return f"it cannot play from a view sent over the protocol: {said.removeprefix('fault ')}"
    return None
