"""``InteractionGame``: the factory of Interaction positions (``docs/rules/interaction.md``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from arena.errors import ConfigError, PositionSyntaxError
from arena.games.interaction.notation import (
    BLUE, DEFAULT_SETUP, NEUTRAL, RED, Move, parse_move_text, parse_position)
from arena.games.interaction.state import InteractionState
from arena.games.protocol import Game, GameType, Param

#: where the rules of the games on the Interaction board are written (their terminations cite it)
RULES = "``docs/rules/interaction.md``"

T = TypeVar("T")


class InteractionBoardGame(Game):
    """What the games on the Interaction board share (``InteractionGame`` and the solo games
    of ``arena.games.interaction.solo``): the ``max_plies`` limit, the move notation, and the
    ``setup`` parameter read as position text.

    Raises:
        ConfigError: a bad parameter (``Game``).
    """

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.max_plies: int = self.params["max_plies"]

    def parse_move(self, state: Any, text: str) -> Move:
        """A move from notation (``e1N``, ``h6nw``, ``pass``); legality is checked by ``play``.

        Raises:
            MoveSyntaxError: not Interaction move notation.
        """
        return parse_move_text(text)

    def _read_setup(self, text: str, parse: Callable[[str], T]) -> T:
        """``parse(text)`` for the start position, its error as the ``setup`` parameter's.

        Raises:
            ConfigError: ``parse`` refused the text (``PositionSyntaxError``).
        """
        try:
            return parse(text)
        except PositionSyntaxError as exc:
            raise ConfigError(f"game {self.name}: parameter setup: {exc}") from None


def with_side(text: str) -> str:
    """Position text with a board alone completed to ``r 0 0 0`` (Red to move, no score, ply 0);
    any other text as it is, stripped."""
    text = str(text).strip()
    return text + " r 0 0 0" if len(text.split()) == 1 else text


class InteractionGame(InteractionBoardGame):
    """Interaction (1979): billiard-like momentum game on a 9x9 board, pocket 5 neutrals.

    Waddingtons 1979: 2 seats, Red (seat 0) moves first. Parameters
    (``docs/rules/interaction.md`` "Parameters"): ``target`` neutrals to win, ``max_plies``
    ply limit, ``cap_result`` (``score``: the higher score wins a game ended by the ply limit
    or two passes; ``draw``: such games are drawn), ``pocketing`` (``enter``: a neutral is out
    when it enters a pocket; ``stop``: only when it stops on one), ``setup`` (position text of
    the start; the board alone means ``r 0 0 0``). A setup has one or two balls per player and
    one to ``NEUTRALS`` neutrals, counting those already pocketed (``docs/rules/interaction.md``
    "Pieces and setup"), and is not already over: each score below ``target``, the ply count
    below ``max_plies``.

    Raises:
        ConfigError: a bad parameter, including a setup that is not a valid position or that
            the setup rules exclude.
    """

    name = "interaction"
    type = GameType(2, 2)
    TERMINATIONS = {
        "target": f"the mover reached ``target`` pocketed neutrals and wins ({RULES} \"End of the game\")",
        "repetition": "a position (board, scores, side to move) occurred for the third time: a draw",
        "passes": "both players passed one after the other; the higher score wins (``cap_result=draw``: a draw)",
        "max_plies": "``max_plies`` plies were played; the higher score wins (``cap_result=draw``: a draw)",
    }
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
        self.cap_draw: bool = self.params["cap_result"] == "draw"
        self.stop_rule: bool = self.params["pocketing"] == "stop"
        self._setup = self._read_setup(with_side(self.params["setup"]), parse_position)
        board, _, scores, ply = self._setup
        problem = _setup_problem(board, scores, ply, self.target, self.max_plies)
        if problem:
            raise ConfigError(f"game interaction: parameter setup: {problem}; accepted: 1 or 2 red and 1 or 2 "
                              f"blue balls, 1 to {NEUTRALS} neutrals (with the scores), each score below "
                              f"target={self.target}, ply count below max_plies={self.max_plies}")

    def initial_state(self, seed: int | None = None) -> InteractionState:
        """The setup position (``seed`` is unused: the setup is fixed), with an empty history."""
        return InteractionState.start(self, *self._setup)

    def parse_state(self, text: str) -> InteractionState:
        """A state from position text, with an empty history (like FEN).

        Any well-formed board is read (the setup rules apply to ``setup`` only), so tests and
        analysis may set up positions beyond them.

        Raises:
            PositionSyntaxError: malformed text or an impossible position.
        """
        return InteractionState.start(self, *parse_position(text))

    def render_svg(self, state: Any, last_move: Any = None, previous: Any = None) -> str:
        """The board as SVG: clipped corners, pockets, balls, the last cue ball's path
        (``arena.games.interaction.svg``)."""
        from arena.games.interaction.svg import render

        return render(state, last_move, previous)


#: neutral balls in the set (``docs/rules/interaction.md`` "Pieces and setup")
NEUTRALS = 10


def _setup_problem(board: bytes, scores: tuple[int, int], ply: int, target: int, max_plies: int) -> str:
    """What the setup rules exclude in a start position (``""``: nothing)."""
    for piece, colour in ((RED, "red"), (BLUE, "blue")):
        if board.count(piece) not in (1, 2):
            return f"{board.count(piece)} {colour} balls"
    if not board.count(NEUTRAL):
        return "no neutral ball"
    if board.count(NEUTRAL) + sum(scores) > NEUTRALS:
        return f"{board.count(NEUTRAL)} neutrals on the board and {sum(scores)} pocketed"
    if max(scores) >= target:
        return f"the game is already won (score {max(scores)}, target={target})"
    if ply >= max_plies:
        return f"the game is already over (ply count {ply}, max_plies={max_plies})"
    return ""
