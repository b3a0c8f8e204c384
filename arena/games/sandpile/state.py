"""Sandpile positions: an immutable ``SandpileState`` and its rules of play."""

from __future__ import annotations

from arena.errors import IllegalMoveError
from arena.games.protocol import TERMINAL, Outcome, State
from arena.games.sandpile.diagram import diagram
from arena.games.sandpile.rules import (
    LETTERS, PASS, STABLE_MAX, Phase, SandpileMove, SandpileRules, cells_of, parse_move,
)
from arena.games.sandpile.search import Masks, SearchSteps, placement
from arena.games.sandpile.view import SandpileView

#: The phases used here as module constants (a global load: cheaper than the enum's attribute
#: lookup in hot code; a phase compares equal to its text, identity first).
_PLACE, _BONUS, _ENDBONUS, _TOPPLE, _OVER = Phase.PLACE, Phase.BONUS, Phase.ENDBONUS, Phase.TOPPLE, Phase.OVER



def _masks(board: tuple[str, ...]) -> tuple:
    """(occupied, unstable, per-seat visible-top, stacks of exactly ``STABLE_MAX``) bit masks of
    a board (bit i = cell i), and its unstable stacks (``_unstable``)."""
    occ = tall = three = 0
    tops = [0, 0, 0, 0]
    for i, s in enumerate(board):
        if s:
            occ, tall, three = _holding(occ, tall, three, tops, i, s)
    return occ, tall, tuple(tops), three, _unstable(board, tall)


def _holding(occ: int, tall: int, three: int, tops: list[int], i: int, stack: str) -> tuple[int, int, int]:
    """The occupied, unstable and ``STABLE_MAX`` masks with cell ``i`` holding ``stack`` now
    (``""``: empty) instead of what it held; ``tops`` (per seat, the cells whose visible top is
    the seat's) updated in place."""
    bit = 1 << i
    occ, tall, three = occ & ~bit, tall & ~bit, three & ~bit
    for seat in range(4):
        tops[seat] &= ~bit
    if stack:
        occ |= bit
        tops[ord(stack[-1]) - 65] |= bit
        if len(stack) > STABLE_MAX:
            tall |= bit
        elif len(stack) == STABLE_MAX:
            three |= bit
    return occ, tall, three


def _unstable(board: tuple[str, ...], tall: int) -> tuple[tuple[int, str], ...]:
    """``(cell, stack)`` of every unstable stack, ascending cells."""
    return tuple((i, board[i]) for i in cells_of(tall)) if tall else ()


