"""Ricochet Robots as an n-player race: every round is a simultaneous node
(``docs/rules/ricochet.md`` "A round", "End", "Notation").

State text: ``<board> [diag=<barriers>] <robots> <target> stack=<chips> chips=<seat;seat>
round=N``; the target is ``-`` once no chip is revealed (the game is over). ``diag=`` lists
the coloured diagonal barriers (``docs/rules/ricochet.md`` "Second edition"), from the
``diagonals=N`` placement or the ``diag=`` parameter.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from typing import Any

from arena.errors import ConfigError, IllegalMoveError, PositionSyntaxError
from arena.games.protocol import SIMULTANEOUS, TERMINAL, Answer, Dynamics, Game, GameType, Outcome, Param, State
from arena.games.race import TIES, check_answers, parse_answer, resolve_round
from arena.games.ricochet.board import CELLS, CENTRE, Board, parse_diagonals, place_diagonals, square_name
from arena.games.ricochet.puzzle import Puzzle, Solution, board_text
from arena.numbers import natural

#: chips that end the game, by number of players (``docs/rules/ricochet.md`` "End"); others: until chips run out
CHIPS_TO_WIN = {2: 8, 3: 6, 4: 5}


def _seeded_rng(*parts: object) -> random.Random:
    return random.Random(zlib.crc32(" ".join(map(str, parts)).encode()))


#: How to read a target code (docs/rules/ricochet.md "Board"), printed under the diagram.
TARGET_LEGEND = ("target codes: colour R red, G green, B blue, Y yellow (the robot that must reach it) + "
                 "shape C circle, T triangle, Q square, H hexagon; V vortex (any robot)")


class RicochetState(State):
    """A round (``SIMULTANEOUS``) or the end (``TERMINAL``). Immutable.

    At a round every seat answers the same puzzle at once (``puzzle``): a bot's ``choose``
    returns a solution (``Solution``, or its text ``"RN GE RS"``) or ``None`` for no answer.

    Attributes:
        board: the ``Board`` (walls, targets, diagonal barriers).
        robots: the robots' cells, in colour order R, G, B, Y (and K, the black robot), 0-based
            ``rank * 16 + file``.
        target: the chip of this round (``"RC"``: the red circle), ``None`` at the end.
        stack: the chips still to come, in order.
        chips: per seat, the chips it has won.
        round: rounds played.
        termination: the end reason (``chips``, ``max_rounds``, ``stack_exhausted``), ``None``
            while the game goes on.
    """

    def __init__(self, game: RicochetGame, board: Board, robots: tuple[int, ...], target: str | None,
                 stack: tuple[str, ...], chips: tuple[tuple[str, ...], ...], round_: int,
                 termination: str | None = None):
        self.game, self.board, self.robots, self.target = game, board, robots, target
        self.stack, self.chips, self.round = stack, chips, round_
        self.termination = termination
        self.to_move = TERMINAL if termination else SIMULTANEOUS

    # protocol -------------------------------------------------------------------------------
    @property
    def puzzle(self) -> Puzzle | None:
        """The current round's puzzle (``None`` at the end)."""
        return Puzzle(self.board, self.robots, self.target) if self.target else None

    def legal_moves(self) -> list:
        return []

    def is_terminal(self) -> bool:
        return self.termination is not None

    def outcome(self) -> Outcome | None:
        if not self.termination:
            return None
        return Outcome.from_scores([len(c) for c in self.chips], self.termination)

    def to_text(self) -> str:
        chips = ";".join(",".join(c) or "-" for c in self.chips)
        return (f"{board_text(self.board)} {','.join(f'{c}:{square_name(s)}' for c, s in zip('RGBYK', self.robots))} "
                f"{self.target or '-'} stack={','.join(self.stack) or '-'} chips={chips} round={self.round}")

    def key(self):
        return self.to_text()

    def random_answer(self, rng: random.Random) -> Solution | None:
        """A short random walk that may happen to solve the round (for the ``random`` bot)."""
        puzzle = self.puzzle
        return puzzle.random_walk(rng) if puzzle is not None else None

    def play(self, answers: Sequence[Answer]) -> RicochetState:
        """Resolve a round: check each seat's answer, award the chip, move the robots.

        Raises:
            IllegalMoveError: the game is over, or not one ``Answer`` per seat.
        """
        if self.termination:
            raise IllegalMoveError("the game is over; no round to answer")
        check_answers(answers, self.game.num_players)
        puzzle, chip = self.puzzle, self.target
        if puzzle is None or chip is None:  # set while the game goes on
            raise IllegalMoveError("the game is over; no round to answer")

        def check(move: Any) -> tuple[Solution, tuple[int, ...]] | None:
            sol = Solution.of(move)
            after = puzzle.check(sol)
            return None if after is None else (sol, after)

        winner, status, valid = resolve_round(answers, check, [len(c) for c in self.chips],
                                              self.game.params["ties"])
        if winner is None:
            stack = list(self.stack)
            stack.insert(_seeded_rng(self.to_text(), "back").randint(0, len(stack)), chip)
            robots, chips = self.robots, self.chips
            record = f"{chip} - -"
        else:
            sol, robots = valid[winner]
            stack = list(self.stack)
            chips = tuple(c + (chip,) if s == winner else c for s, c in enumerate(self.chips))
            record = f"{chip} {winner} {sol}"
        nxt = self.game._next_round(self.board, robots, tuple(stack), chips, self.round + 1)
        nxt.last_round, nxt.last_status = record, tuple(status)
        return nxt

    def diagram(self) -> str:
        """The 16x16 board: walls ``|`` and ``---``, robots by letter, ``*`` the target,
        barriers ``/r`` ``\\g`` (orientation, colour in lower case)."""
        w = self.board.walls
        marks = {c: "RGBYK"[i] for i, c in enumerate(self.robots)}
        goal = self.board.targets.get(self.target) if self.target else None
        lines = ["   " + "".join(f" {f} " for f in "abcdefghijklmnop")]
        for rk in range(15, -1, -1):
            top = "   +"
            row = f"{rk + 1:>2} |"
            for f in range(16):
                cell = rk * 16 + f
                top += ("---" if w[cell] & 1 else "   ") + "+"
                bar = self.board.diagonals.get(cell)
                body = marks.get(cell) or ("*" if cell == goal else "#" if cell in CENTRE else bar[0] if bar else ".")
                mark = "*" if cell == goal and cell in marks else " "
                row += f"{mark}{body}{bar[1].lower() if bar else ' '}" + ("|" if w[cell] & 2 else " ")
            lines += [top, row]
        lines.append("   +" + "---+" * 16)
        from arena.games.ricochet.svg import describe_target

        shown = f"{self.target} = {describe_target(self.target)}" if self.target else "-"
        lines.append(f"target {shown} (*)  stack {len(self.stack)}  round {self.round}  "
                     f"chips {' '.join(str(len(c)) for c in self.chips)}")
        if self.round == 0:  # the first diagram of a game says how to read the codes
            lines.append(TARGET_LEGEND)
        return "\n".join(lines)


