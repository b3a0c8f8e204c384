"""A seat's view of an OpenSpiel position, and the samplers of views (``docs/openspiel.md``).

``seat_view(state, seat)`` is ``OpenSpielState.view``: an ``arena.games.View`` whose text is
OpenSpiel's ``information_state_string(seat)`` where the game provides one (the seat's whole
knowledge: its own cards and every move it saw, perfect recall), else its
``observation_string(seat)`` (what the seat sees now), and whose moves are the seat's own legal
moves in the arena's notation (at a simultaneous node, its part of the joint action).

A view's sampler (``View.sample(rng)``: a full state the seat cannot tell from the true one,
for information-set search) is, by game:

- **OpenSpiel's own** ``resample_from_infostate`` where OpenSpiel implements it
  (``library.RESAMPLES``: the poker games, bridge, hearts, gin rummy...; for the
  simultaneous games of perfect information a copy of the state), at the nodes where a seat
  chooses (OpenSpiel's resamplers fail or err at chance nodes);
- **the replay sampler** where the only hidden information is chance (``library.REPLAYS``:
  liar's dice, tiny bridge...; and the one-shot matrix games, where nothing is hidden before
  the round): the true moves are replayed from the start with every chance outcome drawn again,
  by its probability among the outcomes that leave the seat's view as it was at that point,
  and a replay that the seat's view contradicts later (a card it saw played that the new deal
  did not give) is started again, ``TRIES`` times at most (then ``SampleError``). Each draw is
  a state with the same view; the deals are drawn by chance's own probabilities, not weighted
  by how likely the other seats' moves made them (the usual determinization);
- **none** for the other games (the other seat's moves are hidden: phantom and dark games,
  battleship...; or a replay rarely deals each seat the cards it later plays: spades, go
  fish, crazy eights): ``View.can_sample`` is false.

Every sampled state is checked: the seat's view of it is the view it was drawn for.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from arena.games.openspiel.library import REPLAYS, RESAMPLES, pyspiel
from arena.games.protocol import CHANCE, TERMINAL
from arena.games.views import SampleError, View

if TYPE_CHECKING:
    from arena.games.openspiel.state import OpenSpielState

#: replays the replay sampler starts, at most, for one sample
TRIES = 200
#: ``sampler_kind`` by OpenSpiel's game string (``str(game)``: its name and parameters)
_KINDS: dict[str, str | None] = {}


def view_text(spiel: Any, seat: int, information_state: bool) -> str:
    """What ``seat`` may know of the ``pyspiel.State`` ``spiel``: its information-state string,
    or (``information_state`` false) its observation string."""
    return spiel.information_state_string(seat) if information_state else spiel.observation_string(seat)


def seat_view(state: OpenSpielState, seat: int) -> View:
    """``seat``'s view of ``state`` (the module doc).

    Raises:
        ValueError: ``seat`` is not a 0-based seat of the game.
    """
    game = state.game
    n = game.num_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"{game.name}: {seat!r} is not a seat of the game; accepted: 0 to {n - 1}")
    text = view_text(state.spiel, seat, game.information_state)
    return View(game, seat, state.to_move, text, tuple(state.seat_moves(seat)), sampler(state, seat))


def sampler_kind(game: Any) -> str | None:
    """``"resample"`` (OpenSpiel's ``resample_from_infostate``), ``"replay"`` (chance drawn
    again along the true moves) or ``None`` (no sampler) for an ``OpenSpielGame``; found once
    per game string (``_KINDS``: a view is made every ply)."""
    key = game.game_string
    if key not in _KINDS:
        if game.spiel_name in RESAMPLES:
            _KINDS[key] = "resample"
        else:
            one_shot = game.spiel.get_type().information == pyspiel().GameType.Information.ONE_SHOT
            _KINDS[key] = "replay" if game.spiel_name in REPLAYS or one_shot else None
    return _KINDS[key]


def sampler(state: OpenSpielState, seat: int) -> Callable[[random.Random], OpenSpielState] | None:
    """The sampler of ``seat``'s view of ``state`` (the module doc), or ``None``."""
    kind = sampler_kind(state.game)
    if kind == "resample" and state.to_move not in (CHANCE, TERMINAL):
        return lambda rng: resampled(state, seat, rng)
    if kind == "replay" or (kind == "resample" and state.game.spiel_name in REPLAYS):
        return lambda rng: replayed(state, seat, rng)
    return None


