"""A tournament's report data: ``load`` reads a store through ``arena.results`` (its reader
and the incrementally kept rating state) into ``ReportData``, the frames every table is built
from (``arena.reports.render``); ``restrict`` narrows it to some bots."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from arena.errors import ArenaError, ConfigError, ResultsError, one_line
from arena.reports import coded, pairs
from arena.reports.display import display_frame
from arena.reports.order import in_field_order
from arena.reports.ricochet import RACE_GAMES
from arena.results.reader import Results
from arena.results.ratings import make_env, rate_games, rating_history, ratings_frame
from arena.results.records import RatingSnapshot
from arena.results.settings import Settings
from arena.stats import bt


@dataclass
class ReportData:
    """The frames of one tournament, as the store's reader (``arena.results``) gives them.

    Loaded from a store (``load``), ``games`` is ``arena.results.aggregates.load_game_frame`` (coded
    list columns, no per-game ``seconds``) with ``copy`` and ``fault_detail``, ``moves`` holds
    only the answers of puzzle races (rows with a status), ``search`` the per-bot sums of
    ``arena.results.aggregates.search_sums`` and ``rating`` the incrementally kept TrueSkill state
    (``arena.results.snapshot.current``); what is read late (the rating history, a sample
    of games' plies, start positions) comes through ``source`` (``arena.results.reader.Results``).
    Built by hand, ``moves`` is the whole moves frame and the tables are computed from the frames.
    ``settings``: the stored settings, typed (from ``tournament["settings"]`` when not given).
    """

    games: pd.DataFrame
    moves: pd.DataFrame
    tournament: dict = field(default_factory=dict)
    sprt: dict | None = None  # the stored SPRT state (``arena.results.store.load_sprt``)
    path: Path | None = None  # the database, when loaded from one
    search: dict | None = None  # ``arena.results.aggregates.search_sums``
    rating: RatingSnapshot | None = None  # ``arena.results.snapshot.current``
    anchor: tuple[str, float] | None = None  # ``--anchor BOT=ELO`` of the field table (None: mean 0)
    #: the first-move table leaves out the games ended by ``--adjudicate`` (``arena report --no-adjudicated``)
    no_adjudicated: bool = False
    _tables: dict = field(default_factory=dict, repr=False)  # built tables by section set
    _grouped: pd.DataFrame | None = field(default=None, repr=False)
    _fit: bt.BTFit | None = field(default=None, repr=False)
    _shown: dict = field(default_factory=dict, repr=False)  # display cells by (table name, frame)
    _payoff: dict = field(default_factory=dict, repr=False)  # ``arena.reports.payoffs``: the rule, the games
    settings: Settings = field(default=None)  # type: ignore[assignment]  # set in ``__post_init__`` when not given

    def __post_init__(self) -> None:
        if self.settings is None:
            self.settings = Settings.from_stored(self.tournament.get("settings"))

    @property
    def source(self) -> Results | None:
        """The store's reader, when loaded from one."""
        return None if self.path is None else Results(self.path)

    def shown(self, name: str, frame: pd.DataFrame) -> tuple[pd.DataFrame, list[bool]]:
        """``arena.reports.display.display_frame(name, frame)``, computed once per table: the
        console, the Markdown file and the HTML page show the same cells."""
        key = (name, id(frame))
        if key not in self._shown:
            self._shown[key] = (frame, display_frame(name, frame))  # the frame kept: its id stays its own
        return self._shown[key][1]

    def grouped(self) -> pd.DataFrame:
        """``arena.reports.coded.grouped`` of the games (with their ``copy`` flags), built once."""
        if self._grouped is None:
            self._grouped = coded.grouped(self.games)
        return self._grouped

    def bt_fit(self) -> bt.BTFit:
        """The Bradley–Terry fit of every 2-player game (``pairs.bt_fit``), fitted once."""
        if self._fit is None:
            self._fit = pairs.bt_fit(self.grouped(), self.order)
        return self._fit

    @property
    def name(self) -> str:
        return str(self.tournament.get("name") or "tournament")

    @property
    def order(self) -> list[str]:
        """Bot labels in the tournament's order."""
        return list((self.tournament.get("bots") or {}).keys())

    @property
    def num_players(self) -> int:
        if self.tournament.get("num_players"):
            return int(self.tournament["num_players"])
        sizes = coded.seat_sizes(self.games) if len(self.games) else [2]
        return int(pd.Series(sizes).mode().iloc[0])

    def sample(self, ids: list[int]) -> tuple[pd.DataFrame, dict[int, str]]:
        """The stored plies of the games ``ids`` (``arena.results.store.load_moves`` columns) and the
        start position text of their series (series -> text; absent: the seeded initial state).
        Read from the store when loaded from one (the games' moves only), else from ``moves``."""
        if self.source is None:
            return self.moves[self.moves["game_id"].isin(ids)], {}
        series = {int(s) for s in self.games.loc[self.games["game_id"].isin(ids), "series"]}
        return self.source.sample(ids, series)

    def env(self):
        """The TrueSkill environment of the tournament (its stored ``tau``)."""
        return make_env(tau=self.settings.tau)

    def ratings(self) -> pd.DataFrame:
        """The ``arena.results.ratings.rate_games`` table after every stored game."""
        if self.rating is not None:
            return ratings_frame(self.rating.ratings, self.rating.counts)
        return rate_games(self.games, self.env(), labels=self.order)

    def history(self, points: int | None = None) -> pd.DataFrame:
        """``arena.results.ratings.rating_history`` of every stored game (the stored history up to
        the kept prefix, then the games beyond it). ``points``: thin each bot's rows to its first,
        every ``ceil(games / points)``-th game and its last (as the rating plot draws them), the
        stored part filtered in SQL."""
        if self.rating is None or self.source is None:
            return rating_history(self.games, self.env())
        counts = self.rating.counts
        steps = {lab: (max(1, -(-n // points)), n) for lab, n in counts.items()} if points else None
        rows = self.source.history(self.rating.prefix, steps) if self.rating.prefix else []
        extra = list(self.rating.extra)
        if steps:
            extra = [r for r in extra if r[5] == 1 or r[5] % steps[r[2]][0] == 0 or r[5] == steps[r[2]][1]]
        frame = pd.DataFrame(rows + extra, columns=["game_id", "seat", "label", "mu", "sigma", "games"])
        frame["conservative"] = frame["mu"] - 3 * frame["sigma"]
        return frame[["game_id", "label", "mu", "sigma", "conservative", "games"]]


def load(db_path: str | Path, moves: bool = True, bots: Sequence[str] | None = None,
         anchor: tuple[str, float] | None = None, keep_state: bool = True) -> ReportData:
    """Load a tournament's games (with ``fault_detail``), settings, the per-bot search sums
    (``moves``; SQL, no move row loaded), the answers of puzzle races and the TrueSkill
    ratings (the stored incremental state plus the games beyond it; a missing or stale state
    is rebuilt and, with ``keep_state``, stored once under the run lock when no run holds
    it), through one read-only connection. ``bots``: report only the games among these bots
    (``restrict``); ``anchor``: the field table's ``(BOT, ELO)``; ``keep_state=False``: a
    pure reader (``arena serve``): the ratings are computed in memory, nothing is written and
    the run lock is never taken.

    Raises:
        ResultsError: the file is missing, corrupt, or not an arena results database.
        ConfigError: a name in ``bots`` that is no stored bot.
    """
    # the layer below reports; imported late to keep imports light
    from arena.results import aggregates, reader, snapshot, store

    path = Path(db_path)
    conn = store.connect_readonly(path)
    try:
        games = aggregates.load_game_frame(conn, seconds=False)  # no table reads a game's duration
        tournament = in_field_order(store.load_tournament(conn))  # a new version in its old version's place
        settings = Settings.from_stored(tournament["settings"])
        races = tournament.get("game") in RACE_GAMES
        answers = store.load_answers(conn) if moves and races else pd.DataFrame(columns=store.MOVE_COLUMNS)
        games["copy"] = games["game_id"].isin(aggregates.load_copies(conn))
        sprt = store.load_sprt(conn)
        if "fault_detail" not in games.columns:  # the few faults' details, by game id
            detail = np.full(len(games), np.nan, dtype=object)
            faulty = np.flatnonzero(games["fault_seat"].notna().to_numpy())
            details = reader.fault_details(conn) if len(faulty) else {}  # no scan of the games without a fault
            detail[faulty] = [details.get(g, np.nan) for g in games["game_id"].to_numpy()[faulty].tolist()]
            games["fault_detail"] = detail
        data = ReportData(games, answers, tournament, sprt, path, anchor=anchor, settings=settings)
        data.rating = snapshot.current(conn, path if keep_state else None, data.env(),  # None: nothing stored
                                       lambda after: _rows_after(games, after), data.order,
                                       int(tournament.get("num_players") or 1))
        data.search = dict(data.rating.search) if moves else None
    except ArenaError:
        raise
    except (sqlite3.Error, pd.errors.DatabaseError, KeyError, ValueError, TypeError) as exc:
        raise ResultsError(f"cannot read results database {str(path)!r}: {one_line(exc)}") from exc
    finally:
        conn.close()
    return data if bots is None else restrict(data, bots)


def restrict(data: ReportData, bots: Sequence[str]) -> ReportData:
    """The report of the games among ``bots`` only (``arena report NAME --bots a,b,c``): each
    name a stored label (``me``, ``me@2``), ``NAME@1`` for a bot's first version, or a bot's
    name, meaning all its versions. The TrueSkill ratings are computed again over those games;
    a bot's search figures stay those of all its stored games.

    Raises:
        ConfigError: a name that is no stored bot (the message lists the stored ones).
    """
    tour = data.tournament
    versions = tour.get("versions") or {label: {"bot": label, "version": 1} for label in data.order}
    chosen: set[str] = set()
    for name in bots:
        base, at, number = name.rpartition("@")
        matches = [lab for lab, v in versions.items() if lab == name or v.get("bot") == name
                   or (at and number.isdigit() and v.get("bot") == base and int(v.get("version") or 1) == int(number))]
        if not matches:
            raise ConfigError(f"no bot {name!r} in tournament {data.name!r}; stored: {', '.join(versions)} "
                              "(a bot's name stands for all its versions, NAME@N for one)")
        chosen.update(matches)
    code, values = coded.codes(data.games, "seats")
    keep = np.array([set(v) <= chosen for v in values], dtype=bool)[code] if len(values) else np.zeros(0, bool)
    games = data.games[keep].reset_index(drop=True)
    tournament = {**tour, "bots": {k: v for k, v in (tour.get("bots") or {}).items() if k in chosen}}
    search = None if data.search is None else {k: v for k, v in data.search.items() if k in chosen}
    moves = data.moves[data.moves["game_id"].isin(games["game_id"])] if "game_id" in data.moves else data.moves
    return ReportData(games, moves, tournament, data.sprt, data.path, search, None, data.anchor,
                      settings=data.settings)


def bot_notes(tournament: dict, label: str) -> list[str]:
    """What the reports say beside a bot's label in the bot list (Markdown, HTML): an engine's
    ``id name``; ``version N of BOT`` for a later version of a bot. ``tournament``:
    ``ReportData.tournament``."""
    id_names, versions = tournament.get("id_names") or {}, tournament.get("versions") or {}
    out = [id_names[label]] if label in id_names else []
    v = versions.get(label) or {}
    if (v.get("version") or 1) > 1:
        out.append(f"version {v['version']} of {v['bot']}")
    return out



def _rows_after(games: pd.DataFrame, after: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The game ids, seat lists and rank lists of the games with ids above ``after``, in id
    order (the games the stored rating state has not rated; ``arena.results.snapshot.Columns``):
    numpy arrays, the lists shared with ``games`` (nothing copied a game)."""
    ids = games["game_id"].to_numpy()
    pick = np.flatnonzero(ids > after)
    seats, ranks = games["seats"].to_numpy(), games["ranks"].to_numpy()
    if len(pick) == len(ids):
        return ids, seats, ranks
    return ids[pick], seats[pick], ranks[pick]
