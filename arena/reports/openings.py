"""Start-position diagnostics: how each start position of a tournament played, which are
biased, and a balanced subset as an openings file (``docs/statistics.md`` "Start positions";
``arena report NAME --section openings``, ``arena openings select``).

A **start position** is what a series starts from: the line of the openings file
(``--openings``; random opening plies after it do not split it), else the position the seeded
setup and the random opening plies reach (``--opening-plies``, or a game whose setup is drawn
from the seed), replayed from the stored games and keyed by its text. A tournament with neither
has one start and no table. The report shows the table of an openings file's positions by
default; the reached positions (often as many as the series) only on request
(``--section openings``, ``arena openings select``).

Per position, over the distinct games (copies dropped) of the most common seat count: games,
series, seat 0's W-L-D and score with a series-clustered 95% interval
(``arena.stats.intervals.cluster_mean``), ``bias`` = score − ½, seat 0's share of the decisive
games with its Wilson interval and the two-sided exact binomial test against ½, Holm-adjusted
across positions; with k > 2 players the seat furthest from ½ (``seat``) instead, every seat's
score (``seat_scores``) and the chi-square test of equal first-place shares. Then the draw rate
(first place shared), the decisive-series rate (``decisive_pairs``: complete series whose bots
did not all score alike, e.g. WW, WD, LD, LL of a pair) and the position's share of the match's
variance (``variance_share``; ``docs/statistics.md``). ``flagged``: Holm-adjusted p < 0.05.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from arena.errors import ArenaError, ConfigError
from arena.reports.coded import seat_sizes
from arena.reports.display import format_p
from arena.reports.tables import seat_results
from arena.stats.intervals import cluster_mean, wilson_interval
from arena.stats.significance import binomial_test, equal_shares_test, holm

if TYPE_CHECKING:
    from arena.games import GameType
    from arena.results.reader import Results
    from arena.results.settings import Settings

#: a position is flagged when its Holm-adjusted p-value is below this
ALPHA = 0.05
#: the range of a score: its intervals are clipped to it
SHARE = (0.0, 1.0)


@dataclass(frozen=True)
class Positions:
    """The start position of each game.

    Attributes:
        code: per row of the games frame, the 0-based index of its position in ``texts``.
        texts: the position texts (openings-file lines, or the reached position's text),
            numbered in file order, else in order of first appearance.
        source: ``"file"`` (the openings file's lines) or ``"reached"`` (setup and opening plies).
    """

    code: np.ndarray
    texts: list[str]
    source: str


def from_file(settings: Settings) -> bool:
    """Whether a tournament was played from an openings file (``--openings``)."""
    return bool(settings.openings)


def applies(settings: Settings, game: str) -> bool:
    """Whether a tournament of ``game`` (its name) with these stored settings starts its
    series from more than one position: an openings file, random opening plies, or a game
    whose setup the seed draws."""
    if from_file(settings) or settings.opening_plies > 0:
        return True
    kind = stored_game_type(game)  # an unknown game: no replay possible
    return kind is not None and kind.chance


def stored_game_type(game: str) -> GameType | None:
    """The ``GameType`` of a stored tournament's ``game`` (its name), or ``None`` for a game
    not installed here (a store of a plug-in): the reports then assume no chance."""
    import arena.games

    try:
        return arena.games.game_class(game).type
    except ArenaError:
        return None


def positions(source: Results, games: pd.DataFrame, tournament: dict[str, Any], settings: Settings) -> Positions:
    """The start position of every row of ``games`` (the store's games frame: ``series``,
    ``seed``) of the tournament ``tournament`` (its ``game`` and ``params``) stored in ``source``.

    Raises:
        ResultsError: unreadable database.
        ArenaError: a stored opening that no longer replays (a changed game).
    """
    series = games["series"].to_numpy(np.int64)
    if settings.openings:
        lines = list(dict.fromkeys(settings.openings))
        index = {text: i for i, text in enumerate(lines)}
        starts = source.series_starts(np.unique(series).tolist())  # a series stored without its start: computed
        for text in starts.values():
            if text is not None and text not in index:
                index[text] = len(lines)
                lines.append(text)
        code = np.array([index.get(starts[int(s)] or "", -1) for s in series], dtype=np.int64)
        return Positions(code, lines, "file")
    return _reached(source, games, tournament)


def _reached(source: Results, games: pd.DataFrame, tournament: dict[str, Any]) -> Positions:
    """Positions after each game's seeded setup (a game of chance only: else the setup is
    fixed) and opening plies, replayed once per distinct start."""
    import arena.games

    game = arena.games.make(tournament["game"], **(tournament.get("params") or {}))
    chance = game.type.chance
    start = {gid: (int(seed) if chance else 0, opening) for gid, seed, opening in source.game_openings()}
    text_of: dict[tuple[int, str], str] = {}
    for seed, opening in dict.fromkeys(start.values()):
        state = game.initial_state(seed if chance else None)
        for ply in json.loads(opening):
            state = state.play(game.parse_move(state, ply))
        text_of[(seed, opening)] = state.to_text()
    keys = [text_of[start[int(g)]] for g in games["game_id"]]
    code, texts = pd.factorize(pd.Series(keys, dtype=object), sort=False)
    return Positions(code.astype(np.int64), [str(t) for t in texts], "reached")


def openings_table(games: pd.DataFrame, code: np.ndarray, texts: Sequence[str],
                   order: Sequence[str] | None = None, per_series: int | None = None) -> pd.DataFrame:
    """The per-position table (module doc) of ``games`` (the store's games frame, one row per
    game; a ``copy`` column drops copies), ``code`` the 0-based position of each row in
    ``texts`` (-1: unknown, left out). ``per_series``: games in a complete series (default:
    the seat count, cyclic rotation).

    Returns:
        one row per position played, in position order: ``position`` (1-based), ``start``,
        ``games``, ``series``, then (two players) ``wins``, ``losses``, ``draws`` of seat 0,
        ``score``, ``score_low``, ``score_high``, ``bias``, ``win_share``, ``ci_low``,
        ``ci_high``, or (k > 2) ``seat``, ``score``, ``score_low``, ``score_high``, ``bias``,
        ``seat_scores``; then ``p_value``, ``p_holm``, ``flagged``, ``draw_rate``,
        ``decisive_pairs``, ``variance_share``. Fractions in [0, 1]. ``games`` counts distinct
        games (the seat figures' n); ``decisive_pairs`` and ``variance_share`` count every
        stored game of a complete series, copies included (a copy is a real game of its pair).
    """
    keep = np.asarray(code) >= 0
    sizes = seat_sizes(games)
    if not (sizes[keep] >= 2).any():
        return pd.DataFrame(columns=_columns(2))
    k = int(pd.Series(sizes[keep & (sizes >= 2)]).mode().iloc[0])
    keep &= sizes == k
    sub, pos = games[keep], np.asarray(code)[keep]
    copy = sub["copy"].to_numpy(bool) if "copy" in sub.columns else np.zeros(len(sub), bool)
    sr = seat_results(sub, order)
    row = pd.Series(np.arange(len(sub)), index=sub["game_id"].to_numpy()).reindex(sr["game_id"].to_numpy()).to_numpy()
    seat = sr["seat"].to_numpy(np.int64)
    points, firsts = np.zeros((len(sub), k)), np.zeros((len(sub), k))
    points[row, seat] = sr["points"].to_numpy(float)
    firsts[row, seat] = sr["first_share"].to_numpy(float)
    shared = (firsts > 0).sum(axis=1) > 1
    pairing = np.empty(len(sub), dtype=object)
    pairing[row] = sr["pairing"].to_numpy()
    cluster = pd.factorize(pd.Series(pairing.astype(str)) + "|" + pd.Series(sub["series"].to_numpy()).astype(str))[0]
    spread = _series_spread(sr, row, pos, cluster, per_series or k)  # pairs: every game, copies too
    rows = []
    for p in np.unique(pos):
        at = (pos == p) & ~copy  # seat figures: distinct games
        if not at.any():
            at = pos == p
        rows.append({"position": int(p) + 1, "start": texts[p], "games": int(at.sum()),
                     "series": int(len(np.unique(cluster[pos == p]))),
                     **(_two(points[at, 0], cluster[at]) if k == 2 else _many(points[at], firsts[at], cluster[at])),
                     "draw_rate": float(shared[at].mean()), **spread.get(int(p), _NO_SPREAD)})
    table = pd.DataFrame(rows, columns=_columns(k))
    total = table["variance_share"].sum()
    table["variance_share"] = table["variance_share"] / total if total > 0 else math.nan
    table["p_holm"] = holm(table["p_value"].tolist())
    table["flagged"] = table["p_holm"] < ALPHA
    return table


def _columns(k: int) -> list[str]:
    seat = (["wins", "losses", "draws", "score", "score_low", "score_high", "bias", "win_share", "ci_low", "ci_high"]
            if k == 2 else ["seat", "score", "score_low", "score_high", "bias", "seat_scores"])
    return ["position", "start", "games", "series", *seat, "p_value", "p_holm", "flagged", "draw_rate",
            "decisive_pairs", "variance_share"]


_NO_SPREAD = {"decisive_pairs": math.nan, "variance_share": 0.0}


def _two(seat0: np.ndarray, cluster: np.ndarray) -> dict[str, Any]:
    """Seat 0's figures at one position of a 2-player game."""
    wins, draws, losses = int((seat0 == 1).sum()), int((seat0 == 0.5).sum()), int((seat0 == 0).sum())
    score, low, high, _ = cluster_mean(seat0.tolist(), cluster.tolist(), bounds=SHARE)
    ci_low, ci_high = wilson_interval(wins, wins + losses)
    return {"wins": wins, "losses": losses, "draws": draws, "score": score, "score_low": low, "score_high": high,
            "bias": score - 0.5, "win_share": wins / (wins + losses) if wins + losses else math.nan,
            "ci_low": ci_low, "ci_high": ci_high, "p_value": binomial_test(wins, wins + losses, 0.5)}


def _many(points: np.ndarray, firsts: np.ndarray, cluster: np.ndarray) -> dict[str, Any]:
    """The figures of the seat furthest from ½ at one position of a k-player game."""
    means = points.mean(axis=0)
    seat = int(np.argmax(np.abs(means - 0.5)))
    score, low, high, _ = cluster_mean(points[:, seat].tolist(), cluster.tolist(), bounds=SHARE)
    return {"seat": seat, "score": score, "score_low": low, "score_high": high, "bias": score - 0.5,
            "seat_scores": " ".join(f"{m:.3f}" for m in means),
            "p_value": equal_shares_test(firsts.sum(axis=0).tolist()).p_value}


def _series_spread(sr: pd.DataFrame, row: np.ndarray, pos: np.ndarray, cluster: np.ndarray,
                   per_series: int) -> dict[int, dict[str, float]]:
    """Per position: ``decisive_pairs`` (share of its complete series in which the bots did
    not all score the same) and ``variance_share`` before normalising (the sum over its
    complete series of Σ_bots (bot's mean points in the series − its mean over the pairing's
    complete series)²)."""
    frame = pd.DataFrame({"cluster": cluster[row], "pairing": sr["pairing"].to_numpy(),
                          "label": sr["label"].to_numpy(), "points": sr["points"].to_numpy(float),
                          "pos": pos[row]})
    size = frame.groupby("cluster")["points"].transform("size") / frame.groupby("cluster")["label"].transform("nunique")
    frame = frame[size.to_numpy() == per_series]
    if frame.empty:
        return {}
    per = frame.groupby(["cluster", "label"], sort=False).agg(points=("points", "mean"), pairing=("pairing", "first"),
                                                               pos=("pos", "first")).reset_index()
    per["dev"] = per["points"] - per.groupby(["pairing", "label"])["points"].transform("mean")
    series = per.groupby("cluster").agg(pos=("pos", "first"), lo=("points", "min"), hi=("points", "max"),
                                        ss=("dev", lambda d: float((d ** 2).sum())))
    series["decisive"] = (series["hi"] - series["lo"]) > 1e-9
    out = series.groupby("pos").agg(decisive_pairs=("decisive", "mean"), variance_share=("ss", "sum"))
    return {int(p): {"decisive_pairs": float(r.decisive_pairs), "variance_share": float(r.variance_share)}
            for p, r in out.iterrows()}


@dataclass(frozen=True)
class Selection:
    """A balanced subset of a tournament's start positions.

    Attributes:
        kept: the rows of the openings table kept, in position order.
        dropped: why the others were left out: ``(position, reason)`` pairs.
        draw_rate: the pooled draw rate of the kept positions' games.
    """

    kept: pd.DataFrame
    dropped: list[tuple[int, str]]
    draw_rate: float


def select(table: pd.DataFrame, max_bias: float, min_games: int, keep_flagged: bool = False,
           target_draw_rate: float | None = None) -> Selection:
    """The positions of ``table`` (``openings_table``) with at least ``min_games`` games,
    ``|bias| <= max_bias`` (a score fraction: 0.1 keeps seat scores of 40-60%) and, unless
    ``keep_flagged``, no significant bias. With ``target_draw_rate`` the positions whose draw
    rate lies furthest on the wrong side of the target are then dropped one at a time (the
    drawiest when the kept games draw more often than the target, the least drawish when
    less), until the kept games' pooled draw rate reaches the target or one position is left:
    the largest such subset.

    Raises:
        ConfigError: a bound out of range (max_bias in [0, 0.5], min_games >= 1,
            target_draw_rate in [0, 1]), or no position passes (the message says the closest).
    """
    if not 0 <= max_bias <= 0.5 or not math.isfinite(max_bias):
        raise ConfigError(f"bad --max-bias {max_bias!r}; accepted: a score fraction from 0 to 0.5 (0.1: seat scores "
                          "of 40-60%)")
    if min_games < 1:
        raise ConfigError(f"bad --min-games {min_games!r}; accepted: a whole number >= 1")
    if target_draw_rate is not None and not 0 <= target_draw_rate <= 1:
        raise ConfigError(f"bad --target-draw-rate {target_draw_rate!r}; accepted: a fraction from 0 to 1")
    dropped: list[tuple[int, str]] = []
    kept = []
    for r in table.itertuples(index=False):
        if r.games < min_games:
            dropped.append((r.position, f"{r.games} games < {min_games}"))
        elif not abs(r.bias) <= max_bias:
            dropped.append((r.position, f"|bias| {abs(r.bias):.3f} > {max_bias:g}"))
        elif r.flagged and not keep_flagged:
            dropped.append((r.position, f"significant bias (Holm p = {format_p(r.p_holm)})"))
        else:
            kept.append(r.position)
    if not kept:
        raise ConfigError(f"no start position passes --max-bias {max_bias:g} and --min-games {min_games} "
                          f"(of {len(table)}; smallest |bias| {table['bias'].abs().min():.3f}, most games "
                          f"{int(table['games'].max()) if len(table) else 0})")
    rows = table[table["position"].isin(kept)]
    if target_draw_rate is not None:
        rows, more = _towards(rows, target_draw_rate)
        dropped += more
    draws = float((rows["draw_rate"] * rows["games"]).sum() / rows["games"].sum())
    return Selection(rows.reset_index(drop=True), sorted(dropped), draws)


def _towards(rows: pd.DataFrame, target: float) -> tuple[pd.DataFrame, list[tuple[int, str]]]:
    """Drop positions from the wrong side of ``target`` (later positions first among equal
    draw rates) until the pooled draw rate reaches it or one position is left."""
    def pooled(frame: pd.DataFrame) -> float:
        return float((frame["draw_rate"] * frame["games"]).sum() / frame["games"].sum())

    dropped = []
    rate = pooled(rows)
    high = rate > target
    while len(rows) > 1 and (rate > target if high else rate < target):
        worst = rows.sort_values(["draw_rate", "position"], ascending=[not high, False]).iloc[0]
        rows = rows[rows["position"] != worst["position"]]
        dropped.append((int(worst["position"]), f"draw rate {worst['draw_rate']:.3f}, target {target:g}"))
        rate = pooled(rows)
    return rows, dropped


def book_text(selection: Selection, header: Sequence[str]) -> str:
    """An openings file (``arena.tournament.series.read_openings``) of the selection: the
    ``header`` lines as ``# `` comments, then one position a line."""
    lines = [f"# {h}" for h in header] + [str(s) for s in selection.kept["start"]]
    return "\n".join(lines) + "\n"
