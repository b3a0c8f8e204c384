"""OpenSpiel itself: ``pyspiel`` imported on first use, which of its games the arena plays
(``unsupported``) and their names (``names``)."""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any

from arena.errors import ConfigError

#: the prefix of OpenSpiel's games among the arena's game names
PREFIX = "openspiel:"
#: how to install OpenSpiel, for the error of an ``openspiel:`` game without it
INSTALL = "pip install -e '.[openspiel]' (or pip install open-spiel)"

def pyspiel() -> ModuleType:
    """The ``pyspiel`` module, imported on first use.

    Raises:
        ConfigError: OpenSpiel is not installed (the message gives the install command).
    """
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        raise ConfigError(f"OpenSpiel's games need the openspiel extra: {INSTALL}") from None


#: games whose moves OpenSpiel gives only as action structs (no action ids): not played
STRUCTS_ONLY = {"crossword": "its moves are OpenSpiel action structs only (no action ids to write as moves)"}

#: games whose ``resample_from_infostate`` OpenSpiel implements (with default parameters): the
#: sampler of their views at a seat's node (``arena.games.openspiel.views``). The perfect-information
#: simultaneous games (goofspiel, oshi_zumo...) get OpenSpiel's default, a copy of the state:
#: nothing is hidden but the answers of the round, which are not part of the state yet.
RESAMPLES = frozenset({
    "bargaining", "blackjack", "bridge", "capture_the_flag", "colored_trails", "euchre", "gin_rummy", "goofspiel",
    "hearts", "kuhn_poker", "laser_tag", "leduc_poker", "markov_soccer", "oh_hell", "oshi_zumo", "pathfinding",
    "snake", "universal_poker",
})

#: games whose only hidden information is chance (every seat sees every other seat's moves;
#: not the deals and dice) and whose views the replay sampler draws within its tries: a view
#: is sampled by replaying the moves with chance drawn again (``arena.games.openspiel.views``).
#: Besides these, every one-shot matrix game. Go fish, crazy eights and spades are chance-only
#: too, but a replay rarely deals each seat the cards it later plays: no sampler for them.
REPLAYS = frozenset({
    "liars_dice", "liars_dice_ir", "repeated_leduc_poker", "social_deduction", "solitaire", "tiny_bridge_2p",
    "tiny_bridge_4p", "tiny_hanabi",
})


def unsupported(game_type: Any) -> str | None:
    """Why the arena does not play an OpenSpiel game of this ``pyspiel.GameType`` (a few
    words), or ``None`` when it does."""
    kinds = pyspiel().GameType
    if not game_type.default_loadable:
        return ("it cannot be loaded with its default parameters (a transformation of another game, "
                "or a game read from a file)")
    if game_type.dynamics == kinds.Dynamics.MEAN_FIELD:
        return "a mean-field game: a population's distribution, not seats that choose moves"
    if game_type.chance_mode == kinds.ChanceMode.SAMPLED_STOCHASTIC:
        return ("its chance is sampled inside the game (no list of outcomes), so the referee cannot "
                "draw it from the game's seed nor record it as a ply")
    return STRUCTS_ONLY.get(game_type.short_name)


def hidden_information(game_type: Any) -> bool:
    """Whether a seat may not see the whole state of an OpenSpiel game of this type: its
    information is not perfect (cards, the other side's pieces), or its seats move
    simultaneously (a seat answers without seeing the others' answers)."""
    kinds = pyspiel().GameType
    return (game_type.information != kinds.Information.PERFECT_INFORMATION
            or game_type.dynamics == kinds.Dynamics.SIMULTANEOUS)


@cache
def spiel_types() -> dict[str, Any]:
    """OpenSpiel's registered game types by short name."""
    return {t.short_name: t for t in pyspiel().registered_games()}


def names() -> list[str]:
    """The OpenSpiel games the arena plays, as ``openspiel:NAME``, sorted.

    Raises:
        ConfigError: OpenSpiel is not installed.
    """
    return sorted(PREFIX + name for name, t in spiel_types().items() if unsupported(t) is None)
