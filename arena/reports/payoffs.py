"""The payoff tables of a game that ranks by payoff (``arena.games.payoff``; ``docs/statistics.md``
"Payoffs"): each bot's mean payoff per game in the game's unit (and, for poker, in
milli-big-blinds per hand), with 95% intervals that take a series as the unit.

Which games rank by payoff: those whose ``Game.payoff`` is set (OpenSpiel's poker games and its
other zero-sum games that pay more than one unit: ``arena.games.openspiel.payoffs``); every
other game ranks by places. ``rule`` finds it for a stored tournament by making its game.

A seat's payoff in one game: its score (``Outcome.scores``) in a game the rules ended; in a game
lost by a fault, the blamed seat pays the game's ``forfeit`` and the other seats share it (left
out when the game declares none); a game nobody is blamed for that the rules did not end
(``game_error``, ``unfinished``, an adjudication) is left out. Every other stored game counts,
copies within a series too: in a duplicate series the same moves from rotated seats are a
different game.

Tables (``--json`` names), section ``payoffs``: ``payoffs`` — one row per bot, best first:
``label``, ``games`` (counted), ``series``, ``payoff`` with ``payoff_low``..``payoff_high``,
(poker) ``mbb``, ``mbb_low``, ``mbb_high``, ``sd`` (of one game's payoff), ``forfeits`` (games
it lost by a fault, scored with the forfeit), ``left_out`` (its games not counted);
``payoff_seats`` — one row per 0-based seat: ``seat``, ``games``, ``series``, the payoff and
mbb columns. The field table and the pair table of such a game: ``arena.reports.payoff_field``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

import arena.games
from arena.errors import ArenaError, one_line
from arena.games.payoff import Payoff, payoff_of
from arena.referee import Termination
from arena.reports.coded import codes, matrix, seat_sizes
from arena.stats.payoffs import SeriesMeans, series_means

if TYPE_CHECKING:
    from arena.reports.render import ReportData

#: endings the arena decides (faults, adjudications, ``game_error``, ``unfinished``): any other
#: termination is the game's own rule ending
ARENA_ENDINGS = tuple(t.value for t in Termination)
#: the interval columns of a mean, for the game's unit and (poker) milli-big-blinds per hand
PAYOFF_COLUMNS = ("payoff", "payoff_low", "payoff_high")
MBB_COLUMNS = ("mbb", "mbb_low", "mbb_high")

TITLES = {
    "payoffs": "Payoffs: mean per game (poker: mbb per hand), 95% intervals over series",
    "payoff_seats": "Payoffs by seat",
    "payoff_ratings": "Field table by bankroll instant runoff: runoff and mean payoff per game with 95% intervals over "
                      "series, CFS to the next entry",
    "payoff_los": "Likelihood of superiority by payoff head to head (row bot over column bot)",
    "payoff_pairs": "Two-bot statistics per pairing by payoff (a series as the unit)",
}
#: tables of other sections: the table -> its section (``arena.reports.render.PART_OF``)
PART_OF = {"payoff_seats": "payoffs", "payoff_ratings": "ratings", "payoff_los": "ratings",
           "payoff_pairs": "pairs"}


@dataclass(frozen=True)
class PayoffGames:
    """The counted games of a payoff game, one entry per (game, seat).

    Attributes:
        labels: the bots (field order first). seats: the seats per game.
        bot, seat, payoff, game, cluster, stratum: per entry its bot (index into ``labels``),
            0-based seat, payoff, game (0-based index among the counted games), series (a dense
            code of pairing and series) and pairing (a dense code).
        forfeits, left_out: per bot, games lost by its fault (scored with the forfeit) and its
            games not counted.
    """

    labels: tuple[str, ...]
    seats: int
    bot: np.ndarray
    seat: np.ndarray
    payoff: np.ndarray
    game: np.ndarray
    cluster: np.ndarray
    stratum: np.ndarray
    forfeits: np.ndarray
    left_out: np.ndarray


def rule(data: ReportData) -> Payoff | None:
    """The ``Payoff`` of the report's game (its game made from the stored name and parameters,
    once per ``data``), or ``None``: it ranks by places (also when this installation cannot
    make the game: ``ranking_line`` then says so)."""
    if "rule" not in data._payoff:
        found, data._payoff["unknown"] = None, None
        name = data.tournament.get("game")
        if name and data.num_players >= 2:
            try:
                found = payoff_of(arena.games.make(str(name), **(data.tournament.get("params") or {})))
            except ArenaError as exc:
                data._payoff["unknown"] = one_line(exc)
        data._payoff["rule"] = found
    return data._payoff["rule"]


def ranked_by(data: ReportData) -> str:
    """``"payoff"`` or ``"places"``: how the report ranks the bots of its game."""
    return "payoff" if rule(data) is not None else "places"


def ranking_line(data: ReportData) -> str | None:
    """The report's line on a game ranked by payoff, or on a game this installation cannot make
    (ranked by places whatever it is); ``None`` for a game ranked by places."""
    found = rule(data)
    game = data.tournament.get("game", "the game")
    if found is None:
        why = data._payoff.get("unknown")
        return None if why is None else (f"note: ranked by places: {game} cannot be made here, so whether it "
                                         f"ranks by payoff is unknown ({why})")
    return (f"{game} ranks by payoff ({found.describe()}): the field table ranks by bankroll instant runoff, the "
            "pair table by mean payoff per game; the leaderboard, Elo and first-move tables by places.")


def _labels(values: list, order: list[str]) -> tuple[str, ...]:
    rank = {label: i for i, label in enumerate(order)}
    return tuple(sorted({lab for v in values for lab in v}, key=lambda lab: (rank.get(lab, len(rank)), lab)))


def payoff_games(games: pd.DataFrame, payoff: Payoff, order: list[str], seats: int) -> PayoffGames:
    """The counted games of ``games`` (the store's frame) with ``seats`` seats (module doc)."""
    sub = games[seat_sizes(games) == seats]
    sc, sv = codes(sub, "seats")
    pc, pv = codes(sub, "scores")
    labels = _labels(sv, order)
    k = len(labels)
    pos = {lab: i for i, lab in enumerate(labels)}
    bots = np.array([[pos[lab] for lab in v] for v in sv], np.int64).reshape(-1, seats)[sc]
    scores = matrix(pv, seats, float)[pc] if len(pv) else np.zeros((0, seats))
    ruled = ~sub["termination"].astype(str).isin(ARENA_ENDINGS).to_numpy()
    fault = pd.to_numeric(sub["fault_seat"], errors="coerce").to_numpy(float, na_value=np.nan)
    blamed = ~ruled & ~np.isnan(fault)
    values = np.where(ruled[:, None], scores, np.nan)
    forfeits = np.zeros(k, np.int64)
    if payoff.forfeit is not None and blamed.any() and seats > 1:
        rows = np.flatnonzero(blamed)
        at = fault[rows].astype(np.int64)
        values[rows] = payoff.forfeit / (seats - 1)
        values[rows, at] = -payoff.forfeit
        forfeits = np.bincount(bots[rows, at], minlength=k)
    counted = ~np.isnan(values).any(axis=1)
    left_out = np.bincount(bots[~counted].ravel(), minlength=k).astype(np.int64)
    key = np.sort(bots, axis=1) @ (max(k, 1) ** np.arange(seats))[::-1] if len(bots) else np.zeros(0, np.int64)
    pairing = np.unique(key, return_inverse=True)[1].ravel()
    series = sub["series"].to_numpy(np.int64)
    cluster = pd.factorize(pd.MultiIndex.from_arrays([pairing, series]))[0] if len(sub) else pairing
    keep = np.flatnonzero(counted)
    return PayoffGames(labels, seats, bots[keep].ravel(), np.tile(np.arange(seats), len(keep)),
                       values[keep].ravel(), np.repeat(np.arange(len(keep)), seats),
                       np.repeat(cluster[keep], seats), np.repeat(pairing[keep], seats), forfeits, left_out)


def games_of(data: ReportData, payoff: Payoff) -> PayoffGames:
    """``payoff_games`` of the report's games, once per ``data``."""
    if "games" not in data._payoff:
        data._payoff["games"] = payoff_games(data.games, payoff, data.order, data.num_players)
    return data._payoff["games"]


def mean_columns(means: SeriesMeans, payoff: Payoff) -> dict[str, np.ndarray]:
    """``payoff``, ``payoff_low``, ``payoff_high`` and (with a big blind) the same in mbb per hand."""
    out = dict(zip(PAYOFF_COLUMNS, (means.mean, means.low, means.high)))
    if payoff.big_blind is not None:
        out.update(zip(MBB_COLUMNS, (1000.0 * v / payoff.big_blind for v in (means.mean, means.low, means.high))))
    return out


def payoff_tables(data: ReportData, payoff: Payoff) -> dict[str, pd.DataFrame]:
    """The ``payoffs`` section: ``payoffs`` and ``payoff_seats`` (module doc)."""
    g = games_of(data, payoff)
    k = len(g.labels)
    means = series_means(g.payoff, g.bot, g.cluster, groups_count=k)
    played = np.bincount(g.bot, minlength=k)
    sd = pd.Series(g.payoff).groupby(g.bot).std().reindex(range(k)).to_numpy(float)
    bots = pd.DataFrame({"label": list(g.labels), "games": played.astype(np.int64), "series": means.series,
                         **mean_columns(means, payoff), "sd": sd, "forfeits": g.forfeits, "left_out": g.left_out})
    bots = bots.assign(_key=-bots["payoff"].fillna(-math.inf)).sort_values(["_key", "label"], kind="stable")
    seat = series_means(g.payoff, g.seat, g.cluster, groups_count=g.seats)
    seats = pd.DataFrame({"seat": np.arange(g.seats), "games": np.bincount(g.seat, minlength=g.seats),
                          "series": seat.series, **mean_columns(seat, payoff)})
    return {"payoffs": bots.drop(columns="_key").reset_index(drop=True), "payoff_seats": seats}


def notes(data: ReportData, name: str) -> list[str]:
    """The lines under a payoff table (``name``); none for other tables."""
    found = rule(data)
    if found is None or name not in TITLES:
        return []
    unit = found.unit
    mbb = (f" mbb = 1000 × {unit} per hand / big blind ({found.blind or found.big_blind})."
           if found.big_blind is not None else "")
    common = (f"Payoff: mean {unit} per game; 95% t-intervals with a series as the unit (a duplicate series: "
              "the same deal and chance draws for every seat order), cluster-robust over series." + mbb)
    lines = {
        "payoffs": [common, f"Counted: the games the rules ended; {_fault_rule(found)} "
                    "sd: of one game's payoff. See docs/statistics.md \"Payoffs\".",
                    "mark: where a bot's opponents differ widely in strength its interval errs wide (it covered the "
                    "true mean 97.8-98.3% of the time in the coverage bench: the fixed schedule's differences "
                    "between opponents count as noise)."],
        "payoff_seats": [f"Mean {unit} per game of each seat, whoever sat there (a duplicate series puts every "
                         "bot in every seat with the same deal)."],
        "payoff_ratings": [common, "Ranked by bankroll instant runoff (the Annual Computer Poker Competition's): "
                           "round by round, the bot with the lowest mean payoff over the games among the bots still in "
                           "goes out and takes the last free rank. runoff: its mean payoff in the round it went out, "
                           "over the games among the bots left then (the winner: the last round); mean payoff: over "
                           "all its games (total bankroll, which rewards exploiting the weakest bots).",
                           "CFS = the share of bootstrap replicates over series (resampled within each pairing) whose "
                           "runoff ranks the bot above the next one. See docs/statistics.md \"Payoffs\"."],
        "payoff_los": ["Head to head: the share of the bootstrap replicates over series in which the row bot's mean "
                       "payoff over the games where both sat is above the column bot's (ties half; - : never met)."],
        "payoff_pairs": [f"From the first bot's side: payoff = its mean {unit} per game against the opponent; "
                         "diff = its payoff minus the opponent's per game; 95% t-intervals over the pairing's "
                         "series; p: t-test of diff = 0 over series (test sign: the exact sign test over series "
                         "where the t-test is undefined), Holm-adjusted across pairings."],
    }
    return lines[name]


def _fault_rule(found: Payoff) -> str:
    if found.forfeit is None:
        return "games lost by a fault are left out (left_out)."
    return (f"a game lost by a fault costs the faulting seat {found.forfeit:g} {found.unit}, shared by the "
            "others (forfeits).")
