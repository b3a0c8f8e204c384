"""The game protocol: ``Game`` is a factory, ``State`` is the play.

Every game (built in or a user's own) implements these two classes. States are immutable:
``play`` returns a new state, so search and worker processes never share mutable state.

Four kinds of node (``State.to_move``):

- a 0-based seat: a sequential node, that seat chooses one of ``legal_moves()``;
- ``SIMULTANEOUS``: every seat answers at once; ``play`` takes a sequence of ``Answer``,
  one per seat (Ricochet Robots rounds);
- ``CHANCE``: nobody chooses; the referee draws one of ``chance_outcomes()`` by its
  probability (``draw_chance``) and plays it (OpenSpiel's dice rolls and card deals);
- ``TERMINAL``: the game is over and ``outcome()`` is set.

Contracts: ``docs/arena.md`` "Contracts / Python API".
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

# a game's or a bot's declared parameters (``params``): ``Param`` and ``coerce_params`` are read here too
from arena.games.params import Param as Param, coerce_params as coerce_params
from arena.games.nodes import CHANCE as CHANCE, SIMULTANEOUS as SIMULTANEOUS, TERMINAL as TERMINAL  # re-exported
from arena.games.payoff import Payoff
from arena.games.ranking import competition_ranks
from arena.games.views import View


#: A move: any hashable value whose ``str()`` is the game's notation.
Move = Hashable


def draw_chance(outcomes: Sequence[tuple[Any, float]], u: float) -> Any:
    """The outcome of a chance node that the uniform number ``u`` in [0, 1) picks: the first
    whose cumulative probability exceeds ``u``, in the order of ``outcomes`` (inverse
    transform sampling: one number per chance node, so the k-th chance node of two games
    with the same seed draws the same number).

    Args:
        outcomes: ``(move, probability)`` pairs (``State.chance_outcomes``), probabilities
            summing to 1.
        u: a number in [0, 1).

    Raises:
        ValueError: no outcome has a positive probability.
    """
    total = 0.0
    last = None
    for move, p in outcomes:
        if p > 0:
            total += p
            last = move
            if u < total:
                return move
    if last is None:
        raise ValueError("a chance node without an outcome of positive probability")
    return last  # u beyond a total that rounding left just below 1


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    Attributes:
        scores: per 0-based seat, the game's own points (pocketed neutrals, Sandpile totals,
            Ricochet chips).
        ranks: per seat, 1 = best, competition ranking (ties share the better rank: 1, 1, 3).
        termination: a short documented reason, e.g. ``"target"``, ``"repetition"``,
            ``"max_plies"``, or a fault set by the arena (``"illegal_move"``, ``"timeout"``...).
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    termination: str

    @classmethod
    def from_scores(cls, scores: Sequence[float], termination: str) -> Outcome:
        """An outcome ranked by score, highest first, ties sharing a rank."""
        return cls(tuple(scores), competition_ranks(scores), termination)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats ranked 1 (several on a shared first place)."""
        return tuple(seat for seat, r in enumerate(self.ranks) if r == 1)


@dataclass(frozen=True)
class Answer:
    """One seat's answer at a simultaneous node.

    Attributes:
        move: the answer (for Ricochet a solution), or ``None`` for no answer.
        seconds: measured thinking time, seconds.
        nodes: nodes searched, as reported by the bot (``None``: not reported).
        error: why a given answer is void (``AnswerStatus.LATE``, ``AnswerStatus.CRASH``), or ``None``.
    """

    move: Any = None
    seconds: float = 0.0
    nodes: int | None = 0
    error: str | None = None


