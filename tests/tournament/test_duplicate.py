"""Duplicate series (issue 42, ``docs/tournaments.md`` "Duplicate series"): in a game with
chance, every game of a series deals the same luck to the same seats, with the bots rotated.

For every game with chance the arena plays (a random setup from the seed, or chance nodes:
OpenSpiel's dice and deals, hidden or not, the test games of ``tests/toy.py`` and
``tests/payoff_toy.py``), a series of two fixed bots (``random`` and a bot that plays the first
legal move) is played through the schedule's own seeds, and for every two games of one series:

- they start from the same position (a random setup is drawn from the series seed);
- their k-th chance nodes draw the same uniform number: the cumulative-probability intervals of
  the outcomes they picked overlap (inverse-transform sampling picks the outcome whose interval
  holds the number), so wherever the play reaches the same chance node (the same outcome list)
  the outcome is the same.

The series of a whole ``run_tournament`` are checked the same way from the stored games.
"""

from __future__ import annotations

from importlib.util import find_spec

import pytest

import arena.games
from arena.games import CHANCE, Game, Payoff
from arena.results.reading import load_moves
from arena.referee import GameHooks, GameSettings, play_game
from arena.results.store import load_games
from arena.tournament import build, run_tournament
from arena.tournament.series import SeriesSettings, series_games
from bots.base import ANY_GAME, Bot
from bots.random import RandomBot
from tests.payoff_toy import DiceDuel, registered
from tests.toy import DiceNim


class FirstMove(Bot):
    """Plays the first legal move of its view (no answer at a simultaneous node without one)."""

    name = "first"
    PLAYS = ANY_GAME

    def choose(self, state, limits):
        moves = state.legal_moves()
        return moves[0] if moves else None


#: parameters that keep a game short here
PARAMS = {"ricochet": {"max_rounds": 2}, "openspiel:bridge": {"use_double_dummy_result": False}}
#: the test games with chance nodes, by name
OWN = {"dice-nim": DiceNim, "dice-duel": DiceDuel}


def _has_chance(cls: type) -> bool:
    return bool(cls.type.chance or cls.type.chance_nodes)


def chance_games() -> list[str]:
    """Every game with chance the arena plays: built in, the test games and OpenSpiel's."""
    found = [name for name in arena.games.names() if _has_chance(arena.games.game_class(name))]
    found += list(OWN)
    if find_spec("pyspiel") is not None:
        found += [name for name in arena.games.family_names("openspiel") if _has_chance(arena.games.game_class(name))]
    return found


def make(name: str) -> Game:
    return OWN[name](**PARAMS.get(name, {})) if name in OWN else arena.games.make(name, **PARAMS.get(name, {}))


def interval(outcomes: list[tuple[object, float]], picked: str) -> tuple[float, float]:
    """The cumulative-probability interval ``[F(before), F(after))`` of the outcome ``picked``."""
    total = 0.0
    for move, p in outcomes:
        if p > 0:
            if str(move) == picked:
                return total, total + p
            total += p
    raise AssertionError(f"{picked!r} is not an outcome of its chance node")


def play_series(game: Game, series: int, seed: int = 7) -> list[tuple[str, list, str]]:
    """``(start text, chance draws, seats)`` of each game of series ``series`` of a pairing of
    ``random`` and ``first`` (more seats: alternately), played with the schedule's seeds; a draw
    is ``(outcomes, picked)``."""
    labels = [("r", "f")[i % 2] + str(i) for i in range(game.num_players)]
    out = []
    for task in series_games(game, labels, series, 1, SeriesSettings(games=game.num_players, seed=seed)):
        start = game.initial_state(task.seed)
        state = start
        draws = []
        for text in task.opening:
            if state.to_move == CHANCE:
                draws.append((state.chance_outcomes(), text))
            state = state.play(game.parse_move(state, text))
        trail = [state]

        def on_ply(after, record, trail=trail, draws=draws):
            if record.seat == CHANCE:
                draws.append((trail[-1].chance_outcomes(), record.move))
            trail.append(after)

        # a game whose first plies are the seats' declared choices, not moves of play
        # (``Game.OPENING_PLIES`` 0: the known game's strengths), shows its luck between equal
        # choices only (a random strength is thousands of Elo above the first legal one, -2000,
        # and the game is then decided): every seat plays the first legal move there
        equal = game.OPENING_PLIES == 0
        bots = [RandomBot() if label[0] == "r" and not equal else FirstMove() for label in task.seats]
        record = play_game(GameSettings(game, task.seed, labels=task.seats, opening=task.opening, seeds=task.seeds),
                           bots, GameHooks(on_ply=on_ply))
        assert record.fault_seat is None, (game.name, record.outcome.termination, record.fault_detail)
        out.append((start.to_text(), draws, " ".join(task.seats)))
    return out


