"""The engine processes kept running across games in this process (split from
``arena.engine.client``): one per (engine bot, seat), the one used longest ago first. A process
holds at most as many engines as the game has seats (fastchess #855): ``keep`` (the client's
``for_game``) keeps those of the next game's bots and kills the others, ``make_room`` kills
those used longest ago before a new one starts, ``close_all`` quits them all (at exit too).
"""

from __future__ import annotations

import atexit
from collections.abc import Hashable, Sequence

from arena.engine.process import EngineProcess

#: running engines of this process: (engine identity, seat) -> EngineProcess
#: (``EngineBot._key``), the one used longest ago first
RUNNING: dict[tuple, EngineProcess] = {}


def running() -> int:
    """How many engines this process keeps running."""
    return len(RUNNING)


def keep(wanted: Sequence[tuple[int, Hashable]]) -> None:
    """Keep the running engines of ``wanted`` (0-based seat, engine identity) each under its
    seat (an engine that ran in another seat moves with its bot, the same seat first), and
    kill every other engine of this process."""
    free = dict(RUNNING)
    RUNNING.clear()
    for seat, ident in wanted:  # the same seat as before
        if (ident, seat) in free:
            RUNNING[(ident, seat)] = free.pop((ident, seat))
    for seat, ident in wanted:  # another seat of the same bot
        if (ident, seat) not in RUNNING:
            key = next((key for key in free if key[0] == ident), None)
            if key is not None:
                RUNNING[(ident, seat)] = free.pop(key)
    for engine in free.values():
        engine.kill()


def make_room(seats: int) -> None:
    """Kill the engines used longest ago until fewer than ``seats`` are left (room for one
    more): the current game's others were reset last, so they stay."""
    while len(RUNNING) >= max(1, seats):
        key = next(iter(RUNNING))
        RUNNING.pop(key).kill()


def close_all() -> None:
    """Quit every engine this process started."""
    while RUNNING:
        RUNNING.popitem()[1].quit()


atexit.register(close_all)
