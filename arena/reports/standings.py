"""The standings tables of the formats that pair from the results (``docs/tournaments.md``
"Knockout and Swiss"): the knockout bracket and the Swiss table, computed from the stored games
by ``arena.results.standings``, the same functions the schedules played them with."""

from __future__ import annotations

import math

import pandas as pd

from arena.results.standings import Played, champion, default_rounds, knockout, swiss_rounds

#: games per series of a two-player pairing, by seat rotation (cyclic and all: 2)
PER_SERIES = 2


def _played(games: pd.DataFrame) -> list[Played]:
    return [Played(int(g), int(s), tuple(seats), tuple(int(r) for r in ranks))
            for g, s, seats, ranks in zip(games["game_id"], games["series"], games["seats"], games["ranks"])]


def _base(settings: dict) -> int:
    """Series per pairing of the stored settings (``--games`` rounded up to whole series)."""
    return max(1, math.ceil(int(settings.get("games", PER_SERIES)) / PER_SERIES))


def round_name(rnd: int, rounds: int) -> str:
    """``final``, ``semi-final``, ``quarter-final``, else ``round N`` (1-based)."""
    left = rounds - rnd
    return {1: "final", 2: "semi-final", 3: "quarter-final"}.get(left, f"round {rnd + 1}")


def knockout_table(games: pd.DataFrame, order: list[str], settings: dict) -> pd.DataFrame:
    """The bracket, one row per match round by round: ``round``, ``match`` (1-based in its
    round), ``seed`` and ``bot`` (the higher seed), ``opponent``, ``score`` (points over its
    complete series, the higher seed's first), ``games``, ``winner`` and ``decided`` (``games``,
    ``tie-break``: the higher seed after the extra series, ``bye``; empty while undecided). The
    champion's row is last."""
    matches = knockout(order, _played(games), _base(settings), PER_SERIES)
    rounds = matches[-1].round + 1 if matches else 0
    seeds = {label: i + 1 for i, label in enumerate(order)}
    rows = [{"round": round_name(m.round, rounds), "match": m.slot + 1,
             "seed": seeds.get(m.a) if m.a else None, "bot": m.a or "?", "opponent": "(bye)" if m.how == "bye"
             else (m.b or "?"), "score": "" if m.how == "bye" else f"{m.points[0]:g}-{m.points[1]:g}",
             "games": m.series * PER_SERIES, "winner": m.winner or "", "decided": m.how} for m in matches]
    table = pd.DataFrame(rows, columns=["round", "match", "seed", "bot", "opponent", "score", "games", "winner",
                                        "decided"])
    table["seed"] = table["seed"].astype("Int64")
    winner = champion(matches)
    if winner is not None:
        played = int(table.loc[(table["bot"] == winner) | (table["opponent"] == winner), "games"].sum())
        table.loc[len(table)] = ["champion", 1, seeds.get(winner), winner, "", "", played, winner, ""]
    return table


def swiss_table(games: pd.DataFrame, order: list[str], settings: dict) -> pd.DataFrame:
    """The Swiss standings after the complete rounds: ``rank``, ``bot``, ``points`` (match
    points: a pairing won 1, drawn 1/2, a bye 1), ``buchholz`` (the sum of the points of the
    bots met), ``game_points``, ``rounds`` (complete), ``byes``, ``opponents`` (in round order)."""
    rounds = settings.get("rounds") or default_rounds(len(order))
    state = swiss_rounds(order, _played(games), int(rounds), _base(settings), PER_SERIES)
    return pd.DataFrame(state.table, columns=["rank", "bot", "points", "buchholz", "game_points", "rounds", "byes",
                                              "opponents"])