def assert_duplicate(games: list[tuple[str, list, str]], chance_nodes: bool) -> int:
    """Every two games of one series: the same start, the k-th chance node the same number.
    Returns the chance nodes compared."""
    starts = {start for start, _, _ in games}
    assert len(starts) == 1, "the games of a series start from different positions"
    compared = 0
    for k in range(max(len(draws) for _, draws, _ in games)):
        at = [(draws[k], seats) for _, draws, seats in games if k < len(draws)]
        spans = [interval(outcomes, picked) for (outcomes, picked), _ in at]
        low, high = max(s[0] for s in spans), min(s[1] for s in spans)
        assert low < high, f"chance node {k}: the games drew different numbers: {[(p, s) for (_, p), s in at]}"
        for (outcomes, picked), seats in at:
            same = [p for (o, p), _ in at if o == outcomes]
            assert set(same) == {picked}, f"chance node {k} ({seats}): the same node gave {same}"
        compared += len(at) > 1
    if chance_nodes:
        assert compared > 0, "no chance node was reached by two games of the series"
    return compared


@pytest.mark.parametrize("name", chance_games())
def test_every_game_with_chance_plays_duplicate_series(name):
    game = make(name)
    if game.num_players < 2:
        pytest.skip(f"{name} is a one-player game: a series has one seat order, nothing to rotate")
    first = play_series(game, 0)
    assert len({seats for _, _, seats in first}) == game.num_players  # the bots rotated through the seats
    assert_duplicate(first, game.type.chance_nodes)
    # another series deals other luck (the check above can tell two sequences apart); a game
    # whose luck is one draw of a few outcomes (the known test game: 3) may repeat a deal by
    # chance, so up to five series are asked for one that differs
    dealt = (first[0][0], [p for _, p in first[0][1]])
    for series in range(1, 6):
        other = play_series(game, series)
        assert_duplicate(other, game.type.chance_nodes)
        if (other[0][0], [p for _, p in other[0][1]]) != dealt:
            break
    else:
        pytest.fail(f"series 1 to 5 of {name} all dealt the luck of series 0")


def test_a_tournament_stores_duplicate_series(tmp_path):
    with registered():
        assert isinstance(arena.games.make("dice-duel").payoff, Payoff)
        cfg = build({"game": "dice-duel", "bots": ["random", "greedy", "mcts:playouts=8"], "games": 6,
                     "workers": 1, "opening_plies": 0,  # the rolls drawn by the referee, not the opening
                     "results": str(tmp_path)})
        summary = run_tournament(cfg)
    assert summary.stored == summary.total == 18 and not summary.faults
    moves, games = load_moves(summary.path), load_games(summary.path)
    game = DiceDuel()
    compared = 0
    for _, series in games.groupby([games["seats"].map(lambda s: tuple(sorted(s))), "series"]):
        assert len(series) == 2 and series["seed"].nunique() == 1  # one seed a series: one deal
        played = []
        for row in series.itertuples():
            start = state = game.initial_state(int(row.seed))
            draws = []
            for text in moves[moves["game_id"] == row.game_id].sort_values("ply")["move"]:
                if state.to_move == CHANCE:
                    draws.append((state.chance_outcomes(), text))
                state = state.play(game.parse_move(state, text))
            played.append((start.to_text(), draws, " ".join(row.seats)))
        compared += assert_duplicate(played, True)
    assert compared == 2 * 9  # two rolls in each of the 9 series
