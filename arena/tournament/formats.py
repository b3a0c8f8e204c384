"""The formats that pair from the results: ``Knockout`` and ``Swiss`` (``docs/tournaments.md``
"Knockout and Swiss"), each a ``Schedule`` whose bracket or rounds ``arena.results.standings`` computes
from the stored games, so a resumed run plays the same pairings (cutechess-cli's
``knockouttournament.cpp`` is the model of a format as one small class).

Game ids are fixed by each game's place in the format, not by the time it was released: a
knockout match ``i`` (round by round) numbers its games from ``i × ids_per_match + 1`` (room for
its ``base + KNOCKOUT_EXTRA`` series), a Swiss round ``r`` its games from ``r × boards ×
games_per_pairing + 1``. Both formats are for two-player games; every pairing plays whole series
(``arena.tournament.series``), so seats stay balanced.

``make_schedule`` is the one factory of every format: the settings' ``--format``, or the
stopping rule (``--sprt``, ``--until-ranked``) that plays its own schedule, or a format of
one's own (a ``ScheduleFactory``, e.g. a ``Schedule`` subclass).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from arena.errors import ConfigError
from arena.games import Game
from arena.results.standings import (KNOCKOUT_EXTRA, Match, Played, SwissState, champion, default_rounds, knockout,
                                     swiss_rounds)
from arena.results.store import StoredGame
from arena.results.settings import Format
from arena.tournament.adaptive import UntilRanked
from arena.tournament.schedule import Gauntlet, RoundRobin, Schedule, SprtMatch
from arena.tournament.series import GameTask, SeriesSettings, series_count, series_games

if TYPE_CHECKING:
    from arena.tournament.config import TournamentConfig

#: makes a format's schedule from the game, the field's labels and the series settings (a
#: ``Schedule`` subclass is one)
ScheduleFactory = Callable[[Game, Sequence[str], SeriesSettings], Schedule]


class _Paired(Schedule):
    """A two-player format whose pairings come from ``arena.results.standings``: keeps the stored games
    of two bots of the field and releases each pairing's series once, by fixed game ids."""

    def __init__(self, game: Game, labels: Sequence[str], settings: SeriesSettings, what: str) -> None:
        super().__init__(game, labels, settings)
        if game.num_players != 2:
            raise ConfigError(f"--format {what} plays two-player games; {game.name} has {game.num_players} players")
        if len(self.labels) < 2:
            raise ConfigError(f"--format {what} needs at least two bots, got {len(self.labels)}")
        self.per_series = settings.per_series(2)
        self.base = series_count(settings.games, 2, settings.rotation)  # series per pairing
        self.played: list[Played] = []
        self.games: set[tuple[int, tuple[str, ...]]] = set()  # (series, seats) of the games stored or released
        self.ids: set[int] = set()  # ids stored or released (this format's or not)
        self._derived: object | None = None  # the bracket or rounds of ``played``, until the next ``add``

    def add(self, game: StoredGame) -> None:
        self.ids.add(game.game_id)
        self.games.add((game.series, tuple(game.seats)))
        if len(game.seats) == 2 and set(game.seats) <= set(self.labels):
            self.played.append(Played(game.game_id, game.series, tuple(game.seats), tuple(game.ranks)))
            self._derived = None

    def _release(self, pair: tuple[str, str], series: range, first_id: int, out: list[GameTask], limit: int) -> None:
        """Append to ``out`` the games of ``series`` of ``pair`` not stored nor released yet (told
        by their series and seats), up to ``limit`` in all. A game's id is its place in the format
        (from ``first_id``, ``per_series`` a series), or, when a stored game of another bot or
        version holds that id, the next id after every one taken."""
        for s in series:
            for task in series_games(self.game, pair, s, first_id + s * self.per_series, self.settings):
                if len(out) >= limit:
                    return
                key = (task.series, task.seats)
                if key in self.games:
                    continue
                if task.game_id in self.ids:
                    task = replace(task, game_id=max(self.ids) + 1)
                self.games.add(key)
                self.ids.add(task.game_id)
                out.append(task)


