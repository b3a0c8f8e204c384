"""``known``: the bot of the test game of known strengths (``arena.games.known``): it declares
its strength, the ``elo`` option, and the game's chance ply decides from the strengths declared.
``known:elo=200`` is 200 Elo stronger than ``known:elo=0`` by construction, which is what the
coverage bench (``arena bench --only coverage``) checks the reports' intervals against.
"""

from __future__ import annotations

from typing import Any

from arena.games import Param, State
from arena.games.known import HIGHEST, LOWEST
from bots.base import Bot, Limits, Plays, SearchStats

#: the figures of every choice (no search)
NO_SEARCH = SearchStats(nodes=0, depth=0, seconds=0.0)


class KnownBot(Bot):
    """Plays its ``elo`` option (Elo points) as its move; no search, no randomness."""

    name = "known"
    summary = "the test game's bot of known strength: declares its elo= option"
    PARAMS = {"elo": Param(0, "the bot's true strength, Elo points", minimum=LOWEST, maximum=HIGHEST)}
    PLAYS = Plays(min_players=2, max_players=4, games=frozenset({"known"}))

    def choose(self, state: State, limits: Limits) -> Any:
        self.last_stats = NO_SEARCH
        return int(self.options["elo"]) if state.to_move >= 0 else None
