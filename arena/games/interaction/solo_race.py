"""A race of Solo Interaction solvers: each layout is one round (a simultaneous node) in
which every seat answers with a whole solution; the shortest valid solution (one that clears
the board within ``max_plies`` moves) wins the round's chip, ties as in Ricochet races
(``arena.games.race``, ``docs/rules/ricochet.md`` "A round" 3-4). Rounds nobody solves give
no chip; the game ends after the last layout. Scores = chips (layouts won), ranked with ties.

State text: ``layout=<current> rest=<layouts still to race, or -> chips=<seat;seat...>
round=N``, each seat's chips the layout numbers it won, comma-separated, or ``-``; at the
end ``layout=-``. Round record (stored move): ``L<layout> <winning seat or -> <solution or ->``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from arena.errors import ConfigError, IllegalMoveError, PositionSyntaxError
from arena.games.interaction.layouts import LAYOUTS
from arena.games.interaction.solo import InteractionSoloGame, SoloSolution, SoloState
from arena.games.protocol import SIMULTANEOUS, TERMINAL, Answer, Dynamics, Game, GameType, Outcome, Param, State
from arena.games.race import TIES, check_answers, parse_answer, resolve_round
from arena.numbers import natural


class SoloRaceState(State):
    """A round (``SIMULTANEOUS``) or the end (``TERMINAL``). Immutable.

    Attributes:
        layout: the layout raced this round (1-based), ``None`` at the end.
        rest: the layouts still to race after it.
        chips: per seat, the layouts won.
        round: rounds played.
        position: the round's ``SoloState`` (``None`` at the end).
    """

    def __init__(self, game: SoloRaceGame, layout: int | None, rest: tuple[int, ...],
                 chips: tuple[tuple[int, ...], ...], round_: int) -> None:
        self.game, self.layout, self.rest, self.chips, self.round = game, layout, rest, chips, round_
        self.position: SoloState | None = game.solo[layout].initial_state() if layout else None
        self.to_move = SIMULTANEOUS if layout else TERMINAL

    def legal_moves(self) -> list:
        return []

    def is_terminal(self) -> bool:
        return self.layout is None

    def outcome(self) -> Outcome | None:
        if self.layout is not None:
            return None
        return Outcome.from_scores([len(c) for c in self.chips], "layouts")

    def random_answer(self, rng: random.Random) -> SoloSolution | None:
        """A random playout of the round's layout (rarely a solution; for the ``random`` bot)."""
        if self.position is None:
            return None
        st, moves = self.position, []
        while not st.is_terminal():
            move = rng.choice(st.legal_moves())
            moves.append(move)
            st = st.play(move)
        return SoloSolution(moves)

    def play(self, answers: Sequence[Answer]) -> SoloRaceState:
        """Resolve a round: check each seat's solution, award the chip to the shortest.

        Raises:
            IllegalMoveError: the game is over, or not one ``Answer`` per seat.
        """
        start = self.position  # set exactly when ``layout`` is
        if self.layout is None or start is None:
            raise IllegalMoveError("the game is over; no round to answer")
        check_answers(answers, self.game.num_players)

        def check(move: Any):
            sol = SoloSolution.of(move)
            try:
                end = start.run(sol)
            except IllegalMoveError:
                return None
            return (sol, end) if end.termination == "cleared" else None

        winner, status, valid = resolve_round(answers, check, [len(c) for c in self.chips],
                                              self.game.params["ties"])
        chips = self.chips
        if winner is None:
            record = f"L{self.layout} - -"
        else:
            chips = tuple(c + (self.layout,) if s == winner else c for s, c in enumerate(chips))
            record = f"L{self.layout} {winner} {valid[winner][0]}"
        layout, rest = (self.rest[0], self.rest[1:]) if self.rest else (None, ())
        nxt = SoloRaceState(self.game, layout, rest, chips, self.round + 1)
        nxt.last_round, nxt.last_status = record, tuple(status)
        return nxt

    def to_text(self) -> str:
        rest = ",".join(map(str, self.rest)) or "-"
        chips = ";".join(",".join(map(str, c)) or "-" for c in self.chips)
        return f"layout={self.layout or '-'} rest={rest} chips={chips} round={self.round}"

    def diagram(self) -> str:
        head = f"round {self.round}  layout {self.layout or '-'}  chips {' '.join(str(len(c)) for c in self.chips)}"
        return head if self.position is None else self.position.diagram() + "\n" + head


