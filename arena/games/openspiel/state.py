"""``OpenSpielState``: an OpenSpiel state as an immutable ``arena.games.State``.

Notation (``docs/openspiel.md`` "Notation"):

- a **move** (and a chance outcome) is OpenSpiel's ``action_to_string`` in the position, each
  run of whitespace replaced by ``_`` (an engine reads a move as one word: ``B a1`` is
  ``B_a1``); where two actions of one position would read alike, each of them is followed by
  ``#`` and its action id (never seen in OpenSpiel 2.0.2's games, but its strings need not
  be distinct). Only the position's own moves read as moves: OpenSpiel's strings depend on the
  position (chess's SAN), so ``parse_move`` reads a text against the position it is given;
- a **position** is ``GAME_STRING history=A1,A2,...``: OpenSpiel's game string (``str(game)``,
  the name and the parameters that differ from the defaults) and the action ids played from
  the start, chance outcomes included: what ``State.serialize()`` holds, on one line. At a
  simultaneous node each seat's action is one entry, seat 0 first (OpenSpiel's history);
- a **round** of a simultaneous node (``last_round``, the stored ply) is each seat's move,
  space-separated, seat 0 first: ``Rock Paper`` in ``matrix_rps``.

At a simultaneous node (``to_move == SIMULTANEOUS``, OpenSpiel's simultaneous-move games)
``play`` takes one answer per seat (``arena.games.Answer``, or the move itself), each one of
that seat's own moves (``seat_moves``), and applies the joint action. A seat's view of any
position is ``view(seat)`` (``arena.games.openspiel.views``).
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from arena.errors import IllegalMoveError
from arena.games.openspiel.views import seat_view
from arena.games.protocol import CHANCE, SIMULTANEOUS, TERMINAL, Answer, AnswerStatus, Outcome, State, draw_chance

if TYPE_CHECKING:
    from arena.games.openspiel.game import OpenSpielGame
    from arena.games.views import View

#: OpenSpiel's ``current_player()`` at a chance node, a simultaneous node and a terminal one
#: (``kChancePlayerId``, ``kSimultaneousPlayerId``, ``kTerminalPlayerId``)
SPIEL_CHANCE, SPIEL_SIMULTANEOUS, SPIEL_TERMINAL = -1, -2, -4
#: the arena's ``to_move`` of OpenSpiel's non-seat players
_NODE = {SPIEL_CHANCE: CHANCE, SPIEL_SIMULTANEOUS: SIMULTANEOUS, SPIEL_TERMINAL: TERMINAL}
#: a terminal's colour codes (``ansi_color_output=True``: TwixT's default) and other control characters
_CONTROL = re.compile(r"\x1b\[[0-9;]*[A-Za-z]|[\x00-\x09\x0b-\x1f\x7f]")
#: whitespace, which a move's notation replaces (``move_table``)
_SPACE = re.compile(r"\s")
#: the termination of every finished OpenSpiel game: its state is terminal, ``returns()`` rank the seats
TERMINATION = "terminal"


def move_table(spiel: Any, player: int, actions: list[int]) -> dict[str, int]:
    """``{notation: action}`` of ``actions`` in the position ``spiel`` for ``player`` (a seat,
    or OpenSpiel's chance player), in the order of ``actions`` (see the module doc)."""
    to_string = spiel.action_to_string
    texts = [to_string(player, a) for a in actions]
    if not all(texts) or _SPACE.search("".join(texts)):  # else each text is its notation already
        texts = ["_".join(t.split()) or f"#{a}" for t, a in zip(texts, actions)]
    if len(set(texts)) < len(texts):
        twice = {t for t in texts if texts.count(t) > 1}
        texts = [f"{t}#{a}" if t in twice else t for t, a in zip(texts, actions)]
    return dict(zip(texts, actions))


class IllegalHistory(ValueError):
    """An action of a history is not legal where it stands (``ply``: its 0-based index)."""

    def __init__(self, ply: int) -> None:
        super().__init__(f"action {ply} of the history is not legal there")
        self.ply = ply


def replay(spiel_game: Any, actions: list[int], check: bool = False) -> Any:
    """The ``pyspiel.State`` of ``spiel_game`` after the action ids ``actions`` (OpenSpiel's
    ``history()``: chance outcomes included, at a simultaneous node one entry per seat).

    Raises:
        IllegalHistory: with ``check``, an action that is not legal (or an outcome of positive
            probability) where it stands, or too few entries for a simultaneous node.
    """
    spiel = spiel_game.new_initial_state()
    n = spiel_game.num_players()
    i = 0
    while i < len(actions):
        if spiel.is_simultaneous_node():
            joint = actions[i:i + n]
            if check:
                for seat, action in enumerate(joint):
                    if action not in spiel.legal_actions(seat):
                        raise IllegalHistory(i + seat)
                if len(joint) < n:
                    raise IllegalHistory(len(actions))
            spiel.apply_actions(joint)
            i += n
            continue
        action = actions[i]
        if check:
            if spiel.is_chance_node():
                legal = [a for a, p in spiel.chance_outcomes() if p > 0]
            else:
                legal = [] if spiel.is_terminal() else spiel.legal_actions()
            if action not in legal:
                raise IllegalHistory(i)
        spiel.apply_action(action)
        i += 1
    return spiel


class OpenSpielState(State):
    """A position of an OpenSpiel game (``game``: its ``OpenSpielGame``; ``spiel``: the
    ``pyspiel.State``, never changed once made: ``play`` makes a child). Moves are ``str``.

    Also: ``child(move)`` (``play`` of a move of ``legal_moves()`` or ``chance_outcomes()``
    without the check), ``random_child(u)`` (the state after the move, or at a chance node the
    outcome, that a number ``u`` in [0, 1) picks, as MCTS playouts and the referee pick them),
    ``key()`` (the action history: exact, see ``key``), ``diagram()`` (OpenSpiel's
    ``str(state)``: the whole state, every seat's cards included: a spectator's picture),
    ``seat_moves(seat)`` (a seat's own moves, also at a simultaneous node), ``view(seat)``.
    After a simultaneous node: ``last_round`` (each seat's move, space-separated) and
    ``last_status`` (``valid`` for every seat: a joint action is played only when every seat
    answered one of its moves).
    """

    __slots__ = ("game", "spiel", "to_move", "last_round", "last_status", "_table", "_outcomes", "_seats")

    def __init__(self, game: OpenSpielGame, spiel: Any, last_round: str | None = None) -> None:
        self.game = game
        self.spiel = spiel
        player = spiel.current_player()
        if player < 0 and player not in _NODE:
            raise ValueError(f"{game.name}: OpenSpiel's player {player} is neither a seat, chance, "
                             "simultaneous nor terminal")
        self.to_move = player if player >= 0 else _NODE[player]
        self.last_round = last_round
        self.last_status = None if last_round is None else (AnswerStatus.VALID,) * game.num_players
        self._table: dict[str, int] | None = None
        self._outcomes: list[tuple[str, float]] | None = None
        self._seats: dict[int, dict[str, int]] = {}

    def _moves(self) -> dict[str, int]:
        """``{notation: action}`` of the legal moves, or at a chance node of the outcomes with a
        positive probability; ``{}`` at a terminal state. Made once per state."""
        table = self._table
        if table is None:
            spiel = self.spiel
            if self.to_move >= 0:
                table = move_table(spiel, self.to_move, spiel.legal_actions())
            elif self.to_move == CHANCE:
                table = move_table(spiel, SPIEL_CHANCE, [a for a, p in spiel.chance_outcomes() if p > 0])
            else:
                table = {}
            self._table = table
        return table

    def seat_moves(self, seat: int) -> dict[str, int]:
        """``{notation: action}`` of 0-based ``seat``'s own legal moves: at a simultaneous node
        its part of the joint action, at a sequential node the moves when ``seat`` is to move;
        ``{}`` elsewhere."""
        if self.to_move == seat:
            return self._moves()
        if self.to_move != SIMULTANEOUS or not 0 <= seat < self.game.num_players:
            return {}
        table = self._seats.get(seat)
        if table is None:
            table = self._seats[seat] = move_table(self.spiel, seat, self.spiel.legal_actions(seat))
        return table

    def readable(self) -> dict[str, int]:
        """The texts that read as moves here (``parse_move``): the legal moves, the chance
        outcomes, or at a simultaneous node every seat's moves."""
        if self.to_move != SIMULTANEOUS:
            return self._moves()
        found: dict[str, int] = {}
        for seat in range(self.game.num_players):
            found.update(self.seat_moves(seat))
        return found

    def view(self, seat: int) -> OpenSpielState | View:
        """What 0-based ``seat`` may know here: in a game of perfect information the state
        itself; else its view (``arena.games.openspiel.views.seat_view``: its information-state
        string, or observation string, and its own moves).

        Raises:
            ValueError: ``seat`` is not a seat of the game (a game with hidden information).
        """
        if not self.game.type.hidden_information:
            return self
        return seat_view(self, seat)

    def legal_moves(self) -> list[str]:
        """The moves in OpenSpiel's order of ``legal_actions()``; ``[]`` at chance and terminal nodes."""
        return list(self._moves()) if self.to_move >= 0 else []

    def chance_outcomes(self) -> list[tuple[str, float]]:
        """``(outcome, probability)`` of OpenSpiel's ``chance_outcomes()`` with a positive
        probability, in its order, at a chance node; ``[]`` elsewhere."""
        if self.to_move != CHANCE:
            return []
        if self._outcomes is None:
            probability = dict(self.spiel.chance_outcomes())
            self._outcomes = [(text, probability[a]) for text, a in self._moves().items()]
        return self._outcomes

    def play(self, move: Any) -> OpenSpielState:
        """The state after ``move`` (a legal move, or at a chance node an outcome, as text; at a
        simultaneous node one answer per seat: ``play_round``).

        Raises:
            IllegalMoveError: not a move of this position (or the game is over).
        """
        if self.to_move == SIMULTANEOUS:
            return self.play_round(move)
        action = self._moves().get(move) if isinstance(move, str) else None
        if action is None:
            if self.to_move == TERMINAL:
                raise IllegalMoveError(f"{self.game.name}: the game is over; no move is legal")
            shown = ", ".join(list(self._moves())[:12])
            raise IllegalMoveError(f"{self.game.name}: {str(move)[:60]!r} is not legal here; legal: {shown}"
                                   + (", ..." if len(self._moves()) > 12 else ""))
        return OpenSpielState(self.game, self.spiel.child(action))

    def play_round(self, answers: Any) -> OpenSpielState:
        """The state after the joint action of ``answers`` at a simultaneous node: one per seat,
        seat 0 first, each an ``Answer`` whose ``move`` (or the move itself) is one of the
        seat's own moves (``seat_moves``). Every seat must answer: OpenSpiel's joint action
        has no empty part (the referee blames a seat that does not: ``arena.referee.play``).

        Raises:
            IllegalMoveError: not one answer per seat, or an answer that is not one of its
                seat's moves (the message names the seat).
        """
        n = self.game.num_players
        if isinstance(answers, (str, bytes)) or not hasattr(answers, "__len__") or len(answers) != n:
            raise IllegalMoveError(f"{self.game.name}: a simultaneous node takes one answer per seat ({n}), "
                                   f"not {str(answers)[:60]!r}")
        texts, joint = [], []
        for seat, answer in enumerate(answers):
            move = answer.move if isinstance(answer, Answer) else answer
            table = self.seat_moves(seat)
            action = table.get(move) if isinstance(move, str) else None
            if action is None:
                shown = ", ".join(list(table)[:12]) + (", ..." if len(table) > 12 else "")
                said = "no answer" if move is None else f"answer {str(move)[:60]!r}"
                raise IllegalMoveError(f"{self.game.name}: seat {seat}'s {said} is not one of its moves; "
                                       f"legal: {shown}")
            texts.append(move)
            joint.append(action)
        spiel = self.spiel.clone()
        spiel.apply_actions(joint)
        return OpenSpielState(self.game, spiel, " ".join(texts))

    def child(self, move: str) -> OpenSpielState:
        """``play(move)`` of a move of ``legal_moves()`` (or an outcome of ``chance_outcomes()``)
        without the legality check."""
        return OpenSpielState(self.game, self.spiel.child(self._moves()[move]))

    def random_child(self, u: float) -> OpenSpielState:
        """The state after ``legal_moves()[int(u * len(legal_moves()))]``, or at a chance node
        after the outcome ``draw_chance(chance_outcomes(), u)`` picks; without making the
        notation of the moves. ``u``: a number in [0, 1)."""
        spiel = self.spiel
        if self.to_move == CHANCE:
            action = draw_chance(spiel.chance_outcomes(), u)
        else:
            actions = spiel.legal_actions()
            action = actions[int(u * len(actions))]
        return OpenSpielState(self.game, spiel.child(action))

    def is_terminal(self) -> bool:
        return self.to_move == TERMINAL

    def outcome(self) -> Outcome | None:
        """At a terminal state: scores = OpenSpiel's ``returns()``, ranked highest first, ties
        sharing a rank; termination ``terminal``. ``None`` before."""
        if self.to_move != TERMINAL:
            return None
        return Outcome.from_scores(tuple(self.spiel.returns()), TERMINATION)

    def to_text(self) -> str:
        """``GAME_STRING history=A1,A2,...`` (the module doc)."""
        return f"{self.game.game_string} history={','.join(map(str, self.spiel.history()))}"

    def key(self) -> Hashable:
        """The action history (a tuple of ints): exact, since OpenSpiel's state string does not
        always tell two positions apart (the phase of an Amazons move); positions reached by
        different move orders are not merged in a transposition table."""
        return tuple(self.spiel.history())

    def diagram(self) -> str:
        """OpenSpiel's picture of the position (``str(state)``), without terminal colour codes
        and control characters."""
        return _CONTROL.sub("", str(self.spiel)).rstrip("\n") or self.to_text()

    def __reduce__(self) -> tuple:
        return (_restore, (self.game, tuple(self.spiel.history()), self.last_round))


def _restore(game: OpenSpielGame, history: tuple[int, ...], last_round: str | None = None) -> OpenSpielState:
    """The state of ``game`` after ``history`` (unpickling)."""
    return OpenSpielState(game, replay(game.spiel, list(history)), last_round)
