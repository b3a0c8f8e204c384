"""Sandpile: a four-player placing-and-toppling game (``spec/sandpile.md``).

Players A (south), B (west), C (north), D (east) place pieces for four laps per round, then
topple unstable stacks (more than 3 pieces) one per turn, each piece going to a neighbour in
an order relative to the toppling player's side; pieces pushed off the board re-enter on the
opposite side (torus, or mirrored cell with ``wrap="mirror"``). After each round every player
scores their visible tops; after the last round the totals rank the players.

A state stores the board as a tuple of stacks (one ``str`` of colour letters per cell,
bottom→top, index ``rank * size + file``), so copies are cheap; neighbour and wrap tables are
computed once per parameter set (``SandpileRules``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from arena.errors import ConfigError, IllegalMoveError, MoveSyntaxError
from arena.games.protocol import TERMINAL, Game, Outcome, Param, State

LETTERS = "ABCD"
SIDES = ("south", "west", "north", "east")
PHASES = ("place", "bonus", "endbonus", "topple", "over")
#: A stack holding more than this many pieces is unstable ("Toppling phase").
STABLE_MAX = 3
#: (file, rank) steps N, E, S, W; player p topples in the order starting at index p.
_DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))
_PREFIX = {"place": "", "bonus": "+", "topple": "x"}


@dataclass(frozen=True)
class SandpileMove:
    """A move: ``c3`` place, ``+c3`` place the bonus piece, ``pass``, ``xc3`` topple.

    Attributes:
        kind: ``"place"``, ``"bonus"``, ``"pass"`` or ``"topple"``.
        cell: the cell name (``"c3"``), empty for ``pass``.
    """

    kind: str
    cell: str = ""

    def __str__(self) -> str:
        return "pass" if self.kind == "pass" else _PREFIX[self.kind] + self.cell


PASS = SandpileMove("pass")


class SandpileRules:
    """Per-parameter tables shared by every state of a game: cell names, board neighbours
    (no wrapping, for placement) and toppling destinations per player (with wrapping)."""

    def __init__(self, size: int, wrap: str, rounds: int, pieces_per_round: int, bonus: bool):
        self.size, self.wrap, self.rounds = size, wrap, rounds
        self.pieces_per_round, self.bonus = pieces_per_round, bonus
        self.cells = size * size
        self.turns = 4 * pieces_per_round  # placement turns per round
        self.names = tuple(f"{chr(97 + i % size)}{i // size + 1}" for i in range(self.cells))
        self.index = {name: i for i, name in enumerate(self.names)}
        self.adjacent = tuple(
            tuple(j for j in (self._step(i, d, wrap=None) for d in _DIRS) if j is not None)
            for i in range(self.cells)
        )
        #: dest[p][i]: the four cells receiving the 1st..4th piece when player p topples i.
        self.dest = tuple(
            tuple(tuple(self._step(i, _DIRS[(p + k) % 4], wrap) for k in range(4)) for i in range(self.cells))
            for p in range(4)
        )
        #: around[i]: the distinct cells a toppling of i sends pieces to (any player).
        self.around = tuple(tuple(sorted(set(d))) for d in self.dest[0])
        self.around_mask = tuple(sum(1 << j for j in cells) for cells in self.around)
        self.full = (1 << self.cells) - 1
        first_file = sum(1 << (r * size) for r in range(size))
        self.not_first_file = self.full & ~first_file
        self.not_last_file = self.full & ~(first_file << (size - 1))
        self.place_moves = tuple(SandpileMove("place", n) for n in self.names)
        self.bonus_moves = tuple(SandpileMove("bonus", n) for n in self.names)
        self.topple_moves = tuple(SandpileMove("topple", n) for n in self.names)

    def _step(self, i: int, d: tuple[int, int], wrap: str | None) -> int | None:
        n = self.size
        f, r = i % n + d[0], i // n + d[1]
        if 0 <= f < n and 0 <= r < n:
            return r * n + f
        if wrap is None:
            return None
        if wrap == "mirror":  # re-enter on the opposite side at the mirrored cell
            if not 0 <= r < n:
                f = n - 1 - f
            else:
                r = n - 1 - r
        return (r % n) * n + f % n

    def cell(self, move: SandpileMove) -> int:
        """Index of the move's cell. Raises: IllegalMoveError: no such cell on this board."""
        i = self.index.get(move.cell)
        if i is None:
            raise IllegalMoveError(f"no cell {move.cell!r} on a {self.size}x{self.size} board; "
                                   f"files a-{chr(96 + self.size)}, ranks 1-{self.size}")
        return i


