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
  the start, chance outcomes included: what ``State.serialize()`` holds, on one line.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from arena.errors import IllegalMoveError
from arena.games.protocol import CHANCE, TERMINAL, Outcome, State, draw_chance

if TYPE_CHECKING:
    from arena.games.openspiel.game import OpenSpielGame

#: OpenSpiel's ``current_player()`` at a chance node and at a terminal one (``kChancePlayerId``,
#: ``kTerminalPlayerId``)
SPIEL_CHANCE, SPIEL_TERMINAL = -1, -4
#: a terminal's colour codes (``ansi_color_output=True``: TwixT's default) and other control characters
_CONTROL = re.compile(r"\x1b\[[0-9;]*[A-Za-z]|[\x00-\x09\x0b-\x1f\x7f]")
#: the termination of every finished OpenSpiel game: its state is terminal, ``returns()`` rank the seats
TERMINATION = "terminal"


def move_table(spiel: Any, player: int, actions: list[int]) -> dict[str, int]:
    """``{notation: action}`` of ``actions`` in the position ``spiel`` for ``player`` (a seat,
    or OpenSpiel's chance player), in the order of ``actions`` (see the module doc)."""
    texts = ["_".join(spiel.action_to_string(player, a).split()) or f"#{a}" for a in actions]
    if len(set(texts)) < len(texts):
        twice = {t for t in texts if texts.count(t) > 1}
        texts = [f"{t}#{a}" if t in twice else t for t, a in zip(texts, actions)]
    return dict(zip(texts, actions))


class OpenSpielState(State):
    """A position of an OpenSpiel game (``game``: its ``OpenSpielGame``; ``spiel``: the
    ``pyspiel.State``, never changed once made: ``play`` makes a child). Moves are ``str``.

    Also: ``child(move)`` (``play`` of a move of ``legal_moves()`` or ``chance_outcomes()``
    without the check), ``random_child(u)`` (the state after the move, or at a chance node the
    outcome, that a number ``u`` in [0, 1) picks, as MCTS playouts and the referee pick them),
    ``key()`` (the action history: exact, see ``key``), ``diagram()`` (OpenSpiel's
    ``str(state)``).
    """

    __slots__ = ("game", "spiel", "to_move", "_table", "_outcomes")

    def __init__(self, game: OpenSpielGame, spiel: Any) -> None:
        self.game = game
        self.spiel = spiel
        player = spiel.current_player()
        self.to_move = player if player >= 0 else CHANCE if player == SPIEL_CHANCE else TERMINAL
        if player < 0 and player not in (SPIEL_CHANCE, SPIEL_TERMINAL):
            raise ValueError(f"{game.name}: OpenSpiel's player {player} is neither a seat, chance nor terminal")
        self._table: dict[str, int] | None = None
        self._outcomes: list[tuple[str, float]] | None = None

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
        """The state after ``move`` (a legal move, or at a chance node an outcome, as text).

        Raises:
            IllegalMoveError: not a move of this position (or the game is over).
        """
        action = self._moves().get(move) if isinstance(move, str) else None
        if action is None:
            if self.to_move == TERMINAL:
                raise IllegalMoveError(f"{self.game.name}: the game is over; no move is legal")
            shown = ", ".join(list(self._moves())[:12])
            raise IllegalMoveError(f"{self.game.name}: {str(move)[:60]!r} is not legal here; legal: {shown}"
                                   + (", ..." if len(self._moves()) > 12 else ""))
        return OpenSpielState(self.game, self.spiel.child(action))

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
        return (_restore, (self.game, tuple(self.spiel.history())))


def _restore(game: OpenSpielGame, history: tuple[int, ...]) -> OpenSpielState:
    """The state of ``game`` after ``history`` (unpickling)."""
    spiel = game.spiel.new_initial_state()
    for action in history:
        spiel.apply_action(action)
    return OpenSpielState(game, spiel)
