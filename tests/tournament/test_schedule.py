import math
import random
from collections import Counter
from itertools import combinations

import pytest

from arena.errors import ConfigError
from arena.results.store import StoredGame, load_games
from arena.tournament import build, run_tournament
from arena.tournament.live import points_of
from arena.tournament.pairing import gauntlet, pairings, round_robin
from arena.tournament.schedule import RoundRobin, Schedule, SprtMatch
from arena.tournament.series import GameTask, SeriesSettings, schedule, seat_orders, series_count, series_games
from tests.toy import Nim


def test_round_robin_and_gauntlet_subsets():
    field = ["a", "b", "c", "d", "e"]
    assert round_robin(field, 2) == [("a", "b"), ("a", "c"), ("a", "d"), ("a", "e"), ("b", "c"), ("b", "d"),
                                     ("b", "e"), ("c", "d"), ("c", "e"), ("d", "e")]
    assert len(round_robin(field, 4)) == 5
    assert gauntlet(field, 2) == [("a", "b"), ("a", "c"), ("a", "d"), ("a", "e")]
    g4 = gauntlet(field, 4)
    assert len(g4) == 4 and all(p[0] == "a" and "a" not in p[1:] for p in g4)


def test_field_smaller_than_game_is_refused():
    with pytest.raises(ConfigError, match="--fill"):
        pairings("round-robin", ["a", "b"], 4)
    with pytest.raises(ConfigError, match="accepted: round-robin, gauntlet, knockout, swiss"):
        pairings("league", ["a", "b"], 2)
    with pytest.raises(ConfigError, match="no fixed pairings"):
        pairings("swiss", ["a", "b"], 2)


@pytest.mark.parametrize("players,rotation,per_series", [(2, "cyclic", 2), (4, "cyclic", 4), (2, "all", 2),
                                                         (4, "all", 24), (3, "all", 6)])
def test_series_rotate_seats_exactly(players, rotation, per_series):
    game = Nim(pile=30, players=players)
    field = [f"b{i}" for i in range(players + 1)]
    tasks = schedule(game, pairings("round-robin", field, players), games=per_series + 1, seed=7,
                     opening_plies=2, rotation=rotation)
    n_pairings = len(pairings("round-robin", field, players))
    assert series_count(per_series + 1, players, rotation) == 2
    assert len(tasks) == n_pairings * 2 * per_series
    assert [t.game_id for t in tasks] == list(range(1, len(tasks) + 1))
    by_series = {}
    for t in tasks:
        by_series.setdefault((t.pairing, t.series), []).append(t)
    for (pairing, _), games in by_series.items():
        assert len(games) == per_series
        assert len({(t.seed, t.opening) for t in games}) == 1  # one shared start per series
        assert len(games[0].opening) == 2
        seat_counts = Counter((label, t.seats.index(label)) for t in games for label in pairing)
        assert set(seat_counts.values()) == {per_series // players}  # every bot in every seat equally
        assert len(seat_counts) == players * players
        assert len({t.seats for t in games}) == per_series  # all orders distinct
    assert len({t.seed for t in tasks}) == len(by_series)  # different series, different starts


def test_cyclic_orders():
    assert seat_orders(("a", "b", "c")) == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]


def test_schedule_is_deterministic_and_seed_dependent():
    game = Nim(pile=30)
    a = schedule(game, [("x", "y")], 6, seed=1, opening_plies=3)
    assert a == schedule(game, [("x", "y")], 6, seed=1, opening_plies=3)
    assert [t.seed for t in a] != [t.seed for t in schedule(game, [("x", "y")], 6, seed=2, opening_plies=3)]


# --- schedules: a format decides its next games from the stored results (issue 28) ---------



class UntilLeadBy3(Schedule):
    """Each pair plays series after series until one side leads by 3 points at the end of a
    series, at most ``settings.games`` games (whole series). Game ids are laid out as a
    round-robin's: series ``s`` of pair ``i`` starts at ``1 + (s * pairs + i) * per_series``."""

    def __init__(self, game, labels, settings: SeriesSettings) -> None:
        super().__init__(game, labels, settings)
        self.pairs = list(combinations(self.labels, 2))
        self.per = settings.per_series(2)
        self.cap = math.ceil(settings.games / self.per)  # series per pair
        self.total = len(self.pairs) * self.cap * self.per
        self.lead = {p: 0.0 for p in self.pairs}  # first label's points minus the second's
        self.count = {p: 0 for p in self.pairs}  # games stored
        self.released = {p: 0 for p in self.pairs}  # series released

    def add(self, game: StoredGame) -> None:
        pair = next(p for p in self.pairs if set(p) == set(game.seats))
        self.count[pair] += 1
        self.lead[pair] += points_of(pair[0], game.seats, game.ranks) - points_of(pair[1], game.seats, game.ranks)

    def _wants_more(self, pair) -> bool:
        return abs(self.lead[pair]) < 3 and self.count[pair] < self.cap * self.per

    def next_games(self, limit: int) -> list[GameTask]:
        out: list[GameTask] = []
        for i, pair in enumerate(self.pairs):
            series, partial = divmod(self.count[pair], self.per)
            if partial or self.released[pair] > series or not self._wants_more(pair) or len(out) + self.per > limit:
                continue  # a series in flight, decided, or no room
            out += series_games(self.game, pair, series, 1 + (series * len(self.pairs) + i) * self.per, self.settings)
            self.released[pair] = series + 1
        return out

    @property
    def done(self) -> bool:
        return all(self.count[p] % self.per == 0 and not self._wants_more(p) for p in self.pairs)


