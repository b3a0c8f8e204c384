"""``human``: a seat played by a person; each move comes from a ``MoveSource``.

The bot itself only checks entries: it hands its source the position the seat may see, the
legal moves and the seconds left, reads back a move's text, and asks again, with the reason,
until the text is one of the legal moves. What a source does to get the text is its own
business: ``TerminalSource`` (the default) prints the position and the moves and reads a line
(``arena play --bot human``); a web page (``arena serve``) implements the same protocol.

The protocol (``MoveSource``), for a source of your own::

    class MySource:
        def ask(self, position, seat, legal_moves, seconds_left, problem=None) -> str | None:
            ...

- ``position``: what the seat may see. In a game with hidden information the seat's
  ``arena.games.View`` (``text``: the seat's view in the game's words, never the hidden
  state), else the ``State`` itself (``diagram()``, ``to_text()``).
- ``seat``: the 0-based seat asked.
- ``legal_moves``: the legal moves' texts in the game's notation, in the game's order (``[]``
  at a simultaneous race round, where any answer may be typed and ``""`` gives none).
- ``seconds_left``: seconds before the move loses on time (the move time or the seat's game
  clock, the smaller), or ``None`` when nothing times the seat: a human has no clock unless
  the game sets one (``--move-time``, ``--tc``, a spec's ``tc=``).
- ``problem``: ``None`` at the first ask of a move; when the previous entry was refused, one
  line saying why (``"'a9' is not a legal move here"``), to show before asking again.
- The answer: a legal move's text (surrounding blanks are ignored), or ``None`` to resign.
  The words in ``RESIGN_WORDS`` (``quit``, ``resign``) resign too.

``ask`` is called in the thread that plays the game and may block as long as it needs: the
referee times the move as any other (a move later than ``seconds_left`` loses by
``timeout``). A resignation ends the game with the termination ``resigned``
(``arena.referee.Termination.RESIGNED``): the seat ranks last, the others share first, as a
fault of the seat; the game is stored and rated as any other.
"""

from __future__ import annotations

import sys
from typing import IO, Any, ClassVar, Protocol, runtime_checkable

from arena.errors import MoveSyntaxError
from arena.games import Param, State, View
from arena.referee.records import BotFault, Termination
from bots.base import ANY_GAME, Bot, Limits, SearchStats

#: entries that resign the game (compared lower-case, blanks stripped)
RESIGN_WORDS = frozenset({"quit", "resign"})
#: the figures of every choice (a person: no search)
NO_SEARCH = SearchStats(nodes=0, depth=0, seconds=0.0)


@runtime_checkable
class MoveSource(Protocol):
    """Where a ``Human``'s moves come from (the module docstring gives the protocol in full)."""

    def ask(self, position: State | View, seat: int, legal_moves: list[str], seconds_left: float | None,
            problem: str | None = None) -> str | None:
        """The entered move's text for 0-based ``seat``, or ``None`` to resign.

        Args:
            position: the ``View`` of the seat in a game with hidden information, else the state.
            seat: the 0-based seat to move.
            legal_moves: the legal moves' texts (``[]``: a free answer at a simultaneous race).
            seconds_left: seconds before the move loses on time, or ``None`` (no clock).
            problem: why the previous entry was refused, or ``None`` at the first ask.
        """
        ...


class TerminalSource:
    """A ``MoveSource`` on a terminal: prints the position (the seat's view in a game with
    hidden information), the legal moves and the time left, then reads one line.

    End of input (Ctrl-D, a closed pipe) answers ``None``: the seat resigns.

    Args:
        stdin, stdout: the streams to read and write; ``None``: ``sys.stdin`` / ``sys.stdout``
            at the time of each ask (so the source can be pickled and made before a redirect).
        show_position: print the position before the first ask of each move.
    """

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
                 show_position: bool = True) -> None:
        self.stdin, self.stdout, self.show_position = stdin, stdout, show_position

    def ask(self, position: State | View, seat: int, legal_moves: list[str], seconds_left: float | None,
            problem: str | None = None) -> str | None:
        out = self.stdout or sys.stdout
        if problem is not None:
            print(f"  {problem}", file=out)
        elif self.show_position:
            print(position.text if isinstance(position, View) else position.diagram(), file=out)
        if legal_moves:
            print(f"legal moves ({len(legal_moves)}): {' '.join(legal_moves)}", file=out)
        else:
            print("no list of moves here: type your answer, or nothing to give none", file=out)
        clock = "" if seconds_left is None else f" ({seconds_left:.0f}s left)"
        out.write(f"seat {seat} to move{clock}; type a move, or quit to resign> ")
        out.flush()
        line = (self.stdin or sys.stdin).readline()
        if not line:  # end of input: nobody is there to move
            print("", file=out)
            return None
        return line