@lru_cache(maxsize=64)
def rules_for(size: int, wrap: str, rounds: int, pieces_per_round: int, bonus: bool) -> SandpileRules:
    """The shared tables for one parameter set (cached)."""
    return SandpileRules(size, wrap, rounds, pieces_per_round, bonus)


#: the set bits of each byte value, ascending
_BYTE_BITS = tuple(tuple(k for k in range(8) if b >> k & 1) for b in range(256))


def cells_of(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, ascending."""
    out: list[int] = []
    base = 0
    while mask:
        byte = mask & 255
        if byte:
            out.extend([base + k for k in _BYTE_BITS[byte]])
        mask >>= 8
        base += 8
    return out


def _masks(board: tuple[str, ...]) -> tuple[int, int, tuple[int, ...]]:
    """(occupied, unstable, per-seat visible-top) bit masks of a board (bit i = cell i)."""
    occ = tall = 0
    tops = [0, 0, 0, 0]
    for i, s in enumerate(board):
        if s:
            bit = 1 << i
            occ |= bit
            tops[ord(s[-1]) - 65] |= bit
            if len(s) > STABLE_MAX:
                tall |= bit
    return occ, tall, tuple(tops)


class SandpileState(State):
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
        occ, tall, topm: bit masks (bit i = cell i) of occupied cells, unstable stacks and,
            per seat, the cells that seat's colour tops.
    """

    __slots__ = ("rules", "board", "round", "phase", "player", "step", "holders", "placed", "scores",
                 "to_move", "occ", "tall", "topm")

    def __init__(self, rules, board, rnd, phase, player, step, holders, placed, scores, masks=None):
        self.rules, self.board, self.round, self.phase = rules, board, rnd, phase
        self.player, self.step, self.holders, self.placed, self.scores = player, step, holders, placed, scores
        self.to_move = TERMINAL if phase == "over" else player
        self.occ, self.tall, self.topm = masks or _masks(board)

    def _new(self, phase, player, step, board=None, masks=None, holders=None, placed=None, rnd=None, scores=None):
        return SandpileState(
            self.rules, self.board if board is None else board, self.round if rnd is None else rnd, phase,
            player, step, self.holders if holders is None else holders, self.placed if placed is None else placed,
            self.scores if scores is None else scores, masks or (self.occ, self.tall, self.topm))

    # ---- accessors for evaluation functions ------------------------------------------------
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
        return [sum(r[p] for r in self.scores) for p in range(4)]

    def turns_left(self, seat: int) -> int:
        """Placement turns ``seat`` still has, this round and the following ones (bonus excluded)."""
        rules = self.rules
        later = (rules.rounds - self.round) * rules.pieces_per_round if self.phase != "over" else 0
        if self.phase not in ("place", "bonus"):
            return later
        first = self.step + (self.phase == "bonus")
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

    # ---- protocol --------------------------------------------------------------------------
    def legal_moves(self) -> list[SandpileMove]:
        phase, rules = self.phase, self.rules
        if phase == "place":
            cells = self.placeable(self.player)
            return [rules.place_moves[i] for i in cells] if cells else [PASS]
        if phase in ("bonus", "endbonus"):
            moves = rules.bonus_moves
            return [moves[i] for i in self.placeable(self.player)] + [PASS]
        if phase == "topple":
            moves = rules.topple_moves
            return [moves[i] for i in cells_of(self.tall)]
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
        if phase == "over":
            raise IllegalMoveError(f"the game is over; no move {move} is legal")
        if kind == "topple":
            if phase != "topple":
                raise IllegalMoveError(f"{move}: toppling only in the topple phase (now {phase})")
            return self._topple(self.rules.cell(move))
        if kind == "pass":
            if phase == "topple":
                raise IllegalMoveError("pass: a player cannot pass while a stack is unstable")
            if phase == "place" and self.placeable_mask(p):
                raise IllegalMoveError("pass: only a player with no legal placement passes")
            return self._after_offer(self.step) if phase == "endbonus" else self._advance()
        i = self.rules.cell(move)
        if (kind == "place") != (phase == "place") or (kind == "bonus" and phase not in ("bonus", "endbonus")):
            raise IllegalMoveError(f"{move}: not a {phase} move; legal: {' '.join(map(str, self.legal_moves()))}")
        if not self.placeable_mask(p) >> i & 1:
            why = "the stack is topped by your own colour" if self.board[i] else "no occupied neighbour"
            raise IllegalMoveError(f"{move}: cannot place on {move.cell} ({why})")
        return self._place(i, p, kind == "bonus")

    def _place(self, i: int, p: int, bonus: bool) -> SandpileState:
        board, bit = self.board, 1 << i
        stack = board[i] + LETTERS[p]
        topm = list(self.topm)
        if len(stack) > 1:
            topm[ord(stack[-2]) - 65] &= ~bit
        topm[p] |= bit
        tall = self.tall | bit if len(stack) > STABLE_MAX else self.tall
        masks = (self.occ | bit, tall, tuple(topm))
        board = board[:i] + (stack,) + board[i + 1:]
        placed = self.placed[:p] + (self.placed[p] + 1,) + self.placed[p + 1:]
        if bonus:
            after = self._new(self.phase, p, self.step, board, masks, self.holders & ~(1 << p), placed)
            return after._after_offer(self.step) if self.phase == "endbonus" else after._advance()
        if self.holders >> p & 1:
            return self._new("bonus", p, self.step, board, masks, placed=placed)
        return self._new("place", p, self.step, board, masks, placed=placed)._advance()

    def _advance(self) -> SandpileState:
        """Next placement turn, or the end-of-round bonus offers after the last lap."""
        nxt = self.step + 1
        if nxt < self.rules.turns:
            return self._new("place", (self.round - 1 + nxt) % 4, nxt)
        return self._after_offer(-1)

    def _after_offer(self, done: int) -> SandpileState:
        """The end-of-round offer after offer index ``done`` to the next holder (from the
        starter), else the toppling phase."""
        starter = (self.round - 1) % 4
        for k in range(done + 1, 4):
            seat = (starter + k) % 4
            if self.holders >> seat & 1:
                return self._new("endbonus", seat, k)
        if self.tall:
            return self._new("topple", starter, 0)
        return self._score()

    def _topple(self, i: int) -> SandpileState:
        s = self.board[i]
        if len(s) <= STABLE_MAX:
            raise IllegalMoveError(f"x{self.rules.names[i]}: the stack holds {len(s)} pieces; "
                                   f"only stacks of more than {STABLE_MAX} topple")
        board = list(self.board)
        board[i] = s[:-4]
        dest = self.rules.dest[self.player][i]
        for k, j in enumerate(dest):
            board[j] += s[-1 - k]
        occ, tall, topm = self.occ, self.tall, list(self.topm)
        for j in (i, *dest):
            bit, t = 1 << j, board[j]
            occ, tall = occ & ~bit, tall & ~bit
            topm = [m & ~bit for m in topm]
            if t:
                occ |= bit
                topm[ord(t[-1]) - 65] |= bit
                if len(t) > STABLE_MAX:
                    tall |= bit
        after = self._new("topple", (self.player + 1) % 4, 0, tuple(board), (occ, tall, tuple(topm)))
        return after if tall else after._score()

    def _score(self) -> SandpileState:
        scores = self.scores + (tuple(self.tops()),)
        if self.round >= self.rules.rounds:
            return self._new("over", 0, 0, scores=scores)
        return self._new("place", self.round % 4, 0, rnd=self.round + 1, scores=scores)

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> Outcome | None:
        """Totals of the rounds' scores, ranked with ties; termination ``"rounds"``."""
        return Outcome.from_scores(self.totals(), "rounds") if self.phase == "over" else None

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
        from arena.games.sandpile_text import diagram
        return diagram(self)


def parse_move(text: str) -> SandpileMove:
    """Read ``c3``, ``+c3``, ``pass`` or ``xc3`` (cell existence is checked by ``play``).

    Raises:
        MoveSyntaxError: anything else.
    """
    t = str(text).strip().lower()
    if t == "pass":
        return PASS
    kind = {"+": "bonus", "x": "topple"}.get(t[:1], "place")
    cell = t[1:] if kind != "place" else t
    if len(cell) < 2 or not ("a" <= cell[0] <= "z") or not cell[1:].isdigit() or cell[1] == "0":
        raise MoveSyntaxError(f"bad Sandpile move {text!r}; expected c3 (place), +c3 (bonus), pass or xc3 (topple)")
    return SandpileMove(kind, cell)


class Sandpile(Game):
    """Sandpile (``spec/sandpile.md``): four players, ``rounds`` rounds of placing and toppling.

    Raises:
        ConfigError: a bad parameter, or parameters for which a toppling phase might not end:
            4 × (rounds × pieces_per_round + bonus) must be below 2 × size² (the edge count).
    """

    name = "sandpile"
    summary = "4 players place pieces, topple stacks of 4+, score visible tops (abelian sandpile)"
    num_players = 4
    PARAMS = {
        "wrap": Param("torus", "where pieces pushed off the board re-enter", choices=("torus", "mirror")),
        "rounds": Param(4, "rounds (manches)", minimum=1),
        "pieces_per_round": Param(4, "laps of placement per round", minimum=1),
        "bonus": Param(True, "each player holds one bonus piece"),
        "size": Param(6, "board side, cells", minimum=2),
    }

    def __init__(self, **params) -> None:
        super().__init__(**params)
        p = self.params
        if p["size"] > 26:
            raise ConfigError(f"game sandpile: size={p['size']} too large; accepted: 2 to 26 (files a-z)")
        pieces = 4 * (p["rounds"] * p["pieces_per_round"] + int(p["bonus"]))
        edges = 2 * p["size"] ** 2
        if pieces >= edges:
            raise ConfigError(
                f"game sandpile: 4 x (rounds x pieces_per_round + bonus) = {pieces} pieces must be below "
                f"2 x size^2 = {edges} (the board's edge count), the bound under which every toppling "
                "phase is guaranteed to end; lower rounds or pieces_per_round, or raise size")
        self.rules = rules_for(p["size"], p["wrap"], p["rounds"], p["pieces_per_round"], p["bonus"])

    def initial_state(self, seed: int | None = None) -> SandpileState:
        """The empty board, round 1, A to place (no randomness: ``seed`` is ignored)."""
        r = self.rules
        return SandpileState(r, ("",) * r.cells, 1, "place", 0, 0, 0b1111 if r.bonus else 0, (0,) * 4, ())

    def parse_state(self, text: str) -> SandpileState:
        """Read the eight-field position text ("Notation").

        Raises:
            PositionSyntaxError: malformed text or an impossible position.
        """
        from arena.games.sandpile_text import parse_state
        return parse_state(self.rules, text)

    def parse_move(self, state, text: str) -> SandpileMove:
        return parse_move(text)