def _outcome(task: GameTask) -> StoredGame:
    """A made-up result: ``a`` wins (draws one game id in three); without ``a``, a series
    splits or is drawn (by its seed's parity)."""
    if "a" in task.seats:
        ranks = tuple(1 if label == "a" or task.game_id % 3 == 0 else 2 for label in task.seats)
    else:
        ranks = (1, 1) if task.seed % 2 else (1, 2)
    return StoredGame(task.game_id, task.series, task.seats, ranks)


def _play_out(schedule: Schedule, rng: random.Random, stop_after: int | None = None) -> list[StoredGame]:
    """Drive ``schedule`` as the runner does, results arriving in a shuffled order; stop once
    ``stop_after`` games are stored with none in flight (or when done)."""
    stored, flight = [], []
    while not schedule.done:
        flight += schedule.next_games(5 - len(flight))  # five games in flight at most
        assert flight, "a schedule that is not done releases a game when none is in flight"
        rng.shuffle(flight)
        game = _outcome(flight.pop())
        schedule.add(game)
        stored.append(game)
        if stop_after is not None and len(stored) >= stop_after and not flight:
            break
    return stored


def _replayed(make, stored: list[StoredGame]) -> Schedule:
    schedule = make()
    for game in stored:
        schedule.add(game)
    return schedule


SETTINGS = SeriesSettings(games=12, seed=3, opening_plies=2)
MAKERS = {
    "round-robin": lambda: RoundRobin(Nim(pile=30), ["a", "b", "c"], SETTINGS),
    "sprt": lambda: SprtMatch(Nim(pile=30), ["a", "b"], SeriesSettings(games=100, seed=3), "elo0=0,elo1=200"),
    "lead-by-3": lambda: UntilLeadBy3(Nim(pile=30), ["a", "b", "c"], SETTINGS),
}


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_resume_is_replaying_the_stored_games(name):
    make = MAKERS[name]
    first = make()
    stored = _play_out(first, random.Random(1), stop_after=4)
    again = _replayed(make, list(reversed(stored)))  # any order of the stored games
    assert again.done == first.done
    assert again.next_games(1000) == first.next_games(1000)
    ids = [g.game_id for g in _play_out(make(), random.Random(2))]
    assert len(ids) == len(set(ids)), "no game is released twice"


def test_schedules_finish_as_their_format_says():
    rr = _play_out(MAKERS["round-robin"](), random.Random(0))
    assert sorted(g.game_id for g in rr) == list(range(1, 3 * 12 + 1))
    sprt = MAKERS["sprt"]()
    assert len(_play_out(sprt, random.Random(0))) < 100 and sprt.tally.decided_at is not None
    lead = _play_out(MAKERS["lead-by-3"](), random.Random(0))
    per_pair = Counter(frozenset(g.seats) for g in lead)
    assert 4 <= per_pair[frozenset("ab")] < 12 and 4 <= per_pair[frozenset("ac")] < 12  # "a" pulls ahead
    assert per_pair[frozenset("bc")] == 12  # splits and draws: no lead of 3 before the cap


def test_a_new_format_runs_through_the_real_runner_pool_and_store(tmp_path):
    cfg = build(dict(game="interaction", bots=["greedy", "random", "r2=random"], games=10, workers=2,
                     name="lead", results=str(tmp_path)))
    summary = run_tournament(cfg, schedule=UntilLeadBy3)
    games = load_games(summary.path)
    assert summary.played == summary.stored == len(games) > 0
    for pair, rows in games.groupby(games.seats.map(lambda s: tuple(sorted(s)))):
        assert len(rows) % 2 == 0 and len(rows) <= 10
        points = [points_of(pair[0], s, r) - points_of(pair[1], s, r) for s, r in zip(rows.seats, rows.ranks)]
        leads = [sum(points[:n]) for n in range(2, len(points) + 1, 2)]
        assert all(abs(x) < 3 for x in leads[:-1]), "a decided pair plays no further series"
        assert abs(leads[-1]) >= 3 or len(rows) == 10
    again = run_tournament(cfg, schedule=UntilLeadBy3)
    assert again.played == 0 and again.stored == summary.stored  # resumed: the replay finds it done


class LeadWithItsOwnEnd(UntilLeadBy3):
    """``UntilLeadBy3`` telling the run's end its own way: the runner names no format, so what
    ``arena list`` shows and what the summary carries come from the schedule's hooks."""

    stops_early = True

    def stopped(self) -> str:
        return "lead of 3"

    def finish(self, summary, store) -> None:
        summary.ranking = f"{sum(self.count.values())} games decided the leads"


def test_a_format_of_ones_own_ends_the_run_through_its_own_hooks(tmp_path):
    from arena.results.reading import load_ending

    cfg = build(dict(game="interaction", bots=["greedy", "random"], games=6, workers=1, name="own-end",
                     results=str(tmp_path), params={"max_plies": 20}))
    summary = run_tournament(cfg, schedule=LeadWithItsOwnEnd)
    assert summary.finished and summary.ranking == f"{summary.stored} games decided the leads"
    assert load_ending(summary.path) == {"finished": True, "games": summary.stored, "stopped": "lead of 3"}


def test_the_runner_names_no_format():
    """The run's loop and its plan reach every format through ``Schedule``'s hooks and the one
    factory, ``formats.make_schedule``."""
    import arena.tournament.formats as formats
    import arena.tournament.planning as planning
    import arena.tournament.runner as runner

    concrete = {name for name, value in vars(formats).items()
                if isinstance(value, type) and issubclass(value, Schedule) and value is not Schedule}
    assert {"RoundRobin", "Gauntlet", "SprtMatch", "UntilRanked", "Knockout", "Swiss"} <= concrete
    assert not concrete & (set(vars(runner)) | set(vars(planning)))
