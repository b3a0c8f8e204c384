"""The results table of a one-player game (Solo Interaction played in ``arena run``).

Each game is one bot alone on the same puzzle (no random opening plies by default in a
one-player game), so "first place" says nothing: what tells bots apart is the score each
reached (Solo Interaction: minus the moves used, docs/rules/interaction.md "Solo
Interaction") and how often the puzzle was finished by the rules.
"""

from __future__ import annotations

import pandas as pd

#: terminations of a one-player game that mean the bot did not finish the puzzle
UNFINISHED = ("max_plies", "stalled", "unfinished")


def solo_table(games: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """Per bot over its games: ``games``, ``finished`` (share of games ended by the rules
    other than a fault, ``stalled`` or the ply cap), ``mean_score``, ``best_score``,
    ``worst_score`` and ``mean_plies``; rows by mean score, best first, then ``order``.

    ``games``: the report's games frame (``seats`` and ``scores`` one-element lists,
    ``termination``, ``fault_seat``, ``plies``); a copy of a game counts once.
    """
    if "copy" in games:
        games = games[~games["copy"].astype(bool)]
    frame = pd.DataFrame({
        "bot": [seats[0] for seats in games["seats"]],
        "score": [float(scores[0]) for scores in games["scores"]],
        "finished": (~games["termination"].isin(UNFINISHED) & games["fault_seat"].isna()).to_numpy(),
        "plies": games["plies"].to_numpy(),
    })
    table = frame.groupby("bot").agg(games=("score", "size"), finished=("finished", "mean"),
                                     mean_score=("score", "mean"), best_score=("score", "max"),
                                     worst_score=("score", "min"), mean_plies=("plies", "mean")).reset_index()
    rank = {label: i for i, label in enumerate(order)}
    table["_order"] = table["bot"].map(rank)
    return (table.sort_values(["mean_score", "_order"], ascending=[False, True])
            .drop(columns="_order").reset_index(drop=True))
