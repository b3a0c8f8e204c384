"""Reports in: load a store into ``ReportData`` and compute its tables.

``build_tables`` computes every table of a tournament (``tables``, ``ricochet``, ``solo``);
``arena.reports.output`` prints and writes them (terminal, JSON, Markdown and CSV files;
``docs/arena.md`` "Ratings and reports").
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from arena.errors import ArenaError, ConfigError, ResultsError, one_line
from arena.ratings import SORT_KEY, make_env, rate_games, rating_history, ratings_frame
from arena.reports import SECTIONS  # defined there for the CLI's lazy imports
from arena.reports import coded, pairs
from arena.reports.display import display_frame
from arena.reports import tables as t
from arena.reports.ricochet import RACE_GAMES, ricochet_table
from arena.reports.solo import solo_table
from arena.stats import bt
from arena.stats.significance import holm

TITLES = {
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
}

NOTES = {
    "ricochet": "Length in moves; excess over the round's shortest valid answer (the optimum "
                "when an optimal solver answered). Solve rate = valid answers / rounds; fails "
                "= invalid / no answer / late / crashed answers.",
    "solo": "Score reached (Solo Interaction: minus the moves used) over the games the rules "
            "ended; finished = share of games ended by the rules, not stalled, capped or by a "
            "fault; faults = games lost by the bot's fault (no score). The leaderboard's places "
            "mean nothing in a one-player game. Rows by finished, then mean score.",
    "crosstable": "Score % of the row bot against the column bot (k players: 1 for placing "
                  "better, 1/2 for placing equal).",
    "leaderboard": "TrueSkill mu/sigma, conservative = mu - 3 sigma, rated in game-id order. "
                   "W = first place alone, D = first place shared, L = below first; score % "
                   "= mean of (k - place) / (k - 1) with tied places averaged (a draw is half).",
    "first_move": "Seat 0's wins/draws/losses; win share = wins / (wins + losses) with a "
                  "Wilson 95% interval (pair: clustered by series) and a two-sided exact binomial "
                  "test against 1/2 (Holm-adjusted beside it); score % with a series-clustered "
                  "interval; first-move Elo: the Bradley-Terry term net of who played whom. "
                  "Repeated games of a series counted once.",
    "seat_advantage": "Wins: a first place shared by n seats counts 1/n to each; shares over "
                      "distinct games with 95% intervals clustered by series; z-test of share = "
                      "1/k, Holm-adjusted beside it.",
    "pairs": "From the first bot's side. Score and Elo with the pentanomial variance over game "
             "pairs (trinomial for leftover games); nElo as fastchess; LOS = P(first bot "
             "stronger); p = 2 min(LOS, 1 - LOS), Holm-adjusted across pairings. See "
             "docs/statistics.md.",
    "elo": "Maximum likelihood over all games (draws half a point), 95% intervals from the "
           "observed information; NaN when no finite fit exists (a bot won or lost every game, "
           "or the games are separated otherwise).",
}


@dataclass
class ReportData:
    """The frames of one tournament, as ``arena.store`` loads them.

    Loaded from a store (``load``), ``games`` is ``arena.aggregates.load_game_frame`` (coded
    list columns, no per-game ``seconds``) with ``copy`` and ``fault_detail``, ``moves`` holds
    only the answers of puzzle races (rows with a status), ``search`` the per-bot sums of
    ``arena.aggregates.search_sums`` and ``rating`` the incrementally kept TrueSkill state
    (``arena.rating_state.current``); built by hand, ``moves`` is the whole moves frame and the
    tables are computed from the frames.
    """

    games: pd.DataFrame
    moves: pd.DataFrame
    tournament: dict = field(default_factory=dict)
    sprt: dict | None = None  # the stored SPRT state (``arena.store.load_sprt``)
    path: Path | None = None  # the database, when loaded from one
    search: dict | None = None  # ``arena.aggregates.search_sums``
    rating: tuple | None = None  # ``arena.rating_state.current``: (rater, stored prefix, extra rows)
    _tables: dict = field(default_factory=dict, repr=False)  # built tables by section set
    _grouped: pd.DataFrame | None = field(default=None, repr=False)
    _fit: bt.BTFit | None = field(default=None, repr=False)
    _shown: dict = field(default_factory=dict, repr=False)  # display cells by (table name, frame)

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

    def env(self):
        """The TrueSkill environment of the tournament (its stored ``tau``)."""
        return make_env(tau=float((self.tournament.get("settings") or {}).get("tau", 0.0)))

    def ratings(self) -> pd.DataFrame:
        """The ``arena.ratings.rate_games`` table after every stored game."""
        if self.rating is not None:
            rater = self.rating[0]
            return ratings_frame(rater.ratings, rater.counts)
        return rate_games(self.games, self.env(), labels=self.order)

    def history(self, points: int | None = None) -> pd.DataFrame:
        """``arena.ratings.rating_history`` of every stored game (the stored history up to
        the kept prefix, then the games beyond it). ``points``: thin each bot's rows to its first,
        every ``ceil(games / points)``-th game and its last (as the rating plot draws them), the
        stored part filtered in SQL."""
        if self.rating is None or self.path is None:
            return rating_history(self.games, self.env())
        from arena import rating_state, store

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


def load(db_path: str | Path, moves: bool = True) -> ReportData:
    """Load a tournament's games (with ``fault_detail``), settings, the per-bot search sums
    (``moves``; SQL, no move row loaded), the answers of puzzle races and the TrueSkill
    ratings (the stored incremental state plus the games beyond it; a missing or stale state
    is rebuilt and stored once), through one read-only connection.

    Raises:
        ResultsError: the file is missing, corrupt, or not an arena results database.
    """
    from arena import aggregates, rating_state, store  # the layer below reports; imported late to keep imports light

    path = Path(db_path)
    conn = store.connect_readonly(path)
    try:
        games = aggregates.load_game_frame(conn, seconds=False)  # no table reads a game's duration
        tournament = dict(store.load_tournament(conn))
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
        data = ReportData(games, answers, tournament, sprt, path)
        data.rating = rating_state.current(conn, path, data.env(), lambda after: _rows_after(games, after),
                                           data.order, int(tournament.get("num_players") or 1))
        data.search = data.rating[0].search if moves else None
    except ArenaError:
        raise
    except (sqlite3.Error, pd.errors.DatabaseError, KeyError, ValueError, TypeError) as exc:
        raise ResultsError(f"cannot read results database {str(path)!r}: {one_line(exc)}") from exc
    finally:
        conn.close()
    return data


def _with_engines(board: pd.DataFrame, id_names: dict[str, str]) -> pd.DataFrame:
    """The leaderboard with an ``engine`` column after ``label``: each engine's ``id name``
    (empty for a bot without one); unchanged when no bot has one."""
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
    by the console, the files, ``--json`` and the HTML page; ``sections`` picks from them.

    Raises:
        ConfigError: an unknown section name.
    """
    wanted = _sections(sections)
    if "all" not in data._tables:
        data._tables["all"] = build_tables(data)
    return {name: frame for name, frame in data._tables["all"].items() if _section_of(name) in wanted}


