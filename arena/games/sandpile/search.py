"""Search steps of Sandpile positions (a mixin of ``SandpileState``): what paranoid, BRS and
max^n call instead of ``play`` at the hot spots of a search.

- ``child(move)``: the state after one of ``legal_moves()``, without the legality check of
  ``play``; a placement that keeps the placing phase going builds one state (``play`` builds
  the state after the piece, then the next turn's).
- ``leaf(move)``: the position after ``move`` for evaluation only (``LeafPosition``) where a
  placement keeps the placing phase going: the bit masks and the next turn, no board, pieces
  placed or scores copied; ``whole()`` makes it a ``SandpileState`` if the search goes on.
  Any other move gives the whole child. A ``LeafPosition`` takes these steps itself, so a
  best-reply search walks its line of default moves on light positions.
- ``pass_or_first()``: a best-reply search's default move without generating the others.

Each gives what ``play`` gives (tests: ``tests/games/test_sandpile_search.py``); the turn
order is ``docs/rules/sandpile.md`` "Placing phase" (with its "Bonus piece" item).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.games.sandpile.rules import LETTERS, PASS, STABLE_MAX, Phase, SandpileMove
from arena.games.sandpile.view import SandpileView

if TYPE_CHECKING:
    from arena.games.sandpile.state import SandpileState

#: The phases used here as module constants (a global load: cheaper than the enum's attribute
#: lookup in hot code; a phase compares equal to its text, identity first).
_PLACE, _BONUS, _ENDBONUS, _TOPPLE = Phase.PLACE, Phase.BONUS, Phase.ENDBONUS, Phase.TOPPLE


_new = object.__new__


#: the masks ``occ``, ``tall``, ``topm``, ``three`` and ``unstable_stacks`` of a position
Masks = tuple[int, int, tuple[int, ...], int, tuple[tuple[int, str], ...]]


def placement(pos: SandpileView, i: int, p: int, under: str) -> tuple[str, Masks]:
    """(the stack on cell ``i`` once seat ``p`` puts a piece on the stack ``under`` there,
    then the masks ``occ``, ``tall``, ``topm``, ``three`` and ``unstable_stacks`` after it as
    one tuple) from those of ``pos`` (a ``SandpileState`` or a ``LeafPosition``)."""
    bit = 1 << i
    stack = under + LETTERS[p]
    topm = list(pos.topm)
    if under:
        topm[ord(under[-1]) - 65] &= ~bit
    topm[p] |= bit
    height = len(stack)
    if height > STABLE_MAX:
        return stack, (pos.occ | bit, pos.tall | bit, tuple(topm), pos.three & ~bit,
                       _unstable_with(pos.unstable_stacks, i, stack))
    three = pos.three | bit if height == STABLE_MAX else pos.three
    return stack, (pos.occ | bit, pos.tall, tuple(topm), three, pos.unstable_stacks)


def _unstable_with(stacks: tuple[tuple[int, str], ...], i: int, stack: str) -> tuple[tuple[int, str], ...]:
    """``stacks`` (``(cell, stack)``, ascending cells) with cell ``i`` holding the unstable
    ``stack`` (added, or replacing the cell's former stack)."""
    out = [entry for entry in stacks if entry[0] != i]
    out.append((i, stack))
    out.sort()
    return tuple(out)


class SearchSteps(SandpileView):
    """Search steps of ``SandpileState`` and ``LeafPosition``: both provide the fields
    (``SandpileView``), ``_under`` and ``whole``; the whole state provides ``_place``,
    ``_topple``, ``_advance`` and ``_after_offer``."""

    __slots__ = ()

    if TYPE_CHECKING:  # provided by ``SandpileState`` and ``LeafPosition``
        def whole(self) -> SandpileState: ...
        def _under(self, i: int) -> str: ...

    def leaf(self, move: SandpileMove) -> SandpileState | LeafPosition:
        """The position after ``move`` (one of ``legal_moves()``): a ``LeafPosition`` when it
        is a placement after which the placing phase goes on, else the whole child (a pass, a
        toppling, the round's last placement or bonus piece).

        The next turn as ``_place`` finds it ("Placing phase", its "Bonus piece" item): a
        plain piece of a bonus holder opens its bonus offer; otherwise the next placement turn
        (``_advance``), or in the end-of-round offers the next holder's offer
        (``_after_offer``); past the last turn or offer (toppling or scoring next) ``_place``
        makes the whole child.
        """
        kind = move.kind
        if kind != "place" and kind != "bonus":
            return self.child(move)
        p, step, holders, rules = self.player, self.step, self.holders, self.rules
        if kind == "place" and holders >> p & 1:
            phase, player = _BONUS, p
        elif kind == "bonus" and self.phase == _ENDBONUS:
            holders &= ~(1 << p)
            starter = (self.round - 1) % 4
            # the loop leaves ``step`` at the offer found (``else``: none left, returns)
            for step in range(step + 1, 4):  # noqa: B020
                player = (starter + step) % 4
                if holders >> player & 1:
                    break
            else:
                return self.whole()._place(rules.index[move.cell], p, True)
            phase = _ENDBONUS
        else:
            if kind == "bonus":
                holders &= ~(1 << p)
            step += 1
            if step >= rules.turns:
                return self.whole()._place(rules.index[move.cell], p, kind == "bonus")
            phase, player = _PLACE, (self.round - 1 + step) % 4
        i = rules.index[move.cell]
        pos = _new(LeafPosition)
        pos.rules, pos.round, pos.phase, pos.banked = rules, self.round, phase, self.banked
        pos.to_move = pos.player = player
        pos.step, pos.holders, pos._parent, pos._cell = step, holders, self, i
        pos._stack, masks = placement(self, i, p, self._under(i))
        pos.occ, pos.tall, pos.topm, pos.three, pos.unstable_stacks = masks
        return pos

    def child(self, move: SandpileMove) -> SandpileState:
        """The state after ``move``, one of this state's ``legal_moves()``, without checking
        its legality again (for search: the moves come from ``legal_moves``); any other move
        gives an undefined state or an exception. ``play`` checks and explains."""
        kind = move.kind
        if kind == "place" or kind == "bonus":
            return self.leaf(move).whole()
        state = self.whole()  # a LeafPosition neither passes nor topples by itself
        if kind == "topple":
            return state._topple(state.rules.index[move.cell])
        return state._after_offer(state.step) if state.phase == _ENDBONUS else state._advance()

    def pass_or_first(self) -> SandpileMove | None:
        """``PASS`` when it is legal here, else the first of ``legal_moves()`` (``None`` when
        there is none), without generating the others (a best-reply search's default move)."""
        phase = self.phase
        if phase == _PLACE:
            mask = self.placeable_mask(self.player)
            return self.rules.place_moves[(mask & -mask).bit_length() - 1] if mask else PASS
        if phase in (_BONUS, _ENDBONUS):
            return PASS
        if phase == _TOPPLE:
            tall = self.tall
            return self.rules.topple_moves[(tall & -tall).bit_length() - 1] if tall else None
        return None


class LeafPosition(SearchSteps, SandpileView):
    """A live position one placement away from ``_parent`` (a ``SandpileState`` or another
    ``LeafPosition``), still in the placing phase (``place``, ``bonus`` or ``endbonus``): the
    fields an evaluator reads (``rules``, ``round``, ``phase``, ``player``, ``step``,
    ``holders``, ``to_move``, the masks ``occ``/``tall``/``topm``/``three``,
    ``unstable_stacks``, ``banked``; meanings as in ``SandpileState``), the ``SandpileView``
    accessors and the search steps. No board, pieces placed or scores: not a ``State``;
    ``whole()`` gives the ``SandpileState``."""

    __slots__ = ("rules", "round", "phase", "player", "step", "holders", "to_move", "occ", "tall", "topm",
                 "three", "unstable_stacks", "banked", "_parent", "_cell", "_stack")

    _parent: SearchSteps
    #: the cell placed on (index) and its stack after the placement
    _cell: int
    _stack: str

    def is_terminal(self) -> bool:
        return False

    def _under(self, i: int) -> str:
        """The stack on cell ``i``: the placed one on ``_cell``, else the parent's."""
        return self._stack if i == self._cell else self._parent._under(i)

    def whole(self) -> SandpileState:
        """The ``SandpileState`` of this position: the (whole) parent's board with the placed
        stack (``_stack`` on cell ``_cell``), the placer's piece counted, the masks kept."""
        parent, i = self._parent.whole(), self._cell
        board, placed, p = parent.board, parent.placed, parent.player
        state = _new(parent.__class__)  # every field set here: the masks are known, no __init__
        state.rules, state.round, state.phase, state.player, state.step = (
            self.rules, self.round, self.phase, self.player, self.step)
        state.to_move, state.holders, state.scores, state.banked = (
            self.to_move, self.holders, parent.scores, self.banked)
        cells = list(board)  # one list and one tuple: cheaper than slicing and joining
        cells[i] = self._stack
        state.board = tuple(cells)
        state.placed = placed[:p] + (placed[p] + 1,) + placed[p + 1:]
        state.occ, state.tall, state.topm, state.three = self.occ, self.tall, self.topm, self.three
        state.unstable_stacks = self.unstable_stacks
        return state
