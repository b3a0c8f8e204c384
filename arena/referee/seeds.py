"""Every seed the referee derives from a game's (series) seed: each bot's (``bot_seeds``), the
random opening's (``arena.referee.play.random_opening``) and the chance nodes' (``ChanceDraws``).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any

from arena.games import State, draw_chance


def derive_seed(seed: int, *parts: Any) -> int:
    """A 63-bit seed derived from ``seed`` and labels (stable across runs and platforms)."""
    text = ":".join(map(str, (seed, *parts))).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


#: The current seeding scheme (stored with a tournament's settings as ``seeding``).
#: 3: as 2, and a pairing's series take their seeds and seat orders from its bots' names in
#: sorted order (``arena.tournament.series.oriented``): a pairing plays the same games in any
#: field, whatever the order its bots were given or joined in, and every version of a bot
#: plays the same series (its name without version).
#: 2: a bot's seed is ``derive_seed(seed, "bot", index, label)``: series seed, the game's 0-based
#: index in its series, the bot's label (``docs/statistics.md`` "Games must be distinct"); a
#: pairing in the order its bots joined the tournament.
#: 1: ``derive_seed(seed, "bot", seat)`` (before: two copies of a stochastic bot in a series
#: replayed one game with the seats swapped); kept only to finish tournaments stored with it.
SEEDING = 3
SEEDINGS = (1, 2, 3)


def bot_seeds(seed: int, index: int, labels: Sequence[str], seeding: int = SEEDING) -> tuple[int, ...]:
    """Each seat's bot seed for one game, by the seeding scheme (see ``SEEDING``): the one place
    a bot's seed (``reset(game, seat, seed)``) is computed.

    Args:
        seed: the series seed (the game's stored ``seed``).
        index: the game's 0-based index in its series (its seat order's place in the rotation).
        labels: bot names by 0-based seat (unique within a tournament; a bot version's label
            without its version, ``arena.tournament.members``).
        seeding: 3 (current; its bot seeds as 2's), 2 or 1 (tournaments stored before them).

    Raises:
        ValueError: an unknown scheme.
    """
    if seeding in (2, 3):
        return tuple(derive_seed(seed, "bot", index, label) for label in labels)
    if seeding == 1:
        return tuple(derive_seed(seed, "bot", seat) for seat in range(len(labels)))
    raise ValueError(f"unknown seeding scheme {seeding!r}; accepted: {', '.join(map(str, SEEDINGS))}")


class ChanceDraws:
    """The outcomes of a game's chance nodes (``State.to_move == CHANCE``), drawn by the
    referee: one number of a generator seeded with ``derive_seed(seed, "chance")`` per chance
    node after the opening, mapped to an outcome by ``arena.games.draw_chance``. So the
    k-th chance node of every game of a series (same seed, seats rotated) draws the same
    number, a game replays exactly from its seed and moves, and the runner's replay
    (``arena.referee.check``) can tell a stored chance ply from one the seed did not draw.

    Args:
        seed: the game's (series) seed (``GameSettings.seed``, ``GameRecord.seed``).
    """

    def __init__(self, seed: int) -> None:
        self._seed = seed
        self._rng: random.Random | None = None  # made at the first chance node: most games have none

    def draw(self, state: State) -> Any:
        """The outcome drawn at the chance node ``state`` (a move of ``state.chance_outcomes()``).

        Raises:
            ValueError: the node offers no outcome of positive probability.
        """
        if self._rng is None:
            self._rng = random.Random(derive_seed(self._seed, "chance"))
        return draw_chance(state.chance_outcomes(), self._rng.random())
