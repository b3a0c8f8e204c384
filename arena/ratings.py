"""TrueSkill ratings over stored games (``spec/arena.md`` "Ratings and reports").

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

import pandas as pd
import trueskill

from arena.errors import ResultsError

#: The draw probability of the default environment (see the module docstring).
DRAW_PROBABILITY = 0.10
#: The default dynamics factor (see the module docstring).
TAU = 0.0
#: The leaderboard's sort key, stated under the table.
SORT_KEY = "sorted by mu - 3 sigma (conservative rating), then label"

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
    return pd.DataFrame(history, columns=["game_id", *RATING_COLUMNS])


def _replay(games, env, labels, history):
    """Update ratings game by game; append (game_id, label, mu, sigma, conservative, games)
    rows to ``history`` when given. Returns (ratings, games rated) by label."""
    ratings: dict[str, trueskill.Rating] = {}
    counts: dict[str, int] = {}
    for label in labels or []:
        ratings.setdefault(label, env.create_rating())
        counts.setdefault(label, 0)
    for game_id, seats, ranks in _ordered(games):
        for label in seats:
            ratings.setdefault(label, env.create_rating())
            counts.setdefault(label, 0)
        if len(seats) < 2:
            continue
        groups = [(ratings[label],) for label in seats]
        updated = env.rate(groups, ranks=[r - 1 for r in ranks])
        for label, (rating,) in zip(seats, updated):
            ratings[label] = rating
            counts[label] += 1
            if history is not None:
                history.append((game_id, label, rating.mu, rating.sigma, conservative(rating),
                                counts[label]))
    return ratings, counts


def _ordered(games: pd.DataFrame):
    """``(game_id, seats, ranks)`` of each game in ``game_id`` order."""
    if games.empty:
        return
    for row in games.sort_values("game_id", kind="stable").itertuples(index=False):
        seats = [str(s) for s in row.seats]
        ranks = [int(r) for r in row.ranks]
        if len(seats) != len(ranks):
            raise ResultsError(
                f"game {row.game_id}: {len(seats)} seats but {len(ranks)} ranks; "
                "every seat needs one rank"
            )
        yield int(row.game_id), seats, ranks