#: tables printed within another section (the names of ``--json``'s keys) -> that section
PART_OF = {"seat_test": "seat_advantage", "fault_summary": "faults"}


def _section_of(table: str) -> str:
    return PART_OF.get(table, table)


def build_tables(data: ReportData, sections: Iterable[str] | None = None) -> dict[str, pd.DataFrame]:
    """The report's tables by name (the CSV names), for the sections that apply.

    Raises:
        ConfigError: an unknown section name.
    """
    wanted = _sections(sections)
    games, moves, order = data.games, data.moves, data.order
    k, out = data.num_players, {}
    distinct = games[~games["copy"]] if "copy" in games else games
    grouped = data.grouped()  # games with equal seats, ranks, scores and copy flag counted once, weighted
    results = t.seat_results(grouped, order)  # shared by the leaderboard and the first-move table
    if "leaderboard" in wanted:
        out["leaderboard"] = _with_engines(t.leaderboard(games, data.ratings(), order, results),
                                           data.tournament.get("id_names") or {})
    if "pairs" in wanted and k == 2:
        out["pairs"] = pairs.pair_table(games, order)
    if "elo" in wanted and k == 2:
        fit = data.bt_fit()
        out["elo"] = pd.concat([fit.table, pd.DataFrame([{"label": "(first move)", "games": fit.games,
                                "elo": fit.first_move, "elo_low": fit.first_low, "elo_high": fit.first_high}])],
                               ignore_index=True)
    if "crosstable" in wanted and k >= 2:
        out["crosstable"] = t.crosstable(grouped, order).reset_index()
    if "first_move" in wanted and k == 2:
        out["first_move"] = _first_move(data, games, grouped[~grouped["copy"]], order,
                                        results[~results["copy"].astype(bool)])
    if "seat_advantage" in wanted and k > 2:
        seats = t.seat_advantage(grouped[~grouped["copy"]])
        extra = pairs.seat_intervals(distinct).drop(columns=["games", "win_share"], errors="ignore")
        out["seat_advantage"] = seats.table.merge(extra, on="seat", how="left") if len(extra) else seats.table
        out["seat_test"] = seats.test_frame()
    if "lengths" in wanted:
        out["lengths"] = t.game_lengths(games, order)
    if "terminations" in wanted:
        out["terminations"] = t.terminations(games)
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
        out["sprt"] = pd.DataFrame([{**{k: v for k, v in data.sprt.items() if k != "penta"},
                                     **dict(zip(("LL", "LD", "DD_WL", "WD", "WW"), data.sprt["penta"]))}])
    return out


