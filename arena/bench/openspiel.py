"""OpenSpiel figures (``--only openspiel``): random against random, through the arena and in a
plain pyspiel loop, on tic-tac-toe (perfect information) and on Kuhn poker (hidden
information and chance: each bot is handed only its seat's view).

Three ways to play the same number of games, one core each:

- a plain pyspiel loop: ``load_game``, then per game ``new_initial_state``, a seeded uniform
  choice among ``legal_actions()`` (at a chance node an outcome drawn by its probability from
  ``chance_outcomes()``) and ``apply_action`` to the end: what OpenSpiel's users run
  (``evaluate_bots`` without its bots' overhead);
- the arena's match loop ``play_game`` (the adapter's notation and immutable states, the
  referee's checks and private copies; in Kuhn poker each bot handed its seat's ``View``:
  OpenSpiel's information-state string, the seat's moves, a sampler, bound to the seat's own
  game copy);
- ``run_tournament`` on one worker (the pool, the watched child, the referee check, SQLite
  commit per game).

Tic-tac-toe: CPU time (every process of the arena's), the three interleaved, best of 3; the
headline is the ratio of the arena to the plain loop (goal ≤ 15×). The runner's overhead per
game is ``run_tournament`` less the ``play_game`` loop on the same games (``arena.bench.runner``);
the adapter's cost per game is ``play_game`` less the plain loop.

Kuhn poker: CPU time (steadier than wall clock on a shared machine; the arena's counts every
process: the runner, its worker and watchdog), the three interleaved, best of 3: games per CPU
second of each, and the ratios of ``play_game`` and of the arena to the plain loop, measured
in the same run. The ``play_game`` loop is planned beforehand (the schedule's seeds are not
timed); a fresh bot per seat per game, as a worker makes them.
Needs OpenSpiel (skipped otherwise: ``arena.cli.bench.OPTIONAL``).
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import arena.games
from arena.bench import Figure
from arena.bench.runner import arena_seconds, loop_seconds, worker_settings
from arena.referee import play_game
from arena.tournament import build, plan
from arena.tournament.worker import bot_factories

if TYPE_CHECKING:
    from arena.tournament.config import TournamentConfig

AREA = "openspiel"
GAME = "openspiel:tic_tac_toe"
#: the game with hidden information and chance
POKER = "openspiel:kuhn_poker"


def spiel_times(games: int, seed: int = 1, name: str = "tic_tac_toe") -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, plies) of ``games`` seeded random games of OpenSpiel's
    ``name`` in a plain pyspiel loop: a uniform choice among the legal actions, at a chance
    node an outcome by its probability (plies: every action applied, chance outcomes too)."""
    import pyspiel

    start, cpu = time.perf_counter(), time.process_time()
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                u, action = rng.random(), outcomes[-1][0]
                for a, p in outcomes:
                    u -= p
                    if u < 0:
                        action = a
                        break
            else:
                actions = state.legal_actions()
                action = actions[rng.randrange(len(actions))]
            state.apply_action(action)
            plies += 1
    return time.perf_counter() - start, time.process_time() - cpu, plies


def spiel_seconds(games: int, seed: int = 1, name: str = "tic_tac_toe") -> tuple[float, int]:
    """(wall seconds, plies) of ``spiel_times``."""
    wall, _, plies = spiel_times(games, seed, name)
    return wall, plies


def referee_times(cfg) -> tuple[float, float]:
    """(wall, CPU) seconds of the tournament ``cfg`` 's games through ``play_game`` in this
    process, planned beforehand; a fresh bot per seat per game."""
    p = plan(cfg)
    game = arena.games.make(cfg.game, **cfg.params)
    factories = bot_factories(p.specs)
    start, cpu = time.perf_counter(), time.process_time()
    for t in p.tasks:  # as a worker plays them (built-in bots: trusted, no private copies)
        play_game(worker_settings(game, t, p.specs), [factories[label]() for label in t.seats])
    return time.perf_counter() - start, time.process_time() - cpu


def _pairing(game: str, n: int) -> TournamentConfig:
    """One pairing of two random bots playing ``n`` games (series of 2), no opening plies."""
    cfg = build({"game": game, "bots": ["random", "r2=random"], "games": n, "workers": 1,
                 "opening_plies": 0, "results": tempfile.gettempdir()})
    assert cfg.games == n  # one pairing, series of 2 games
    return cfg


Runs = tuple[list[list[Any]], list[float], list[float]]


