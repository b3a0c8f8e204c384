"""Typed records of a played game and their one serialisation each way.

``MoveRecord`` (one ply) and ``GameRecord`` (a finished game) are what the referee produces and
what crosses every process boundary: worker -> runner and Dask worker -> client (``to_wire`` /
``from_wire``), the store (``arena.results.store.Store.add_game`` reads the fields by name). The
messages of a watched game (``Ply``, ``GameEnded``) and the bytes of the shared ply buffer are
in ``arena.referee.messages``. fastchess's ``MatchData`` is the model: one type passed whole,
never positional tuples rebuilt in several modules.

``Termination`` names every ending the arena itself decides (``docs/arena.md`` "Contracts /
Faults"); a game's own rule endings (``"target"``, ``"rounds"``...) are plain strings the game
documents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import partial
from typing import Any, NamedTuple

# defined beside ProviderFailure, so that bots may raise it without importing the referee
from arena.errors import BotFault as BotFault
from arena.games import Outcome
from arena.referee.plain import number as _number, plain_float, plain_int, plain_text

#: version of the wire tuples of ``to_wire`` / ``ply_to_wire``; bumped when a field changes
RECORD_VERSION = 3


class Termination(StrEnum):
    """How the arena ended a game (a ``str``: stored values and ``== "timeout"`` keep working).

    A fault's seat ranks last, the others share first (``forfeit``); ``CRASH`` before any bot
    moved and ``GAME_ERROR`` blame nobody: every seat ranks first. Each member's ``__doc__``
    names the rule or fault that produces it (python-chess's ``Termination`` is the model).
    """

    def __new__(cls, value: str, doc: str = "") -> Termination:
        member = str.__new__(cls, value)
        member._value_ = value
        member.__doc__ = doc
        return member

    EXCEPTION = (
        "exception",
        "A bot's ``choose`` or ``reset`` raised (or its constructor, in a tournament worker).",
    )
    ILLEGAL_MOVE = (
        "illegal_move",
        "A bot answered a move of the game's notation that is not legal in the position (the "
        "game's ``play`` raised ``IllegalMoveError``).",
    )
    BAD_MOVE = (
        "bad_move",
        "A bot answered something that is not a move of the game at all (``parse_move`` of its "
        "text fails, or it is not the move its text reads as).",
    )
    TIMEOUT = (
        "timeout",
        "A move took longer than the move time plus ``--time-margin`` (measured, or killed by the "
        "watchdog after a grace of max(1 s, move time)), or the seat's game clock (``--tc``) went below "
        "−``--time-margin``; an engine that sends no ``bestmove`` in that time is killed and restarted "
        "for the next game.",
    )
    EXIT = (
        "exit",
        "A bot raised ``SystemExit`` (called ``sys.exit``).",
    )
    RESIGNED = (
        "resigned",
        "A person's seat (the ``human`` bot) resigned: typed ``quit`` or ``resign``, or its input "
        "ended (``bots.human``); the seat loses as by a fault.",
    )
    MEMORY = (
        "memory",
        "``MemoryError`` under ``--memory-limit`` (``RLIMIT_AS``) while a bot was on move.",
    )
    CRASH = (
        "crash",
        "The process playing the game died (SIGKILL, ``os._exit``, segfault, closed pipe) on "
        "every attempt (``--retries`` replays); or an engine process (``exec:``, ``--isolation process``) "
        "exited or closed its output mid-game, or could not be restarted for the game; or a bot forked "
        "the worker process. Blames the seat on move.",
    )
    GAME_TIME = (
        "game_time",
        "The game ran past ``--game-time`` seconds; its worker was killed.",
    )
    GAME_ERROR = (
        "game_error",
        "The game's own code raised while playing a proper move (a bug in the game, not in a "
        "bot): nobody is blamed, the traceback is in ``<results>/<name>.log``.",
    )
    ADJUDICATED = (
        "adjudicated",
        "``--adjudicate resign=MOVES:SCORE[:twosided]``: the seat whose reported score stayed at or "
        "below -SCORE for MOVES of its moves loses, the other wins (``arena.referee.adjudicate``); "
        "not a fault.",
    )
    ADJUDICATED_DRAW = (
        "adjudicated_draw",
        "``--adjudicate draw=AFTER:MOVES:SCORE`` (both scores within +-SCORE for MOVES moves each "
        "after AFTER plies) or ``max-plies=N`` (N plies played): every seat ranks first; not a fault.",
    )
    UNFINISHED = (
        "unfinished",
        "The worker reported an ending that the runner's replay of the stored moves does not reach "
        "(``arena.referee.check``: a bot tampered with the worker's objects): nobody is blamed, "
        "every seat ranks first, the mismatch is logged and counted.",
    )
    VOID = (
        "void",
        "A bot's remote provider failed (``choose`` raised ``arena.errors.ProviderFailure``: a language "
        "model's server timed out, refused the connection, answered HTTP 429 or 5xx, or answered no chat "
        "completion on every retry): "
        "nobody is blamed and the game has no rating effect (its detail begins ``seat N provider failure:``); "
        "a tournament keeps it apart (its own count) "
        "and plays the same game (pairing, seed) again later in the run, or when the run is resumed.",
    )


#: Terminations that end a game by the arena's adjudication (``--adjudicate``), not by a fault.
ADJUDICATIONS = (Termination.ADJUDICATED, Termination.ADJUDICATED_DRAW)
#: Terminations that are a bot's fault (the seat ranks last).
FAULTS = tuple(t for t in Termination
               if t not in (Termination.GAME_ERROR, Termination.UNFINISHED, Termination.VOID, *ADJUDICATIONS))
#: Terminations that blame nobody and are no bot's fault (every seat ranks first).
BLAMELESS = (Termination.GAME_ERROR, Termination.VOID)


class MoveRecord(NamedTuple):
    """One ply (or one seat's answer at a simultaneous round) as played.

    A named tuple (immutable, compared and hashed by its values): a game makes one a ply and
    the runner one for each it receives, and a tuple is made and read in C (``to_wire`` takes
    a game's records column by column), several times faster than a frozen dataclass.

    Attributes:
        ply: 0-based ply index within the game, opening plies included.
        seat: 0-based seat that moved; -1 for an opening ply; ``arena.games.CHANCE`` (-3) for
            a chance ply drawn by the referee after the opening (no bot moved).
        move: the move in the game's notation (at a simultaneous round: the seat's answer, ``-``
            for none).
        seconds: thinking time, seconds (0 for opening plies).
        nodes, depth, evaluation: the bot's ``last_stats`` for that move (count, plies, the
            bot's own units); ``None`` when the bot does not report the figure.
        status: at a simultaneous round, the verdict on the seat's answer: ``won``, ``valid``,
            ``invalid``, ``none`` (no answer), or the arena's ``late`` / ``crash``; ``None``
            for sequential plies.
        clock: seconds left on the seat's game clock after the move, increment (and a
            ``MOVES/`` refill) added; ``None`` when no clock timed the move.
    """

    ply: int
    seat: int
    move: str
    seconds: float = 0.0
    nodes: int | None = 0
    depth: int | None = 0
    evaluation: float | None = None
    status: str | None = None
    clock: float | None = None


_MOVE_FIELDS = MoveRecord._fields
#: a ``MoveRecord`` of a wire tuple's values, made in C (``from_wire`` checks the lengths)
_move_record = partial(tuple.__new__, MoveRecord)


@dataclass(frozen=True)
class GameRecord:
    """A finished game.

    Attributes:
        seats: bot labels by 0-based seat.
        seed: the game's (series) seed: the initial state, the opening plies and every bot's
            seed (``bot_seeds``, with the game's index in its series and the labels) derive
            from it.
        opening_plies: how many of ``moves`` were forced opening plies.
        moves: every ply in notation, opening included (a simultaneous round: its round text).
        move_stats: one ``MoveRecord`` per sequential ply, one per seat per simultaneous round.
        outcome: scores, ranks and termination (a ``Termination`` or the game's own reason).
        seconds: wall-clock duration of the game, seconds.
        fault_seat: the 0-based seat that lost by a fault, or ``None``.
        fault_detail: one line on the fault or game error (a traceback may follow it), or
            ``None``; bounded and storable whatever a bot raised (``fault_text``).
        adjudication: the ``--adjudicate`` rule that ended the game (``resign=3:500``,
            ``max-plies=200``...; its ply is the record's last), or ``None``.
        log: the ``last_log`` of every move that had one (``bots.base.Player``: a language
            model's tokens, latency, attempts, cost and transcript) as JSON text, a list of
            ``{"ply", "seat", "log"}`` (0-based ply and seat); ``None`` when no bot logged
            (``arena.referee.reported.MoveLogs``).
    """

    seats: tuple[str, ...]
    seed: int
    opening_plies: int
    moves: tuple[str, ...]
    move_stats: tuple[MoveRecord, ...]
    outcome: Outcome
    seconds: float
    fault_seat: int | None = None
    fault_detail: str | None = None
    adjudication: str | None = None
    log: str | None = None

    def __post_init__(self) -> None:
        if self.fault_detail is not None:  # every path that makes a record: a bot's text bounded once
            object.__setattr__(self, "fault_detail", fault_text(self.fault_detail))

    @property
    def plies(self) -> int:
        """Plies played, opening included (a simultaneous round counts one)."""
        return len(self.moves)


#: characters of a fault detail's first line, and of the traceback after it
DETAIL_LINE, DETAIL_TRACE = 500, 20_000


def fault_text(detail: str) -> str:
    """``detail`` as a record keeps it: the first line squeezed to one line of at most
    ``DETAIL_LINE`` characters, a traceback after it (``arena.referee.play.exception_text``)
    kept up to ``DETAIL_TRACE`` characters, and what UTF-8 cannot encode (a lone surrogate in
    a bot's text) escaped (``\\udcff``), so any detail can be stored and shown. Idempotent."""
    head, _, trace = detail.partition("\n")
    text = " ".join(head[:4 * DETAIL_LINE].split())[:DETAIL_LINE]
    if trace.strip():
        text += "\n" + trace[:DETAIL_TRACE]
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def forfeit(num_players: int, seat: int | None, termination: str) -> Outcome:
    """The outcome when ``seat`` loses by a fault: it ranks last, the others share first.
    ``seat`` ``None`` or negative: nobody is blamed, every seat ranks first."""
    blamed = seat is not None and seat >= 0
    ranks = tuple(num_players if blamed and s == seat else 1 for s in range(num_players))
    return Outcome(tuple(0.0 for _ in range(num_players)), ranks, termination)


def fault_record(seats: tuple[str, ...], seed: int, opening: tuple[str, ...] | list[str], seat: int | None,
                 reason: str, detail: str, moves: list[str] | tuple = (), stats: list[MoveRecord] | tuple = (),
                 seconds: float = 0.0) -> GameRecord:
    """The record of a game stopped by a fault of ``seat`` (``None`` or < 0: nobody blamed).

    ``moves`` and ``stats``: the plies played after the ``opening``; ``detail`` as
    ``fault_text`` stores it.
    """
    blamed = seat if seat is not None and seat >= 0 else None
    opened = tuple(MoveRecord(i, -1, m) for i, m in enumerate(opening))
    return GameRecord(seats=tuple(seats), seed=seed, opening_plies=len(opening), moves=tuple(opening) + tuple(moves),
                      move_stats=opened + tuple(stats), outcome=forfeit(len(seats), blamed, reason), seconds=seconds,
                      fault_seat=blamed, fault_detail=detail)


_GAME_FIELDS = tuple(f.name for f in fields(GameRecord))
assert _GAME_FIELDS == ("seats", "seed", "opening_plies", "moves", "move_stats", "outcome", "seconds", "fault_seat",
                        "fault_detail", "adjudication", "log"), "to_wire writes the fields in declaration order"


def to_wire(record: GameRecord, exact: bool = False) -> tuple:
    """``record`` as plain tuples: ``(RECORD_VERSION, field values in declaration order)`` with
    ``move_stats`` and ``outcome`` as tuples too (pickles several times faster than the
    dataclasses). Every value is an exact ``str``, ``int``, ``float``, ``None`` or a tuple of
    them (``plain_text`` / ``plain_int`` / ``plain_float``): whatever a bot put in the record
    (a ``str`` subclass, a number type with a ``__reduce__``) is converted here, in the
    process that played, so ``marshal`` writes it and nothing of a bot is unpickled by the
    reader. Read back with ``from_wire``.

    ``exact``: the record was made by the arena's own code alone (a game among
    ``arena.tournament.worker.trusted`` bots: ``play_game`` makes every move and figure an exact
    plain value), so its moves and move records are taken as they are, their types not looked
    at (about 180,000 instructions a game of 40 plies). ``marshal`` refuses most other values
    (the caller's ``arena.tournament.outbox.Outbox`` then converts the record without
    ``exact``), but writes a number with a buffer (numpy's) as bytes: never for a record a
    bot's own code could reach (``tests/tournament/test_outbox.py`` checks the types).

    Raises:
        TypeError, ValueError, OverflowError: a field that no plain type reads.
    """
    r, o = record, record.outcome
    detail = None if r.fault_detail is None else plain_text(r.fault_detail)
    moves, stats = ((tuple(r.moves), tuple(map(tuple, r.move_stats))) if exact
                    else (_plain_moves(r.moves), _plain_stats(r.move_stats)))
    return (RECORD_VERSION, tuple(map(plain_text, r.seats)), plain_int(r.seed), plain_int(r.opening_plies),
            moves, stats,
            (tuple(map(_number, o.scores)), tuple(map(plain_int, o.ranks)), plain_text(o.termination)),
            plain_float(r.seconds), None if r.fault_seat is None else plain_int(r.fault_seat), detail,
            None if r.adjudication is None else plain_text(r.adjudication),
            None if r.log is None else plain_text(r.log))


#: each ``MoveRecord`` field's types that ``plain_move`` takes as they are (``_plain_stats``)
_COLUMN_TYPES = tuple(frozenset(kinds) for kinds in ((int,), (int,), (str,), (float,), (int, type(None)),
                                                      (int, type(None)), (float, type(None)), (str, type(None)),
                                                      (float, type(None))))


def _plain_moves(moves: Sequence[str]) -> tuple[str, ...]:
    """``tuple(map(plain_text, moves))``, taken as it is when every move is an exact ``str``
    (the referee's: one type look-up each, in C)."""
    if set(map(type, moves)) <= {str}:
        return tuple(moves)
    return tuple(map(plain_text, moves))


def _plain_stats(stats: Sequence[MoveRecord]) -> tuple[tuple, ...]:
    """``tuple(map(plain_move, stats))``, in C loops when every record is a ``MoveRecord`` whose
    values are each of its field's exact types (the referee's records: each column's types
    checked); anything else goes through ``plain_move``."""
    if set(map(type, stats)) <= {MoveRecord} and all(
            set(map(type, column)) <= kinds for column, kinds in zip(zip(*stats), _COLUMN_TYPES)):
        return tuple(map(tuple, stats))
    return tuple(map(plain_move, stats))


def from_wire(data: tuple) -> GameRecord:
    """The ``GameRecord`` of ``to_wire``.

    Raises:
        ValueError: the tuple was written by another ``RECORD_VERSION``, or has the wrong
            number of values.
    """
    if data[0] != RECORD_VERSION:
        raise ValueError(f"game record of version {data[0]!r}; this arena reads version {RECORD_VERSION}")
    if len(data) != 1 + len(_GAME_FIELDS):
        raise ValueError(f"game record of {len(data) - 1} values; this arena reads {len(_GAME_FIELDS)}")
    seats, seed, opening_plies, moves, stats, outcome, seconds, fault_seat, detail, adjudication, logs = data[1:]
    if not set(map(len, stats)) <= {len(_MOVE_FIELDS)}:
        raise ValueError(f"a move record of other than {len(_MOVE_FIELDS)} values")
    return GameRecord(seats, seed, opening_plies, moves, tuple(map(_move_record, stats)), Outcome(*outcome), seconds,
                      fault_seat, detail, adjudication, logs)


_INT_OR_NONE, _FLOAT_OR_NONE, _STR_OR_NONE = {int, type(None)}, {float, type(None)}, {str, type(None)}


def plain_move(record: MoveRecord) -> tuple:
    """A ``MoveRecord``'s values, each an exact ``int`` / ``float`` / ``str`` or ``None``
    (those already exact, as the referee makes them, are taken as they are: one type check
    each, on every ply)."""
    r = record
    if (type(r.ply) is int and type(r.seat) is int and type(r.move) is str and type(r.seconds) is float
            and type(r.nodes) in _INT_OR_NONE and type(r.depth) in _INT_OR_NONE
            and type(r.evaluation) in _FLOAT_OR_NONE and type(r.status) in _STR_OR_NONE
            and type(r.clock) in _FLOAT_OR_NONE):
        return (r.ply, r.seat, r.move, r.seconds, r.nodes, r.depth, r.evaluation, r.status, r.clock)

    def opt(value: Any, kind: Any) -> Any:
        return None if value is None else kind(value)
    return (plain_int(record.ply), plain_int(record.seat), plain_text(record.move), plain_float(record.seconds),
            opt(record.nodes, plain_int), opt(record.depth, plain_int), opt(record.evaluation, plain_float),
            opt(record.status, plain_text), opt(record.clock, plain_float))
