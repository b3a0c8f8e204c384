"""OpenSpiel's games in the arena, as ``openspiel:NAME`` (``docs/openspiel.md``).

The ``openspiel`` extra installs OpenSpiel (``pip install -e '.[openspiel]'``, the
``open-spiel`` wheel on PyPI). ``pyspiel`` is imported on first use of an ``openspiel:``
game only: ``arena.games`` and every other command start without it.

The arena plays every OpenSpiel game that loads with its default parameters and lists its
chance outcomes (explicit stochastic: the referee draws them from the game's seed) or has
none, any number of players: sequential or simultaneous (``arena.games.openspiel.state``),
of perfect or imperfect information, each seat handed only its view
(``arena.games.openspiel.views``). ``names()`` lists them, ``game_class(NAME)`` is the
``arena.games.Game`` of one (``arena.games.openspiel.game``). ``unsupported(game_type)`` says
why another is not played.
"""

from arena.games.openspiel.game import OpenSpielGame, class_for, game_class
from arena.games.openspiel.library import INSTALL, PREFIX, names, pyspiel, unsupported
from arena.games.openspiel.state import OpenSpielState

__all__ = ["INSTALL", "PREFIX", "OpenSpielGame", "OpenSpielState", "class_for", "game_class", "names", "pyspiel",
           "unsupported"]
