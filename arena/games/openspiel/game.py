"""``OpenSpielGame``: one OpenSpiel game as an ``arena.games.Game``, a class per game.

``class_for(game_type)`` makes the class of one of OpenSpiel's games (once per process): its
``name`` is ``openspiel:NAME``, its ``PARAMS`` OpenSpiel's game parameters with their
defaults and types (``-p rows=5``: an int; a value of another type is a one-line
``ConfigError``), its ``type`` OpenSpiel's ``GameType`` (seats; ``chance_nodes`` for explicit
stochastic games, ``dynamics`` simultaneous for OpenSpiel's simultaneous-move games,
``hidden_information`` for those and the imperfect-information ones). The classes are
attributes of this module (``OpenSpiel_NAME``), so they pickle by reference like any other
game class.
"""

from __future__ import annotations

from typing import Any, ClassVar

from arena.errors import ConfigError, MoveSyntaxError, PositionSyntaxError, UnknownGameError
from arena.games.drawing import text_svg
from arena.games.openspiel.library import PREFIX, hidden_information, names, pyspiel, spiel_types, unsupported
from arena.games.openspiel.payoffs import spiel_payoff
from arena.games.openspiel.probe import probe
from arena.games.openspiel.state import IllegalHistory, OpenSpielState, replay
from arena.games.protocol import SIMULTANEOUS, Answer, Dynamics, Game, GameType, Param

#: the classes made so far, by OpenSpiel's short name
_CLASSES: dict[str, type[OpenSpielGame]] = {}
#: the prefix of the classes' names in this module
_CLASS = "OpenSpiel_"
#: (short name, parameters) whose probe passed in this process
_PROBED: set[tuple[str, tuple]] = set()


class OpenSpielGame(Game):
    """An OpenSpiel game with fixed parameters (``docs/openspiel.md``).

    Attributes (besides ``Game``'s): ``spiel`` (the ``pyspiel.Game``), ``given`` (the
    parameters that differ from OpenSpiel's defaults: they alone are passed to OpenSpiel),
    ``game_string`` (OpenSpiel's ``str(game)``: the name and ``given``), ``information_state``
    (a seat's view is OpenSpiel's information-state string; ``False``: its observation
    string, the game has no information state: ``arena.games.openspiel.views``), ``payoff`` (the
    game's ``Payoff`` when it ranks by payoff, ``arena.games.openspiel.payoffs``).

    Parameters that differ from OpenSpiel's defaults are first tried in a child process (a
    game loaded and one seeded random game played, ``arena.games.openspiel.probe``): OpenSpiel
    checks few values, and some crash the process that plays them (``connect_four`` with
    ``rows=0``); such parameters are a ``ConfigError`` here, not a crash in a worker.

    Raises:
        ConfigError: an unknown parameter, a value of the wrong type, a text with a control
            character (position text is one line), or values OpenSpiel refuses or cannot play.
    """

    #: OpenSpiel's short name of the game
    spiel_name: ClassVar[str] = ""

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        defaults = {k: p.default for k, p in self.PARAMS.items()}
        given = {k: v for k, v in self.params.items() if v != defaults[k]}
        for key, value in given.items():
            if isinstance(value, str) and any(ord(ch) < 32 for ch in value):
                raise ConfigError(f"game {self.name}: parameter {key}={value!r} has a control character; "
                                  "accepted: text on one line")
        self.given = given
        self.spiel = _load(self.name, self.spiel_name, given, defaults)
        self.num_players = self.spiel.num_players()
        self.game_string = str(self.spiel)
        self.information_state = bool(self.spiel.get_type().provides_information_state_string)
        self.payoff = spiel_payoff(self.spiel)

    def initial_state(self, seed: int | None = None) -> OpenSpielState:
        """OpenSpiel's initial state (``seed`` is unused: chance nodes are drawn by the referee)."""
        return OpenSpielState(self, self.spiel.new_initial_state())

    def parse_state(self, text: str) -> OpenSpielState:
        """The state of ``GAME_STRING history=A1,A2,...`` (``arena.games.openspiel.state``): the
        game string must be this game's, each action legal (or at a chance node an outcome of
        positive probability) where it is played.

        Raises:
            PositionSyntaxError: malformed text, another game's string, or an action that is
                not legal where it stands.
        """
        head, sep, tail = str(text).strip().rpartition(" history=")
        expected = f"{self.game_string} history=A1,A2,... (OpenSpiel action ids)"
        if not sep or head != self.game_string:
            raise PositionSyntaxError(f"{self.name}: position {str(text)[:60]!r} is not one of this game; "
                                      f"accepted: {expected}")
        words = tail.split(",") if tail else []
        actions = [int(w) if w.isascii() and w.isdigit() and len(w) < 10 else -1 for w in words]
        try:
            spiel = replay(self.spiel, actions, check=True)
        except IllegalHistory as exc:
            ply = exc.ply
            word = words[ply] if ply < len(words) else ""
            raise PositionSyntaxError(f"{self.name}: action {word[:20]!r} at ply {ply} of {str(text)[:60]!r} "
                                      f"is not legal there; accepted: {expected}, each action legal in turn") from None
        return OpenSpielState(self, spiel)

    def parse_move(self, state: Any, text: str) -> str:
        """A move (or at a chance node an outcome) of ``state`` from its notation: OpenSpiel's
        notation depends on the position, so only the position's own moves read as moves (at a
        simultaneous node, a move of any seat).

        Raises:
            MoveSyntaxError: the text is not a move of ``state``.
        """
        table = state.readable() if isinstance(state, OpenSpielState) else {}
        if isinstance(text, str) and text in table:
            return text
        shown = ", ".join(list(table)[:12]) + (", ..." if len(table) > 12 else "")
        raise MoveSyntaxError(f"{self.name}: {str(text)[:60]!r} is not a move of this position; "
                              f"accepted: {shown or 'none (the game is over)'}")

    def parse_round(self, state: Any, text: str) -> list[Answer]:
        """The answers of a stored simultaneous round (``State.last_round``: each seat's move,
        space-separated, seat 0 first), to replay it with ``state.play``.

        Raises:
            MoveSyntaxError: not one move of each seat's own moves in ``state``.
        """
        words = str(text).split(" ")
        tables = [state.seat_moves(seat) for seat in range(self.num_players)] \
            if isinstance(state, OpenSpielState) and state.to_move == SIMULTANEOUS else []
        if len(words) != len(tables) or any(w not in t for w, t in zip(words, tables)):
            raise MoveSyntaxError(f"{self.name}: {str(text)[:60]!r} is not a round of this position; accepted: "
                                  f"one move of each of the {self.num_players} seats, space-separated, seat 0 first")
        return [Answer(w) for w in words]

    def render_svg(self, state: Any, last_move: Any = None, previous: Any = None) -> str:
        """OpenSpiel's text picture of the position (``str(state)``), drawn as monospaced text;
        its title names the move (at a round, each seat's answer) that led to it."""
        if isinstance(last_move, (list, tuple)):
            last_move = " ".join(map(str, last_move))
        title = f"{self.name}" + (f" after {last_move}" if last_move is not None else "")
        return text_svg(state.diagram().splitlines(), title, "openspiel")

    def __copy__(self) -> OpenSpielGame:
        """A shallow copy sharing the ``pyspiel.Game`` (immutable), as ``copy.copy`` makes of
        any other game (``arena.referee.private``), without loading the game again."""
        dup = object.__new__(type(self))
        dup.__dict__.update(self.__dict__)
        return dup

    def __reduce__(self) -> tuple:
        return (_remake, (self.name, self.given))


