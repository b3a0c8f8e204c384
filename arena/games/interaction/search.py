"""Search steps of Interaction positions (a mixin of ``InteractionState``): what alpha-beta
and MCTS call instead of ``legal_moves`` + ``play`` at the hot spots of a search.

- ``best_leaf``: alpha-beta over the positions one move away (a depth-1 node), in one loop.
- ``leaves(skip)``: the positions one move away, light ones (``LeafPosition``) for
  evaluation only where the game goes on, the moves generated one cue ball at a time;
  ``expand`` makes a light one whole later without simulating the move again.
- ``try_play`` / ``try_leaf``: one move checked alone (a hash or killer move) without
  generating the others.
- ``random_child``: one ply of a random playout without building the move list.

Every step gives what ``play`` gives (tests: ``tests/games/test_interaction_leaves.py``); the
rules are in ``docs/rules/interaction.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
import math
from typing import TYPE_CHECKING, Any

from arena.games.interaction.geometry import NUM_CELLS
from arena.games.interaction.mechanics import BLOOM_BITS, Z_SIDE, ball_strikes, legal_strikes, simulate, strike
from arena.games.interaction.notation import MOVES, PASS, Move

if TYPE_CHECKING:
    from arena.games.interaction.game import InteractionGame
    from arena.games.interaction.state import InteractionState

#: ``simulate``'s result: (board after, Zobrist change, neutrals pocketed, occupancy mask,
#: neutral mask).
Sim = tuple[bytes, int, int, int, int]

_new = object.__new__


class LeafPosition:
    """A live position reached by ``InteractionState.leaves``, for evaluation only: the fields
    an evaluator reads (``board``, ``occ``, ``nmask``, ``side``, ``scores``, ``ply``,
    ``to_move``), no Zobrist key, history, moves or text. Not a ``State``: it cannot be played
    from; the state that yielded it makes it whole (``InteractionState.expand``) from the
    simulation it keeps (``_sim``: ``simulate``'s result, board and occupancy read from it)."""

    __slots__ = ("nmask", "side", "scores", "ply", "to_move", "_sim")

    nmask: int
    side: int
    scores: tuple[int, int]
    ply: int
    to_move: int
    _sim: Sim

    @property
    def board(self) -> bytes:
        return self._sim[0]

    @property
    def occ(self) -> int:
        return self._sim[3]

    def is_terminal(self) -> bool:
        return False


def _leaf(sim: Sim, side: int, scores: tuple[int, int], ply: int) -> LeafPosition:
    """A light position from ``simulate``'s result ``sim``, ``side`` to move."""
    leaf = _new(LeafPosition)
    leaf.nmask = sim[4]
    leaf.to_move = leaf.side = side
    leaf.scores = scores
    leaf.ply = ply
    leaf._sim = sim
    return leaf


class SearchSteps:
    """Search steps of ``InteractionState`` (which provides ``board``, ``occ``, ``nmask``,
    ``side``, ``scores``, ``ply``, ``to_move``, ``game``, the move caches and ``_child``).

    The fields are declared here for the type checker (annotations only, no class
    attributes); ``_hits``, which the steps fill, is this class's slot."""

    __slots__ = ("_hits",)

    game: InteractionGame
    board: bytes
    occ: int
    nmask: int
    side: int
    scores: tuple[int, int]
    ply: int
    to_move: int
    _key: int
    _bloom: int
    #: the legal strikes ``{cell * 8 + direction: momentum}`` once generated, else ``None``
    _hits: dict[int, int] | None
    #: at plies 0 and 1, the simulations of the legal strikes (by strike), else ``None``
    _sims: dict[int, Sim] | None

    if TYPE_CHECKING:  # provided by ``InteractionState``
        def _generate(self) -> dict[int, int]: ...
        def _child(self, board: bytes, z: int, pocketed: int, occ: int, nmask: int,
                   passed: bool) -> InteractionState: ...
        def _after(self, s: int, hit: int) -> InteractionState: ...
        def play(self, move: Any) -> InteractionState: ...
        def legal_moves(self) -> list[Move]: ...

    def random_child(self, u: float) -> Any:
        """The state after ``legal_moves()[int(u * len(legal_moves()))]`` for ``u`` in [0, 1)
        (a live state only): one ply of a random playout, the same move as picking from
        ``legal_moves()``, without building the move list (MCTS playouts). The moves are taken
        in generation order, which is ``legal_moves()`` order unless ``given_legal`` took a
        list in another order. Moves not yet generated from ply 2 on (a playout's own
        positions) are only tested for legality (``legal_strikes``), and the momentum of the
        one played alone (``strike``): the others' momenta are never needed."""
        hits = self._hits
        if hits is None and self.ply >= 2:
            keys = legal_strikes(self.board, self.occ, self.side)
        else:
            if hits is None:  # the first turn: legality needs the simulations
                hits = self._generate()
            keys = list(hits)  # generation order: MOVES[s] for s in hits
        if not keys:
            return self._child(self.board, 0, 0, self.occ, self.nmask, True)
        s = keys[int(u * len(keys))]
        return self._after(s, hits[s] if hits is not None else strike(self.occ, s))

    def best_leaf(self, evaluate: Callable[[Any, int], float], seat: int, final: Callable[[Any], float],
                  alpha: float, beta: float, first: Iterable[Any] = (), kept: dict | None = None,
                  budget: float = math.inf, check: Callable[[int], float] | None = None,
                  light: Callable[[int, tuple[int, int], int, int], float] | None = None) -> tuple[float, Any, int]:
        """Alpha-beta over the positions one move away, in one loop: a depth-1 node of a
        search, the hot spot of alpha-beta. Returns ``(best value, its move, positions
        valued)``: ``(-inf, None, 0)`` at the end of the game; the best value is ``>= beta``
        exactly when its move cut the node off (the other moves were then not valued).

        - **Order**: the moves of ``first`` that are legal here (a search's hash move and
          killers; ``None`` entries and repeats ignored), each checked alone (``try_leaf``),
          then the others in generation order (``leaves`` order); from ply 2 on, moves are
          generated one cue ball at a time as the loop reaches them, so a cut-off early skips
          the simulations and the move generation of the other balls.
        - **Values** for 0-based ``seat`` (the side to move here): ``evaluate(position, seat)``
          of a live position, ``final(state)`` of a finished game. Positions are what
          ``leaves`` gives: a ``LeafPosition`` where the game goes on, the full state where it
          may end (``final`` reads its ``outcome()``).
        - **Light**: ``light(nmask, scores, side, seat)``, when given, is ``evaluate`` from the
          fields of a ``LeafPosition`` (the neutral mask, the scores, the side to move): light
          positions are valued by it, and built only to be kept.
        - **Kept**: each position valued is stored in ``kept[move]`` when ``kept`` is given (a
          search keeps them for its next iteration; ``expand`` makes them whole).
        - **Limits**: ``check(count)`` is called once ``count`` positions are valued and
          ``count >= budget`` (after that position's value, before its cut-off test); it
          raises to stop the search or returns the next budget.

        The loop is ``leaves`` and the cut-off test of alpha-beta run as one, with no generator
        between them (``_position`` inlined) and one loop body for the moves of ``first`` and
        the generated ones: same positions, same values as pulling from ``leaves``.
        """
        best, best_move, count = -math.inf, None, 0
        pos: InteractionState | LeafPosition  # the position valued (an annotation: no code)
        if self.to_move < 0:
            return best, best_move, count
        game = self.game
        hits = self._hits
        if hits is None and self.ply < 2:
            hits = self._generate()  # the first turn: legality needs the simulations
        sims, board, occ, nmask, stop = self._sims, self.board, self.occ, self.nmask, game.stop_rule
        key, bloom, side, scores, ply = self._key ^ Z_SIDE, self._bloom, self.side ^ 1, self.scores, self.ply + 1
        whole = ply >= game.max_plies  # every position ends the game: full states only
        pocketed = won = None  # the scores after a pocketing, and whether they win: when first needed
        bare = light is not None and kept is None  # light positions valued from their fields
        # The batches of strikes ``{s: momentum}``, one loop body for all: ``first``'s legal
        # strikes, then the generated ones less those (``skip``), all at once when known, else
        # one cue ball at a time (``ball_strikes``; ``found`` becomes ``_hits`` once complete).
        firsts = self._strikes_of(first, hits)
        batch = firsts.items()
        skip: dict[int, int] = {}
        if hits is None:
            found: dict[int, int] = {}
            piece = self.side + 1
            cell = board.find(piece)
        while True:
            for s, hit in batch:
                if s in skip:
                    continue
                sim = sims[s] if sims is not None else simulate(board, occ, nmask, s, hit, stop)
                if sim[2]:
                    if pocketed is None:
                        pocketed, won = self._pocket_scores()
                    after = None if won or whole else pocketed
                elif whole or bloom & BLOOM_BITS[(key ^ sim[1]) & 1023]:
                    after = None  # a possible repetition: ``_child`` checks it exactly
                else:
                    after = scores
                if after is None:
                    pos = self._child(*sim, False)
                    v = final(pos) if pos.to_move < 0 else evaluate(pos, seat)
                elif bare:
                    v = light(sim[4], after, side, seat)  # type: ignore[misc]  # bare: light is not None
                else:
                    pos = _new(LeafPosition)  # ``_leaf`` inlined
                    pos.nmask = sim[4]
                    pos.to_move = pos.side = side
                    pos.scores = after
                    pos.ply = ply
                    pos._sim = sim
                    v = evaluate(pos, seat) if light is None else light(sim[4], after, side, seat)
                count += 1
                if kept is not None:
                    kept[MOVES[s]] = pos
                if count >= budget:
                    budget = check(count)  # type: ignore[misc]  # a finite budget comes with check
                if v > best:
                    best, best_move = v, MOVES[s]
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            return best, best_move, count
            if hits is not None:
                if skip is firsts:
                    break
                skip, batch = firsts, hits.items()
            elif cell >= 0:
                skip = firsts
                ball = ball_strikes(occ, cell, {})
                found.update(ball)
                batch = ball.items()
                cell = board.find(piece, cell + 1)
            else:
                self._hits = found
                break
        if not self._hits:  # no strike: the pass is the one legal move
            pos = self.play(PASS)
            count += 1
            if kept is not None:
                kept[PASS] = pos
            v = final(pos) if pos.to_move < 0 else evaluate(pos, seat)
            if count >= budget:
                check(count)  # type: ignore[misc]  # a finite budget comes with check
            if v > best:
                best, best_move = v, PASS
        return best, best_move, count

    def leaves(self, skip: Collection[Move] = ()) -> Iterator[tuple[Move, Any]]:
        """Yield ``(move, position after move)`` for every legal move not in ``skip``, in
        generation order (``legal_moves`` order unless ``given_legal`` took another), lazily:
        from ply 2 on, with the legal moves not yet generated, they are generated one cue ball
        at a time as the caller asks for more. ``skip`` is read as each move comes up.

        A position is a ``LeafPosition`` (board, occupancy, neutral mask, side, scores, ply)
        when the game goes on there, the full state (``play(move)``) when it may end there (a
        pocketing that reaches the target, a possible repetition, a pass, the ply limit), so
        ``to_move < 0`` and ``outcome()`` stay exact. A pocketing short of the target is a
        light leaf with the new scores (no earlier position can recur once a score changed).
        For search leaves: skips what ``play`` adds for a position searched further (the
        child's Zobrist key, history, repetition filter); ``best_leaf`` values the same
        positions in one loop. Nothing is yielded at the end of the game.
        """
        if self.to_move < 0:
            return
        hits = self._hits
        if hits is None and self.ply < 2:
            hits = self._generate()
        for batch in (hits,) if hits is not None else self._strikes_by_ball():
            for s, hit in batch.items():
                move = MOVES[s]
                if move not in skip:
                    yield move, self._position(s, hit)
        if not self._hits and PASS not in skip:
            yield PASS, self.play(PASS)

    def _position(self, s: int, hit: int) -> Any:
        """The position after the legal strike ``s`` of momentum ``hit``, as ``leaves`` gives
        it: light where the game goes on, else the full state."""
        game = self.game
        sims = self._sims
        sim = sims[s] if sims is not None else simulate(self.board, self.occ, self.nmask, s, hit, game.stop_rule)
        if self.ply + 1 < game.max_plies:
            if sim[2]:
                scores, won = self._pocket_scores()
                if not won:
                    return _leaf(sim, self.side ^ 1, scores, self.ply + 1)
            elif not self._bloom & BLOOM_BITS[(self._key ^ Z_SIDE ^ sim[1]) & 1023]:
                return _leaf(sim, self.side ^ 1, self.scores, self.ply + 1)
        return self._child(*sim, False)

    def _strikes_by_ball(self) -> Iterator[dict[int, int]]:
        """The strikes of ``strikes`` one cue ball at a time, in cell order (a dict each); once
        all are generated they are kept as this state's legal strikes."""
        board, occ, piece = self.board, self.occ, self.side + 1
        hits: dict[int, int] = {}
        p = board.find(piece)
        while p >= 0:
            ball = ball_strikes(occ, p, {})
            hits.update(ball)
            yield ball
            p = board.find(piece, p + 1)
        self._hits = hits

    def _pocket_scores(self) -> tuple[tuple[int, int], bool]:
        """(the scores after the side to move pockets a neutral, whether that reaches the target)."""
        red, blue = self.scores
        after = (red, blue + 1) if self.side else (red + 1, blue)
        return after, after[self.side] >= self.game.target

    def _strikes_of(self, moves: Iterable[Any], hits: dict[int, int] | None) -> dict[int, int]:
        """``{s: momentum}`` of the legal strikes among ``moves`` (``s = cell * 8 +
        direction``), in their order; repeats, ``None``, a pass and illegal moves left out
        (``best_leaf``'s first batch). ``hits``: this state's generated strikes, or ``None``
        when they are not generated; then each move is checked alone (``strike``), without
        generating the others, which is right from ply 2 on (the first turn needs them
        generated)."""
        out: dict[int, int] = {}
        if hits is None:
            board, occ, piece = self.board, self.occ, self.side + 1
            for move in moves:
                if move.__class__ is Move and 0 <= move.cell < NUM_CELLS and board[move.cell] == piece:
                    s = move.cell * 8 + move.direction
                    if s not in out:
                        hit = strike(occ, s)
                        if hit:
                            out[s] = hit
        else:
            for move in moves:
                if move.__class__ is Move:  # a pass has no entry in ``hits``
                    s = move.cell * 8 + move.direction
                    known = hits.get(s)
                    if known is not None and s not in out:
                        out[s] = known
        return out

    def _checked(self, move: Any) -> int:
        """The momentum of ``move`` when it is a legal strike here, else 0 (a pass included),
        as ``_strikes_of`` finds it, the strikes generated first at the first turn (plies 0
        and 1); 0 at the end of the game."""
        if self.to_move < 0:
            return 0
        hits = self._hits
        if hits is None and self.ply < 2:
            hits = self._generate()
        return next(iter(self._strikes_of((move,), hits).values()), 0)

    def try_play(self, move: Any) -> Any:
        """``play(move)``, or ``None`` when ``move`` is not legal here; from ply 2 on, a move
        is checked alone (a search tries its hash and killer moves before generating)."""
        return self._try(move, self._after)

    def try_leaf(self, move: Any) -> Any:
        """The position after ``move`` as ``leaves`` yields it, or ``None`` when ``move`` is not
        legal here (checked alone from ply 2 on, as ``try_play``)."""
        return self._try(move, self._position)

    def _try(self, move: Any, make: Callable[[int, int], Any]) -> Any:
        """``make(s, momentum)`` of a legal strike ``move``, ``play(PASS)`` of a legal pass,
        else ``None``."""
        hit = self._checked(move)
        if hit:
            return make(move.cell * 8 + move.direction, hit)
        if move is PASS and self.legal_moves() == [PASS]:
            return self.play(PASS)
        return None

    def expand(self, leaf: Any) -> Any:
        """The full state, as ``play`` makes it, of a position that this state's ``leaves`` or
        ``try_leaf`` gave (a ``LeafPosition`` keeps its simulation: no move is simulated
        again); a full state is returned as it is. A search keeps its leaves and searches them
        deeper in its next iteration."""
        if leaf.__class__ is LeafPosition:
            return self._child(*leaf._sim, False)
        return leaf
