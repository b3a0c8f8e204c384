"""Game-clock figures: the built-in search bots manage a clock without losing on time.

Every built-in search bot (alphabeta, mcts, paranoid, maxn, brs) in a round-robin on
Interaction at ``--tc 2+0.05`` (2 s a game each, 0.05 s added after each move), 100 games on
2 workers (quick: 20), at the default ``--time-margin`` (0.5 s). The bots budget each move from
their clock (``bots.clock.Clock.budget``); the figure is the games lost by ``timeout`` (goal 0),
with the lowest clock any move left in its note (``docs/tournaments.md`` "Game clocks").
"""

from __future__ import annotations

import tempfile
import time

from arena.bench import Figure
from arena.tournament import build, run_tournament

#: the built-in search bots, each budgeting from its clock
FIELD = ("alphabeta", "mcts", "paranoid", "maxn", "brs")
TC = "2+0.05"


def clock_run(games: int, workers: int = 2) -> dict[str, float]:
    """A round-robin of ``FIELD`` at ``TC`` with about ``games`` games in all on ``workers``:
    ``games``, ``timeouts`` (games lost on time), ``lowest`` (the fewest seconds any move left
    on its clock), ``seconds`` (wall clock)."""
    from arena.results.store import load_games, load_moves  # pandas: imported on use

    pairings = len(FIELD) * (len(FIELD) - 1) // 2
    per = max(2, round(games / pairings))
    with tempfile.TemporaryDirectory() as tmp:
        cfg = build({"game": "interaction", "bots": list(FIELD), "games": per, "workers": workers, "tc": TC,
                     "results": tmp})
        start = time.perf_counter()
        summary = run_tournament(cfg)
        seconds = time.perf_counter() - start
        stored = load_games(summary.path)
        moves = load_moves(summary.path)
    return {"games": float(len(stored)), "timeouts": float((stored["termination"] == "timeout").sum()),
            "lowest": float(moves["clock"].min()), "seconds": seconds}


def run(quick: bool) -> list[Figure]:
    out = clock_run(20 if quick else 100)
    note = (f"{out['games']:.0f} games of {', '.join(FIELD)} on Interaction, 2 workers, --tc {TC}, margin 0.5 s; "
            f"lowest clock after a move {out['lowest']:.2f} s; {out['seconds']:.0f} s wall clock")
    return [Figure("clock", f"games lost on time by the built-in bots at --tc {TC}", out["timeouts"], "games", "≤ 0",
                   note)]
