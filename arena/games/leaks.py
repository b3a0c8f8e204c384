"""The leak check of ``arena.games.check``: a seat's view tells it no more than it may know.

``check_views(game)`` plays seeded random games and checks, for a game with hidden
information (``GameType.hidden_information``):

1. **The view object** (``check_view_objects``): ``State.view(seat)`` is an ``arena.games.View``
   of that seat, its ``moves`` the seat's legal moves where it is to move, and no state is
   reachable from it through attributes (``reachable``: slots, ``__dict__``, containers,
   closures; a module's globals are out of an attribute walk's reach).
2. **Indistinguishable states give the same view** (``check_samples``): where the game gives a
   sampler, every state it draws for a seat's view is one the seat cannot tell from the true
   one, so it must show the seat the same view. A game's sampler states what a seat may not
   know (OpenSpiel's ``resample_from_infostate`` redraws the other hands and keeps the seat's
   own and the public cards): a view that shows more differs between its draws.
3. **Private chance stays private** (``check_private_chance``): along a random game, a chance
   outcome is changed (another outcome of its node, or two outcomes swapped), the same moves
   replayed after it while they stay legal. The seats whose view changes when it is dealt own
   it (a card dealt to a seat, a die it rolled); at every later phase of the game, up to the
   end, its change must show in no other seat's view, until the rules show it to every seat at
   once (a showdown, a card played face up, a hint that names it). A view that shows another
   seat's card from some phase on is caught at that phase.

What no generic check can know: in a two-seat game "every seat at once" is the owner and the
other seat, so a view that shows the other seat's card from some phase on passes (3.) as if
the rules showed it; the sampler check (2.) catches it where the game gives a sampler. A
game of perfect information passes trivially: a seat's view is the state itself.
"""

from __future__ import annotations

import random
import types
from collections.abc import Iterable
from typing import Any

from arena.games.broken import fail
from arena.games.protocol import CHANCE, SIMULTANEOUS, TERMINAL, Answer, Game, State, draw_chance
from arena.games.views import SampleError, View

#: draws of a view's sampler checked per state and seat
DRAWS = 2
#: changed chance outcomes tried per random game
CHANGES = 12
#: positions of a random game whose views are checked, at most (spread over the game)
POSITIONS = 40
#: of those, positions whose views' samplers are checked (a sampler may take a while: bridge's)
SAMPLED = 12


