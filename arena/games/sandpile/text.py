"""Sandpile position text (``docs/rules/sandpile.md`` "Notation"): reading it into a state (the
state writes it: ``SandpileState.to_text``)."""

from __future__ import annotations

from arena.errors import PositionSyntaxError
from arena.games.sandpile.rules import LETTERS, PHASES, Phase, SandpileRules
from arena.games.sandpile.state import SandpileState
from arena.numbers import natural

_FORMAT = ("expected 8 fields: BOARD ROUND PHASE PLAYER STEP HOLDERS PLACED SCORES, e.g. "
           "'.,.,.,.,.,./(6 ranks)... 1 place A 0 ABCD 0,0,0,0 -'")


def _fail(text: str, why: str) -> PositionSyntaxError:
    return PositionSyntaxError(f"bad Sandpile position {text[:80]!r}: {why}")


def _ints(text: str, field: str, whole: str, count: int) -> tuple[int, ...]:
    numbers = tuple(natural(x) for x in field.split(","))
    if len(numbers) != count or None in numbers:
        raise _fail(whole, f"{field[:40]!r} is not {count} non-negative integers separated by ','")
    return tuple(n for n in numbers if n is not None)


def _board(rules: SandpileRules, field: str, text: str) -> tuple[str, ...]:
    n = rules.size
    ranks = field.split("/")
    if len(ranks) != n:
        raise _fail(text, f"the board has {len(ranks)} ranks separated by '/'; expected {n}")
    board: list[str] = []
    for rank in reversed(ranks):  # text lists rank n first
        cells = rank.split(",")
        if len(cells) != n:
            raise _fail(text, f"rank {rank!r} has {len(cells)} cells; expected {n} separated by ','")
        for c in cells:
            if c != "." and (not c or c.strip("ABCD")):
                raise _fail(text, f"cell {c!r} is neither '.' nor a stack of letters A-D (bottom to top)")
            board.append("" if c == "." else c)
    return tuple(board)


def parse_state(rules: SandpileRules, text: str) -> SandpileState:
    """Read the eight-field position text.

    Raises:
        PositionSyntaxError: malformed text, or a position no game can reach in form (wrong
            player for the step, pieces on the board not matching the placed counts, scores
            not matching the round...).
    """
    fields = str(text).split()
    if len(fields) != 8:
        raise _fail(str(text), _FORMAT)
    board = _board(rules, fields[0], text)
    rnd = natural(fields[1])
    if rnd is None or not 1 <= rnd <= rules.rounds:
        raise _fail(text, f"round {fields[1][:40]!r} is not 1 to {rules.rounds}")
    if fields[2] not in PHASES:
        raise _fail(text, f"phase {fields[2]!r}; accepted: {', '.join(PHASES)}")
    phase = Phase(fields[2])
    if fields[3] not in tuple(LETTERS):
        raise _fail(text, f"player {fields[3]!r}; accepted: A, B, C, D")
    player = LETTERS.index(fields[3])
    step = natural(fields[4])
    if step is None:
        raise _fail(text, f"step {fields[4][:40]!r} is not a number")
    holders = _holders(rules, fields[5], text)
    placed = _ints(text, fields[6], text, 4)
    scores = () if fields[7] == "-" else tuple(_ints(text, r, text, 4) for r in fields[7].split(";"))
    state = SandpileState(rules, board, rnd, phase, player, step, holders, placed, scores)
    _check(state, text)
    return state


def _holders(rules: SandpileRules, field: str, text: str) -> int:
    if field == "-":
        return 0
    if not rules.bonus:
        raise _fail(text, "holders must be '-' when the game has no bonus piece")
    if field not in _SUBSETS:
        raise _fail(text, f"bonus holders {field!r}: distinct letters A-D in order, or '-'")
    return sum(1 << LETTERS.index(c) for c in field)


#: every non-empty set of holders, written in seat order
_SUBSETS = frozenset("".join(LETTERS[p] for p in range(4) if m >> p & 1) for m in range(1, 16))


def _check(s: SandpileState, text: str) -> None:
    rules, phase, step = s.rules, s.phase, s.step
    finished = rules.rounds if phase is Phase.OVER else s.round - 1
    if phase is Phase.OVER and s.round != rules.rounds:
        raise _fail(text, f"phase over needs round {rules.rounds}")
    if len(s.scores) != finished:
        raise _fail(text, f"{len(s.scores)} rounds of scores; {finished} rounds are finished")
    limit = {Phase.PLACE: rules.turns, Phase.BONUS: rules.turns, Phase.ENDBONUS: 4}.get(phase, 1)
    if step >= limit:
        raise _fail(text, f"step {step} out of range for phase {phase} (0 to {limit - 1})")
    if phase in (Phase.PLACE, Phase.BONUS, Phase.ENDBONUS) and s.player != (s.starter + step) % 4:
        raise _fail(text, f"step {step} of round {s.round} belongs to {LETTERS[(s.starter + step) % 4]}")
    if phase in (Phase.BONUS, Phase.ENDBONUS) and not s.holds_bonus(s.player):
        raise _fail(text, f"{LETTERS[s.player]} is offered the bonus piece but does not hold it")
    if phase is Phase.TOPPLE and not s.unstable():
        raise _fail(text, "phase topple with no unstable stack")
    if phase is Phase.OVER and s.player != 0:
        raise _fail(text, "phase over is written with player A")
    pieces = "".join(s.board)  # every piece on the board, stack after stack
    for p in range(4):
        on_board = pieces.count(LETTERS[p])
        if on_board != s.placed[p]:
            raise _fail(text, f"{LETTERS[p]} has {on_board} pieces on the board but {s.placed[p]} placed")
        most = rules.rounds * rules.pieces_per_round + (rules.bonus and not s.holds_bonus(p))
        if s.placed[p] > most:
            raise _fail(text, f"{LETTERS[p]} placed {s.placed[p]} pieces; at most {most}")
