"""Interaction positions (``docs/rules/interaction.md`` "A move", "End"); the move mechanics
(``strikes``, ``simulate``, Zobrist keys) are in ``arena.games.interaction.mechanics``.

Hot path: ``legal_moves`` finds where each cue ball strikes with an occupancy mask (an int,
one bit per cell) over the straight runs of its precomputed free path (``geometry.STRIKES``);
``play`` simulates one move on a ``bytearray`` copy of the 81-byte board and updates the
Zobrist key and the occupancy mask incrementally; at plies 0 and 1 (the first-turn rule needs
the simulation for legality) ``legal_moves`` keeps the simulations, so ``play`` reuses them.
Repetition history is a parent chain cut at every pocketing (no earlier position can recur once
a score changed) plus a 1024-bit Bloom filter of the keys in the chain, so ``play`` walks the
chain only on a filter hit.
"""

from __future__ import annotations

from typing import Any, cast

from arena.errors import IllegalMoveError
from arena.games.interaction.geometry import NUM_CELLS, PATH_CELLS, cell_name
from arena.games.interaction.mechanics import (
    BLOOM_BITS,
    Z_SIDE,
    ZOBRIST,
    board_key,
    neutral_mask,
    occupancy,
    score_key,
    simulate,
    strikes,
)
from arena.games.interaction.notation import (
    _BY_NAME,
    MOVES,
    PASS,
    SEAT_NAMES,
    Move,
    diagram,
    format_position,
    parse_move_text,
)
from arena.games.interaction.search import LeafPosition, SearchSteps
from arena.games.protocol import TERMINAL, Outcome, State

_new = object.__new__


