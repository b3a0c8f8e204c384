"""What an evaluation function reads of a Sandpile position, shared by the whole state
(``SandpileState``) and the light one a search values at its leaves (``LeafPosition``)."""

from __future__ import annotations

from arena.games.sandpile.rules import Phase, SandpileRules, cells_of

#: The phases used here as module constants (a global load: cheaper than the enum's attribute
#: lookup in hot code; a phase compares equal to its text, identity first).
_PLACE, _BONUS, _OVER = Phase.PLACE, Phase.BONUS, Phase.OVER



class SandpileView:
    """Accessors computed from the fields both position classes have: ``rules``, ``round``,
    ``phase``, ``step``, ``holders``, the bit masks ``occ``/``tall``/``topm`` (bit i = cell i)
    and ``banked`` (see ``SandpileState``), declared here for the type checker (annotations
    only: the slots are the position classes')."""

    __slots__ = ()

    rules: SandpileRules
    round: int
    phase: Phase
    player: int
    step: int
    holders: int
    to_move: int
    occ: int
    tall: int
    topm: tuple[int, ...]
    three: int
    unstable_stacks: tuple[tuple[int, str], ...]
    banked: tuple[int, ...]

    @property
    def starter(self) -> int:
        """0-based seat starting the current round (``(round - 1) mod 4``)."""
        return (self.round - 1) % 4

    def holds_bonus(self, seat: int) -> bool:
        return bool(self.holders >> seat & 1)

    def tops(self) -> list[int]:
        """Per seat, the number of visible (top) pieces of that colour now."""
        return [m.bit_count() for m in self.topm]

    def unstable(self) -> list[int]:
        """Cells (indices) whose stack holds more than 3 pieces, ascending."""
        return cells_of(self.tall)

    def totals(self) -> list[int]:
        """Per seat, the sum of the finished rounds' scores."""
        return list(self.banked)

    def turns_left(self, seat: int) -> int:
        """Placement turns ``seat`` still has, this round and the following ones (bonus excluded)."""
        rules = self.rules
        later = (rules.rounds - self.round) * rules.pieces_per_round if self.phase != _OVER else 0
        if self.phase not in (_PLACE, _BONUS):
            return later
        first = self.step + (self.phase == _BONUS)
        offset = (seat - self.starter - first) % 4
        return later + max(0, (rules.turns - first - offset + 3) // 4)

    def placeable_mask(self, seat: int) -> int:
        """Bit mask of the cells where ``seat`` may put a piece ("Placing phase"): an empty
        cell sharing a side with an occupied one (no wrapping), a stack not topped by the
        seat's colour; any cell on an empty board."""
        occ, rules = self.occ, self.rules
        if not occ:
            return rules.full
        n = rules.size
        near = ((occ << n) | (occ >> n) | ((occ & rules.not_last_file) << 1) | ((occ & rules.not_first_file) >> 1))
        return (near & rules.full & ~occ) | (occ & ~self.topm[seat])

    def can_place(self, i: int, seat: int) -> bool:
        return bool(self.placeable_mask(seat) >> i & 1)

    def placeable(self, seat: int) -> list[int]:
        """Cells (indices, ascending) where ``seat`` may put a piece."""
        return cells_of(self.placeable_mask(seat))
