"""``openspiel.cfr``: the average policy of OpenSpiel's own CFR, solved once per game and kept
on disk.

The solver is OpenSpiel's C++ ``CFRPlusSolver`` by default (``solver=cfr+``; ``solver=cfr``:
``CFRSolver``, vanilla CFR). CFR+ (Tammelin 2014: regrets floored at 0, alternating updates,
the average weighted by iteration) converges much faster than vanilla CFR on the same
iterations: on Leduc poker after 200 iterations its average policy is about 0.005 chips from a
Nash equilibrium, vanilla CFR's about 0.05 (exploitability, ``bots.exploitability``), for
1.1-1.6x the time of an iteration (4-5 s for the 200 iterations on Leduc). Each seat plays the
average policy at its view (the view's text is the seat's information-state string), drawing
its move with the bot's seeded generator.

The solved policy is a table ``{seat: {view text: {move: probability}}}``, computed once per
(game string, iterations, solver, OpenSpiel version) and kept as JSON in
``bots.spiel_tree.cache_dir("cfr")`` (``$ARENA_CACHE_DIR/cfr``, else
``~/.cache/arena/cfr``); two workers that need it at once take turns on a lock file, and the
table is written to a temporary file renamed into place, so a reader never sees half a file.
A process keeps the tables it loaded. Solving happens at the first ``reset`` that needs the
table, and that time counts against the first move (``--move-time``): solve first with a game
without a time limit.
"""

from __future__ import annotations

import fcntl
import json
import logging
import time
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.games import Dynamics, Game, Param, State
from arena.games.openspiel import OpenSpielGame, OpenSpielState, pyspiel
from arena.games.views import View
from bots.base import Bot, Limits, Plays, SearchStats
from bots.spiel_tree import (cache_dir, cache_name, information_states, seat_view, solver_game, tabular_refusal,
                             write_cache)

log = logging.getLogger(__name__)

#: the solvers by their option value: pyspiel's class names
SOLVERS = {"cfr+": "CFRPlusSolver", "cfr": "CFRSolver"}
#: a solved policy: per 0-based seat, view text -> move -> probability
Table = list[dict[str, dict[str, float]]]
#: the layout of the cached files (a new layout is a new file name)
FORMAT = 1
#: tables loaded or solved in this process, by cache file name
_TABLES: dict[str, Table] = {}


class TabularPlays(Plays):
    """``Plays`` of a bot that walks the whole game tree: an OpenSpiel game with
    information-state strings and at most ``bots.spiel_tree.MAX_HISTORIES`` histories."""

    def refusal(self, game: Game) -> str | None:
        return super().refusal(game) or tabular_refusal(game)


def solved_policy(game: OpenSpielGame, iterations: int, solver: str = "cfr+") -> Table:
    """The average policy of ``iterations`` iterations of OpenSpiel's ``solver`` (``SOLVERS``) on
    ``game``: from this process's tables, else the disk cache, else solved now and cached.

    Raises:
        ConfigError: ``game`` is one a tabular method refuses, or ``solver`` is not in ``SOLVERS``.
    """
    if solver not in SOLVERS:
        raise ConfigError(f"bot openspiel.cfr: solver={solver!r} is not accepted; accepted: {', '.join(SOLVERS)}")
    why = tabular_refusal(game)
    if why is not None:
        raise ConfigError(f"openspiel.cfr {why}")
    name = cache_name("cfr", FORMAT, game.game_string, solver, iterations)
    table = _TABLES.get(name)
    if table is None:
        table = _TABLES[name] = _cached(cache_dir("cfr") / f"{name}.json", game, iterations, solver)
    return table