class State(ABC):
    """An immutable position. Subclasses implement the abstract methods.

    ``to_move`` is a 0-based seat, ``SIMULTANEOUS``, ``CHANCE`` or ``TERMINAL``.
    A state reached by ``play`` at a simultaneous node carries ``last_round``: the record of
    that round in the game's notation (the string stored as the round's "move"), and
    ``last_status``: per seat the verdict on its answer (``won``, ``valid``, ``invalid``,
    ``none``). In a game with hidden information (``GameType.hidden_information``) a seat's
    view of a simultaneous node lists the seat's own moves (``View.moves``) when each seat must
    answer one of them (a joint action): the referee then blames a seat that does not.

    Optional, used when present: ``key()`` (transposition-table hash), ``diagram()`` (a
    multi-line picture for ``arena play``), ``random_answer(rng)`` at simultaneous nodes,
    ``given_legal(texts)`` (an engine server hands over the ``legal`` line's moves, so
    ``legal_moves`` need not generate them). A game with chance nodes (``GameType.chance_nodes``)
    implements ``chance_outcomes()``.
    """

    to_move: int
    last_round: str | None = None
    last_status: tuple[str, ...] | None = None

    @abstractmethod
    def legal_moves(self) -> list:
        """The legal moves at a sequential node, in a deterministic order; ``[]`` elsewhere."""

    @abstractmethod
    def play(self, move: Any) -> State:
        """The state after ``move`` (at a simultaneous node: a sequence of ``Answer``, one per seat).

        Raises:
            IllegalMoveError: the move is not legal here (or the state is terminal).
        """

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The outcome at a terminal state, ``None`` before."""

    @abstractmethod
    def to_text(self) -> str:
        """Position text in the game's notation; ``Game.parse_state`` reads it back."""

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """At a chance node (``to_move == CHANCE``): every outcome with a positive probability,
        as ``(move, probability)`` pairs in a deterministic order, probabilities summing to 1;
        ``play(move)`` plays one and ``str(move)`` is its notation. ``[]`` elsewhere (the
        default: a game without chance nodes)."""
        return []

    def view(self, seat: int) -> State | View:
        """What 0-based ``seat`` may know of this position: the state itself in a game of
        perfect information (the default); in a game with hidden information
        (``GameType.hidden_information``) a ``View`` that tells only what the seat may see
        (``arena.games.views``). The referee hands a bot its seat's view, never more."""
        return self

    def key(self) -> Hashable:
        """A hash key of the position for transposition tables (default: the text)."""
        return self.to_text()

    def diagram(self) -> str:
        """A human-readable multi-line picture of the position (default: the text)."""
        return self.to_text()

    def __str__(self) -> str:
        return self.to_text()


class Dynamics(StrEnum):
    """How the seats move (OpenSpiel's ``GameType.Dynamics``)."""

    SEQUENTIAL = "sequential"
    """One seat moves at a time (``State.to_move`` is a seat)."""
    SIMULTANEOUS = "simultaneous"
    """Every seat answers at once at some nodes (``State.to_move == SIMULTANEOUS``)."""


class AnswerStatus(StrEnum):
    """The verdict on one seat's answer at a simultaneous round (``State.last_status``,
    ``Answer.error``, stored as ``MoveRecord.status``; a ``str``, so stored values compare equal)."""

    WON = "won"
    """A valid answer that won the round (the shortest, ties by the game's rule)."""
    VALID = "valid"
    """A valid answer beaten by another (a race round), or one seat's part of a joint action
    that was played (OpenSpiel's simultaneous games)."""
    INVALID = "invalid"
    """An answer that is not a solution of the round's puzzle."""
    NONE = "none"
    """No answer (the bot returned ``None``)."""
    LATE = "late"
    """The referee voided the answer: it came after the move time plus margin (``timeout`` at a
    sequential ply); an engine's client also kills a late engine so."""
    CRASH = "crash"
    """The referee voided the answer: ``choose`` raised (``exception`` at a sequential ply)."""


@dataclass(frozen=True)
class GameType:
    """What a game is, declared up front so bots and tournaments can refuse what they cannot
    play before the first game (OpenSpiel's ``pyspiel.GameType`` is the model).

    Attributes:
        min_players, max_players: the seat counts the game accepts (``max_players`` ``None``:
            no upper bound).
        dynamics: sequential, or simultaneous at some nodes.
        chance: the setup is drawn at random from the game's seed (``initial_state(seed)``).
        deterministic: the same seed and the same moves always give the same game (no hidden
            randomness after the setup; the outcomes of chance nodes are moves of the game).
        chance_nodes: the play has chance nodes (``State.to_move == CHANCE``), whose outcomes
            the referee draws from a generator seeded from the game's seed and records as plies
            (OpenSpiel's explicit stochastic games: backgammon's dice). Search bots that assume
            every node is a seat's choice refuse such games (``bots.base.Plays.chance_nodes``).
        hidden_information: a seat may not see the whole state (cards, dice, the other side's
            pieces, the others' answers at a simultaneous node): the referee hands each bot only
            its seat's view (``State.view``, ``arena.games.View``), and bots that need the state
            refuse the game (``bots.base.Plays.hidden_information``).
    """

    min_players: int
    max_players: int | None
    dynamics: Dynamics = Dynamics.SEQUENTIAL
    chance: bool = False
    deterministic: bool = True
    chance_nodes: bool = False
    hidden_information: bool = False

    def seats(self) -> str:
        """The accepted seat counts as text, e.g. ``"2"``, ``"1-8"``, ``"2+"``."""
        if self.max_players == self.min_players:
            return str(self.min_players)
        return f"{self.min_players}+" if self.max_players is None else f"{self.min_players}-{self.max_players}"


