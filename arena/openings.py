"""The position each series starts from when a tournament plays an openings file
(``docs/arena.md`` "Tournaments": ``--openings``, ``--openings-order``).

Below both the tournament (which schedules the series) and the store (which reads it back for
stores written before they kept each series' start: ``arena.reading.load_series_start``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from arena.errors import ConfigError
from arena.referee import derive_seed

#: ``--openings-order`` values: the file's order, or a seeded shuffle of each pass.
OPENINGS_ORDERS = ("sequential", "random")


def series_start(openings: Sequence[str], order: str, seed: int, series: int) -> str | None:
    """The position of an openings list that series ``series`` (0-based) of every pairing plays.

    ``sequential``: the list in order, from the top again after the last; ``random``: each pass
    through the list a shuffle seeded by ``derive_seed(seed, "openings", pass)``.

    Raises:
        ConfigError: unknown order.
    """
    if order not in OPENINGS_ORDERS:
        raise ConfigError(f"unknown openings order {order!r}; accepted: {', '.join(OPENINGS_ORDERS)}")
    if not openings:
        return None
    cycle, place = divmod(series, len(openings))
    order_ = list(range(len(openings)))
    if order == "random":
        random.Random(derive_seed(seed, "openings", cycle)).shuffle(order_)
    return openings[order_[place]]
