"""The position each series starts from when a tournament plays an openings file
(``docs/arena.md`` "Tournaments": ``--openings``, ``--openings-order``), and candidate
positions for such a file (``random_positions``).

Below both the tournament (which schedules the series) and the store (which reads it back for
stores written before they kept each series' start: ``arena.reading.load_series_start``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum

from arena.games import Game
from arena.numbers import check_choice
from arena.referee import derive_seed, random_opening


class OpeningsOrder(StrEnum):
    """The order series take the positions of an openings file (``--openings-order``; the
    value is the option's text)."""

    #: file order, from the top again after the last
    SEQUENTIAL = "sequential"
    #: each pass through the file a seeded shuffle (``series_start``)
    RANDOM = "random"


#: the accepted texts, in the order error messages list them
OPENINGS_ORDERS = tuple(o.value for o in OpeningsOrder)


def check_openings_order(order: str) -> OpeningsOrder:
    """``order`` as an ``OpeningsOrder``.

    Raises:
        ConfigError: unknown order (the message lists the accepted ones).
    """
    return OpeningsOrder(check_choice("openings order", order, OPENINGS_ORDERS))


def series_start(openings: Sequence[str], order: str, seed: int, series: int) -> str | None:
    """The position of an openings list that series ``series`` (0-based) of every pairing plays.

    ``sequential``: the list in order, from the top again after the last; ``random``: each pass
    through the list a shuffle seeded by ``derive_seed(seed, "openings", pass)``.

    Raises:
        ConfigError: unknown order.
    """
    kind = check_openings_order(order)
    if not openings:
        return None
    cycle, place = divmod(series, len(openings))
    order_ = list(range(len(openings)))
    if kind is OpeningsOrder.RANDOM:
        random.Random(derive_seed(seed, "openings", cycle)).shuffle(order_)
    return openings[order_[place]]


def random_positions(game: Game, plies: int, count: int, seed: int) -> list[str]:
    """Up to ``count`` distinct positions (texts, ``State.to_text``) reached by ``plies``
    seeded random plies (``arena.referee.random_opening``; fewer where the game would end)
    from the game's start: attempt ``i`` plays from ``initial_state(derive_seed(seed, "book",
    i))``. A candidate book for ``--openings`` (``arena openings random``); at most
    ``20 · count`` attempts, so a game with fewer positions at that depth gives fewer.
    """
    out: dict[str, None] = {}
    for i in range(20 * count):
        if len(out) >= count:
            break
        s = derive_seed(seed, "book", i)
        state = game.initial_state(s)
        for ply in random_opening(game, s, plies):
            state = state.play(game.parse_move(state, ply))
        out.setdefault(state.to_text(), None)
    return list(out)