def reachable(root: object, limit: int = 100_000) -> list[object]:
    """Every object reachable from ``root`` through attributes: ``__slots__`` and ``__dict__``
    values, items of lists, tuples, sets and dicts, a function's closure cells and defaults, a
    bound method's ``__self__`` and ``__func__``; never into a module or a class."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo and len(seen) < limit:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (types.ModuleType, type)):
            continue
        seen[id(obj)] = obj
        if isinstance(obj, dict):
            todo.extend([*obj.keys(), *obj.values()])
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo.extend(obj)
        if isinstance(obj, types.FunctionType):
            todo.extend(c.cell_contents for c in obj.__closure__ or () if c.cell_contents is not None)
            todo.extend([*(obj.__defaults__ or ()), *(obj.__kwdefaults__ or {}).values()])
        if isinstance(obj, types.MethodType):
            todo.extend((obj.__self__, obj.__func__))
        for klass in type(obj).__mro__:
            slots = vars(klass).get("__slots__", ())
            for name in (slots,) if isinstance(slots, str) else slots:
                if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                    todo.append(getattr(obj, name))
        attrs = getattr(obj, "__dict__", None)
        if isinstance(attrs, dict):
            todo.append(attrs)
    return list(seen.values())


def _play(game: Game, seed: int) -> tuple[list[Any], list[State]]:
    """The moves (chance outcomes and rounds included) and states of one seeded random game."""
    rng = random.Random(seed)
    state = game.initial_state(seed)
    moves: list[Any] = []
    states = [state]
    for _ in range(5000):
        if state.is_terminal():
            break
        if state.to_move == CHANCE:
            move: Any = draw_chance(state.chance_outcomes(), rng.random())
        elif state.to_move == SIMULTANEOUS:
            own = [_view(game, state, seat).legal_moves() for seat in range(game.num_players)]
            move = [Answer(m[rng.randrange(len(m))] if m else None) for m in own]
        else:
            legal = state.legal_moves()
            move = legal[rng.randrange(len(legal))]
        state = state.play(move)
        moves.append(move)
        states.append(state)
    return moves, states


def _view(game: Game, state: State, seat: int) -> View:
    """``state.view(seat)``, which must be a ``View`` of that seat."""
    seen = state.view(seat)
    if not isinstance(seen, View) or seen.seat != seat or not isinstance(seen.text, str):
        fail(game, f"State.view({seat}) must be an arena.games.View of seat {seat} with a text in a game with "
                    f"hidden information, not {type(seen).__name__} (position {state.to_text()[:80]!r})")
    return seen


def _spread(states: list[State], most: int) -> list[State]:
    step = max(1, len(states) // most)
    return states[::step]


def check_view_objects(game: Game, states: list[State]) -> None:
    """Rule 1 of the module doc on ``states`` (the first one walked for reachable states)."""
    for index, state in enumerate(states):
        for seat in range(game.num_players):
            view = _view(game, state, seat)
            if view.to_move != state.to_move:
                fail(game, f"a view's to_move ({view.to_move}) must be its state's ({state.to_move})")
            if state.to_move == seat and [str(m) for m in view.moves] != [str(m) for m in state.legal_moves()]:
                fail(game, f"the view of seat {seat}, to move, must list its legal moves {state.legal_moves()[:8]}, "
                            f"not {list(view.moves)[:8]}")
            if index == 0 and any(isinstance(o, State) for o in reachable(view)):
                fail(game, f"a state is reachable from the attributes of seat {seat}'s view: a bot handed it "
                            "could read what its seat must not see")


def check_samples(game: Game, states: list[State], rng: random.Random, draws: int = DRAWS) -> None:
    """Rule 2 of the module doc on ``states``: each draw of a view's sampler shows the seat the
    same view (``draws`` per state, for the seat to move or every seat at a simultaneous node:
    the views a bot samples)."""
    for state in states:
        if state.to_move in (CHANCE, TERMINAL):
            continue
        for seat in range(game.num_players) if state.to_move == SIMULTANEOUS else [state.to_move]:
            view = _view(game, state, seat)
            if not view.can_sample:
                continue
            for _ in range(draws):
                try:
                    drawn = view.sample(rng)
                except SampleError as exc:  # the game's own sampler found the view and a draw differ
                    fail(game, f"leak: seat {seat}'s sampler: {exc} (position {state.to_text()[:80]!r})")
                if _view(game, drawn, seat).text != view.text:
                    fail(game, f"leak: seat {seat}'s view differs between states its sampler says it cannot tell "
                                f"apart: {view.text[:60]!r} and {_view(game, drawn, seat).text[:60]!r} "
                                f"(position {state.to_text()[:80]!r})")


def _alternatives(game: Game, moves: list[Any], states: list[State], rng: random.Random,
                  most: int) -> list[tuple[list[Any], set[int]]]:
    """Up to ``most`` move lists that differ from ``moves`` in chance outcomes only, each with
    the seats that see the change when it is dealt: one outcome replaced by another of its
    node, or two outcomes of different seats swapped (a full deck has no other outcome left)."""
    chance = [i for i, s in enumerate(states[:-1]) if s.to_move == CHANCE]
    found: list[tuple[list[Any], set[int]]] = []
    for _ in range(most * 4):
        if not chance or len(found) >= most:
            break
        i, k = sorted((chance[rng.randrange(len(chance))], chance[rng.randrange(len(chance))]))
        changed = list(moves)
        outcomes = [m for m, _ in states[i].chance_outcomes() if str(m) != str(moves[i])]
        if k > i and str(moves[k]) in {str(m) for m in outcomes} and rng.random() < 0.5:
            changed[i], changed[k] = moves[k], moves[i]
        elif outcomes:
            changed[i] = outcomes[rng.randrange(len(outcomes))]
            k = i
        else:
            continue
        seen = _seers(game, states[i + 1], states[i].play(changed[i]))
        if k > i:  # a swap: the other outcome too must be someone's (not a face-down card, for one)
            other = _replayed(game, states[0], changed[:k + 1])
            both = _seers(game, states[k + 1], other[k + 1]) if len(other) > k + 1 else set()
            if not seen or not both - seen:
                continue
            seen = both
        found.append((changed, seen))
    return found


def _seers(game: Game, a: State, b: State) -> set[int]:
    """The seats whose views of ``a`` and ``b`` differ."""
    return {p for p in range(game.num_players) if _view(game, a, p).text != _view(game, b, p).text}


def _replayed(game: Game, start: State, moves: list[Any]) -> list[State]:
    """The states of ``moves`` from ``start``, as far as each move is legal."""
    states, state = [start], start
    for move in moves:
        try:
            state = state.play(move)
        except Exception:  # noqa: BLE001 - a changed deal makes a later move illegal: the replay ends
            break
        states.append(state)
    return states


def check_private_chance(game: Game, moves: list[Any], states: list[State], rng: random.Random,
                         changes: int = CHANGES) -> None:
    """Rule 3 of the module doc on one random game (``moves`` and its ``states``)."""
    everyone = set(range(game.num_players))
    for changed, owners in _alternatives(game, moves, states, rng, changes):
        if not owners or owners == everyone:
            continue  # hidden from every seat, or public when dealt: nobody's private outcome
        differ = [i for i, (a, b) in enumerate(zip(moves, changed)) if str(a) != str(b)]
        other = _replayed(game, states[0], changed)
        for j in range(differ[-1] + 2, len(other)):
            a, b = states[j], other[j]
            if a.is_terminal() or b.is_terminal():
                break
            seen = _seers(game, a, b)
            if seen == everyone:
                break  # the rules show it to every seat at once
            if not seen <= owners:
                spy = min(seen - owners)
                fail(game, f"leak: seat {spy}'s view shows a chance outcome of seat(s) {sorted(owners)} (ply "
                           f"{differ[0]}: {str(moves[differ[0]])!r} or {str(changed[differ[0]])!r}) at ply {j}, "
                           f"before the rules show it to every seat (position {a.to_text()[:80]!r})")


def check_views(game: Game, seeds: Iterable[int] = range(3)) -> None:
    """The leak check (the module doc) on seeded random games of ``game``.

    Raises:
        GameCheckError: a rule broken (the message names it, the seat and the position).
    """
    if not game.type.hidden_information:
        state = game.initial_state(0)
        for seat in range(game.num_players):
            if state.view(seat) is not state:
                fail(game, "a game of perfect information must give every seat the state itself as its view "
                            "(State.view returns self); else declare GameType.hidden_information")
        return
    for seed in seeds:
        rng = random.Random(seed)
        moves, states = _play(game, seed)
        spread = _spread(states, POSITIONS)
        check_view_objects(game, spread)
        check_samples(game, _spread(spread, SAMPLED), rng)
        if game.type.chance_nodes:
            check_private_chance(game, moves, states, rng)