def _first_move(data: ReportData, games: pd.DataFrame, distinct: pd.DataFrame, order, results) -> pd.DataFrame:
    """The first-move table over distinct games, with the pair-aware columns and Holm."""
    name = str(data.tournament.get("game", t.ALL))
    table = t.first_move(distinct, name, order, results)
    copies = "copy" in games and bool(games["copy"].any())
    whole = None if copies else data.bt_fit()  # without copies the distinct games are every game: one fit
    extra = pairs.first_move_extras(games, order, whole).drop(columns="score")
    extra["scope"] = extra["scope"].fillna(name)
    table = table.merge(extra, on="scope", how="left")
    table.insert(table.columns.get_loc("p_value") + 1, "p_holm", holm(table["p_value"].tolist()))
    return table


def _sections(sections: Iterable[str] | None) -> set[str]:
    if sections is None:
        return set(SECTIONS)
    wanted = {_section_of(s) for s in sections}  # a table's name selects its section
    unknown = sorted(wanted - set(SECTIONS))
    if unknown:
        raise ConfigError(f"unknown report section(s) {', '.join(unknown)}; "
                           f"choose from {', '.join(SECTIONS)} (or a table within one: {', '.join(PART_OF)})")
    return wanted


def notes(data: ReportData, name: str) -> list[str]:
    """The lines printed under table ``name``: its note, the leaderboard's sort key and, in a
    gauntlet, what the order of the opponents means."""
    out = [NOTES[name]] if name in NOTES else []
    if name == "crosstable":
        out.append(f"n = {len(data.games)} games.")
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
    """Warnings about the stored games: copies (identical move lists within a series)."""
    copies = int(data.games["copy"].sum()) if "copy" in data.games else 0
    if not copies:
        return []
    return [f"warning: {copies} stored game(s) repeat the move list of an earlier game of their series; "
            "each group is counted once in seat and first-move statistics"]