class Game(ABC):
    """A game with fixed parameters: a factory of states.

    Subclasses set ``name``, ``type`` (a ``GameType``), ``PARAMS`` and ``TERMINATIONS`` and
    implement the three methods; a game whose seat count varies sets ``num_players`` from its
    parameters (a fixed count is the type's). Optional, used when present:
    ``parse_round(state, text)`` at a simultaneous node, the answers (``Answer``, one per seat)
    that replay a stored round ``text`` (``State.last_round``); without it a stored round reads
    as a race round (``arena.referee.round_answers``).
    ``Game(**params)`` coerces and checks parameters (strings from a command line are accepted).

    Raises:
        ConfigError: an unknown parameter or a bad value.
    """

    name: ClassVar[str] = ""
    #: One line describing the game, for ``arena games``; unless set, the first paragraph of
    #: the class docstring (a final full stop dropped).
    summary: ClassVar[str] = ""
    PARAMS: ClassVar[dict[str, Param]] = {}
    #: What the game is: seats, dynamics, chance (checked by bots and tournaments up front).
    type: ClassVar[GameType] = GameType(2, 2)
    #: A race in which the whole field takes part in every game of a tournament (Ricochet):
    #: its ``players`` parameter, when not given, is set to the number of bots.
    whole_field: ClassVar[bool] = False
    #: The rule endings ``Outcome.termination`` may name, each with the rule that produces it
    #: (the docs' terminations table is generated from these and ``arena.referee.Termination``).
    TERMINATIONS: ClassVar[dict[str, str]] = {}
    #: The ``--opening-plies`` a tournament of this game takes when none is given; ``None``: the
    #: arena's default (2). A game whose first plies are the bots' declared choices rather
    #: than moves of play (the ``known`` test game) sets 0.
    OPENING_PLIES: ClassVar[int | None] = None
    #: Seats in a game of these parameters: the type's seat count where it is fixed (set when a
    #: subclass is defined); a game whose count varies sets its own from its parameters.
    num_players: int = 2
    #: What the game's scores are when they are amounts won and lost (chips, points): the
    #: reports rank such a game by payoff (``arena.games.payoff``); ``None``: by places.
    payoff: Payoff | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "summary" not in vars(cls) and cls.__doc__:
            cls.summary = " ".join(inspect.cleandoc(cls.__doc__).split("\n\n")[0].split()).removesuffix(".")
        if "num_players" not in vars(cls) and cls.type.max_players == cls.type.min_players:
            cls.num_players = cls.type.min_players

    def __init__(self, **params: Any) -> None:
        self.params: dict[str, Any] = coerce_params(f"game {self.name}", self.PARAMS, params)

    @abstractmethod
    def initial_state(self, seed: int | None = None) -> State:
        """The start position (``seed`` drives any random setup; same seed, same state)."""

    @abstractmethod
    def parse_state(self, text: str) -> State:
        """Read position text.

        Raises:
            PositionSyntaxError: the text is malformed or describes an impossible position.
        """

    @abstractmethod
    def parse_move(self, state: State, text: str) -> Any:
        """Read a move in the game's notation (syntax only; ``play`` checks legality).

        Raises:
            MoveSyntaxError: the text is not a move of this game.
        """

    def render_svg(self, state: State, last_move: Any = None, previous: State | None = None) -> str | None:
        """A picture of ``state`` as an SVG document (text, no I/O), or ``None``: no drawing.

        The default draws nothing; a game overrides it (the HTML report's replay viewer shows
        one picture per ply, ``arena.reports.html``).

        Args:
            state: the position to draw.
            last_move: what led to ``state`` from ``previous``: a move (object or notation);
                at a simultaneous round, the answers by 0-based seat (notation, ``"-"`` for
                none) or the stored round record. ``None``: draw the position alone.
            previous: the position before ``last_move`` (to draw paths and what changed).
        """
        return None

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.params.items() if v != self.PARAMS[k].default}
        args = ", ".join(f"{k}={v!r}" for k, v in changed.items())
        return f"make({self.name!r}{', ' if args else ''}{args})"
