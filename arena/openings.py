"""The position each series starts from when a tournament plays an openings file
(``docs/arena.md`` "Tournaments": ``--openings``, ``--openings-order``), and candidate
positions for such a file (``random_positions``).

Below both the tournament (which schedules the series) and the store (which reads it back for
stores written before they kept each series' start: ``arena.results.reading.load_series_start``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum

from arena.errors import ConfigError
from arena.games import Dynamics, Game
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


def check_opening_plies(game: Game, plies: int) -> None:
    """Refuse a number of random opening plies (``--opening-plies``) that no game of ``game``
    can play. A random opening is at most ``plies`` (as cutechess-cli's ``plies=N`` of a book
    line): it stops before a move that would end the game (``arena.referee.random_opening``),
    which the run then says in one line; what no game can play at all is refused here.

    Raises:
        ConfigError: ``plies`` > 0 in a game whose seats move at once (it has no random
            opening plies), or ``plies`` at or past the game's ply limit (``max_plies``): no
            ply would be left for the bots.
    """
    if plies <= 0:
        return
    if game.type.dynamics == Dynamics.SIMULTANEOUS:
        raise ConfigError(f"--opening-plies {plies}: {game.name} has no random opening plies (its seats move at "
                          "once); accepted: 0 (start positions: --openings FILE)")
    limit = getattr(game, "max_plies", None)
    if isinstance(limit, int) and plies >= limit:
        raise ConfigError(f"--opening-plies {plies} is more than {game.name} can play: its games end at "
                          f"max_plies={limit}; accepted: 0 to {limit - 1} (fewer where a random move would end "
                          "the game sooner)")


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
