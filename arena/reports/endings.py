"""How games ended, as report tables (split from ``arena.reports.tables``): the terminations,
cutechess-cli's per-bot summary of wins, losses and draws by ending, and the faults with the
bot blamed. Inputs are the ``games`` frame of ``arena.results`` (see ``arena.reports.tables``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from arena.referee.play import last_frame
from arena.reports.coded import codes


def terminations(games: pd.DataFrame) -> pd.DataFrame:
    """How games ended: ``termination``, ``games``, ``share`` (fraction), ``fault`` (whether
    the reason is a bot's fault), most frequent first."""
    counts = games["termination"].value_counts()
    faulty = games.loc[games["fault_seat"].notna(), "termination"].unique()
    table = pd.DataFrame({"termination": counts.index, "games": counts.to_numpy()})
    table["share"] = table["games"] / max(len(games), 1)
    table["fault"] = table["termination"].isin(faulty)
    return table


#: the results of a bot in one game, in the order the per-bot summary lists them
RESULTS = ("win", "loss", "draw")  # cutechess-cli's and fastchess's order: W-L-D


def terminations_by_bot(games: pd.DataFrame, order: Sequence[str]) -> pd.DataFrame:
    """How each bot's games ended, as cutechess-cli sums them up at the end of a run: ``bot``,
    ``result`` (``win``: first alone, ``draw``: first shared, ``loss``: below first),
    ``termination`` (the game's: its rule ending, a fault such as ``timeout``, or
    ``adjudicated`` / ``adjudicated_draw``) and ``games``; bots in ``order`` (others after),
    then wins, losses, draws (``RESULTS``), the most frequent ending first. Every stored game counts."""
    columns = ["bot", "result", "termination", "games"]
    if not len(games):
        return pd.DataFrame(columns=columns)
    sc, seat_lists = codes(games, "seats")
    rc, rank_lists = codes(games, "ranks")
    tc, terms = pd.factorize(games["termination"].to_numpy(dtype=object))
    terms = [str(t) for t in terms]
    # one integer key per (seats, ranks, termination) class, counted by bincount (a million games:
    # milliseconds, where numpy's unique over rows sorted them for a second)
    size = (len(seat_lists), len(rank_lists), len(terms))
    key = (np.asarray(sc, np.int64) * size[1] + np.asarray(rc, np.int64)) * size[2] + tc
    counts = np.bincount(key)
    found = np.flatnonzero(counts)
    s_of, rest = np.divmod(found, size[1] * size[2])
    r_of, t_of = np.divmod(rest, size[2])
    tally: dict[tuple[str, str, str], int] = {}
    for s, r, t, n in zip(s_of.tolist(), r_of.tolist(), t_of.tolist(), counts[found].tolist()):
        ranks = [int(x) for x in rank_lists[r]]
        firsts = ranks.count(1)
        for label, rank in zip(seat_lists[s], ranks):
            result = "win" if rank == 1 and firsts == 1 else "draw" if rank == 1 else "loss"
            key = (str(label), result, str(terms[t]))
            tally[key] = tally.get(key, 0) + n
    place = {label: i for i, label in enumerate(order)}
    rows = sorted(tally.items(), key=lambda kv: (place.get(kv[0][0], len(place)), kv[0][0], RESULTS.index(kv[0][1]),
                                                 -kv[1], kv[0][2]))
    return pd.DataFrame([(b, r, t, n) for (b, r, t), n in rows], columns=columns)


def _brief(detail: str) -> str:
    """A stored fault detail in one line: its first line, and for an ``exception`` with a
    traceback the traceback's last frame (the bot's file and line)."""
    where = last_frame(detail)
    return detail.splitlines()[0] + (f" ({where})" if where else "") if detail else ""


def faults(games: pd.DataFrame) -> pd.DataFrame:
    """Every game lost by a fault, with the bot blamed: ``game_id``, ``bot`` (label at
    ``fault_seat``), ``seat``, ``termination`` (exception, illegal_move, bad_move, timeout,
    crash, ...), ``plies`` and ``detail`` (the store's ``fault_detail`` when it has one: its first
    line, and a traceback's last frame)."""
    bad = games[games["fault_seat"].notna()].sort_values("game_id")
    rows = []
    for g in bad.itertuples(index=False):
        seat = int(g.fault_seat)
        detail = getattr(g, "fault_detail", None)
        rows.append({
            "game_id": g.game_id,
            "bot": g.seats[seat] if 0 <= seat < len(g.seats) else "?",
            "seat": seat,
            "termination": g.termination,
            "plies": g.plies,
            "detail": _brief(detail) if isinstance(detail, str) else "",
        })
    return pd.DataFrame(rows, columns=["game_id", "bot", "seat", "termination", "plies",
                                       "detail"])


def fault_summary(games: pd.DataFrame) -> pd.DataFrame:
    """Faults per bot and reason: ``bot``, ``termination``, ``games``, ``example`` (the first
    game id, to replay it), most faults first."""
    listed = faults(games)
    if listed.empty:
        return pd.DataFrame(columns=["bot", "termination", "games", "example"])
    table = listed.groupby(["bot", "termination"]).agg(
        games=("game_id", "count"), example=("game_id", "min"))
    return table.reset_index().sort_values(["games", "bot"], ascending=[False, True],
                                           ignore_index=True)
