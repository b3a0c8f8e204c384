"""Private states: what a bot is handed is a copy that nothing else uses.

The referee keeps the authoritative state of a game to itself. Each seat gets a ``Private``
view: its own shallow copy of the game object (and of the other rule objects a state points
to, such as Sandpile's ``rules`` or Ricochet's ``board``), made once per game, and before each
``choose`` a fresh copy of the state whose mutable containers (lists, dicts, sets, bytearrays:
a state's move caches) are copied too and whose rule objects are the seat's own. A bot that
rewrites ``state.scores`` or sets ``state.game.target`` changes only its own copy: the move it
returns is judged on the referee's state, and the next game starts from fresh objects.

What a copy does not cover (a history chain of earlier states, module globals, ``gc``) is
covered by the runner's replay of every game (``arena.tournament.runner``: the stored outcome
is the replay's); ``--isolation process`` puts a bot out of reach of the worker altogether.
An engine bot (``arena.engine.client.EngineBot``), whose ``choose`` only sends the position
text and the legal moves to its process, is handed the referee's state itself
(``share_state``).

In a game with hidden information (``GameType.hidden_information``) every bot, an engine's
too, is handed its seat's view instead (``Private.view``: ``State.view(seat)``, with the seat's
own game copy, also in each state its sampler draws); never the state.
"""

from __future__ import annotations

import copy
from typing import Any

from arena.games import Game, State, View
from arena.games.views import rebound

_CONTAINERS = (list, dict, set, bytearray)
_PLAIN = (int, float, str, bytes, bool, tuple, frozenset, type(None))
_PLAIN_TYPES = frozenset(_PLAIN)
_CONTAINER_TYPES = frozenset(_CONTAINERS)
_slots_of: dict[type, tuple[str, ...]] = {}


def _slots(cls: type) -> tuple[str, ...]:
    """All ``__slots__`` names of ``cls`` and its bases (instances may also keep a ``__dict__``)."""
    if cls not in _slots_of:
        names: list[str] = []
        for klass in cls.__mro__:
            slots = vars(klass).get("__slots__") or ()
            for name in ((slots,) if isinstance(slots, str) else slots):
                if name not in ("__dict__", "__weakref__"):
                    names.append(name)
        _slots_of[cls] = tuple(names)
    return _slots_of[cls]


def _own(obj: Any) -> Any:
    """A shallow copy of a rule object with its mutable containers copied one level."""
    dup = copy.copy(obj)
    attrs = getattr(dup, "__dict__", None)
    if attrs is not None:
        for name, value in list(attrs.items()):
            if isinstance(value, _CONTAINERS):
                attrs[name] = copy.copy(value)
    for name in _slots(type(dup)):
        value = getattr(dup, name, None)
        if isinstance(value, _CONTAINERS):
            setattr(dup, name, copy.copy(value))
    return dup


#: bot classes handed the referee's own state, uncopied (``share_state``)
_SHARED: list[type] = []


def share_state(cls: type) -> type:
    """Register a bot class whose ``choose`` only reads the state to send it to another
    process (``arena.engine.client.EngineBot``: the position text and the legal moves), so it
    is handed the referee's own state: no copy, and the legal moves it generates are the ones
    the referee's ``play`` then reuses. Returns ``cls`` (usable as a decorator)."""
    if cls not in _SHARED:
        _SHARED.append(cls)
    return cls


def shares_state(bot: Any) -> bool:
    """Whether ``bot``'s own class is registered with ``share_state``. Exact class, not
    ``isinstance``: a user's subclass (which may override ``choose``) still gets a private copy."""
    return type(bot) in _SHARED


class Private:
    """One seat's private view of a game: ``game`` (its own copy) and ``state(s)`` (a copy of
    ``s`` for that seat alone); ``shared`` (a bot of a ``share_state`` class, or a game of
    bots that run only the arena's code: ``GameSettings.trusted``): the game and ``s``
    themselves. Cost: one game copy per seat per game, one state copy per ``choose``
    (``arena bench --only runner`` measures it per ply)."""

    def __init__(self, game: Game, shared: bool = False) -> None:
        self.shared = shared
        self.game = game if shared else _own(game)
        self._memo: dict[int, Any] = {id(game): self.game}
        self._keep = [game]  # the originals stay alive while their ids are memo keys

    def _map(self, value: Any) -> Any:
        kind = type(value)
        if kind in _PLAIN_TYPES:
            return value
        if kind in _CONTAINER_TYPES:
            return kind.copy(value)
        if isinstance(value, _PLAIN) or isinstance(value, State):
            return value  # immutable, or an earlier state of the history chain (see the module doc)
        if isinstance(value, _CONTAINERS):
            return copy.copy(value)
        mine = self._memo.get(id(value))
        if mine is None:
            if isinstance(value, type) or callable(value):
                return value
            mine = self._memo[id(value)] = _own(value)
            self._keep.append(value)
        return mine

    def state(self, state: State) -> State:
        """A copy of ``state`` that only this seat holds (same class, same values; mutable
        containers and rule objects its own; ``state`` itself when the view is ``shared``)."""
        if self.shared:
            return state
        cls = type(state)
        dup = cls.__new__(cls)
        attrs = getattr(state, "__dict__", None)
        if attrs:
            dup.__dict__.update({k: self._map(v) for k, v in attrs.items()})
        map_ = self._map
        for name in _slots(cls):
            try:
                value = getattr(state, name)
            except AttributeError:
                continue
            setattr(dup, name, map_(value))
        return dup

    def view(self, state: State, seat: int) -> State | View:
        """What 0-based ``seat`` is handed of ``state`` in a game with hidden information: its
        view (``state.view(seat)``) bound to this seat's game copy, also in each state its
        sampler draws (``rebound``, ``drawn``). A game whose view of the seat is a
        state gets that state's private copy (``state``)."""
        seen = state.view(seat)
        if isinstance(seen, View):
            return rebound(seen, self.game, self.drawn)
        return self.state(seen)

    def drawn(self, state: State) -> State:
        """A sampled ``state`` (``View.sample``: made for this draw, no other holder) with the
        game and the rule objects this seat already has copies of replaced by its copies; its
        other values as they are (cheaper than ``state``: a search draws thousands)."""
        if self.shared:
            return state
        memo = self._memo
        cls = type(state)
        dup = cls.__new__(cls)
        attrs = getattr(state, "__dict__", None)
        if attrs:
            dup.__dict__.update({k: memo.get(id(v), v) for k, v in attrs.items()})
        for name in _slots(cls):
            try:
                value = getattr(state, name)
            except AttributeError:
                continue
            setattr(dup, name, memo.get(id(value), value))
        return dup

    def handed(self, state: State, seat: int) -> State | View:
        """What the bot of 0-based ``seat`` is handed before ``choose``: its view (``view``) in
        a game with hidden information, else its private copy of the state (``state``)."""
        return self.view(state, seat) if self.game.type.hidden_information else self.state(state)
