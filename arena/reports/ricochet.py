"""Puzzle race statistics (``docs/rules/ricochet.md`` "Report metric"; the games in
``RACE_GAMES``: ``ricochet``, and ``interaction-solo-race`` where a round is a layout and an
answer a Solo Interaction solution such as ``e1N d3SW``).

A round is a simultaneous node: the moves frame holds one row per seat per round (``ply`` =
the round's index, ``move`` = that seat's answer such as ``RN GE RS`` or ``-``, ``status``
= ``won`` / ``valid`` / ``invalid`` / ``none`` / ``late`` / ``crash``). A solution's length
is its number of moves. Its excess is its length minus the round's shortest valid answer;
when an optimal solver took part and answered, the shortest answer is the optimum, so the
excess is then the excess over the optimum.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

#: Games whose rounds are races judged by ``arena.games.race`` (the ``ricochet`` report section).
RACE_GAMES = ("ricochet", "interaction-solo-race")
#: Answer statuses that are solutions (the chip went to the shortest of them).
SOLVED = ("won", "valid")
#: Answer statuses counted separately in the table (no valid answer that round).
FAILED = ("invalid", "none", "late", "crash")

COLUMNS = ["label", "games", "chips", "chips_per_game", "rounds", "rounds_won", "solved",
           "solve_rate", "mean_length", "mean_excess", "mean_seconds", *FAILED]


def answer_length(move: str) -> int:
    """Moves in an answer text (``"RN GE RS"`` -> 3; ``""`` -> 0)."""
    return len(str(move).split())


def rounds(moves: pd.DataFrame) -> pd.DataFrame:
    """The answers of every round: the rows of ``moves`` with a status, plus ``solved``
    (bool), ``length`` (moves of a solution, else NaN) and ``excess`` (length minus the
    round's shortest solution, else NaN)."""
    answers = moves[moves["status"].notna()].copy()
    answers["solved"] = answers["status"].isin(SOLVED)
    answers["length"] = answers["move"].map(answer_length).where(answers["solved"])
    shortest = answers.groupby(["game_id", "ply"])["length"].transform("min")
    answers["excess"] = answers["length"] - shortest
    return answers


def ricochet_table(
    games: pd.DataFrame, moves: pd.DataFrame, order: Sequence[str] | None = None
) -> pd.DataFrame:
    """Per bot: ``games``, ``chips`` (total won), ``chips_per_game``, ``rounds`` answered or
    not, ``rounds_won``, ``solved`` (valid answers, chip or not), ``solve_rate`` (solved /
    rounds), ``mean_length`` and ``mean_excess`` (moves, over its solutions),
    ``mean_seconds`` (answer time per round, seconds) and the count of each failed status
    (``invalid``, ``none``, ``late``, ``crash``)."""
    chips: dict[str, list[float]] = {}
    for g in games.itertuples(index=False):
        for label, score in zip(g.seats, g.scores):
            chips.setdefault(label, []).append(float(score))
    answers = rounds(moves)
    answers = answers[answers["label"].notna()]
    per = answers.groupby("label").agg(
        rounds=("ply", "count"),
        rounds_won=("status", lambda s: int((s == "won").sum())),
        solved=("solved", "sum"),
        mean_length=("length", "mean"),
        mean_excess=("excess", "mean"),
        mean_seconds=("seconds", "mean"),
    )
    for status in FAILED:
        per[status] = answers.groupby("label")["status"].agg(lambda s, st=status: int((s == st).sum()))
    rank = {label: i for i, label in enumerate(order or ())}
    labels = sorted(set(chips) | set(per.index), key=lambda lab: (rank.get(lab, len(rank)), lab))
    rows = []
    for label in labels:
        won = chips.get(label, [])
        row = {"label": label, "games": len(won), "chips": sum(won),
               "chips_per_game": sum(won) / len(won) if won else float("nan")}
        if label in per.index:
            row.update(per.loc[label].to_dict())
        rows.append(row)
    table = pd.DataFrame(rows).reindex(columns=COLUMNS)
    for col in ("rounds", "rounds_won", "solved", *FAILED):
        table[col] = table[col].fillna(0).astype(int)
    table["solve_rate"] = table["solved"] / table["rounds"].where(table["rounds"] > 0)
    return table