def _cached(path: Path, game: OpenSpielGame, iterations: int, solver: str) -> Table:
    """The table in ``path``, or solved and written there under a lock (``_solve``); solved and
    kept in memory only when the folder cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(path.with_suffix(".lock"), "a")
    except OSError as exc:
        log.warning("openspiel.cfr: no disk cache (%s); solving %s in memory", exc, game.game_string)
        return _solve(game, iterations, solver)
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker solving the same game: wait for its file
        table = _read(path)
        if table is None:
            table = _solve(game, iterations, solver)
            write_cache(path, {"game": game.game_string, "solver": solver, "iterations": iterations,
                          "format": FORMAT, "policy": table})
    return table


def _read(path: Path) -> Table | None:
    """The table of a cache file, or ``None`` when it is missing or unreadable (solved again)."""
    try:
        with open(path) as f:
            return json.load(f)["policy"]
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("openspiel.cfr: unreadable cache file %s (%s); solving again", path, exc)
        return None


def _solve(game: OpenSpielGame, iterations: int, solver: str) -> Table:
    """Run the solver and read its average policy at every information state of every seat."""
    start = time.perf_counter()
    cfr = getattr(pyspiel(), SOLVERS[solver])(solver_game(game))
    for _ in range(iterations):
        cfr.evaluate_and_update_policy()
    average = cfr.tabular_average_policy().policy_table()
    table: Table = [{} for _ in range(game.num_players)]
    for info in information_states(game):
        probability = dict(average[info.key])
        text = info.view().text
        moves = {move: float(probability.get(action, 0.0)) for move, action in info.actions.items()}
        seen = table[info.seat].setdefault(text, moves)
        if seen != moves:
            raise ValueError(f"{game.name}: the view text {text[:60]!r} of seat {info.seat} stands for two "
                             "information states; the solved policy cannot be played from views")
    log.info("openspiel.cfr: %s, %d iterations of %s in %.1f s", game.game_string, iterations, solver,
             time.perf_counter() - start)
    return table


class CfrBot(Bot):
    """Plays the average policy OpenSpiel's CFR+ (or CFR) solved for the game (the module doc);
    ``policy(view)`` gives it. Reproducible from the seed given to ``reset``.

    Raises (``reset``):
        ConfigError: the game is no OpenSpiel game, has no information-state strings, or is too
            big for a table (``TabularPlays``).
    """

    name = "openspiel.cfr"
    summary = "the average policy of OpenSpiel's CFR+ (solved once per game, cached on disk)"
    PARAMS = {
        "iterations": Param(200, "iterations of the solver (the table is solved once and cached on disk)",
                            kind=int, minimum=1),
        "solver": Param("cfr+", "OpenSpiel's solver: cfr+ (CFRPlusSolver) or cfr (CFRSolver)",
                        choices=tuple(SOLVERS)),
    }
    PLAYS = TabularPlays(dynamics=frozenset(Dynamics), hidden_information=True)

    def reset(self, game: Game, seat: int, seed: int) -> None:
        super().reset(game, seat, seed)
        assert isinstance(game, OpenSpielGame)  # TabularPlays refused any other
        self._table = solved_policy(game, self.options["iterations"], self.options["solver"])

    def policy(self, view: State | View) -> dict[str, float]:
        """The solved probability of each of the view's moves (``{}`` where the seat has none).

        Raises:
            RuntimeError: ``reset`` was not called, or the view is not one of the solved game's.
        """
        if self.game is None:
            raise RuntimeError(f"{self.name}: reset(game, seat, seed) must be called before policy")
        if not isinstance(view, View):  # a game of perfect information: the state is the view
            assert isinstance(view, OpenSpielState)  # TabularPlays refused any other game
            view = seat_view(view, self.seat)
        moves, text, seat = view.moves, view.text, view.seat
        if not moves:
            return {}
        found = self._table[seat].get(text)
        if found is None or set(found) != set(moves):
            raise RuntimeError(f"{self.name}: no solved policy for seat {seat}'s view {text[:80]!r} "
                               f"with moves {', '.join(map(str, moves))}")
        return dict(found)

    def choose(self, state: State | View, limits: Limits | None = None) -> Any:
        start = time.perf_counter()
        probabilities = self.policy(state)
        self.last_stats = SearchStats(0, 0, time.perf_counter() - start, None)
        if not probabilities:
            return None
        moves = list(probabilities)
        return self.rng.choices(moves, [probabilities[m] for m in moves])[0]
