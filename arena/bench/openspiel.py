"""OpenSpiel figures (``--only openspiel``): random against random on tic-tac-toe, through the
arena and in a plain pyspiel loop.

Three ways to play the same number of games, one core each:

- a plain pyspiel loop: ``load_game``, then per game ``new_initial_state``, a seeded uniform
  choice among ``legal_actions()`` and ``apply_action`` to the end: what OpenSpiel's users run
  (``evaluate_bots`` without its bots' overhead);
- the arena's match loop ``play_game`` on ``openspiel:tic_tac_toe`` (the adapter's notation
  and immutable states, the referee's checks and private copies);
- ``run_tournament`` on one worker (the pool, the watched child, the referee check, SQLite
  commit per game).

The headline is the ratio of the arena to the plain loop. The runner's overhead per game
(``run_tournament`` less the ``play_game`` loop on the same games) has the runner area's goal
for the arena's own games (``≤ 2`` ms, ``docs/arena.md`` "Quality bars",
``arena.bench.runner``); the adapter's cost per game is ``play_game`` less the plain loop.
Needs OpenSpiel (skipped otherwise: ``arena.cli.bench.OPTIONAL``).
"""

from __future__ import annotations

import os
import random
import tempfile
import time

from arena.bench import Figure
from arena.bench.runner import arena_seconds, loop_seconds
from arena.tournament import build

AREA = "openspiel"
GAME = "openspiel:tic_tac_toe"


def spiel_seconds(games: int, seed: int = 1) -> tuple[float, int]:
    """(wall seconds, plies) of ``games`` seeded random tic-tac-toe games in a plain pyspiel loop."""
    import pyspiel

    start = time.perf_counter()
    game = pyspiel.load_game("tic_tac_toe")
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            plies += 1
    return time.perf_counter() - start, plies


def run(quick: bool) -> list[Figure]:
    n = 200 if quick else 2000
    spiel = min(spiel_seconds(n, seed) for seed in range(3))  # first: without OpenSpiel, skipped here
    cfg = build({"game": GAME, "bots": ["random", "r2=random"], "games": n, "workers": 1,
                 "opening_plies": 0, "results": tempfile.gettempdir()})
    assert cfg.games == n  # one pairing, series of 2 games
    plain = spiel[0]
    loop = min(loop_seconds(cfg)[0] for _ in range(3))
    tour = min(arena_seconds(cfg)[0] for _ in range(3))
    load = os.getloadavg()[0]
    per = 1000 / n
    note = (f"{n} games, best of 3: pyspiel loop {plain * per:.3f} ms/game ({spiel[1] / n:.1f} plies), play_game "
            f"{loop * per:.3f}, arena {tour * per:.3f} ms/game; load average {load:.1f}")
    return [
        Figure(AREA, "plain pyspiel loop, random vs random tic-tac-toe", n / plain, "games/s", "",
               "OpenSpiel alone: legal_actions, a seeded choice, apply_action"),
        Figure(AREA, "arena (run_tournament, 1 worker) over the plain pyspiel loop", tour / plain, "×", "", note),
        Figure(AREA, "runner overhead per game on openspiel:tic_tac_toe (run_tournament less play_game)",
               (tour - loop) * per, "ms/game", "≤ 2", "the runner area's goal for the arena's own games"),
        Figure(AREA, "adapter and referee per game (play_game less the plain pyspiel loop)", (loop - plain) * per,
               "ms/game", "", "move notation, immutable states, the bots' private copies, checks"),
    ]
