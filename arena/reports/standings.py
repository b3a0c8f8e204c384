"""The standings tables of the formats that pair from the results (``docs/tournaments.md``
"Knockout and Swiss"): the knockout bracket and the Swiss table, computed from the stored games
by ``arena.results.standings``, the same functions the schedules played them with."""

from __future__ import annotations

import pandas as pd

from arena.results.records import StoredGame
from arena.results.settings import Settings
from arena.results.standings import champion, default_rounds, knockout, swiss_rounds


def _played(games: pd.DataFrame) -> list[StoredGame]:
    return [StoredGame(int(g), int(s), tuple(seats), tuple(int(r) for r in ranks))
            for g, s, seats, ranks in zip(games["game_id"], games["series"], games["seats"], games["ranks"])]


def round_name(rnd: int, rounds: int) -> str:
    """``final``, ``semi-final``, ``quarter-final``, else ``round N`` (1-based)."""
    left = rounds - rnd
    return {1: "final", 2: "semi-final", 3: "quarter-final"}.get(left, f"round {rnd + 1}")


def knockout_table(games: pd.DataFrame, order: list[str], settings: Settings) -> pd.DataFrame:
    """The bracket, one row per match round by round: ``round``, ``match`` (1-based in its
    round), ``seed`` and ``bot`` (the higher seed), ``opponent``, ``score`` (points over its
    complete series, the higher seed's first), ``games``, ``winner`` and ``decided`` (``games``,
    ``tie-break``: the higher seed after the extra series, ``bye``; empty while undecided). The
    champion's row is last."""
    per_series = settings.per_series
    matches = knockout(order, _played(games), settings.series(), per_series)
    rounds = matches[-1].round + 1 if matches else 0
    seeds = {label: i + 1 for i, label in enumerate(order)}
    rows = [{"round": round_name(m.round, rounds), "match": m.slot + 1,
             "seed": seeds.get(m.a) if m.a else None, "bot": m.a or "?", "opponent": "(bye)" if m.how == "bye"
             else (m.b or "?"), "score": "" if m.how == "bye" else f"{m.points[0]:g}-{m.points[1]:g}",
             "games": m.series * per_series, "winner": m.winner or "", "decided": m.how} for m in matches]
    table = pd.DataFrame(rows, columns=["round", "match", "seed", "bot", "opponent", "score", "games", "winner",
                                        "decided"])
    table["seed"] = table["seed"].astype("Int64")
    winner = champion(matches)
    if winner is not None:
        played = int(table.loc[(table["bot"] == winner) | (table["opponent"] == winner), "games"].sum())
        table.loc[len(table)] = ["champion", 1, seeds.get(winner), winner, "", "", played, winner, ""]
    return table


def swiss_table(games: pd.DataFrame, order: list[str], settings: Settings) -> pd.DataFrame:
    """The Swiss standings after the complete rounds: ``rank``, ``bot``, ``points`` (match
    points: a pairing won 1, drawn 1/2, a bye 1), ``buchholz`` (the sum of the points of the
    bots met), ``game_points``, ``rounds`` (complete), ``byes``, ``opponents`` (in round order)."""
    rounds = settings.rounds or default_rounds(len(order))
    state = swiss_rounds(order, _played(games), rounds, settings.series(), settings.per_series)
    return pd.DataFrame(state.table, columns=["rank", "bot", "points", "buchholz", "game_points", "rounds", "byes",
                                              "opponents"])
