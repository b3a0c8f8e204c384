"""Duplicate-series figure (``--only duplicate``): what dealing the same cards to both seat
orders of a series buys on Leduc poker (``docs/statistics.md`` "Duplicate series").

Two fixed bots, ``rank`` (``RankBot``: a simple fixed strategy that reads its card from its
view) and ``random``, play ``N`` games of ``openspiel:leduc_poker`` through the referee
(``play_game``), in ``N/2`` series of two games with the seats swapped, with the series' seeds
and bot seeds of a tournament (``arena.tournament.series``), twice:

- **duplicate**: as the arena plays them, both games of a series draw their chance nodes from
  the series seed: the same deal for the same seats;
- **independent**: the same series, bots and bot seeds, but each game's chance nodes drawn from
  a seed of its own (``derive_seed(series seed, "deal", index)``): a fresh deal every game.

The figure is the standard error of the mean payoff difference per game (``rank``'s chips minus
``random``'s), estimated the same way in both (a series as the unit: ``arena.stats.payoffs``),
in milli-big-blinds per hand (big blind: Leduc's ante, 1 chip), and the ratio of the two: the
independent games needed for the duplicate's precision are ``1/ratio²`` times as many. The same
ratio for ``rank`` against ``call`` (``CallBot``, a calling station), two deterministic bots: the
deal is then the only noise. The games are seeded: the figures are the same on every run (no
timing).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arena.bench import Figure
from arena.games import Game
from arena.referee import GameSettings, derive_seed, play_game
from arena.stats.payoffs import series_means
from arena.tournament.series import SeriesSettings, series_games
from bots.base import ANY_GAME, Bot
from bots.random import RandomBot

GAME = "openspiel:leduc_poker"
GAMES, QUICK_GAMES = 20_000, 2_000
SEED = 42


class RankBot(Bot):
    """A fixed Leduc strategy from the seat's view (OpenSpiel's information state: ``[Private:
    C]``, ``[Public: C]``, a card's rank ``C // 2``: jack, queen, king): raise with a king or a
    pair with the public card, call with a queen, and with a jack check, or fold to a bet."""

    name = "rank"
    PLAYS = ANY_GAME

    def choose(self, state, limits):
        moves = list(state.legal_moves())
        text = getattr(state, "text", "")
        private = _card(text, "Private")
        public = _card(text, "Public")
        strong = private // 2 == 2 or (public >= 0 and private // 2 == public // 2)
        if strong and "Raise" in moves:
            return "Raise"
        if private // 2 == 0 and "Fold" in moves:
            return "Fold"
        return "Call" if "Call" in moves else moves[0]


class CallBot(Bot):
    """Always calls (checks when nothing is bet): a calling station, deterministic."""

    name = "call"
    PLAYS = ANY_GAME

    def choose(self, state, limits):
        moves = list(state.legal_moves())
        return "Call" if "Call" in moves else moves[0]


#: the bench's bots by label
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "rank": RankBot, "call": CallBot}


def _card(text: str, field: str) -> int:
    """The card of ``[FIELD: C]`` in a Leduc information state, -1 without one."""
    head = f"[{field}: "
    at = text.find(head)
    if at < 0:
        return -1
    word = text[at + len(head):text.find("]", at)]
    return int(word) if word.isdigit() else -1


def play(game: Game, series: int, duplicate: bool, pairing: tuple[str, str] = ("rank", "random"),
         seed: int = SEED) -> np.ndarray:
    """``(series, 2)``: the first bot's payoff minus the second's (``BOTS`` labels) in each game
    of ``series`` series of two games (seats swapped), dealt duplicate or independently (module
    doc)."""
    settings = SeriesSettings(games=2 * series, seed=seed)
    out = np.zeros((series, 2))
    first, second = pairing
    for s in range(series):
        for task in series_games(game, pairing, s, 0, settings):
            deal = task.seed if duplicate else derive_seed(task.seed, "deal", task.index)
            bots: list[Any] = [BOTS[label]() for label in task.seats]  # Player to the referee (typed Any)
            record = play_game(GameSettings(game, deal, labels=task.seats, seeds=task.seeds), bots)
            scores = dict(zip(task.seats, record.outcome.scores))
            out[s, task.index] = scores[first] - scores[second]
    return out


def standard_error(diffs: np.ndarray) -> tuple[float, float]:
    """``(mean, standard error)`` of the payoff difference per game, a series as the unit."""
    n = len(diffs)
    found = series_means(diffs.ravel(), np.zeros(diffs.size, np.int64), np.repeat(np.arange(n), diffs.shape[1]))
    return float(found.mean[0]), float(found.se[0])


def compare(game: Game, games: int, pairing: tuple[str, str]) -> tuple[float, float, float, float]:
    """``(mean, SE)`` duplicate, then ``(mean, SE)`` independent, of ``games`` games each, in chips."""
    dup = standard_error(play(game, games // 2, True, pairing))
    ind = standard_error(play(game, games // 2, False, pairing))
    return (*dup, *ind)


def run(quick: bool) -> list[Figure]:
    import pyspiel  # noqa: F401  (without OpenSpiel the module is skipped: arena.cli.bench.OPTIONAL)

    import arena.games

    games = QUICK_GAMES if quick else GAMES
    game = arena.games.make(GAME)
    big = game.payoff.big_blind if game.payoff is not None and game.payoff.big_blind else 1.0
    mbb = 1000 / big
    dup_mean, dup_se, ind_mean, ind_se = compare(game, games, ("rank", "random"))
    ratio = dup_se / ind_se
    note = (f"{games:,} games each, {games // 2:,} series of 2 (seats swapped), rank vs random, seed {SEED}; "
            f"mean difference duplicate {dup_mean * mbb:+.0f}, independent {ind_mean * mbb:+.0f} mbb/hand")
    both = compare(game, games, ("rank", "call"))
    fixed = both[1] / both[3]
    return [
        Figure("duplicate", "Leduc: SE of the mean payoff difference, duplicate series", dup_se * mbb, "mbb/hand", "",
               note),
        Figure("duplicate", "Leduc: SE of the mean payoff difference, independently dealt", ind_se * mbb,
               "mbb/hand", "", "the same series, bots and bot seeds; a fresh deal every game"),
        Figure("duplicate", "Leduc: duplicate SE / independent SE (rank vs random)", ratio, "×", "< 1",
               f"independent games for the duplicate's precision: {1 / ratio**2:.2f}× as many"),
        Figure("duplicate", "Leduc: duplicate SE / independent SE (rank vs call, both deterministic)", fixed, "×",
               "< 1", f"SE {both[1] * mbb:.0f} against {both[3] * mbb:.0f} mbb/hand: with no bot's randomness "
               f"the deal is all the noise; {1 / fixed**2:.2f}× as many independent games"),
    ]
