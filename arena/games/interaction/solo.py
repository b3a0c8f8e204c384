"""Solo Interaction: one red ball pockets every neutral in as few moves as possible
(``docs/rules/interaction.md`` "Solo Interaction"; the 1979 rulebook's "Solo Interaction").

The board and the movement rules are Interaction's (``state.simulate``, ``state.strikes``),
with ``pocketing="enter"``. The player is seat 0 (Red); there is no blue ball and the side
to move is always red. The rulebook's rule of the first turn applies to the first move only
(ply 0): it may not pocket a neutral (the two-player game's "plies 0 and 1" are one ply per
player; solo has one player, so its first turn is ply 0).

Terminations: ``"cleared"`` (no neutral left), ``"max_plies"`` (the ply count reached
``max_plies``), ``"stalled"`` (no legal move). Score = -(moves made) when cleared, else
-(``max_plies`` + neutrals left); the single seat ranks 1.

Position text: the Interaction position text with ``r``, the neutrals pocketed and ``0``
for Blue's score, e.g. ``#.......#/...Y...../.../#.......# r 0 0 0``.
"""

from __future__ import annotations

from typing import Any

from arena.errors import ConfigError, IllegalMoveError, PositionSyntaxError
from arena.games.interaction.game import RULES, InteractionBoardGame, with_side
from arena.games.interaction.layouts import LAYOUTS
from arena.games.interaction.notation import (
    BLUE,
    MOVES,
    RED,
    Move,
    diagram,
    format_position,
    parse_move_text,
    parse_position,
)
from arena.games.interaction.state import neutral_mask, occupancy, simulate, strikes
from arena.games.sequence import MoveSequence
from arena.games.protocol import TERMINAL, GameType, Outcome, Param, State


class SoloSolution(MoveSequence):
    """A sequence of ``Move``; ``str`` is the notation ``e1N d3SW`` (``""`` for no move)."""

    MOVE = Move
    parse_move = staticmethod(parse_move_text)


def first_turn_filter(board: bytes, occ: int, hits: dict[int, int],
                      nmask: int | None = None) -> dict[int, tuple[bytes, int, int, int, int]]:
    """``{state s: simulation}`` of the moves in ``hits`` that pocket nothing (the first
    move's rule, "Solo Interaction": the rulebook's rule of the first turn); ``nmask``: the
    neutral mask of ``board`` (computed when ``None``)."""
    out = {}
    if nmask is None:
        nmask = neutral_mask(board)
    for s, hit in hits.items():
        sim = simulate(board, occ, nmask, s, hit, False)
        if not sim[2]:
            out[s] = sim
    return out


class SoloState(State):
    """A Solo Interaction position. Immutable; ``play`` returns a new state.

    Attributes:
        board: ``bytes`` of 81 cells (``rank * 9 + file``): 0 empty, 1 red, 3 neutral.
        occ: occupancy mask (bit ``cell`` set for each ball).
        nmask: neutral mask (bit ``cell`` set for each neutral).
        ply: moves made so far.
        pocketed: neutrals pocketed so far.
        neutrals: neutrals left on the board.
    """

    __slots__ = ("game", "board", "occ", "nmask", "ply", "pocketed", "neutrals", "to_move", "_term", "_moves")

    def __init__(self, game: InteractionSoloGame, board: bytes, ply: int, pocketed: int,
                 occ: int | None = None, nmask: int | None = None) -> None:
        self.game, self.board, self.ply, self.pocketed = game, board, ply, pocketed
        self.occ = occupancy(board) if occ is None else occ
        self.nmask = neutral_mask(board) if nmask is None else nmask
        self.neutrals = self.nmask.bit_count()
        self._moves: dict[int, tuple] | None = None
        if self.neutrals == 0:
            term = "cleared"
        elif ply >= game.max_plies:
            term = "max_plies"
        elif not self._generate():
            term = "stalled"
        else:
            term = None
        self._term = term
        self.to_move = TERMINAL if term else 0

    def _generate(self) -> dict[int, tuple]:
        """``{cell * 8 + direction: (momentum, simulation or None)}`` of the legal moves."""
        if self._moves is None:
            hits = strikes(self.board, self.occ, 0)
            if self.ply == 0:
                sims = first_turn_filter(self.board, self.occ, hits, self.nmask)
                self._moves = {s: (hits[s], sim) for s, sim in sims.items()}
            else:
                self._moves = {s: (hit, None) for s, hit in hits.items()}
        return self._moves

    def legal_moves(self) -> list[Move]:
        """Legal moves in direction order N..NW (``[]`` at the end)."""
        return [] if self._term else [MOVES[s] for s in self._generate()]

    def successors(self) -> list[tuple[Move, SoloState]]:
        """``[(move, state after), ...]`` in ``legal_moves`` order."""
        return [(m, self.play(m)) for m in self.legal_moves()]

    def play(self, move: Any) -> SoloState:
        """The state after ``move`` (a ``Move`` or its notation).

        Raises:
            IllegalMoveError: the game is over or the move is not legal here.
            MoveSyntaxError: a string that is not Interaction notation.
        """
        if self._term:
            raise IllegalMoveError(f"the game is over ({self._term}); no move {move!s} can be played")
        if isinstance(move, str):
            move = parse_move_text(move)
        if not isinstance(move, Move):
            raise IllegalMoveError(f"not an Interaction move: {type(move).__name__}")
        s = move.cell * 8 + move.direction
        entry = self._generate().get(s) if move.cell >= 0 else None
        if entry is None:
            raise IllegalMoveError(f"{move} is not legal here; legal: {' '.join(map(str, self.legal_moves()))}")
        hit, sim = entry
        board, _, pocketed, occ, nmask = sim or simulate(self.board, self.occ, self.nmask, s, hit, False)
        return SoloState(self.game, board, self.ply + 1, self.pocketed + pocketed, occ, nmask)

    def run(self, moves: Any) -> SoloState:
        """The state after a whole solution (``SoloSolution.of`` forms).

        Raises:
            IllegalMoveError: a move that is not legal where it is played.
            MoveSyntaxError: text that is not a solution.
        """
        state = self
        for move in SoloSolution.of(moves):
            state = state.play(move)
        return state

    def is_terminal(self) -> bool:
        return self._term is not None

    @property
    def termination(self) -> str | None:
        """``"cleared"``, ``"max_plies"``, ``"stalled"`` or ``None``."""
        return self._term

    def outcome(self) -> Outcome | None:
        if self._term is None:
            return None
        score = -self.ply if self._term == "cleared" else -(self.game.max_plies + self.neutrals)
        return Outcome((score,), (1,), self._term)

    def key(self) -> tuple[bytes, int]:
        return self.board, self.ply

    def to_text(self) -> str:
        return format_position(self.board, 0, (self.pocketed, 0), self.ply)

    def diagram(self) -> str:
        status = f"game over: {self._term}" if self._term else f"{self.neutrals} neutrals left"
        return diagram(self.board, 0, (self.pocketed, 0), self.ply, status).replace("  Blue 0", "")

    def __repr__(self) -> str:
        return f"SoloState({self.to_text()!r})"