class RicochetGame(Game):
    """Ricochet Robots: simultaneous puzzle race for chips (1-8 players).

    Every round is a simultaneous race (``docs/rules/ricochet.md``).
    """

    name = "ricochet"
    #: the setup (board, robots, chip order) is drawn from the seed; every round is a race
    type = GameType(1, 8, Dynamics.SIMULTANEOUS, chance=True)
    TERMINATIONS = {
        "chips": "a player has enough chips (8 with 2 players, 6 with 3, 5 with 4), or the chips ran out "
                 "(``docs/rules/ricochet.md`` \"End\")",
        "max_rounds": "``max_rounds`` rounds were played",
        "stack_exhausted": "every chip left is too easy to be played from the robots' positions",
    }
    whole_field = True  # a tournament races its whole field in every game (docs/arena.md)
    PARAMS = {
        "players": Param(2, "number of players (seats), 1-8", minimum=1),
        "robots": Param(4, "4 robots (R G B Y) or 5 (adds black K)", choices=(4, 5)),
        "ties": Param("fewer-chips", "equal lengths: fewer chips then lower seat, or first answer",
                      choices=TIES),
        "max_rounds": Param(40, "rounds after which the game ends", minimum=1),
        "board": Param("random", "quadrants NW,NE,SE,SW like 1A,2B,4A,3B, map:..., or random"),
        "think_time": Param(None, "seconds per round for every player", kind=float, minimum=0),
        "think_nodes": Param(None, "nodes per round for every player", kind=int, minimum=1),
        "diagonals": Param(0, "coloured diagonal barriers per quadrant, placed at random (seeded)", minimum=0),
        "diag": Param("", "fixed barriers like e5/R,k11\\G (instead of diagonals=N)"),
    }

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        if self.params["players"] > 8:
            raise ConfigError("game ricochet: parameter players must be 1-8")
        self.num_players = self.params["players"]
        if self.params["board"].lower() != "random":
            self.fixed_board: Board | None = Board.parse(self.params["board"])
        else:
            self.fixed_board = None
        try:
            self.fixed_diag = parse_diagonals(self.params["diag"])
            if self.fixed_diag and self.params["diagonals"]:
                raise ConfigError("game ricochet: give diag=... or diagonals=N, not both")
            if self.fixed_diag and self.fixed_board:
                self.fixed_board = self.fixed_board.with_diagonals(self.fixed_diag)
        except PositionSyntaxError as exc:
            raise ConfigError(f"game ricochet: parameter diag: {exc}") from None

    def _board(self, rng: random.Random, seed: int | None) -> Board:
        """The game's board: fixed or random, with its barriers (``diag``, or ``diagonals``
        per quadrant placed with a generator of its own, so plain boards draw as before)."""
        board = self.fixed_board or Board.random(rng)
        try:
            if self.fixed_diag and not board.diagonals:
                board = board.with_diagonals(self.fixed_diag)
            if self.params["diagonals"]:
                board = board.with_diagonals(place_diagonals(board, self.params["diagonals"],
                                                             _seeded_rng(seed, "diagonals")))
        except PositionSyntaxError as exc:
            raise ConfigError(f"game ricochet: barriers on board {board.name}: {exc}") from None
        return board

    def initial_state(self, seed: int | None = None) -> RicochetState:
        rng = random.Random(seed)
        board = self._board(rng, seed)
        free = [c for c in range(CELLS) if c not in CENTRE and c not in board.target_at and c not in board.diagonals]
        robots = tuple(rng.sample(free, self.params["robots"]))
        stack = list(board.targets)
        rng.shuffle(stack)
        chips = tuple(() for _ in range(self.num_players))
        return self._reveal(board, robots, tuple(stack), chips, 0)

    def _next_round(self, board, robots, stack, chips, round_) -> RicochetState:
        need = CHIPS_TO_WIN.get(self.num_players)
        if need and any(len(c) >= need for c in chips):
            return RicochetState(self, board, robots, None, stack, chips, round_, "chips")
        if round_ >= self.params["max_rounds"]:
            return RicochetState(self, board, robots, None, stack, chips, round_, "max_rounds")
        return self._reveal(board, robots, stack, chips, round_)

    def _reveal(self, board, robots, stack, chips, round_) -> RicochetState:
        """Reveal the top chip, putting too-easy ones back (``docs/rules/ricochet.md`` "A round" 2)."""
        stack = list(stack)
        if not stack:
            return RicochetState(self, board, robots, None, (), chips, round_, "chips")
        if all(too_easy(Puzzle(board, robots, chip)) for chip in stack):
            return RicochetState(self, board, robots, None, tuple(stack), chips, round_, "stack_exhausted")
        k = 0
        while too_easy(Puzzle(board, robots, stack[0])):
            chip = stack.pop(0)
            rng = _seeded_rng(board.name, robots, chip, stack, round_, k)
            stack.insert(rng.randint(1, len(stack)), chip)
            k += 1
        return RicochetState(self, board, robots, stack[0], tuple(stack[1:]), chips, round_)

    def parse_state(self, text: str) -> RicochetState:
        parts = str(text).split()
        diag = parts.pop(1) if len(parts) == 7 and parts[1].lower().startswith("diag=") else None
        if len(parts) != 6 or not parts[3].startswith("stack=") or not parts[4].startswith("chips=") \
                or not parts[5].startswith("round="):
            raise PositionSyntaxError(f"bad ricochet state {text[:80]!r}; accepted: "
                                      "'<board> [diag=..] <robots> <target> stack=.. chips=..;.. round=N'")
        puzzle = Puzzle.parse(" ".join(parts[:1] + ([diag] if diag else []) + parts[1:3]), allow_no_target=True)
        if len(puzzle.robots) != self.params["robots"]:
            raise PositionSyntaxError(f"state has {len(puzzle.robots)} robots; game has {self.params['robots']}")
        stack = tuple(t for t in parts[3][6:].upper().split(",") if t != "-")
        chips = tuple(tuple(t for t in seat.upper().split(",") if t != "-") for seat in parts[4][6:].split(";"))
        if len(chips) != self.num_players:
            raise PositionSyntaxError(f"state has chips for {len(chips)} seats; game has {self.num_players}")
        every = list(stack) + [c for seat in chips for c in seat] + ([puzzle.target] if puzzle.target != "-" else [])
        if sorted(every) != sorted(set(every)) or any(t not in puzzle.board.targets for t in every):
            raise PositionSyntaxError(f"bad chips in state {text[:80]!r}: unknown or repeated chips")
        round_ = natural(parts[5][6:])
        if round_ is None:
            raise PositionSyntaxError(f"bad round {parts[5][:40]!r}; accepted: round=N")
        if puzzle.target == "-":
            need = CHIPS_TO_WIN.get(self.num_players)
            term = ("chips" if need and any(len(c) >= need for c in chips) else
                    "max_rounds" if round_ >= self.params["max_rounds"] else
                    "chips" if not stack else "stack_exhausted")
            return RicochetState(self, puzzle.board, puzzle.robots, None, stack, chips, round_, term)
        return RicochetState(self, puzzle.board, puzzle.robots, puzzle.target, stack, chips, round_)

    def parse_move(self, state: State, text: str) -> Solution | None:
        """A solution ``RN GE RS`` at a round, or ``None`` for ``-`` (no answer).

        Raises:
            MoveSyntaxError: empty text or a bad move.
        """
        return parse_answer(text, Solution.parse, "RN GE RS")

    def render_svg(self, state: State, last_move: Any = None, previous: State | None = None) -> str:
        """The board as SVG: walls, targets, robots and each answer's path of the last round
        (``arena.games.ricochet.svg``)."""
        from arena.games.ricochet.svg import render

        return render(state, last_move, previous)


def too_easy(puzzle: Puzzle) -> bool:
    """The chip's robot (any robot for the vortex) is on the target or reaches it in one move."""
    if puzzle.is_solved():
        return True
    goal = set(puzzle.goal_robots())
    return any(m.robot in goal and puzzle.is_solved(after) for m, after in puzzle.moves_from(puzzle.robots))


__all__ = ["RicochetGame", "RicochetState", "too_easy"]