def _numbers(text: str, what: str) -> tuple[int, ...]:
    text = text.strip()
    if text in ("-", ""):
        return ()
    numbers = tuple(natural(t.strip()) for t in text.split(","))
    if None in numbers:
        raise PositionSyntaxError(f"bad {what} {text[:80]!r}; accepted: layout numbers 1-{len(LAYOUTS)} "
                                  "separated by commas, or -") from None
    out = tuple(n for n in numbers if n is not None)
    if any(not 1 <= n <= len(LAYOUTS) for n in out):
        raise PositionSyntaxError(f"bad {what} {text[:80]!r}: layouts are numbered 1-{len(LAYOUTS)}")
    return out


class SoloRaceGame(Game):
    """Solo Interaction race: every solver answers each layout, the fewest moves win it.

    Solvers race on the Solo Interaction layouts, one round per layout (1-8 seats).
    """

    name = "interaction-solo-race"
    whole_field = True  # a tournament races its whole field in every game
    type = GameType(1, 8, Dynamics.SIMULTANEOUS)
    TERMINATIONS = {
        "layouts": "every layout was raced; seats ranked by layouts won",
    }
    PARAMS = {
        "players": Param(2, "number of players (seats), 1-8", minimum=1),
        "layouts": Param(",".join(str(i + 1) for i in range(len(LAYOUTS))), "layouts raced, in order"),
        "ties": Param("fewer-chips", "equal lengths: fewer chips then lower seat, or first answer", choices=TIES),
        "max_plies": Param(40, "longest valid solution, moves", minimum=1),
        "think_time": Param(None, "seconds per round for every player", kind=float, minimum=0),
        "think_nodes": Param(None, "nodes per round for every player", kind=int, minimum=1),
    }

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        if self.params["players"] > 8:
            raise ConfigError("game interaction-solo-race: parameter players must be 1-8")
        self.num_players = self.params["players"]
        try:
            self.order = _numbers(self.params["layouts"], "layouts")
        except PositionSyntaxError as exc:
            raise ConfigError(f"game interaction-solo-race: parameter {exc}") from None
        if not self.order:
            raise ConfigError("game interaction-solo-race: parameter layouts names no layout")
        self.solo = {n: InteractionSoloGame(layout=n, max_plies=self.params["max_plies"]) for n in set(self.order)}

    def initial_state(self, seed: int | None = None) -> SoloRaceState:
        """The first layout's round (``seed`` is unused: the order is the ``layouts`` parameter)."""
        return SoloRaceState(self, self.order[0], self.order[1:], tuple(() for _ in range(self.num_players)), 0)

    def parse_state(self, text: str) -> SoloRaceState:
        """Read ``layout=N rest=.. chips=..;.. round=N``.

        Raises:
            PositionSyntaxError: malformed text, or chips for another number of seats.
        """
        parts = str(text).split()
        keys = ("layout=", "rest=", "chips=", "round=")
        if len(parts) != 4 or any(not p.startswith(k) for p, k in zip(parts, keys)):
            raise PositionSyntaxError(f"bad solo race state {str(text)[:80]!r}; accepted: "
                                      "'layout=N rest=N,N chips=N,N;- round=N'")
        layout = _numbers(parts[0][7:], "layout")
        rest = _numbers(parts[1][5:], "rest")
        chips = tuple(_numbers(seat, "chips") for seat in parts[2][6:].split(";"))
        if len(chips) != self.num_players or len(layout) > 1 or (not layout and rest):
            raise PositionSyntaxError(f"bad solo race state {str(text)[:80]!r}: one layout (or -), "
                                      f"chips for {self.num_players} seats")
        round_ = natural(parts[3][6:])
        if round_ is None:
            raise PositionSyntaxError(f"bad round {parts[3][:40]!r}; accepted: round=N")
        for n in layout + rest:
            if n not in self.solo:
                self.solo[n] = InteractionSoloGame(layout=n, max_plies=self.params["max_plies"])
        return SoloRaceState(self, layout[0] if layout else None, rest, chips, round_)

    def parse_move(self, state: State, text: str) -> SoloSolution | None:
        """A solution ``e1N d3SW ...``, or ``None`` for ``-`` (no answer).

        Raises:
            MoveSyntaxError: empty text or a bad move.
        """
        return parse_answer(text, SoloSolution.parse, "e1N d3SW")


__all__ = ["SoloRaceGame", "SoloRaceState"]