class InteractionState(SearchSteps, State):
    """An Interaction position. Immutable; ``play`` returns a new state.

    History (threefold repetition, two passes in a row) is kept by parent pointers from
    ``play``; a state made by ``Game.parse_state`` or ``initial_state`` starts without it.

    Fast methods for search and evaluation, beside the protocol's:

    - ``key()``: 64-bit Zobrist key of (board, scores, side to move).
    - ``balls(piece)``: the cells holding ``piece``.
    - ``successors()``: ``[(move, state), ...]`` for every legal move, simulated in one pass.
    - ``best_leaf(...)``: a depth-1 node of alpha-beta in one loop (positions simulated,
      valued and cut off at ``beta``); ``leaves(skip)``: the same positions as
      ``(move, position)`` pairs for evaluation only, the moves generated lazily.
    - ``child(move)``: ``play`` of a move of ``legal_moves()`` without the legality re-check.
    - ``random_child(u)``: the state after the move a random playout picks with ``u`` in [0, 1).
    - ``try_play(move)`` / ``try_leaf(move)``: one move checked alone (``None``: not legal), as
      ``play`` / ``leaves`` give it, without generating the other moves.

    Attributes:
        board: ``bytes`` of 81 cells, index ``rank * 9 + file`` (0-based), holding 0 empty,
            1 Red, 2 Blue, 3 neutral (``notation.EMPTY RED BLUE NEUTRAL``); a seat's piece is
            ``seat + 1``. Read-only, as every field.
        occ: occupancy mask, an int with bit ``cell`` set for each ball.
        nmask: neutral mask, an int with bit ``cell`` set for each neutral ball (kept by
            ``simulate`` move by move: an evaluator reads the neutrals without the board).
        side: the seat (0 Red, 1 Blue) whose turn it is, also at a terminal state.
        scores: (Red, Blue) pocketed neutrals.
        ply: plies played (the position text's ply count).
        termination: the end reason, or ``None`` while the game goes on.
    """

    __slots__ = ("game", "board", "occ", "nmask", "side", "scores", "ply", "to_move", "_key", "_prev", "_bloom",
                 "_passed", "_term", "_sims", "_moves")  # ``_hits``: ``SearchSteps``'s slot

    #: the parent state (repetition history), ``None`` after a pocketing or at a start
    _prev: InteractionState | None
    #: this state was reached by a pass
    _passed: bool
    _term: str | None
    _moves: list[Move] | None

    @classmethod
    def start(cls, game: Any, board: bytes, side: int, scores: tuple[int, int], ply: int) -> InteractionState:
        """A state with an empty history (from a setup or a position text)."""
        st = _new(cls)
        st.game, st.board, st.side, st.scores, st.ply = game, board, side, scores, ply
        st.occ = occupancy(board)
        st.nmask = neutral_mask(board)
        st._key = board_key(board) ^ (Z_SIDE if side else 0) ^ score_key(0, scores[0]) ^ score_key(1, scores[1])
        st._prev, st._bloom, st._passed, st._hits, st._sims, st._moves = (
            None, BLOOM_BITS[st._key & 1023], False, None, None, None)
        st._term = ("target" if max(scores) >= game.target else "max_plies" if ply >= game.max_plies else None)
        st.to_move = TERMINAL if st._term else side
        return st

    # -- move generation -------------------------------------------------------------------
    def _generate(self) -> dict[int, int]:
        hits = strikes(self.board, self.occ, self.side)
        if self.ply < 2 and hits:  # first turn: a move that would pocket is illegal
            stop = self.game.stop_rule
            sims = {}
            for s, hit in list(hits.items()):
                sim = simulate(self.board, self.occ, self.nmask, s, hit, stop)
                if sim[2]:
                    del hits[s]
                else:
                    sims[s] = sim
            self._sims = sims
        self._hits = hits
        return hits

    def legal_moves(self) -> list[Move]:
        """Legal moves: own balls in cell order, directions N..NW; ``[PASS]`` if none; ``[]`` at
        the end of the game."""
        if self._moves is None:
            if self.to_move < 0:
                self._moves = []
            else:
                hits = self._generate() if self._hits is None else self._hits
                self._moves = [MOVES[s] for s in hits] if hits else [PASS]
        return list(self._moves)

    def given_legal(self, texts: list[str]) -> None:
        """Take ``texts`` (moves as ``str`` writes them) as the legal moves here, when each is a
        move: an engine's ``legal`` line (``docs/engine-protocol.md`` "Messages"), so that
        ``legal_moves`` need not generate them again. Ignored once they are known, at the end
        of the game, or when a text is not a move; ``play`` still checks every move."""
        if self._moves is None and self.to_move >= 0 and texts:
            moves = [_BY_NAME.get(t) for t in texts]
            if None not in moves:
                self._moves = cast("list[Move]", moves)

    def successors(self) -> list[tuple[Move, InteractionState]]:
        """``[(move, state after), ...]`` in ``legal_moves`` order (``[]`` when terminal)."""
        if self.to_move < 0:
            return []
        hits = self._generate() if self._hits is None else self._hits
        if not hits:
            return [(PASS, self._child(self.board, 0, 0, self.occ, self.nmask, True))]
        sims = self._sims
        board = self.board
        stop = self.game.stop_rule
        child = self._child
        if sims is not None:
            return [(MOVES[s], child(*sims[s], False)) for s in hits]
        occ, nmask = self.occ, self.nmask
        return [(MOVES[s], child(*simulate(board, occ, nmask, s, hit, stop), False)) for s, hit in hits.items()]

    def play(self, move: Any) -> InteractionState:
        """The state after ``move`` (a ``Move`` or its notation).

        Raises:
            IllegalMoveError: the game is over, or the move is not legal here (the message says
                why: not the mover's ball, momentum 0, a path that never meets a ball, a pocket
                on the first turn, a pass while moves exist).
            MoveSyntaxError: ``move`` is a string that is not Interaction notation.
        """
        if self.to_move < 0:
            raise IllegalMoveError(f"the game is over ({self._term}); no move {move!s} can be played")
        if move.__class__ is not Move:
            move = self._coerce(move)
        hits = self._generate() if self._hits is None else self._hits
        if move is PASS:
            if hits:
                raise IllegalMoveError(f"pass is legal only without a legal move; {len(hits)} moves here")
            return self._child(self.board, 0, 0, self.occ, self.nmask, True)
        s = move.cell * 8 + move.direction
        hit = hits.get(s)
        if hit is None:
            raise IllegalMoveError(self._why_illegal(move))
        return self._after(s, hit)

    def child(self, move: Move) -> InteractionState:
        """The state after ``move``, one of this state's ``legal_moves()``, without checking its
        legality again (for search: MCTS playouts). A move that is not a legal strike here
        (possible only when ``given_legal`` took a wrong list) goes to ``play``, which raises
        ``IllegalMoveError``."""
        if move is PASS:
            return self._child(self.board, 0, 0, self.occ, self.nmask, True)
        s = move.cell * 8 + move.direction
        hits = self._hits
        if hits is None:  # the legal moves were given (``given_legal``), not generated
            hits = self._generate()
        hit = hits.get(s)
        if hit is None:
            return self.play(move)
        return self._after(s, hit)

    def _after(self, s: int, hit: int) -> InteractionState:
        """The state after the legal strike ``s`` (``cell * 8 + direction``) of momentum
        ``hit``: the simulation kept by move generation at plies 0 and 1, else a new one."""
        sims = self._sims
        if sims is not None:
            return self._child(*sims[s], False)
        return self._child(*simulate(self.board, self.occ, self.nmask, s, hit, self.game.stop_rule), False)

    def _child(self, board: bytes, z: int, pocketed: int, occ: int, nmask: int, passed: bool) -> InteractionState:
        game = self.game
        side = self.side
        st = _new(InteractionState)
        st.game = game
        st.board = board
        st.occ = occ
        st.nmask = nmask
        st.side = side ^ 1
        st.ply = ply = self.ply + 1
        st._passed = passed
        st._hits = st._sims = st._moves = None
        key = self._key ^ z ^ Z_SIDE
        term = None
        if pocketed:
            red, blue = self.scores
            if side:
                key ^= score_key(1, blue) ^ score_key(1, blue + 1)
                st.scores = (red, blue + 1)
                won = blue + 1 >= game.target
            else:
                key ^= score_key(0, red) ^ score_key(0, red + 1)
                st.scores = (red + 1, blue)
                won = red + 1 >= game.target
            st._prev = None  # no earlier position can recur: the scores changed
            st._bloom = BLOOM_BITS[key & 1023]
            if won:
                term = "target"
        else:
            st.scores = self.scores
            st._prev = self
            bit = BLOOM_BITS[key & 1023]
            bloom = self._bloom
            if bloom & bit and self._repeats(key, board) >= 2:
                term = "repetition"
            st._bloom = bloom | bit
        st._key = key
        if term is None:
            if passed and self._passed:
                term = "passes"
            elif ply >= game.max_plies:
                term = "max_plies"
        st._term = term
        st.to_move = TERMINAL if term else side ^ 1
        return st

    def _repeats(self, key: int, board: bytes) -> int:
        """Earlier occurrences of (key, board) in this state's history, itself included."""
        count = 0
        st: InteractionState | None = self
        while st is not None:
            if st._key == key and st.board == board:
                count += 1
            st = st._prev
        return count

    def _coerce(self, move: Any) -> Move:
        if isinstance(move, str):
            return parse_move_text(move)
        raise IllegalMoveError(f"not an Interaction move: {type(move).__name__} {str(move)[:40]!r}")

    def _why_illegal(self, move: Move) -> str:
        name = SEAT_NAMES[self.side]
        if not 0 <= move.cell < NUM_CELLS or self.board[move.cell] != self.side + 1:
            return f"{move}: {cell_name(move.cell)} does not hold a {name} ball"
        s = move.cell * 8 + move.direction
        for i, q in enumerate(PATH_CELLS[s]):
            if self.board[q] and q != move.cell:
                if i == 0:
                    return f"{move}: the cue ball is next to a ball that way (momentum 0)"
                return f"{move}: would pocket a neutral during the first turn (plies 0 and 1)"
        return f"{move}: the cue ball's free path never meets a ball"

    # -- end of game, text ---------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.to_move < 0

    @property
    def termination(self) -> str | None:
        """``"target"``, ``"repetition"``, ``"passes"``, ``"max_plies"``, or ``None``."""
        return self._term

    def outcome(self) -> Outcome | None:
        term = self._term
        if term is None:
            return None
        if term == "repetition" or (term != "target" and self.game.cap_draw):
            return Outcome(self.scores, (1, 1), term)
        return Outcome.from_scores(self.scores, term)

    def key(self) -> int:
        return self._key

    def balls(self, piece: int) -> tuple[int, ...]:
        """Cells holding ``piece`` (1 Red, 2 Blue, 3 neutral), ascending."""
        return tuple(c for c, p in enumerate(self.board) if p == piece)

    def to_text(self) -> str:
        return format_position(self.board, self.side, self.scores, self.ply)

    def diagram(self) -> str:
        if self._term:
            status = f"game over: {self._term}"
        else:
            status = f"{SEAT_NAMES[self.side]} to move"
        return diagram(self.board, self.side, self.scores, self.ply, status)

    def __repr__(self) -> str:
        return f"InteractionState({self.to_text()!r})"


__all__ = ["InteractionState", "LeafPosition", "simulate", "strikes", "occupancy", "neutral_mask", "board_key",
           "score_key", "ZOBRIST", "Z_SIDE"]