def seconds_left(limits: Limits | None, seat: int) -> float | None:
    """Seconds before ``seat``'s move loses on time: the move time or what is left on the seat's
    game clock, the smaller; ``None`` when neither is set."""
    if limits is None:
        return None
    clock = None if limits.clock is None or seat >= len(limits.clock.remaining) else limits.clock.remaining[seat]
    found = [t for t in (limits.time, clock) if t is not None]
    return min(found) if found else None


class Human(Bot):
    """A seat played by a person through a ``MoveSource`` (default: ``TerminalSource``).

    Args:
        source: where the moves come from; ``None``: the terminal. May also be set later as
            the ``source`` attribute (a web server does so once a browser takes the seat).
        name: who plays (an option of the spec: ``human:name=ada``), so that two people are
            two bots in the store and the ratings.

    Raises:
        ConfigError: an unknown option (``Bot``).
    """

    name = "human"
    summary = "a person at the terminal (arena play) or in the browser (arena serve); quit resigns"
    PARAMS = {"name": Param("", "who plays: tells people apart in the store and the ratings")}
    PLAYS = ANY_GAME
    #: a person plays this seat: ``arena play`` plays the game in its own process (the
    #: terminal is the person's), not in a watched child whose input is closed
    interactive: ClassVar[bool] = True

    def __init__(self, source: MoveSource | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.source: MoveSource = source if source is not None else TerminalSource()

    def choose(self, state: State | View, limits: Limits | None) -> Any:
        """The person's move in ``state`` (or the seat's view), asked until it is legal.

        Raises:
            BotFault: ``resigned``, when the source answers ``None`` or a word of ``RESIGN_WORDS``.
        """
        seat = state.seat if isinstance(state, View) else state.to_move
        seat = self.seat if seat < 0 else seat
        legal = state.legal_moves()
        texts = [str(m) for m in legal]
        by_text = dict(zip(texts, legal))
        problem: str | None = None
        self.last_stats = NO_SEARCH
        while True:
            answer = self.source.ask(state, seat, texts, seconds_left(limits, seat), problem)
            entry = None if answer is None else answer.strip()
            if entry is None or entry.lower() in RESIGN_WORDS:
                said = "its input ended" if entry is None else f"typed {entry!r}"
                raise BotFault(Termination.RESIGNED, f"the human at seat {seat} resigned ({said})")
            if not texts:  # a race round: the answer as typed, none when blank
                return entry or None
            if entry in by_text:
                return by_text[entry]
            move, problem = self._read(state, entry, by_text)
            if move is not None:
                return move

    def _read(self, state: State | View, entry: str, by_text: dict[str, Any]) -> tuple[Any, str | None]:
        """(the legal move ``entry`` reads as in the game's notation, ``None``), or (``None``,
        why it is not a legal move here: one line)."""
        if not entry:
            return None, "nothing typed: type one of the legal moves, or quit to resign"
        game = self.game
        if game is not None and not isinstance(state, View):
            try:
                read = game.parse_move(state, entry)
            except (MoveSyntaxError, ValueError):
                return None, f"{entry!r} is not a move of {game.name}; type one of the legal moves"
            if str(read) in by_text:  # another spelling of a legal move (``A1`` for ``a1``)
                return by_text[str(read)], None
        return None, f"{entry!r} is not a legal move here; type one of the legal moves"
