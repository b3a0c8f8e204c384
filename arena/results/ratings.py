"""TrueSkill ratings over stored games (``docs/arena.md`` "Ratings and reports").

Every seat is a team of one; a game's competition ranks (1 = best, ties share a rank) become
TrueSkill's 0-based ranks, so a draw or a shared place is a tie. Games are processed in
``game_id`` order, so the same games always give the same ratings, whatever order they were
finished or stored in.

The environment is explicit (never trueskill's global one): the package defaults
``mu = 25``, ``sigma = 25/3``, ``beta = 25/6`` and ``draw_probability = 0.10``, but the
dynamics factor ``tau = 0`` by default (``docs/statistics.md`` "Ratings of a field"): bots do
not change strength during a run, and with the package's ``tau = 25/300`` σ never falls below
≈0.76 however many games are played, so the order of equal bots is noise. ``arena run --tau``
sets it (stored with the settings). The draw probability is the prior chance that two equally skilled players tie; 0.10
(the package's default) suits the arena's games, where ties are possible but uncommon
(Interaction's ply cap, equal Sandpile totals, equal Ricochet chips) — and it keeps the
package's documented updates as reference values. Pass your own ``env`` to change it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import trueskill

from arena.errors import ResultsError

if TYPE_CHECKING:
    import pandas as pd

#: The draw probability of the default environment (see the module docstring).
DRAW_PROBABILITY = 0.10
#: The default dynamics factor (see the module docstring).
TAU = 0.0
#: The leaderboard's sort key, stated under the table.
SORT_KEY = "sorted by μ-3σ (conservative rating), then label"

RATING_COLUMNS = ["label", "mu", "sigma", "conservative", "games"]


def make_env(draw_probability: float = DRAW_PROBABILITY, tau: float = TAU) -> trueskill.TrueSkill:
    """The TrueSkill environment of reports: package defaults for mu, sigma, beta; explicit
    draw probability and dynamics factor ``tau`` (default 0, see the module docstring)."""
    mu = 25.0
    return trueskill.TrueSkill(
        mu=mu, sigma=mu / 3, beta=mu / 6, tau=float(tau), draw_probability=draw_probability
    )


def conservative(rating: trueskill.Rating) -> float:
    """The conservative rating mu − 3·sigma (about 99.7% sure the skill is higher)."""
    return rating.mu - 3 * rating.sigma


def rate_games(
    games: pd.DataFrame,
    env: trueskill.TrueSkill | None = None,
    labels: list[str] | None = None,
) -> pd.DataFrame:
    """TrueSkill ratings of every bot after all ``games``, updated in ``game_id`` order.

    Args:
        games: the store's games frame (uses ``game_id``, ``seats``, ``ranks``).
        env: the TrueSkill environment; ``make_env()`` when omitted.
        labels: bots to list even without games (e.g. the tournament's field), in order.

    Returns:
        One row per bot: ``label``, ``mu``, ``sigma``, ``conservative`` (mu − 3σ) and
        ``games`` (games rated), sorted by ``conservative`` descending, then label. Games with
        fewer than two seats (one-player Ricochet) do not change ratings and are not counted.

    Raises:
        ResultsError: a game whose ``seats`` and ``ranks`` differ in length.
    """
    ratings, counts = _replay(games, env or make_env(), labels, None)
    rows = [
        (label, r.mu, r.sigma, conservative(r), counts[label]) for label, r in ratings.items()
    ]
    import pandas as pd

    frame = pd.DataFrame(rows, columns=RATING_COLUMNS)
    frame["games"] = frame["games"].astype(int)
    return frame.sort_values(["conservative", "label"], ascending=[False, True], ignore_index=True)


def rating_history(games: pd.DataFrame, env: trueskill.TrueSkill | None = None) -> pd.DataFrame:
    """Each bot's rating after each of its games (rating trajectories), in ``game_id`` order.

    Returns:
        One row per (game, seat): ``game_id``, ``label``, ``mu``, ``sigma``, ``conservative``,
        ``games`` (games rated so far). The last row of each bot equals ``rate_games``.

    Raises:
        ResultsError: a game whose ``seats`` and ``ranks`` differ in length.
    """
    history: list[tuple] = []
    _replay(games, env or make_env(), None, history)
    import pandas as pd

    return pd.DataFrame(history, columns=["game_id", *RATING_COLUMNS])


_SQRT2, _SQRT2PI = math.sqrt(2.0), math.sqrt(2.0 * math.pi)


def update_1vs1(a: tuple[float, float], b: tuple[float, float], result: float, beta: float, tau: float,
                margin: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The TrueSkill update of a two-player game in closed form, on ``(mu, sigma)`` pairs.

    Herbrich, Minka & Graepel 2006, "TrueSkill: A Bayesian Skill Rating System" (two players:
    ``c² = 2β² + σa² + σb²`` after adding τ²; ``v``/``w`` of a win ``V = φ(t−ε)/Φ(t−ε)``,
    ``W = V(V + t − ε)`` and of a draw), exactly what ``trueskill``'s factor graph computes
    for two players, with ``math.erfc`` instead of the package's erfc approximation (they
    agree to ~1e-7). ``result``: 1 if a won, 0.5 for a draw, 0 if b won; ``margin``: the
    package's draw margin ``calc_draw_margin(p, 2)``. About 50× faster than ``env.rate``.
    The arithmetic is ``update_pair``'s, which ``arena.results.rating_kernel`` compiles.
    """
    mu_a, s_a, mu_b, s_b = update_pair(a[0], a[1], b[0], b[1], result, beta, tau, margin)
    return (mu_a, s_a), (mu_b, s_b)


def update_pair(mu_a: float, s_a: float, mu_b: float, s_b: float, result: float, beta: float, tau: float,
                margin: float) -> tuple[float, float, float, float]:
    """``update_1vs1`` on plain floats: ``(mu_a, sigma_a, mu_b, sigma_b)`` after the game.

    Written in the subset of Python numba compiles (no call but ``math``'s; squares as
    products, which numba and CPython round alike, where ``x ** 2`` is the C library's
    ``pow`` in CPython): ``arena.results.rating_kernel`` compiles this very function, so a
    report that rates a million games in the compiled loop gets the same bits as the runner.
    """
    va, vb = s_a * s_a + tau * tau, s_b * s_b + tau * tau
    c = math.sqrt(2 * beta * beta + va + vb)
    eps = margin / c
    if result == 0.5:
        t = (mu_a - mu_b) / c
        at = abs(t)
        hi, lo = eps - at, -eps - at
        p_hi, p_lo = math.exp(-0.5 * hi * hi) / _SQRT2PI, math.exp(-0.5 * lo * lo) / _SQRT2PI
        denom = 0.5 * math.erfc(-hi / _SQRT2) - 0.5 * math.erfc(-lo / _SQRT2)
        if denom > 0:
            v = (p_lo - p_hi) / denom
            w = v * v + (hi * p_hi - lo * p_lo) / denom
        else:  # far tails (the package's limits)
            v, w = (hi if t >= 0 else -hi), 1.0
        v = -v if t < 0 else v
        sign = 1.0
    else:
        sign = 1.0 if result == 1 else -1.0
        x = sign * (mu_a - mu_b) / c - eps
        denom = 0.5 * math.erfc(-x / _SQRT2)
        v = (math.exp(-0.5 * x * x) / _SQRT2PI) / denom if denom > 0 else -x
        w = v * (v + x)
    return (mu_a + sign * va / c * v, math.sqrt(va * (1 - va / (c * c) * w)),
            mu_b - sign * vb / c * v, math.sqrt(vb * (1 - vb / (c * c) * w)))


def rate_one(env: trueskill.TrueSkill, margin: float, ratings: dict[str, tuple[float, float]],
             counts: dict[str, int], game_id: int, seats, ranks) -> list[tuple]:
    """Update ``ratings`` (label -> (mu, sigma)) and ``counts`` (games rated) by one game:
    ``update_1vs1`` for two distinct bots, the package's ``env.rate`` otherwise; a game of
    fewer than two seats changes nothing. ``margin``: ``trueskill.calc_draw_margin(p, 2, env)``.

    Returns:
        the game's history rows ``(game_id, seat, label, mu, sigma, games)``.

    Raises:
        ResultsError: ``seats`` and ``ranks`` differ in length.
    """
    if len(seats) == 2 and len(ranks) == 2 and seats[0] != seats[1] and seats[0] in ratings and seats[1] in ratings:
        return _rate_two(env, margin, ratings, counts, int(game_id), seats[0], seats[1], ranks[0], ranks[1])
    if len(seats) != len(ranks):
        raise ResultsError(f"game {game_id}: {len(seats)} seats but {len(ranks)} ranks; every seat needs one rank")
    for label in seats:
        if label not in ratings:
            ratings[label] = (env.mu, env.sigma)
            counts[label] = 0
    if len(seats) < 2:
        return []
    if len(seats) == 2 and seats[0] != seats[1]:
        result = 1.0 if ranks[0] < ranks[1] else 0.5 if ranks[0] == ranks[1] else 0.0
        updated: Sequence[tuple[float, float]] = update_1vs1(ratings[seats[0]], ratings[seats[1]], result,
                                                             env.beta, env.tau, margin)
    else:
        rated = env.rate([(env.create_rating(*ratings[label]),) for label in seats],
                         ranks=[int(r) - 1 for r in ranks])
        updated = [(r.mu, r.sigma) for (r,) in rated]
    rows = []
    for seat, (label, rating) in enumerate(zip(seats, updated)):
        ratings[label] = rating
        counts[label] += 1
        rows.append((int(game_id), seat, label, rating[0], rating[1], counts[label]))
    return rows


def _rate_two(env: trueskill.TrueSkill, margin: float, ratings: dict[str, tuple[float, float]],
              counts: dict[str, int], game_id: int, a: str, b: str, rank_a: int, rank_b: int) -> list[tuple]:
    """``rate_one`` of a game between two distinct bots already rated (the common case, kept
    short: a report rebuilding a million games' ratings spends its time here)."""
    result = 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0
    new_a, new_b = update_1vs1(ratings[a], ratings[b], result, env.beta, env.tau, margin)
    ratings[a], ratings[b] = new_a, new_b
    n_a, n_b = counts[a] + 1, counts[b] + 1
    counts[a], counts[b] = n_a, n_b
    return [(game_id, 0, a, new_a[0], new_a[1], n_a), (game_id, 1, b, new_b[0], new_b[1], n_b)]


def _replay(games, env, labels, history):
    """Update ratings game by game (``rate_one``); append (game_id, label, mu, sigma,
    conservative, games) rows to ``history`` when given. Returns (ratings, games rated) by
    label."""
    margin = trueskill.calc_draw_margin(env.draw_probability, 2, env)
    ratings: dict[str, tuple[float, float]] = {}
    counts: dict[str, int] = {}
    for label in labels or []:
        ratings.setdefault(label, (env.mu, env.sigma))
        counts.setdefault(label, 0)
    for game_id, seats, ranks in _ordered(games):
        rows = rate_one(env, margin, ratings, counts, game_id, seats, ranks)
        if history is not None:
            history.extend((g, label, mu, sigma, mu - 3 * sigma, n) for g, _, label, mu, sigma, n in rows)
    return {label: trueskill.Rating(*r) for label, r in ratings.items()}, counts


def ratings_frame(ratings: Mapping[str, tuple[float, float]], counts: Mapping[str, int]) -> pd.DataFrame:
    """The ``rate_games`` table of ratings ``label -> (mu, sigma)`` and games rated."""
    rows = [(label, mu, sigma, mu - 3 * sigma, counts[label]) for label, (mu, sigma) in ratings.items()]
    import pandas as pd

    frame = pd.DataFrame(rows, columns=RATING_COLUMNS)
    frame["games"] = frame["games"].astype(int)
    return frame.sort_values(["conservative", "label"], ascending=[False, True], ignore_index=True)


def _ordered(games: pd.DataFrame):
    """``(game_id, seats, ranks)`` of each game in ``game_id`` order."""
    if games.empty:
        return
    ordered = games.sort_values("game_id", kind="stable")
    for game_id, seats, ranks in zip(ordered["game_id"].tolist(), ordered["seats"].tolist(),
                                     ordered["ranks"].tolist()):
        if len(seats) != len(ranks):
            raise ResultsError(
                f"game {game_id}: {len(seats)} seats but {len(ranks)} ranks; "
                "every seat needs one rank"
            )
        yield game_id, seats, ranks