def game_class(name: str) -> type:
    """The ``arena.games.Game`` subclass of OpenSpiel's game ``name`` (its short name, without
    the prefix), made once per process.

    Raises:
        ConfigError: OpenSpiel is not installed, or the game is one the arena does not play
            (the message says why).
        UnknownGameError: OpenSpiel has no game of that name (the message lists those played).
    """
    found = spiel_types().get(name)
    if found is None:
        raise UnknownGameError(f"unknown OpenSpiel game {PREFIX + name!r}; accepted: {', '.join(names())}")
    why = unsupported(found)
    if why is not None:
        raise ConfigError(f"game {PREFIX + name} is not supported: {why}; supported: {', '.join(names())} "
                          "(docs/openspiel.md)")
    return class_for(found)


def _remake(name: str, given: dict[str, Any]) -> OpenSpielGame:
    """The game ``name`` with the parameters ``given`` (unpickling)."""
    return game_class(name.removeprefix(PREFIX))(**given)


def _load(name: str, spiel_name: str, given: dict[str, Any], defaults: dict[str, Any]) -> Any:
    """``pyspiel.load_game(spiel_name, given)``, ``given`` probed first (once per process).

    Raises:
        ConfigError: OpenSpiel refuses or cannot play the parameters.
    """
    spiel = pyspiel()
    key = (spiel_name, tuple(sorted(given.items())))
    why = None if not given or key in _PROBED else probe(spiel_name, given)
    if why is None:
        try:
            game = spiel.load_game(spiel_name, given)
        except Exception as exc:  # noqa: BLE001 - OpenSpiel's SpielError, ValueError...: bad parameters
            why = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
    if why is not None:
        values = ", ".join(f"{k}={v!r}" for k, v in given.items())
        known = ", ".join(f"{k}={v!r}" for k, v in defaults.items())
        raise ConfigError(f"game {name}: OpenSpiel cannot play {values} ({why}); accepted: values OpenSpiel "
                          f"loads and plays, e.g. the defaults {known}")
    _PROBED.add(key)
    return game


def class_for(game_type: Any) -> type[OpenSpielGame]:
    """The ``OpenSpielGame`` subclass of one of OpenSpiel's games (a ``pyspiel.GameType`` the
    arena plays), made once per process."""
    short = game_type.short_name
    cls = _CLASSES.get(short)
    if cls is None:
        kinds = pyspiel().GameType
        chance = game_type.chance_mode == kinds.ChanceMode.EXPLICIT_STOCHASTIC
        simultaneous = game_type.dynamics == kinds.Dynamics.SIMULTANEOUS
        hidden = hidden_information(game_type)
        params = {k: Param(v, kind=type(v)) for k, v in sorted(game_type.parameter_specification.items())}
        qualname = _CLASS + short
        notes = [w for w, on in (("chance nodes", chance), ("simultaneous moves", simultaneous),
                                 ("hidden information", hidden)) if on]
        cls = _CLASSES[short] = type(qualname, (OpenSpielGame,), {
            "__module__": __name__, "__qualname__": qualname, "__doc__": f"OpenSpiel's {game_type.long_name}.",
            "name": PREFIX + short, "spiel_name": short, "PARAMS": params,
            "summary": f"OpenSpiel: {game_type.long_name}" + (f" ({', '.join(notes)})" if notes else ""),
            "type": GameType(game_type.min_num_players, game_type.max_num_players,
                             Dynamics.SIMULTANEOUS if simultaneous else Dynamics.SEQUENTIAL,
                             chance=False, deterministic=True, chance_nodes=chance, hidden_information=hidden),
        })
    return cls


def __getattr__(name: str) -> Any:
    """``OpenSpiel_NAME``: the class of OpenSpiel's game ``NAME`` (pickling by reference)."""
    if name.startswith(_CLASS):
        return game_class(name[len(_CLASS):])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
