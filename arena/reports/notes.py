"""The words around a report's tables: each table's title (``TITLES``) and note (``NOTES``),
the lines printed under a table (``notes``) and the warnings about the stored games
(``warnings``), for the console, the Markdown file and the HTML page alike."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from arena.referee import ADJUDICATIONS
from arena.reports import exploitability as exploitable
from arena.reports import field as field_table
from arena.reports import llm as llm_report
from arena.reports import pairs, payoffs
from arena.reports.openings import stored_game_type
from arena.results.ratings import SORT_KEY
from arena.results.settings import Format

if TYPE_CHECKING:
    from arena.reports.data import ReportData

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
TITLES.update(llm_report.TITLES)  # network players (issue 44)
NOTES.update(llm_report.NOTES)


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


def shares_luck(game: str) -> bool:
    """``game`` draws luck (a seeded setup, chance nodes) that the games of a series share;
    ``False`` for an unknown game (a plug-in not installed)."""
    kind = stored_game_type(game)
    return kind is not None and (kind.chance or kind.chance_nodes)


def early_stop(data: ReportData) -> str | None:
    """Which sequential rule ended the run (``--sprt``, ``--until-ranked``), or ``None`` for a
    run of fixed size: the coverage bench found the intervals after such a stop below 95%."""
    if data.settings.sprt:
        return "--sprt"
    if data.settings.until_ranked is not None:
        return "--until-ranked"
    return None


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
        if shares_luck(str(data.tournament.get("game", ""))):
            out.append("mark: the games of a series share their deal and chance draws, so seat 0's results are "
                       "correlated and the per-game Wilson interval may cover less than 95% (89% in the coverage "
                       "bench); read the pair interval, clustered by series.")
    if name == "pairs" and frame is not None:
        out += pairs.coverage_note(frame)
    if name in ("pairs", "ratings") and (stop := early_stop(data)) is not None:
        out.append(f"mark: the run stopped early ({stop}): its intervals are those of a sample whose size "
                   "depended on the results, and may cover less than 95% (docs/statistics.md, \"Coverage\").")
    if name == "crosstable":
        out.append(f"n = {len(data.games)} games.")
    if name == "ratings":
        out += field_table.note(data)
    if name == "elo":
        fit = data.bt_fit()
        if not fit.converged:
            out.append(f"warning: no finite Bradley–Terry fit: {fit.reason}; the Elo figures are NaN.")
    if name == "leaderboard":
        out.append(f"Leaderboard {SORT_KEY}; TrueSkill tau = {data.settings.tau:g}.")
        if data.settings.format is Format.GAUNTLET:
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