def _banked(scores: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """Per seat, the sum of the finished rounds' scores."""
    return tuple(sum(r[p] for r in scores) for p in range(4))


class SandpileState(SearchSteps, SandpileView, State):
    """An immutable Sandpile position (the eight fields of the position text).

    Attributes:
        rules: the shared ``SandpileRules``.
        board: per cell (index ``rank * size + file``, 0-based) the stack bottom→top as a
            string of colour letters, ``""`` when empty.
        round: 1-based round number.
        phase: one of ``PHASES``.
        player: 0-based seat named in the text (the one to move, ``0`` when over).
        step: placement turn (``place``/``bonus``), offer index (``endbonus``), else 0.
        holders: bit mask of the seats still holding their bonus piece.
        placed: pieces placed so far per seat.
        scores: per finished round, the per-seat counts of visible tops.
        occ, tall, topm, three: bit masks (bit i = cell i) of occupied cells, unstable stacks,
            per seat the cells that seat's colour tops, and stacks of exactly ``STABLE_MAX``
            pieces (the next piece makes them topple).
        unstable_stacks: ``(cell, stack)`` of the unstable stacks, ascending cells (the same
            tuple object from state to state while they do not change: a cache key).
        banked: per seat, the sum of the finished rounds' scores (``totals()`` as a tuple).

    The masks and ``banked`` follow from the eight text fields; ``play`` updates them
    incrementally (for evaluation at search leaves) and they never change afterwards.
    The accessors an evaluator reads come from ``SandpileView`` (``view.py``), the search
    steps (``child``, ``leaf``, ``pass_or_first``) from ``SearchSteps`` (``search.py``), whose
    ``LeafPosition.whole`` sets every slot without ``__init__``: a new slot is set there too
    (``tests/games/test_sandpile_search.py`` compares every slot with ``play``'s).
    """

    __slots__ = ("rules", "board", "round", "phase", "player", "step", "holders", "placed", "scores",
                 "to_move", "occ", "tall", "topm", "three", "unstable_stacks", "banked")

    board: tuple[str, ...]
    placed: tuple[int, ...]
    scores: tuple[tuple[int, ...], ...]

    def __init__(self, rules: SandpileRules, board: tuple[str, ...], rnd: int, phase: Phase, player: int, step: int,
                 holders: int, placed: tuple[int, ...], scores: tuple[tuple[int, ...], ...],
                 masks: Masks | None = None, banked: tuple[int, ...] | None = None) -> None:
        self.rules, self.board, self.round, self.phase = rules, board, rnd, phase
        self.player, self.step, self.holders, self.placed, self.scores = player, step, holders, placed, scores
        self.to_move = TERMINAL if phase == _OVER else player
        self.occ, self.tall, self.topm, self.three, self.unstable_stacks = masks or _masks(board)
        self.banked = banked if banked is not None else _banked(scores)

    def _new(self, phase: Phase, player: int, step: int, board: tuple[str, ...] | None = None,
             masks: Masks | None = None, holders: int | None = None, placed: tuple[int, ...] | None = None,
             rnd: int | None = None, scores: tuple[tuple[int, ...], ...] | None = None) -> SandpileState:
        return SandpileState(
            self.rules, self.board if board is None else board, self.round if rnd is None else rnd, phase,
            player, step, self.holders if holders is None else holders, self.placed if placed is None else placed,
            self.scores if scores is None else scores,
            masks or (self.occ, self.tall, self.topm, self.three, self.unstable_stacks),
            self.banked if scores is None else None)

    def whole(self) -> SandpileState:
        """This state (already whole: what ``leaf`` may give besides a ``LeafPosition``)."""
        return self

    def _under(self, i: int) -> str:
        """The stack on cell ``i``."""
        return self.board[i]

    # ---- protocol --------------------------------------------------------------------------
    def legal_moves(self) -> list[SandpileMove]:
        phase, rules = self.phase, self.rules
        if phase == _PLACE:
            mask = self.placeable_mask(self.player)
            return list(rules.moves_on(rules.place_moves, mask)) if mask else [PASS]
        if phase in (_BONUS, _ENDBONUS):
            return [*rules.moves_on(rules.bonus_moves, self.placeable_mask(self.player)), PASS]
        if phase == _TOPPLE:
            return list(rules.moves_on(rules.topple_moves, self.tall))
        return []

    def play(self, move) -> SandpileState:
        """The state after ``move`` (a ``SandpileMove``, or its text).

        Raises:
            MoveSyntaxError: text that is not Sandpile notation.
            IllegalMoveError: the move is not legal here ("Placing phase", "Toppling phase").
        """
        if isinstance(move, str):
            move = parse_move(move)
        if not isinstance(move, SandpileMove):
            raise IllegalMoveError(f"{move!r} is not a Sandpile move; expected c3, +c3, pass or xc3")
        phase, kind, p = self.phase, move.kind, self.player
        if phase == _OVER:
            raise IllegalMoveError(f"the game is over; no move {move} is legal")
        if kind == "topple":
            if phase != _TOPPLE:
                raise IllegalMoveError(f"{move}: toppling only in the topple phase (now {phase})")
            return self._topple(self.rules.cell(move))
        if kind == "pass":
            if phase == _TOPPLE:
                raise IllegalMoveError("pass: a player cannot pass while a stack is unstable")
            if phase == _PLACE and self.placeable_mask(p):
                raise IllegalMoveError("pass: only a player with no legal placement passes")
            return self._after_offer(self.step) if phase == _ENDBONUS else self._advance()
        i = self.rules.cell(move)
        if (kind == "place") != (phase == _PLACE) or (kind == "bonus" and phase not in (_BONUS, _ENDBONUS)):
            raise IllegalMoveError(f"{move}: not a {phase} move; legal: {' '.join(map(str, self.legal_moves()))}")
        if not self.placeable_mask(p) >> i & 1:
            why = "the stack is topped by your own colour" if self.board[i] else "no occupied neighbour"
            raise IllegalMoveError(f"{move}: cannot place on {move.cell} ({why})")
        return self._place(i, p, kind == "bonus")

    def _place(self, i: int, p: int, bonus: bool) -> SandpileState:
        board = self.board
        stack, masks = placement(self, i, p, board[i])
        board = board[:i] + (stack,) + board[i + 1:]
        placed = self.placed[:p] + (self.placed[p] + 1,) + self.placed[p + 1:]
        if bonus:
            after = self._new(self.phase, p, self.step, board, masks, self.holders & ~(1 << p), placed)
            return after._after_offer(self.step) if self.phase == _ENDBONUS else after._advance()
        if self.holders >> p & 1:
            return self._new(_BONUS, p, self.step, board, masks, placed=placed)
        return self._new(_PLACE, p, self.step, board, masks, placed=placed)._advance()

    def _advance(self) -> SandpileState:
        """Next placement turn, or the end-of-round bonus offers after the last lap."""
        nxt = self.step + 1
        if nxt < self.rules.turns:
            return self._new(_PLACE, (self.round - 1 + nxt) % 4, nxt)
        return self._after_offer(-1)

    def _after_offer(self, done: int) -> SandpileState:
        """The end-of-round offer after offer index ``done`` to the next holder (from the
        starter), else the toppling phase."""
        starter = (self.round - 1) % 4
        for k in range(done + 1, 4):
            seat = (starter + k) % 4
            if self.holders >> seat & 1:
                return self._new(_ENDBONUS, seat, k)
        if self.tall:
            return self._new(_TOPPLE, starter, 0)
        return self._score()

    def _topple(self, i: int) -> SandpileState:
        s = self.board[i]
        if len(s) <= STABLE_MAX:
            raise IllegalMoveError(f"x{self.rules.names[i]}: the stack holds {len(s)} pieces; "
                                   f"only stacks of more than {STABLE_MAX} topple")
        cells = list(self.board)
        cells[i] = s[:-4]
        dest = self.rules.dest[self.player][i]
        for k, j in enumerate(dest):
            cells[j] += s[-1 - k]
        occ, tall, topm, three = self.occ, self.tall, list(self.topm), self.three
        for j in (i, *dest):
            occ, tall, three = _holding(occ, tall, three, topm, j, cells[j])
        board = tuple(cells)
        after = self._new(_TOPPLE, (self.player + 1) % 4, 0, board, (occ, tall, tuple(topm), three,
                                                                      _unstable(board, tall)))
        return after if tall else after._score()

    def _score(self) -> SandpileState:
        scores = self.scores + (tuple(self.tops()),)
        if self.round >= self.rules.rounds:
            return self._new(_OVER, 0, 0, scores=scores)
        return self._new(_PLACE, self.round % 4, 0, rnd=self.round + 1, scores=scores)

    def is_terminal(self) -> bool:
        return self.phase == _OVER

    def outcome(self) -> Outcome | None:
        """Totals of the rounds' scores, ranked with ties; termination ``"rounds"``."""
        return Outcome.from_scores(self.totals(), "rounds") if self.phase == _OVER else None

    def to_text(self) -> str:
        n = self.rules.size
        rows = ("," .join(s or "." for s in self.board[r * n:(r + 1) * n]) for r in range(n - 1, -1, -1))
        holders = "".join(LETTERS[p] for p in range(4) if self.holders >> p & 1) or "-"
        scores = ";".join(",".join(map(str, r)) for r in self.scores) or "-"
        return " ".join(("/".join(rows), str(self.round), self.phase, LETTERS[self.player], str(self.step),
                         holders, ",".join(map(str, self.placed)), scores))

    def key(self):
        """Exact transposition key (pieces placed follow from the board)."""
        return (self.board, self.round, self.phase, self.player, self.step, self.holders, self.scores)

    def diagram(self) -> str:
        return diagram(self)

