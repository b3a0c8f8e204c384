"""Reports in: a store loaded into ``ReportData`` (``arena.reports.data``) and its tables.

``build_tables`` computes every table of a tournament (``tables``, ``ricochet``, ``solo``);
``arena.reports.output`` prints and writes them (terminal, JSON, Markdown and CSV files;
``docs/arena.md`` "Ratings and reports") with the titles and notes of ``arena.reports.notes``.
``load``, ``ReportData``, ``TITLES``, ``notes``... are re-exported here, their home before the
split.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

import arena.games
from arena.errors import ArenaError, ConfigError
from arena.reports import SECTIONS  # defined there for the CLI's lazy imports
from arena.reports import coded, cycles, ladder, pairs, payoff_field, payoffs
from arena.reports import field as field_table
from arena.reports import exploitability as exploitable
from arena.reports import game as game_metrics
from arena.reports import openings as start_positions
from arena.reports.data import ReportData, bot_notes, load, restrict  # noqa: F401 (re-exported)
from arena.reports.notes import NOTES, TITLES, first_move_differs, notes, warnings  # noqa: F401 (re-exported)
from arena.reports import standings
from arena.results.settings import Format, games_per_series
from arena.reports import tables as t
from arena.reports.ricochet import RACE_GAMES, ricochet_table
from arena.referee import ADJUDICATIONS
from arena.reports.solo import solo_table
from arena.reports.llm import llm_section
from arena.stats import sequential
from arena.stats.sprt import SprtSpec
from arena.stats.significance import holm
from bots.registry import parse_spec

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
    fmt = data.settings.format
    if "standings" in wanted and fmt in (Format.KNOCKOUT, Format.SWISS) and k == 2:
        table = standings.knockout_table if fmt is Format.KNOCKOUT else standings.swiss_table
        out[fmt.value] = table(games, order, data.settings)
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
    if "openings" in wanted and data.source is not None and k >= 2 and (start_positions.from_file(data.settings) or (
            asked and start_positions.applies(data.settings, str(data.tournament.get("game", ""))))):
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
    if "llm" in wanted and (table := llm_section(data.path, order)) is not None:  # network players (issue 44)
        out["llm"] = table
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
        rows = games.iloc[pd.Index(games["game_id"]).get_indexer(ids)]  # the sample's rows only, in ids' order
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


def _openings(data: ReportData) -> pd.DataFrame:
    """The start-position table of a stored tournament (``arena.reports.openings``)."""
    assert data.source is not None, "start positions are read from the store"
    where = start_positions.positions(data.source, data.games, data.tournament, data.settings)
    per_series = games_per_series(data.num_players, data.settings.seat_rotation)
    return start_positions.openings_table(data.games, where.code, where.texts, data.order, per_series)


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



