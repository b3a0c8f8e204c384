"""``InteractionGame``: the factory of Interaction positions (``docs/rules/interaction.md``)."""

from __future__ import annotations

from typing import Any

from arena.errors import ConfigError, PositionSyntaxError
from arena.games.interaction.notation import DEFAULT_SETUP, Move, parse_move_text, parse_position
from arena.games.interaction.state import InteractionState
from arena.games.protocol import Dynamics, Game, GameType, Param


class InteractionGame(Game):
    """Interaction (Waddingtons 1979): 2 seats, Red (seat 0) moves first.

    Parameters (``docs/rules/interaction.md`` "Parameters"): ``target`` neutrals to win,
    ``max_plies`` ply limit, ``cap_result`` (``score``: the higher score wins a game ended by
    the ply limit or two passes; ``draw``: such games are drawn), ``pocketing`` (``enter``:
    a neutral is out when it enters a pocket; ``stop``: only when it stops on one), ``setup``
    (position text of the start; the board alone means ``r 0 0 0``).

    Raises:
        ConfigError: a bad parameter, including a setup that is not a valid position.
    """

    name = "interaction"
    summary = "Interaction (1979): billiard-like momentum game on a 9x9 board, pocket 5 neutrals"
    num_players = 2
    type = GameType(2, 2, Dynamics.SEQUENTIAL, chance=False, deterministic=True)
    PARAMS = {
        "target": Param(5, "neutrals to pocket to win at once", minimum=1),
        "max_plies": Param(200, "ply limit (the game ends when the ply count reaches it)", minimum=1),
        "cap_result": Param("score", "result at the ply limit or after two passes", choices=("score", "draw")),
        "pocketing": Param("enter", "a neutral is out when it enters a pocket, or only when it stops on one",
                           choices=("enter", "stop")),
        "setup": Param(DEFAULT_SETUP, "start position text (ranks 9..1 '/', side, scores, ply)"),
    }

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.target: int = self.params["target"]
        self.max_plies: int = self.params["max_plies"]
        self.cap_draw: bool = self.params["cap_result"] == "draw"
        self.stop_rule: bool = self.params["pocketing"] == "stop"
        text = self.params["setup"].strip()
        if len(text.split()) == 1:
            text += " r 0 0 0"
        try:
            self._setup = parse_position(text)
        except PositionSyntaxError as exc:
            raise ConfigError(f"game interaction: parameter setup: {exc}") from None

    def initial_state(self, seed: int | None = None) -> InteractionState:
        """The setup position (``seed`` is unused: the setup is fixed), with an empty history."""
        return InteractionState.start(self, *self._setup)

    def parse_state(self, text: str) -> InteractionState:
        """A state from position text, with an empty history (like FEN).

        Raises:
            PositionSyntaxError: malformed text or an impossible position.
        """
        return InteractionState.start(self, *parse_position(text))

    def parse_move(self, state: Any, text: str) -> Move:
        """A move from notation (``e1N``, ``h6nw``, ``pass``); legality is checked by ``play``.

        Raises:
            MoveSyntaxError: not Interaction move notation.
        """
        return parse_move_text(text)

    def render_svg(self, state: Any, last_move: Any = None, previous: Any = None) -> str:
        """The board as SVG: clipped corners, pockets, balls, the last cue ball's path
        (``arena.games.interaction.svg``)."""
        from arena.games.interaction.svg import render

        return render(state, last_move, previous)
