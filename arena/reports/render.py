"""Reports in: load a store into ``ReportData`` and compute its tables.

``build_tables`` computes every table of a tournament (``tables``, ``ricochet``, ``solo``);
``arena.reports.output`` prints and writes them (terminal, JSON, Markdown and CSV files;
``docs/arena.md`` "Ratings and reports").
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from arena.errors import ArenaError, ConfigError, ResultsError, one_line
from arena.results.ratings import SORT_KEY, make_env, rate_games, rating_history, ratings_frame
from arena.reports import SECTIONS  # defined there for the CLI's lazy imports
import arena.games
from arena.reports import coded, cycles, ladder, pairs, payoff_field, payoffs
from arena.reports import field as field_table
from arena.reports import exploitability as exploitable
from arena.reports import game as game_metrics
from arena.reports import openings as start_positions
from arena.reports.display import display_frame
from arena.reports.order import in_field_order
from arena.reports import standings
from arena.reports import tables as t
from arena.reports.ricochet import RACE_GAMES, ricochet_table
from arena.referee import ADJUDICATIONS
from arena.reports.solo import solo_table
from arena.stats import bt, sequential
from arena.stats.sprt import SprtSpec
from arena.stats.significance import holm
from bots.registry import parse_spec

TITLES = {
    "ratings": "Field table: Elo with 95% bootstrap intervals, CFS to the next entry",
    "los_matrix": "Likelihood of superiority (row bot over column bot)",
    "cycles": "Rock-paper-scissors cycles (significant 3-cycles)",
    "nash": "Nash-averaged ranking (maximum-entropy equilibrium of the log-odds)",
    "alpharank": "alpha-Rank (stationary mass)",
    "leaderboard": "Leaderboard",
    "pairs": "Two-bot statistics per pairing (pentanomial over game pairs)",
    "elo": "Elo (Bradley–Terry, all games at once, first-move term, mean 0)",
    "sprt": "SPRT",
    "crosstable": "Crosstable",
    "first_move": "First-move advantage (seat 0)",
    "seat_advantage": "Seat advantage",
    "seat_test": "Seat advantage: chi-square test of equal win shares",
    "lengths": "Game lengths (plies; Ricochet: rounds)",
    "terminations": "Terminations",
    "faults": "Faults",
    "fault_summary": "Faults by bot",
    "search": "Search statistics per bot",
    "ricochet": "Ricochet races (and other puzzle races: Solo Interaction, a round per layout)",
    "solo": "One-player results (each bot alone on the puzzle)",
    "game": "The game: decisive games, ties for first and lengths (rule-ended games)",
    "game_seats": "The game: seat shares",
    "game_play": "The game: branching, lead changes and drama (a sample of games)",
    "branching": "The game: legal moves per ply (the sample, replayed)",
    "openings": "Start positions (seat 0's results per position; k players: the seat furthest from 1/2)",
    "ladder": "Strength ladder: Elo per rung",
    "ladder_steps": "Strength ladder: steps between neighbouring rungs",
    "ladder_fit": "Strength ladder: Elo per step of the budget and the first-move trend",
    "knockout": "Knockout bracket",
    "terminations_by_bot": "Terminations by bot",
    "swiss": "Swiss standings",
    "exploitability": exploitable.TITLE,
}

NOTES = {
    "los_matrix": "Share of the bootstrap fits rating the row bot above the column bot (ties half).",
    "nash": "Nash Elo: the bot's Elo against the maximum-entropy Nash mixture of the pairwise log-odds (0 for "
            "the bots it plays, the mass); 95% bootstrap intervals. See docs/statistics.md.",
    "alpharank": "alpha-Rank (m = 50, alpha = 100): the stationary mass of the evolutionary dynamics of the "
                 "pairwise scores; 95% bootstrap intervals. See docs/statistics.md.",
    "terminations_by_bot": "Each bot's games by result (win: first alone; draw: first shared; loss: below first) "
                           "and how the game ended: the rules' ending, a fault (timeout: a move or a game clock "
                           "over its time), or adjudicated / adjudicated_draw (--adjudicate).",
    "knockout": "Seeds in --bot order; score = points over the match's complete series (a win 1, a draw 1/2), the "
                "higher seed's first; a tied match plays up to 2 more series, then the higher seed goes through "
                "(tie-break). See docs/tournaments.md \"Knockout and Swiss\".",
    "swiss": "Points: a pairing won 1, drawn 1/2, lost 0, a bye 1; Buchholz = the sum of the points of the bots "
             "met; ranked by points, Buchholz, game points, seed. See docs/tournaments.md \"Knockout and Swiss\".",
    "ricochet": "Length in moves; excess over the round's shortest valid answer (the optimum "
                "when an optimal solver answered). Solve rate = valid answers / rounds; fails "
                "= invalid / no answer / late / crashed answers.",
    "solo": "Score reached (Solo Interaction: minus the moves used) over the games the rules "
            "ended; finished = share of games ended by the rules, not stalled, capped or by a "
            "fault; faults = games lost by the bot's fault (no score). The leaderboard's places "
            "mean nothing in a one-player game. Rows by finished, then mean score.",
    "crosstable": "Score % of the row bot against the column bot (k players: 1 for placing "
                  "better, 1/2 for placing equal).",
    "leaderboard": "TrueSkill μ (mu) and σ (sigma), conservative rating μ-3σ, rated in game-id order. "
                   "W = first place alone, L = below first, D = first place shared; score % "
                   "= mean of (k - place) / (k - 1) with tied places averaged (a draw is half).",
    "first_move": "Seat 0's wins-losses-draws (W-L-D); win share = wins / (wins + losses) with a "
                  "Wilson 95% interval (pair: clustered by series) and a two-sided exact binomial "
                  "test against 1/2 (Holm-adjusted beside it); score % with a series-clustered "
                  "interval; first-move Elo: the Bradley-Terry term net of who played whom: for the whole "
                  "game the field table's (first move) row (its prior and bootstrap interval), for a pairing "
                  "that pairing's own fit (no prior; - where no finite estimate exists). Holm's family: the "
                  "pairings (the whole game's row is the same games, not another test). Repeated games of a "
                  "series counted once.",
    "seat_advantage": "Wins: a first place shared by n seats counts 1/n to each; shares over "
                      "distinct games with 95% intervals clustered by series; z-test of share = "
                      "1/k, Holm-adjusted beside it.",
    "pairs": "From the first bot's side. Score and Elo with the pentanomial variance over game "
             "pairs (trinomial for leftover games); nElo ± 95% as fastchess; LOS = P(first bot "
             "stronger); test normal: p = 2 min(LOS, 1 - LOS); test sign: the exact sign test on "
             "pairs where the normal approximation fails (fewer than 10 pairs won or lost, or no "
             "spread); p Holm-adjusted across pairings. See docs/statistics.md.",
    "game": "Decisive = one seat alone first (Wilson 95% interval); ties for first = first place "
            "shared; all tied = every seat first (two players: a draw). Plies include the opening "
            "plies. Games lost by a fault and repeated copies are left out. See docs/statistics.md.",
    "game_seats": "Win share: a first place shared by n seats counts 1/n; first shared: the seat's "
                  "games where it shared first place; points = (k - place)/(k - 1), tied places averaged.",
    "game_play": "Sampled: at most 200 games evenly spread over the ids. Branching: mean legal moves "
                 "where a seat is to move. Lead changes and drama from the evaluations bots reported, "
                 "in self-play games (every seat a bot of one kind), in the bots' units around their "
                 "neutral value (1/2 for win rates in [0, 1], else 0). See docs/statistics.md.",
    "openings": "Per start position over distinct games: score with a series-clustered 95% interval, bias = "
                "score - 1/2; two players: seat 0's share of decisive games (Wilson 95%) and a two-sided exact "
                "binomial test against 1/2, k players: chi-square of equal first places; flagged when the "
                "Holm-adjusted p < 0.05. Decisive pairs: series whose bots did not score alike; variance share: "
                "the position's share of the match's pair-score variance. See docs/statistics.md.",
    "ladder": "Bradley-Terry Elo of each rung (mean 0, 95% intervals); fitted: the ladder model's line.",
    "ladder_steps": "Gain: Elo of the upper rung over the lower (pentanomial 95% interval); first move: seat 0's "
                    "score (series-clustered 95%) and the step's first-move Elo (Bradley-Terry).",
    "exploitability": exploitable.NOTE,
    "elo": "Maximum likelihood over all games (draws half a point), 95% intervals from the "
           "observed information; NaN when no finite fit exists (a bot won or lost every game, "
           "or the games are separated otherwise). The field table's model without its prior (one "
           "virtual draw per pairing and per seat): its figures, the first-move term too, differ from the "
           "field table's by that prior's pull toward 0, little in a long run.",
}

TITLES.update(payoffs.TITLES)  # a game ranked by payoff: its own field, pair and payoff tables


@dataclass
class ReportData:
    """The frames of one tournament, as ``arena.results.store`` loads them.

    Loaded from a store (``load``), ``games`` is ``arena.results.aggregates.load_game_frame`` (coded
    list columns, no per-game ``seconds``) with ``copy`` and ``fault_detail``, ``moves`` holds
    only the answers of puzzle races (rows with a status), ``search`` the per-bot sums of
    ``arena.results.aggregates.search_sums`` and ``rating`` the incrementally kept TrueSkill state
    (``arena.results.rating_state.current``); built by hand, ``moves`` is the whole moves frame and the
    tables are computed from the frames.
    """

    games: pd.DataFrame
    moves: pd.DataFrame
    tournament: dict = field(default_factory=dict)
    sprt: dict | None = None  # the stored SPRT state (``arena.results.store.load_sprt``)
    path: Path | None = None  # the database, when loaded from one
    search: dict | None = None  # ``arena.results.aggregates.search_sums``
    rating: tuple | None = None  # ``arena.results.rating_state.current``: (rater, stored prefix, extra rows)
    anchor: tuple[str, float] | None = None  # ``--anchor BOT=ELO`` of the field table (None: mean 0)
    #: the first-move table leaves out the games ended by ``--adjudicate`` (``arena report --no-adjudicated``)
    no_adjudicated: bool = False
    _tables: dict = field(default_factory=dict, repr=False)  # built tables by section set
    _grouped: pd.DataFrame | None = field(default=None, repr=False)
    _fit: bt.BTFit | None = field(default=None, repr=False)
    _shown: dict = field(default_factory=dict, repr=False)  # display cells by (table name, frame)
    _payoff: dict = field(default_factory=dict, repr=False)  # ``arena.reports.payoffs``: the rule, the games

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
        if self.path is None:
            return self.moves[self.moves["game_id"].isin(ids)], {}
        from arena.results import store

        series = sorted({int(s) for s in self.games.loc[self.games["game_id"].isin(ids), "series"]})
        conn = store.connect_readonly(self.path)
        try:
            where = f"m.game_id IN ({','.join(str(int(i)) for i in ids)})" if ids else "0"
            moves = store.load_moves(conn, where=where)
            starts = {s: text for s in series if (text := store.load_series_start(conn, s)) is not None}
        finally:
            conn.close()
        return moves, starts

    def env(self):
        """The TrueSkill environment of the tournament (its stored ``tau``)."""
        return make_env(tau=float((self.tournament.get("settings") or {}).get("tau", 0.0)))

    def ratings(self) -> pd.DataFrame:
        """The ``arena.results.ratings.rate_games`` table after every stored game."""
        if self.rating is not None:
            rater = self.rating[0]
            return ratings_frame(rater.ratings, rater.counts)
        return rate_games(self.games, self.env(), labels=self.order)

    def history(self, points: int | None = None) -> pd.DataFrame:
        """``arena.results.ratings.rating_history`` of every stored game (the stored history up to
        the kept prefix, then the games beyond it). ``points``: thin each bot's rows to its first,
        every ``ceil(games / points)``-th game and its last (as the rating plot draws them), the
        stored part filtered in SQL."""
        if self.rating is None or self.path is None:
            return rating_history(self.games, self.env())
        from arena.results import rating_state, store

        counts = self.rating[0].counts
        steps = {lab: (max(1, -(-n // points)), n) for lab, n in counts.items()} if points else None
        conn = store.connect_readonly(self.path)
        try:
            rows = rating_state.read_history(conn, self.rating[1], steps) if self.rating[1] else []
        finally:
            conn.close()
        extra = list(self.rating[2])
        if steps:
            extra = [r for r in extra if r[5] == 1 or r[5] % steps[r[2]][0] == 0 or r[5] == steps[r[2]][1]]
        frame = pd.DataFrame(rows + extra, columns=["game_id", "seat", "label", "mu", "sigma", "games"])
        frame["conservative"] = frame["mu"] - 3 * frame["sigma"]
        return frame[["game_id", "label", "mu", "sigma", "conservative", "games"]]


def load(db_path: str | Path, moves: bool = True, bots: Sequence[str] | None = None,
         anchor: tuple[str, float] | None = None) -> ReportData:
    """Load a tournament's games (with ``fault_detail``), settings, the per-bot search sums
    (``moves``; SQL, no move row loaded), the answers of puzzle races and the TrueSkill
    ratings (the stored incremental state plus the games beyond it; a missing or stale state
    is rebuilt and stored once), through one read-only connection. ``bots``: report only the
    games among these bots (``restrict``); ``anchor``: the field table's ``(BOT, ELO)``.

    Raises:
        ResultsError: the file is missing, corrupt, or not an arena results database.
        ConfigError: a name in ``bots`` that is no stored bot.
    """
    # the layer below reports; imported late to keep imports light
    from arena.results import aggregates, rating_state, store

    path = Path(db_path)
    conn = store.connect_readonly(path)
    try:
        games = aggregates.load_game_frame(conn, seconds=False)  # no table reads a game's duration
        tournament = in_field_order(store.load_tournament(conn))  # a new version in its old version's place
        races = tournament.get("game") in RACE_GAMES
        answers = store.load_answers(conn) if moves and races else pd.DataFrame(columns=store.MOVE_COLUMNS)
        games["copy"] = games["game_id"].isin(aggregates.load_copies(conn))
        sprt = store.load_sprt(conn)
        if "fault_detail" not in games.columns:  # the few faults' details, by game id
            details = dict(conn.execute("SELECT game_id, fault_detail FROM games WHERE fault_seat IS NOT NULL"))
            detail = np.full(len(games), np.nan, dtype=object)
            faulty = np.flatnonzero(games["fault_seat"].notna().to_numpy())
            detail[faulty] = [details.get(g, np.nan) for g in games["game_id"].to_numpy()[faulty].tolist()]
            games["fault_detail"] = detail
        data = ReportData(games, answers, tournament, sprt, path, anchor=anchor)
        data.rating = rating_state.current(conn, path, data.env(), lambda after: _rows_after(games, after),
                                           data.order, int(tournament.get("num_players") or 1))
        data.search = data.rating[0].search if moves else None
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
    return ReportData(games, moves, tournament, data.sprt, data.path, search, None, data.anchor)


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


def _with_engines(board: pd.DataFrame, id_names: dict[str, str]) -> pd.DataFrame:
    """The leaderboard (or the field table) with an ``engine`` column after ``label``: each
    engine's ``id name`` (empty for a bot without one, and for the seat rows); unchanged when no
    bot has one."""
    if not id_names or "label" not in board:
        return board
    board = board.copy()
    board.insert(list(board.columns).index("label") + 1, "engine",
                 [id_names.get(label, "") for label in board["label"]])
    return board


def _rows_after(games: pd.DataFrame, after: int):
    """``(game_id, seats, ranks)`` of the games with ids above ``after``, in id order (the
    games the stored rating state has not rated)."""
    pick = np.flatnonzero(games["game_id"].to_numpy() > after)
    return zip(games["game_id"].to_numpy()[pick].tolist(), games["seats"].to_numpy()[pick].tolist(),
               games["ranks"].to_numpy()[pick].tolist())


def tables_for(data: ReportData, sections: Iterable[str] | None = None) -> dict[str, pd.DataFrame]:
    """``build_tables`` once per ``data``: every table is built on the first call and reused
    by the console, the files, ``--json`` and the HTML page; ``sections`` picks from them, and
    builds only those sections when nothing has built every table yet.

    Raises:
        ConfigError: an unknown section name.
    """
    wanted = _sections(sections)
    key = "all"
    if sections is not None and "all" not in data._tables:  # only the sections asked for (a 100-bot field:
        key = "some:" + ",".join(sorted(wanted))           # the pairs table alone in 0.1 s, not 3.5 s)
    if key not in data._tables:
        data._tables[key] = build_tables(data, None if key == "all" else sorted(wanted))
    out = {name: frame for name, frame in data._tables[key].items() if _section_of(name) in wanted}
    if sections is not None and "openings" in wanted and "openings" not in out:  # reached starts: on request
        if "openings" not in data._tables:
            data._tables["openings"] = build_tables(data, ["openings"])
        out.update(data._tables["openings"])
    return out


#: tables printed within another section (the names of ``--json``'s keys) -> that section
PART_OF = {"seat_test": "seat_advantage", "fault_summary": "faults", "game_seats": "game", "game_play": "game",
           "branching": "game", "ladder_steps": "ladder", "ladder_fit": "ladder", "los_matrix": "ratings",
           "nash": "cycles", "alpharank": "cycles", "knockout": "standings", "swiss": "standings",
           "terminations_by_bot": "terminations", **payoffs.PART_OF}


def _section_of(table: str) -> str:
    return PART_OF.get(table, table)


def build_tables(data: ReportData, sections: Iterable[str] | None = None) -> dict[str, pd.DataFrame]:
    """The report's tables by name (the CSV names), for the sections that apply. ``openings``
    of a tournament played from random starts (opening plies, a seeded setup) is built only
    when ``sections`` names it (``arena.reports.openings``); from an openings file, always.

    Raises:
        ConfigError: an unknown section name.
    """
    wanted = _sections(sections)
    games, moves, order = data.games, data.moves, data.order
    k, out = data.num_players, {}
    distinct = games[~games["copy"]] if "copy" in games else games
    grouped = data.grouped()  # games with equal seats, ranks, scores and copy flag counted once, weighted
    results = t.seat_results(grouped, order)  # shared by the leaderboard and the first-move table
    id_names = data.tournament.get("id_names") or {}
    payoff = payoffs.rule(data) if wanted & {"ratings", "pairs", "payoffs"} else None
    if "ratings" in wanted and k >= 2 and payoff is not None:
        out.update(payoff_field.field_tables(data, payoff))
        out["payoff_ratings"] = _with_engines(out["payoff_ratings"], id_names)
    elif "ratings" in wanted and k >= 2:
        out.update(field_table.field_tables(data))
        out["ratings"] = _with_engines(out["ratings"], id_names)
    if "payoffs" in wanted and payoff is not None:
        out.update(payoffs.payoff_tables(data, payoff))
    if "exploitability" in wanted and (table := exploitable.exploitability_table(data.tournament)) is not None:
        out["exploitability"] = table
    if "cycles" in wanted and k == 2:
        out.update(cycles.cycle_tables(data))
    if "leaderboard" in wanted:
        out["leaderboard"] = _with_engines(t.leaderboard(games, data.ratings(), order, results), id_names)
    fmt = (data.tournament.get("settings") or {}).get("format")
    if "standings" in wanted and fmt in ("knockout", "swiss") and k == 2:
        table = standings.knockout_table if fmt == "knockout" else standings.swiss_table
        out[fmt] = table(games, order, data.tournament.get("settings") or {})
    if "pairs" in wanted and k == 2:
        if payoff is not None:
            out["payoff_pairs"] = payoff_field.pair_table(data, payoff)
        else:
            out["pairs"] = pairs.pair_table(games, order)
    if "elo" in wanted and k == 2:
        fit = data.bt_fit()
        out["elo"] = pd.concat([fit.table, pd.DataFrame([{"label": "(first move)", "games": fit.games,
                                "elo": fit.first_move, "elo_low": fit.first_low, "elo_high": fit.first_high}])],
                               ignore_index=True)
    if "crosstable" in wanted and k >= 2:
        out["crosstable"] = t.crosstable(grouped, order).reset_index()
    if "first_move" in wanted and k == 2:
        played, first_grouped, first_results = games, grouped, results
        if data.no_adjudicated:  # the games the rules ended (or a fault): no adjudicated result
            played = games[~games["termination"].isin([str(t) for t in ADJUDICATIONS])]
            first_grouped = coded.grouped(played)
            first_results = t.seat_results(first_grouped, order)
        out["first_move"] = _first_move(data, played, first_grouped[~first_grouped["copy"]], order,
                                        first_results[~first_results["copy"].astype(bool)])
    if "seat_advantage" in wanted and k > 2:
        seats = t.seat_advantage(grouped[~grouped["copy"]])
        extra = pairs.seat_intervals(distinct).drop(columns=["games", "win_share"], errors="ignore")
        out["seat_advantage"] = seats.table.merge(extra, on="seat", how="left") if len(extra) else seats.table
        out["seat_test"] = seats.test_frame()
    asked = sections is not None and "openings" in set(sections)
    if "openings" in wanted and data.path is not None and k >= 2 and (
            start_positions.from_file(data.tournament) or (asked and start_positions.applies(data.tournament))):
        out["openings"] = _openings(data)
    if "ladder" in wanted and k == 2:
        rungs = ladder.family(data.tournament.get("bots") or {})
        if rungs is not None:
            out.update(ladder.ladder_tables(games, rungs, order))
    if "lengths" in wanted:
        out["lengths"] = t.game_lengths(games, order)
    if "terminations" in wanted:
        out["terminations"] = t.terminations(games)
        out["terminations_by_bot"] = t.terminations_by_bot(games, order)
    if "faults" in wanted:
        out["fault_summary"], out["faults"] = t.fault_summary(games), t.faults(games)
    if "search" in wanted:
        out["search"] = (t.search_from_sums(data.search, order) if data.search is not None
                         else t.search_stats(moves, order))
    if "ricochet" in wanted and data.tournament.get("game") in RACE_GAMES:
        out["ricochet"] = ricochet_table(games, moves, order)
    if "solo" in wanted and k == 1:
        out["solo"] = solo_table(games, order)
    if "sprt" in wanted and data.sprt:
        out["sprt"] = sprt_frame(data.sprt)
    if "game" in wanted and k >= 2 and data.tournament.get("game") not in RACE_GAMES:
        out.update(game_tables(data))
    return out


def game_tables(data: ReportData) -> dict[str, pd.DataFrame]:
    """The ``game`` section's tables (``arena.reports.game``): outcomes and lengths of every
    rule-ended game; branching, lead changes and drama of a sample of them, replayed by the
    rules from the stored plies (the sample's moves only are read)."""
    games, order = data.games, data.order
    ids = game_metrics.sample_ids(games)
    moves, starts = data.sample(ids)
    try:
        rules = arena.games.make(data.tournament["game"], **(data.tournament.get("params") or {}))
    except (ArenaError, KeyError):  # a game this installation does not know: no replay
        rules = None
    counts: dict[int, list[int | None]] = {}
    if rules is not None:
        rows = games.set_index("game_id").loc[ids] if ids else games.iloc[:0]
        plies = {gid: g["move"].tolist() for gid, g in moves[moves["status"].isna()].groupby("game_id")}
        for gid, g in zip(ids, rows.itertuples()):
            start = starts.get(int(g.series))
            state = rules.parse_state(start) if start is not None else rules.initial_state(int(g.seed))
            counts[gid] = game_metrics.legal_counts(rules, state, plies.get(gid, []))
    specs = data.tournament.get("bots") or {}
    kinds = {label: _kind(spec) for label, spec in specs.items()}
    return {"game": game_metrics.outcome_table(games, order), "game_seats": game_metrics.seat_table(games),
            "game_play": game_metrics.play_table(games, moves, counts, lambda lab: kinds.get(lab, lab), order),
            "branching": game_metrics.branching_table(counts)}


def _kind(spec: str) -> str:
    """The bot kind of a stored spec text (``m=mcts:playouts=50`` -> ``mcts``)."""
    try:
        return parse_spec(spec).kind
    except ArenaError:
        return spec


def sprt_frame(state: dict) -> pd.DataFrame:
    """The stored SPRT state (``arena.stats.sprt.SprtTally.state``) as a one-row table: its
    fields, the pentanomial counts as ``LL`` ... ``WW``, the games' ``wins``, ``losses``,
    ``draws`` (NaN in a state stored before they were), and the median-unbiased Elo after the
    sequential stop ``elo_mu`` with its 95% interval ``elo_mu_low``, ``elo_mu_high``
    (``arena.stats.sequential``; fishtest's estimate)."""
    wdl = state.get("wdl")
    spec = SprtSpec(state["elo0"], state["elo1"], state.get("alpha", 0.05), state.get("beta", 0.05),
                    state.get("model", "logistic"))  # a state stored before the model was an option
    est = sequential.median_unbiased(spec, state["penta"], wdl)
    row = {k: v for k, v in state.items() if k not in ("penta", "wdl")}
    row.update(zip(("LL", "LD", "DD_WL", "WD", "WW"), state["penta"]))
    w, d, l_ = wdl if wdl is not None else [np.nan] * 3
    row.update({"wins": w, "losses": l_, "draws": d})  # W-L-D, as every table orders them
    row.update({"elo_mu": est.elo, "elo_mu_low": est.low, "elo_mu_high": est.high, "elo_mu_clamped": est.clamped})
    return pd.DataFrame([row])


def _first_move(data: ReportData, games: pd.DataFrame, distinct: pd.DataFrame, order, results) -> pd.DataFrame:
    """The first-move table over distinct games, with the pair-aware columns and Holm.

    The whole game's first-move Elo is the field table's first-move term (``field_table.
    first_move_term``: the Bradley–Terry fit with its prior and bootstrap interval), of the
    field table's own fit when the table's games are the field table's (no copies, nothing
    left out), else of the same fit over the table's distinct games (``first_move_differs``
    says why). Holm's family is the pairings: the whole game's row tests another hypothesis on
    the same games, so it is no member of it (its adjusted p is its p)."""
    name = str(data.tournament.get("game", t.ALL))
    table = t.first_move(distinct, name, order, results)
    extra = pairs.first_move_extras(games, order).drop(columns="score")
    extra["scope"] = extra["scope"].fillna(name)
    table = table.merge(extra, on="scope", how="left")
    if len(table):
        own = games[~games["copy"]] if "copy" in games else games  # one row a game (``distinct`` is grouped)
        fit = (field_table.field_of(data) if first_move_differs(data) is None
               else field_table.fit_field(own, order, 2, int(data.tournament.get("seed") or 1)))
        table.loc[0, ["first_elo", "first_low", "first_high"]] = field_table.first_move_term(fit)
    p = table["p_value"].tolist()
    table.insert(table.columns.get_loc("p_value") + 1, "p_holm", p[:1] + holm(p[1:]))
    return table


def first_move_differs(data: ReportData) -> str | None:
    """Why the first-move table's games are not the field table's (``None`` when they are):
    repeated games counted once, adjudicated games left out (``--no-adjudicated``)."""
    games = data.games
    why = []
    if "copy" in games and (copies := int(games["copy"].sum())):
        why.append(f"{copies} repeated game(s) counted once")
    if data.no_adjudicated and (left := int(games["termination"].isin([str(a) for a in ADJUDICATIONS]).sum())):
        why.append(f"{left} adjudicated game(s) left out")
    return "; ".join(why) or None


def _openings(data: ReportData) -> pd.DataFrame:
    """The start-position table of a stored tournament (``arena.reports.openings``)."""
    assert data.path is not None, "start positions are read from the store"
    where = start_positions.positions(data.path, data.games, data.tournament)
    k = data.num_players
    rotation = (data.tournament.get("settings") or {}).get("seat_rotation", "cyclic")
    return start_positions.openings_table(data.games, where.code, where.texts, data.order,
                                          math.factorial(k) if rotation == "all" else k)


def _sections(sections: Iterable[str] | None) -> set[str]:
    if sections is None:
        return set(SECTIONS)
    names = [name.strip() for s in sections for name in s.split(",")]  # `-s a -s b` or `-s a,b`
    wanted = {_section_of(s) for s in names}  # a table's name selects its section
    unknown = sorted(wanted - set(SECTIONS))
    if unknown:
        raise ConfigError(f"unknown report section(s) {', '.join(repr(u) if not u else u for u in unknown)}; "
                           f"choose from {', '.join(SECTIONS)} (or a table within one: {', '.join(PART_OF)})")
    return wanted


def notes(data: ReportData, name: str, frame: pd.DataFrame | None = None) -> list[str]:
    """The lines printed under table ``name`` (``frame``, the table itself): its note, the
    leaderboard's sort key and, in a gauntlet, what the order of the opponents means; under
    the first-move table, why its win share and first-move Elo disagree when they do
    (``pairs.first_move_note``)."""
    out = [NOTES[name]] if name in NOTES else []
    out += payoffs.notes(data, name)
    if name == "first_move" and frame is not None:
        if (why := first_move_differs(data)) is not None:
            out.append(f"The whole game's first-move Elo is the field table's fit over these games ({why}), so it "
                       "differs from the field table's (first move) row.")
        out += pairs.first_move_note(frame)
    if name == "crosstable":
        out.append(f"n = {len(data.games)} games.")
    if name == "ratings":
        out += field_table.note(data)
    if name == "elo":
        fit = data.bt_fit()
        if not fit.converged:
            out.append(f"warning: no finite Bradley–Terry fit: {fit.reason}; the Elo figures are NaN.")
    if name == "leaderboard":
        tau = (data.tournament.get("settings") or {}).get("tau", 0.0)
        out.append(f"Leaderboard {SORT_KEY}; TrueSkill tau = {tau:g}.")
        if (data.tournament.get("settings") or {}).get("format") == "gauntlet":
            out.append("Gauntlet: the opponents are ranked by their results against the challenger "
                       "only; this is not a ranking of the field.")
    return out


def warnings(data: ReportData) -> list[str]:
    """Warnings about the stored games: copies (identical move lists within a series), and
    games played under more than one version of the software that decides them
    (``arena.results.versions.played_under``)."""
    from arena.results.versions import played_under

    copies = int(data.games["copy"].sum()) if "copy" in data.games else 0
    versions = played_under(data.tournament.get("software") or [])
    if not copies:
        return versions
    return [f"warning: {copies} stored game(s) repeat the move list of an earlier game of their series; "
            "each group is counted once in seat and first-move statistics", *versions]
