"""The results table of a one-player game (Solo Interaction played in ``arena run``).

Each game is one bot alone on the same puzzle (no random opening plies by default in a
one-player game), so "first place" says nothing: what tells bots apart is the score each
reached (Solo Interaction: minus the moves used, docs/rules/interaction.md "Solo
Interaction") and how often the puzzle was finished by the rules.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from arena.referee import FAULTS, Termination

#: terminations of a one-player game by its rules that mean the puzzle was not finished
UNFINISHED = ("max_plies", "stalled")
#: terminations made by the referee, not by the game's rules (a bot's fault, a game error, a
#: replay mismatch): the game's outcome carries no score (``arena.referee.records.forfeit``
#: gives 0.0, better than any real Solo Interaction score)
REFEREE = tuple(t.value for t in Termination)


def solo_table(games: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """Per bot over its games: ``games``, ``finished`` (share of games the rules ended with
    the puzzle done: not ``stalled``, not the ply cap, not stopped by the referee),
    ``faults`` (games lost by the bot's fault, ``arena.referee.FAULTS`` with the seat blamed;
    a crash blamed on nobody, e.g. a lost cluster worker, has no score but is no fault), ``mean_score``,
    ``best_score`` and ``worst_score`` over the games the rules ended (NaN when none did: a
    game stopped by the referee has no score) and ``mean_plies``.

    Rows by ``finished`` (a fault or an unfinished puzzle is a failure), then mean score,
    best first, then ``order``. In Solo Interaction a finished game always outscores an
    unfinished one (-(moves) >= -max_plies > -(max_plies + neutrals left)), so the two keys
    agree except on the faults, which the score alone would hide.

    ``games``: the report's games frame (``seats`` and ``scores`` one-element lists,
    ``termination``, ``fault_seat``, ``plies``); a copy of a game counts once.
    """
    if "copy" in games:
        games = games[~games["copy"].astype(bool)]
    stopped = games["termination"].isin(REFEREE).to_numpy()
    frame = pd.DataFrame({
        "bot": [seats[0] for seats in games["seats"]],
        "score": np.where(stopped, np.nan, [float(scores[0]) for scores in games["scores"]]),
        "finished": ~stopped & ~games["termination"].isin(UNFINISHED).to_numpy(),
        "fault": (games["termination"].isin([t.value for t in FAULTS]) & games["fault_seat"].notna()).to_numpy(),
        "plies": games["plies"].to_numpy(),
    })
    table = frame.groupby("bot").agg(games=("bot", "size"), finished=("finished", "mean"), faults=("fault", "sum"),
                                     mean_score=("score", "mean"), best_score=("score", "max"),
                                     worst_score=("score", "min"), mean_plies=("plies", "mean")).reset_index()
    rank = {label: i for i, label in enumerate(order)}
    table["_order"] = table["bot"].map(rank)
    return (table.sort_values(["finished", "mean_score", "_order"], ascending=[False, False, True], na_position="last")
            .drop(columns="_order").reset_index(drop=True))