def _checked(state: OpenSpielState, seat: int, spiel: Any, how: str) -> OpenSpielState:
    """``spiel`` as a state of ``state``'s game, once ``seat``'s view of it is its view of ``state``.

    Raises:
        SampleError: the views differ (a sampler's bug).
    """
    game = state.game
    if (view_text(spiel, seat, game.information_state) != view_text(state.spiel, seat, game.information_state)
            or spiel.current_player() != state.spiel.current_player()):
        raise SampleError(f"{game.name}: {how} drew a state that seat {seat} can tell from its view")
    return type(state)(game, spiel)


def resampled(state: OpenSpielState, seat: int, rng: random.Random) -> OpenSpielState:
    """A state drawn by OpenSpiel's ``resample_from_infostate`` for ``seat``, from ``rng``.

    Raises:
        SampleError: OpenSpiel could not, or drew a state with another view.
    """
    try:
        spiel = state.spiel.resample_from_infostate(seat, rng.random)
    except Exception as exc:  # noqa: BLE001 - OpenSpiel's SpielError: the resampler refuses this node
        raise SampleError(f"{state.game.name}: OpenSpiel's resample_from_infostate failed: "
                          f"{' '.join(str(exc).split())[:200]}") from None
    return _checked(state, seat, spiel, "OpenSpiel's resample_from_infostate")


def replayed(state: OpenSpielState, seat: int, rng: random.Random, tries: int = TRIES) -> OpenSpielState:
    """A state drawn by the replay sampler (the module doc) for ``seat``, from ``rng``.

    Raises:
        SampleError: no replay of ``tries`` kept the seat's view.
    """
    game = state.game
    plies, targets = _plies(game, list(state.spiel.history()), seat)
    for _ in range(tries):
        spiel = _replay_once(game, plies, targets, seat, rng)
        if spiel is not None:
            return _checked(state, seat, spiel, "the replay sampler")
    raise SampleError(f"{game.name}: no deal of {tries} kept seat {seat}'s view (the replay sampler)")


def _plies(game: Any, history: list[int], seat: int) -> tuple[list[tuple[bool, list[int]]], list[str]]:
    """The plies of the action ids ``history`` (``(chance, actions)``: one action, but one per
    seat at a simultaneous node) and ``seat``'s view after each (index 0: at the start)."""
    spiel = game.spiel.new_initial_state()
    texts = [view_text(spiel, seat, game.information_state)]
    plies: list[tuple[bool, list[int]]] = []
    i = 0
    while i < len(history):
        width = game.num_players if spiel.is_simultaneous_node() else 1
        plies.append((spiel.is_chance_node(), history[i:i + width]))
        _apply(spiel, history[i:i + width])
        texts.append(view_text(spiel, seat, game.information_state))
        i += width
    return plies, texts


def _apply(spiel: Any, actions: list[int]) -> None:
    if spiel.is_simultaneous_node():
        spiel.apply_actions(actions)
    else:
        spiel.apply_action(actions[0])


def _replay_once(game: Any, plies: list[tuple[bool, list[int]]], targets: list[str], seat: int,
                 rng: random.Random) -> Any:
    """One replay: every chance outcome drawn by its probability among those that keep the
    seat's view; ``None`` when a move is not legal in the new deal or the view differs."""
    info = game.information_state
    spiel = game.spiel.new_initial_state()
    for ply, (chance, actions) in enumerate(plies):
        want = targets[ply + 1]
        if chance != spiel.is_chance_node():
            return None
        if chance:
            fits = [(a, p) for a, p in spiel.chance_outcomes()
                    if p > 0 and view_text(spiel.child(a), seat, info) == want]
            if not fits:
                return None
            u, total = rng.random() * sum(p for _, p in fits), 0.0
            pick = fits[-1][0]
            for action, p in fits:
                total += p
                if u < total:
                    pick = action
                    break
            spiel.apply_action(pick)
            continue
        if spiel.is_simultaneous_node():
            if len(actions) != game.num_players or any(a not in spiel.legal_actions(s) for s, a in enumerate(actions)):
                return None
        elif spiel.is_terminal() or actions[0] not in spiel.legal_actions():
            return None
        _apply(spiel, actions)
        if view_text(spiel, seat, info) != want:
            return None
    return spiel