class Knockout(_Paired):
    """A seeded single-elimination bracket (``arena.results.standings.knockout``): the field in
    ``--bot`` order is the seeding, byes go to the top seeds, a match is ``--games`` games
    (whole series), a tied match adds a series at a time (at most ``KNOCKOUT_EXTRA``), then
    the higher seed goes through.

    Raises (constructor):
        ConfigError: a game of more than two players, or fewer than two bots.
    """

    def __init__(self, game: Game, labels: Sequence[str], settings: SeriesSettings) -> None:
        super().__init__(game, labels, settings, "knockout")
        self.per_match = (self.base + KNOCKOUT_EXTRA) * self.per_series  # ids kept for each match
        # the games planned: n - 1 matches of ``base`` series (a tie-break series adds to it)
        self.total = (len(self.labels) - 1) * self.base * self.per_series

    def matches(self) -> list[Match]:
        """The bracket as the stored games decide it, round by round (computed once per stored game)."""
        if self._derived is None:
            self._derived = knockout(self.labels, self.played, self.base, self.per_series)
        return self._derived  # type: ignore[return-value]

    def owns(self, game: StoredGame) -> bool:
        pair = set(game.seats)
        return any(m.a is not None and m.b is not None and {m.a, m.b} == pair for m in self.matches())

    def next_games(self, limit: int) -> list[GameTask]:
        out: list[GameTask] = []
        for m in self.matches():
            if m.ready and len(out) < limit:
                assert m.a is not None and m.b is not None
                wanted = range(self.base) if m.series < self.base else range(m.series, m.series + 1)
                self._release((m.a, m.b), wanted, m.index * self.per_match + 1, out, limit)
        return out

    @property
    def done(self) -> bool:
        return champion(self.matches()) is not None

    def status(self) -> str | None:
        matches = self.matches()
        last = max((m.round for m in matches if m.winner is not None and m.how != "bye"), default=-1)
        rounds = matches[-1].round + 1 if matches else 0
        return f"knockout: {last + 1}/{rounds} rounds decided" if matches else None


class Swiss(_Paired):
    """``rounds`` Swiss rounds (``arena.results.standings.swiss_rounds``): paired by match points, no
    repeat pairings, a bye for the lowest-placed bot without one in an odd field; each pairing
    plays ``--games`` games (whole series).

    Raises (constructor):
        ConfigError: a game of more than two players, fewer than two bots, or more rounds than
            the field can pair without a repeat (half the field, rounded down).
    """

    def __init__(self, game: Game, labels: Sequence[str], settings: SeriesSettings, rounds: int | None = None) -> None:
        super().__init__(game, labels, settings, "swiss")
        n = len(self.labels)
        self.rounds = default_rounds(n) if rounds is None else int(rounds)
        if not 1 <= self.rounds <= max(1, n // 2):
            raise ConfigError(f"--rounds {self.rounds}: a Swiss of {n} bots plays 1 to {max(1, n // 2)} rounds (half "
                              "the field: no pairing repeats); use --format round-robin for every pairing")
        self.per_pairing = self.base * self.per_series
        self.per_round = (n // 2) * self.per_pairing
        self.total = self.rounds * self.per_round

    def state(self) -> SwissState:
        """The rounds paired so far and the standings (``arena.results.standings.SwissState``; computed
        once per stored game)."""
        if self._derived is None:
            self._derived = swiss_rounds(self.labels, self.played, self.rounds, self.base, self.per_series)
        return self._derived  # type: ignore[return-value]

    def owns(self, game: StoredGame) -> bool:
        pair = set(game.seats)
        return any(set(p) == pair for r in self.state().rounds for p in r.pairings)

    def next_games(self, limit: int) -> list[GameTask]:
        out: list[GameTask] = []
        state = self.state()
        for r, rnd in enumerate(state.rounds[state.complete:], state.complete):
            for board, pair in enumerate(rnd.pairings):
                self._release(pair, range(self.base), r * self.per_round + board * self.per_pairing + 1, out, limit)
        return out

    @property
    def done(self) -> bool:
        return self.state().complete >= self.rounds

    def status(self) -> str:
        return f"swiss: round {min(self.state().complete + 1, self.rounds)}/{self.rounds}"



def make_schedule(cfg: TournamentConfig, game: Game, labels: Sequence[str], settings: SeriesSettings,
                  factory: ScheduleFactory | None = None) -> Schedule:
    """The schedule of ``cfg`` on the field ``labels`` (field order): ``factory``'s when given (a
    format of one's own, called with the game, the labels and ``settings``), else
    ``UntilRanked`` with ``--until-ranked``, ``SprtMatch`` with ``--sprt``, else the
    ``--format``'s: ``RoundRobin``, ``Gauntlet`` (``--seeds``), ``Knockout`` or ``Swiss``
    (``--rounds``).

    Raises:
        ConfigError: a field or game the format cannot play (as its constructor).
    """
    if factory is not None:
        return factory(game, labels, settings)
    if cfg.until_ranked is not None:
        return UntilRanked(game, labels, settings, cfg.until_ranked)
    if cfg.sprt is not None:
        return SprtMatch(game, labels, settings, cfg.sprt)
    made: dict[Format, Callable[[], Schedule]] = {
        Format.ROUND_ROBIN: lambda: RoundRobin(game, labels, settings),
        Format.GAUNTLET: lambda: Gauntlet(game, labels, settings, cfg.seeds),
        Format.KNOCKOUT: lambda: Knockout(game, labels, settings),
        Format.SWISS: lambda: Swiss(game, labels, settings, cfg.rounds),
    }
    return made[cfg.format]()