def _interleaved(n: int, *measures: Callable[[int], tuple[Any, ...]]) -> Runs:
    """Each measure (of a seed: wall and CPU seconds first) run for seeds 0, 1, 2, interleaved, so
    that other load on the machine slows each alike: the runs of each, the least CPU seconds of
    each, and the least wall clock of each in ms a game (``n`` games a run)."""
    runs: list[list[Any]] = [[] for _ in measures]
    for seed in range(3):
        for out, measure in zip(runs, measures):
            out.append(measure(seed))
    return (runs, [min(c for _, c, *_ in r) for r in runs], [min(w for w, *_ in r) * 1000 / n for r in runs])


def poker(n: int) -> list[Figure]:
    """Kuhn poker's figures: ``n`` games each way, interleaved, best of 3 (the module doc)."""
    cfg = _pairing(POKER, n)
    (spiels, _, _), (plain, ref, tour), walls = _interleaved(
        n, lambda seed: spiel_times(n, seed, "kuhn_poker"), lambda seed: referee_times(cfg),
        lambda seed: arena_seconds(cfg))
    load = os.getloadavg()[0]
    per = 1000 / n
    cpu = (f"{n} games, best of 3, CPU: pyspiel loop {plain * per:.4f} ms/game ({spiels[0][2] / n:.1f} plies, "
           f"chance included), play_game {ref * per:.3f}, arena {tour * per:.3f} ms/game")
    wall = f"wall clock {walls[0]:.4f}, {walls[1]:.3f}, {walls[2]:.3f} ms/game; load average {load:.1f}"
    return [
        Figure(AREA, "plain pyspiel loop, random vs random kuhn_poker", n / plain, "games/CPU s", "",
               "OpenSpiel alone: chance by probability, a seeded legal action, apply_action"),
        Figure(AREA, "play_game on openspiel:kuhn_poker (each bot handed its seat's view)", n / ref,
               "games/CPU s", "", "the referee in process, bots made per game; " + wall),
        Figure(AREA, "arena (run_tournament, 1 worker) on openspiel:kuhn_poker", n / tour, "games/CPU s", "",
               "every process's CPU: the runner, the worker, the watchdog"),
        Figure(AREA, "play_game over the plain pyspiel loop, kuhn_poker (CPU)", ref / plain, "×", "", cpu),
        Figure(AREA, "arena over the plain pyspiel loop, kuhn_poker (CPU)", tour / plain, "×", "",
               f"arena over play_game {tour / ref:.2f}×; " + wall),
    ]


def tic_tac_toe(n: int) -> list[Figure]:
    """Tic-tac-toe's figures: ``n`` games each way, CPU time (every process of the arena's),
    the three interleaved, best of 3 (the module doc); wall clock in the note."""
    spiel_times(n, 0)  # first: without OpenSpiel, skipped here (and a warm-up)
    cfg = _pairing(GAME, n)
    (spiels, _, _), (plain, loop, tour), walls = _interleaved(
        n, lambda seed: spiel_times(n, seed), lambda seed: loop_seconds(cfg), lambda seed: arena_seconds(cfg))
    load = os.getloadavg()[0]
    per = 1000 / n
    note = (f"{n} games, best of 3, CPU: pyspiel loop {plain * per:.4f} ms/game ({spiels[0][2] / n:.1f} plies), "
            f"play_game {loop * per:.3f}, arena {tour * per:.3f} ms/game; wall clock {walls[0]:.4f}, {walls[1]:.3f}, "
            f"{walls[2]:.3f} ms/game; load average {load:.1f}")
    return [
        Figure(AREA, "plain pyspiel loop, random vs random tic-tac-toe", n / plain, "games/CPU s", "",
               "OpenSpiel alone: legal_actions, a seeded choice, apply_action"),
        Figure(AREA, "arena (run_tournament, 1 worker) over the plain pyspiel loop (CPU)", tour / plain, "×", "≤ 15",
               note),
        Figure(AREA, "runner overhead per game on openspiel:tic_tac_toe (run_tournament less play_game, CPU)",
               (tour - loop) * per, "ms/game", "", "the runner area's figure for the arena's own games"),
        Figure(AREA, "adapter and referee per game (play_game less the plain pyspiel loop, CPU)", (loop - plain) * per,
               "ms/game", "", "move notation, immutable states, checks (built-in bots: no private copies)"),
    ]


def run(quick: bool) -> list[Figure]:
    return [*tic_tac_toe(200 if quick else 2000), *poker(300 if quick else 3000)]
