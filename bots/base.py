"""The bot protocol: ``reset(game, seat, seed)`` then ``choose(state, limits) -> move``.

Bots never see the runner or storage. A bot's spec parameters are declared in ``PARAMS``
(``arena.games.Param``); the limits a bot gets per move come from the tournament
(``--move-time``, ``--move-nodes``) and are combined with the bot's own (``depth=3``...) by
``Limits.tighter``: the stricter of each wins. Under a game clock (``--tc``) ``Limits.clock``
holds every seat's clock, and ``Limits.budgeted(seat)`` folds the seat's share of it into
``time`` (``bots.clock.Clock.budget``). In a game with hidden information ``choose`` is
handed the seat's ``arena.games.View``, not the state. A bot that can state its move
probabilities also has ``policy(view) -> {move: probability}`` (``StatesPolicy``): the report
then gives its exploitability where the game is small enough (``bots.exploitability``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
import gc
import random
import time
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Protocol, runtime_checkable

from arena.games import Dynamics, Game, Param, State
from arena.errors import ConfigError
from arena.games.protocol import coerce_params
from bots.clock import Clock


#: seconds of a move's time a search leaves unused (``Limits.deadline``)
MOVE_OVERHEAD = 0.01
#: the deepest a search goes, plies (``Limits.plies``; the bound of the search bots' ``depth``)
MAX_DEPTH = 64


@dataclass(frozen=True)
class Limits:
    """Per-move search limits; ``None`` means unlimited.

    Attributes:
        time: seconds of thinking for this move (``--move-time``); ``None`` under a game
            clock alone (``--tc``): the time is on ``clock``, and ``budgeted(seat)`` gives this
            move's share of it as ``time``.
        nodes: nodes (positions visited, or playouts for MCTS) for this move.
        depth: plies of full-width search.
        clock: every seat's game clock at this move (``--tc``; ``bots.clock.Clock``), or
            ``None`` when the game has no clock. A move that takes longer than the seat's
            remaining time (plus ``--time-margin``) loses by ``timeout``.
    """

    time: float | None = None
    nodes: int | None = None
    depth: int | None = None
    clock: Clock | None = None

    def tighter(self, other: Limits) -> Limits:
        """Each limit the smaller of the two (``None`` = unlimited); the clock of either (``other``'s first)."""
        def pick(a, b):
            return b if a is None else a if b is None else min(a, b)
        return Limits(pick(self.time, other.time), pick(self.nodes, other.nodes), pick(self.depth, other.depth),
                      other.clock or self.clock)

    def budgeted(self, seat: int) -> Limits:
        """These limits with ``time`` the smaller of itself and ``seat``'s budget on the clock
        (``Clock.budget``: seconds); unchanged without a clock or for a seat without one."""
        budget = None if self.clock is None else self.clock.budget(seat)
        if budget is None:
            return self
        return Limits(budget if self.time is None else min(self.time, budget), self.nodes, self.depth, self.clock)

    def plies(self, default: int) -> int:
        """The deepest iteration of a search, plies: ``depth`` (``MAX_DEPTH`` at most, also
        when a runner set it); ``MAX_DEPTH`` under a time or node limit alone; else
        ``default``."""
        if self.depth is not None:
            return min(self.depth, MAX_DEPTH)
        return MAX_DEPTH if self.time is not None or self.nodes is not None else default

    def deadline(self, start: float | None = None) -> float | None:
        """``time.perf_counter()`` value at which a search should stop, or ``None``: ``time``
        seconds after ``start`` (now when omitted) less a move overhead (``MOVE_OVERHEAD``, at
        most a fifth of ``time``) kept for returning the move and the arena's messages, as
        engines keep one ("Move Overhead"): a bot that searched to the last millisecond lost
        on time at ``--time-margin 0`` (1-2 ms late in process, more across processes)."""
        if self.time is None:
            return None
        return (time.perf_counter() if start is None else start) + self.time - min(MOVE_OVERHEAD, self.time / 5)

    def __str__(self) -> str:
        parts = [f"{f.name}={getattr(self, f.name)}" for f in fields(self) if getattr(self, f.name) is not None]
        return ",".join(parts) or "unlimited"


@dataclass(frozen=True)
class SearchStats:
    """What a bot's last ``choose`` did.

    Attributes:
        nodes: positions visited (MCTS: playouts), count.
        depth: deepest completed iteration, plies (0 when not a depth search).
        seconds: wall-clock time of the choice, seconds.
        evaluation: the bot's value of the position for the seat to move (its own units:
            alpha-beta centipawn-like score, MCTS win rate), or ``None``.
    """

    nodes: int = 0
    depth: int = 0
    seconds: float = 0.0
    evaluation: float | None = None


class Player(Protocol):
    """What the referee needs of a bot: ``choose``. Any object with it is a bot.

    Optional, used when present: ``reset(game, seat, seed)`` (``Resettable``), ``last_stats``
    (``ReportsStats``), ``PLAYS`` (``Plays``: checked before a tournament or ``arena play``),
    ``policy(view)`` (``StatesPolicy``: the move probabilities, for the report's exploitability).

    Capabilities a process that plays games reads from the bot (``arena.supervisor.Watched``,
    ``arena.tournament.worker``), never from the module a bot class comes from:

    - ``keeps_own_deadline`` (bool, default false): ``choose`` keeps the move's deadline
      itself (an engine client kills a late engine and raises ``BotFault``; at a simultaneous
      round the seat's answer is then void, the game goes on), so the parent process does not
      time that seat's answer at such a round;
    - ``for_game(bots)`` (a static method of the class): called before each game of the
      process with the game's bots in seat order, once a bot of the class was made there (an
      engine client keeps its engines for those bots and quits the others);
    - ``close_all()`` (a static method of the class): called once before the process ends,
      which skips ``atexit`` (an engine client quits its engines).
    - ``waits_on_network`` (bool, default false): ``choose`` mostly waits on a remote server
      (a language model, ``arena.llm``), so a worker may play many such games at once in threads
      instead of one process each;
    - ``last_log`` (a JSON-able ``dict`` or ``None``, set by ``choose``): the move's telemetry
      and transcript (a language model's tokens, latency, attempts, cost and every prompt and
      answer), stored with the move; the referee reads it after each ``choose``.

    A ``choose`` that raises ``arena.errors.ProviderFailure`` voids the game (the provider failed,
    not the bot).
    """

    def choose(self, state: State, limits: Limits | None) -> Any:  # noqa: D102 - documented in Player
        """The move to play (at a simultaneous node: the seat's answer, ``None`` for none).
        ``limits``: the seat's per-move limits, ``None`` when unlimited (``GameSettings.limits``)."""


@runtime_checkable
class Resettable(Protocol):
    """A bot told of each new game: 0-based ``seat``, ``seed`` for every random choice."""

    def reset(self, game: Game, seat: int, seed: int) -> None: ...


@runtime_checkable
class ReportsStats(Protocol):
    """A bot that reports what its last ``choose`` did."""

    last_stats: SearchStats


@runtime_checkable
class StatesPolicy(Protocol):
    """A bot that can state its move probabilities: ``policy(view)`` maps each legal move of the
    view (a ``View``, or the state itself in a game of perfect information) to the probability
    that ``choose`` plays it there; moves left out have probability 0, the probabilities sum
    to 1 (``{}`` where the seat has no move). It must depend on the view alone, after
    ``reset(game, view.seat, seed)``: the report's exploitability (``bots.exploitability``)
    resets the bot once per seat (seed 0) and reads its policy at one view of every information
    state of the game. ``random`` states the uniform policy, ``openspiel.cfr`` its solved table.
    """

    def policy(self, view: Any) -> dict[Any, float]: ...


@dataclass(frozen=True)
class Plays:
    """What a bot class can play, checked against ``Game.type`` before any game starts
    (OpenSpiel's ``MCTSBot`` refusing a game type in its constructor is the model).

    Attributes:
        min_players, max_players: seat counts it can play (``max_players`` ``None``: any).
        dynamics: the ``arena.games.Dynamics`` it can answer.
        games: only these registered games (``None``: any game).
        chance_nodes: it can play games with chance nodes (``GameType.chance_nodes``). A bot
            is never asked at a chance node (the referee draws the outcome), so only a search
            that assumes every node below the root is a seat's choice sets ``False``
            (``alphabeta``, ``paranoid``, ``maxn``, ``brs``).
        hidden_information: it can play games with hidden information
            (``GameType.hidden_information``), where ``choose`` is handed a
            ``arena.games.View`` (the seat's view: ``legal_moves()``, ``text``, ``sample``), not
            a state. Off by default: a search that plays moves on the state it is given cannot.
    """

    min_players: int = 1
    max_players: int | None = None
    dynamics: frozenset[Dynamics] = frozenset({Dynamics.SEQUENTIAL})
    games: frozenset[str] | None = None
    chance_nodes: bool = True
    hidden_information: bool = False

    def refusal(self, game: Game) -> str | None:
        """Why a bot of this kind cannot play ``game`` (one line), or ``None`` if it can."""
        n = game.num_players
        if self.games is not None and game.name not in self.games:
            return f"plays only {', '.join(sorted(self.games))}"
        if game.type.dynamics not in self.dynamics:
            return f"plays {'/'.join(sorted(self.dynamics))} games; {game.name} is {game.type.dynamics}"
        if n < self.min_players or (self.max_players is not None and n > self.max_players):
            seats = (f"{self.min_players}+" if self.max_players is None else str(self.min_players)
                     if self.min_players == self.max_players else f"{self.min_players}-{self.max_players}")
            return f"plays {seats}-player games; {game.name} has {n} players"
        if not self.chance_nodes and game.type.chance_nodes:
            return f"plays games without chance nodes; {game.name} has chance nodes (dice, deals)"
        if not self.hidden_information and game.type.hidden_information:
            return (f"plays games of perfect information; {game.name} has hidden information "
                    "(a bot sees only its seat's view)")
        return None


#: a bot for any game, sequential or simultaneous, of perfect or hidden information
ANY_GAME = Plays(dynamics=frozenset(Dynamics), hidden_information=True)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector (``gc``) for the length of one search.

    A search makes no reference cycles: reference counting frees every position it drops.
    But the cyclic collector runs after every 700 net allocations of container objects and
    visits every young object each time, so a search that keeps thousands of positions from
    one iteration to the next (``bots.alphabeta``) paid a full collector pass that freed
    nothing, again and again (at depth 6: 119 young-generation passes, about 9% of the
    search time). The collector's previous state is restored on the way out, also on an
    exception; any cycle made meanwhile is collected at its next pass. (``timeit`` pauses
    the collector the same way while it times.)
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def refusal(bot_class: type, game: Game) -> str | None:
    """Why ``bot_class`` cannot play ``game``, from its ``PLAYS`` (a class without ``PLAYS``
    is taken to play anything), or ``None``."""
    plays = getattr(bot_class, "PLAYS", None)
    return plays.refusal(game) if isinstance(plays, Plays) else None


class _SeededLater:
    """``Bot.rng`` before ``reset`` seeds it: a generator seeded with 0, made at the first look
    (seeding one costs about 10 µs, and a bot is made for every game and reset before its first
    move, which makes the one it uses)."""

    def __get__(self, bot: Any, owner: type | None = None) -> random.Random:
        if bot is None:
            return self  # type: ignore[return-value]  # the class attribute itself
        rng = bot.__dict__["rng"] = random.Random(0)
        return rng


class Bot:
    """Base class of bots. Subclasses set ``name``, ``PARAMS``, and implement ``choose``.

    ``Bot(**options)`` coerces options to the declared types (strings accepted) and stores
    them in ``self.options``.

    Raises:
        ConfigError: an unknown option or a bad value (the registry re-raises it as
            ``BotSpecError``).
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    PARAMS: ClassVar[dict[str, Param]] = {}
    #: What this kind can play (default: sequential games, any number of players).
    PLAYS: ClassVar[Plays] = Plays()
    #: the bot's generator: ``random.Random(seed)`` from ``reset``, ``random.Random(0)`` before
    rng: random.Random = _SeededLater()  # type: ignore[assignment]  # a descriptor until set

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = coerce_params(f"bot {self.name}", self.PARAMS, options)
        self.last_stats = SearchStats()
        self.game: Game | None = None
        self.seat = 0

    def reset(self, game: Game, seat: int, seed: int) -> None:
        """Prepare for a new game: ``seat`` is 0-based, ``seed`` seeds every random choice.

        Raises:
            ConfigError: the game is not one this kind plays (``PLAYS``).
        """
        why = None if game is None else self.PLAYS.refusal(game)  # None: a lone puzzle (arena solve)
        if why is not None:
            raise ConfigError(f"{self.name} {why}")
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)

    def own_limits(self) -> Limits:
        """The limits set in the bot's spec (options named ``time``, ``nodes``, ``depth``)."""
        return Limits(
            time=self.options.get("time"),
            nodes=self.options.get("nodes"),
            depth=self.options.get("depth"),
        )

    def move_limits(self, limits: Limits | None) -> Limits:
        """The limits of this move: the spec's (``own_limits``) and the arena's, the stricter of
        each, with this seat's share of its game clock as the time (``Limits.budgeted``)."""
        return self.own_limits().tighter(limits or Limits()).budgeted(self.seat)

    def no_answer(self, state: State, start: float) -> bool:
        """True at a node where a sequential-game bot has no answer (simultaneous or finished);
        ``last_stats`` is then set. ``start``: ``time.perf_counter()`` when ``choose`` began.

        Raises:
            RuntimeError: ``reset(game, seat, seed)`` was not called first.
        """
        if self.game is None:
            raise RuntimeError(f"{self.name}: reset(game, seat, seed) must be called before choose")
        if state.to_move < 0:
            self.last_stats = SearchStats(0, 0, time.perf_counter() - start, None)
            return True
        return False

    def choose(self, state: State, limits: Limits) -> Any:
        """The move to play in ``state`` (a sequential node where this bot's seat is to move).

        At a simultaneous node (Ricochet round) the answer, or ``None`` for no answer.
        """
        raise NotImplementedError
