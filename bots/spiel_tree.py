"""The information states of a small OpenSpiel game, for the tabular methods: the policy of
``openspiel.cfr`` (``bots.openspiel_cfr``) and a bot's exploitability (``bots.exploitability``).

Both walk the whole game tree once, so they refuse a game whose tree has more than
``MAX_HISTORIES`` histories (nodes, chance and terminal ones included: Leduc poker has 9,457,
Kuhn poker 58, liar's dice with its default one six-sided die each 294,883, goofspiel with 4
cards 19,269 and with 5 cards 2.4 million). OpenSpiel's CFR and best-response code runs on
sequential games only: a simultaneous-move game is solved as OpenSpiel's turn-based
transformation (``pyspiel.convert_to_turn_based``), whose information state of a seat at a
simultaneous node is ``"Current player: SEAT\\n"`` followed by the seat's own information
state in the simultaneous game (``solver_key``; the tests check it on every node of small
games).

Also the folder of the arena's disk caches (``cache_dir``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from arena.games import Dynamics, Game
from arena.games.openspiel import OpenSpielGame, OpenSpielState, pyspiel
from arena.games.openspiel.state import move_table
from arena.games.openspiel.views import seat_view as openspiel_view
from arena.games.views import View

log = logging.getLogger(__name__)

#: the most histories (game-tree nodes) a game may have for a tabular method
MAX_HISTORIES = 1_000_000
#: the environment variable naming the folder of the arena's disk caches
CACHE_ENV = "ARENA_CACHE_DIR"


def cache_dir(kind: str) -> Path:
    """The folder of one kind of disk cache (``cfr``, ``exploitability``): ``$ARENA_CACHE_DIR/KIND``,
    else ``$XDG_CACHE_HOME/arena/KIND``, else ``~/.cache/arena/KIND``. Not created here."""
    root = os.environ.get(CACHE_ENV) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "arena")
    return Path(root) / kind


def cache_name(*parts: Any) -> str:
    """A file name for the cached result of ``parts`` (JSON-able values; OpenSpiel's version is
    added, since its strings and solvers may change): 24 hex digits of their SHA-256."""
    text = json.dumps([openspiel_version(), *parts], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def write_cache(path: Path, content: Any) -> None:
    """Keep ``content`` as JSON in ``path``: written to a temporary file in its folder (made when
    missing), then renamed to ``path``, so a reader never sees half a file. A cache that cannot
    be written is skipped with a warning in the log."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=path.stem, suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w") as f:
                json.dump(content, f)
            os.replace(temp, path)
        except BaseException:
            os.unlink(temp)
            raise
    except OSError as exc:
        log.warning("cannot write the cache file %s (%s)", path, exc)


@functools.cache
def openspiel_version() -> str:
    """The installed ``open-spiel`` distribution's version (``"unknown"`` when not found)."""
    try:
        return metadata.version("open-spiel")
    except metadata.PackageNotFoundError:
        return "unknown"


def tabular_refusal(game: Game) -> str | None:
    """Why a tabular method cannot take ``game`` (one line), or ``None``: it is no OpenSpiel game,
    has no information-state strings, or has more than ``MAX_HISTORIES`` histories."""
    if not isinstance(game, OpenSpielGame):
        return f"plays OpenSpiel's games (openspiel:NAME) only; {game.name} is not one"
    return _spiel_refusal(game.game_string)


@functools.cache
def _spiel_refusal(game_string: str) -> str | None:
    """``tabular_refusal`` of an OpenSpiel game by its game string (counted once per process)."""
    spiel = pyspiel().load_game(game_string)
    if not spiel.get_type().provides_information_state_string:
        return f"needs information-state strings; {game_string} has none (OpenSpiel gives observations only)"
    if count_histories(spiel, MAX_HISTORIES) > MAX_HISTORIES:
        return (f"needs a game tree of at most {MAX_HISTORIES:,} histories to solve it as a table; "
                f"{game_string} has more")
    return None


def count_histories(spiel: Any, limit: int) -> int:
    """The number of histories (nodes) of the tree of the ``pyspiel.Game`` ``spiel``, counted up
    to ``limit + 1`` (a larger tree answers ``limit + 1``: the walk stops there)."""
    count = 0
    for _ in _nodes(spiel):
        count += 1
        if count > limit:
            break
    return count


def _nodes(spiel: Any) -> Iterator[Any]:
    """Every ``pyspiel.State`` of the game tree, depth first (chance outcomes of positive
    probability; at a simultaneous node every joint action)."""
    stack = [spiel.new_initial_state()]
    while stack:
        state = stack.pop()
        yield state
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, p in state.chance_outcomes() if p > 0)
        else:
            stack.extend(state.child(a) for a in state.legal_actions())


@dataclass(frozen=True)
class InfoState:
    """One information state of one seat, with a state of it.

    Attributes:
        seat: the 0-based seat whose information state it is.
        key: its key in OpenSpiel's solvers (``solver_key``).
        state: one of its states (the first the walk met), as an ``OpenSpielState``.
        actions: the seat's legal moves there, ``{notation: OpenSpiel action}``.
    """

    seat: int
    key: str
    state: OpenSpielState
    actions: dict[str, int]

    def view(self) -> View:
        """The seat's view of ``state`` (``State.view``): what a bot is handed there."""
        return seat_view(self.state, self.seat)


def solver_game(game: OpenSpielGame) -> Any:
    """The ``pyspiel.Game`` OpenSpiel's solvers take: the game, or for a simultaneous-move game
    its turn-based transformation."""
    if game.type.dynamics == Dynamics.SIMULTANEOUS:
        return pyspiel().convert_to_turn_based(game.spiel)
    return game.spiel


def solver_key(game: OpenSpielGame, spiel_state: Any, seat: int) -> str:
    """The key of ``seat``'s information state at ``spiel_state`` in OpenSpiel's solvers (the
    module doc): the information-state string, prefixed in a simultaneous-move game."""
    text = spiel_state.information_state_string(seat)
    return f"Current player: {seat}\n{text}" if game.type.dynamics == Dynamics.SIMULTANEOUS else text


def information_states(game: OpenSpielGame) -> list[InfoState]:
    """Every information state of every seat of ``game``, each once, in the order of a depth-first
    walk of the tree (at a simultaneous node, each seat that has moves).

    Raises:
        ValueError: the game is one a tabular method refuses (``tabular_refusal``).
    """
    why = tabular_refusal(game)
    if why is not None:
        raise ValueError(f"{game.name}: {why}")
    found: dict[tuple[int, str], InfoState] = {}
    for spiel_state in _nodes(game.spiel):
        if spiel_state.is_terminal() or spiel_state.is_chance_node():
            continue
        player = spiel_state.current_player()
        seats = range(game.num_players) if player < 0 else (player,)  # < 0: a simultaneous node
        for seat in seats:
            actions = spiel_state.legal_actions(seat)
            if not actions:
                continue
            key = solver_key(game, spiel_state, seat)
            if (seat, key) not in found:
                found[seat, key] = InfoState(seat, key, OpenSpielState(game, spiel_state),
                                             move_table(spiel_state, seat, actions))
    return list(found.values())


def seat_view(state: OpenSpielState, seat: int) -> View:
    """``state.view(seat)``: the seat's ``View`` (its text and moves), as the referee hands it in
    a game with hidden information (``arena.games.openspiel.views``); also made for a game of
    perfect information, where a bot is handed the state itself, as the key of the tables."""
    return openspiel_view(state, seat)