def parse_solo_position(text: str) -> tuple[bytes, int, int]:
    """(board, ply, pocketed) from position text (a board alone means ``r 0 0 0``).

    Raises:
        PositionSyntaxError: malformed text, a blue ball, not exactly one red ball, side ``b``
            or a Blue score other than 0.
    """
    board, side, scores, ply = parse_position(with_side(text))
    if side != 0 or scores[1] != 0:
        raise PositionSyntaxError("bad Solo Interaction position: the side to move is r and Blue's score 0")
    if board.count(BLUE) or board.count(RED) != 1:
        raise PositionSyntaxError("bad Solo Interaction position: exactly one red ball (R) and no blue ball")
    return board, ply, scores[0]


class InteractionSoloGame(InteractionBoardGame):
    """Solo Interaction: pocket every neutral with one red ball in the fewest moves.

    One seat clears the board in as few moves as possible.

    Parameters: ``layout`` (1-6: the arena's numbered layouts, easiest first; 0: ``setup``),
    ``setup`` (position text or board), ``max_plies`` (moves allowed).

    Raises:
        ConfigError: a bad parameter or a setup that is not a Solo Interaction position.
    """

    name = "interaction-solo"
    #: Extra lines for ``arena games`` after the summary: each layout's figures in the rulebook's form.
    catalogue = tuple(f"layout={lay.number}: {lay}" for lay in LAYOUTS)
    type = GameType(1, 1)
    TERMINATIONS = {
        "cleared": f"no neutral left on the board: score -(moves made) ({RULES} \"Solo Interaction\")",
        "max_plies": "``max_plies`` moves were made: score -(``max_plies`` + neutrals left)",
        "stalled": "no legal move is left: score -(``max_plies`` + neutrals left)",
    }
    PARAMS = {
        "layout": Param(1, "numbered layout 1-6 (easiest first), 0 = use setup", choices=tuple(range(7))),
        "setup": Param("", "start position text (used with layout=0)"),
        "max_plies": Param(40, "moves allowed", minimum=1),
    }

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        layout = self.params["layout"]
        if layout == 0 and not self.params["setup"].strip():
            raise ConfigError("game interaction-solo: layout=0 needs setup=<position text>")
        text = LAYOUTS[layout - 1].text if layout else self.params["setup"]
        self._setup = self._read_setup(text, parse_solo_position)

    def initial_state(self, seed: int | None = None) -> SoloState:
        """The layout (``seed`` is unused: the layout is fixed)."""
        return SoloState(self, *self._setup)

    def parse_state(self, text: str) -> SoloState:
        """A state from position text.

        Raises:
            PositionSyntaxError: not a Solo Interaction position.
        """
        return SoloState(self, *parse_solo_position(text))


__all__ = ["InteractionSoloGame", "SoloState", "SoloSolution", "parse_solo_position", "first_turn_filter"]
