"""One rating table over several tournaments (``arena report --across A,B,...``;
``docs/how-to/across.md``), of one game or of several.

**The same bot across tournaments.** A bot is its identity and version as each store keeps it
(``arena.tournament.members``: the canonical spec and a digest of its code, the ``digest`` of
the ``bots`` table): two tournaments' bots with the same digest are one bot, whatever their
labels; two bots of one label with different digests are two (the later one shown as
``LABEL (TOURNAMENT)``). A bot stored before versions (no digest) is known by its label.

**Games to pairwise results.** Every game of two or more seats gives one result for each pair of
its seats: the better place scores 1, the worse 0, a shared place ½ each (a 2-player game is its
own result; seat 0 of the pair is the earlier seat). A game of ``k`` seats gives ``k − 1``
results to each of its bots, so each result of such a game weighs ``1/(k − 1)``: every game
weighs the same for each of its bots. A pair of seats held by the same bot carries no
information and is left out; so are 1-seat games (puzzles).

**Weights** (``--weights``): ``games``, each game weighs one (the fit is the field table's fit of
all the games together); ``equal``, each tournament weighs the same: the games of tournament
``t`` weigh ``N / (T·n_t)`` each (``N`` games in all, ``T`` tournaments, ``n_t`` of ``t``), so
the weights still sum to ``N`` and the prior keeps its strength.

**Fit and intervals** are the field table's (``arena.stats.field``, ``arena.stats.weighted``):
Bradley–Terry with draws as half points, one first-move term pooled over all the games, one
virtual draw between every two bots that met, mean 0 (or ``--anchor``); BCa intervals and CFS
from 500 bootstrap fits over series (a series is the games of one start with the seats rotated,
within one tournament), seeded with the first tournament's seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from arena.errors import ConfigError
from arena.reports.coded import codes, matrix, seat_sizes
from arena.stats import field as fs
from arena.stats.weighted import WeightedDuels, intervals

#: the ``--weights`` choices
WEIGHTS = ("equal", "games")
COLUMNS = ["rank", "label", "elo", "elo_low", "elo_high", "games", "score", "av_op", "draw_ratio", "cfs",
           "tournaments"]


@dataclass(frozen=True)
class Source:
    """One tournament of the table: its ``name``, database ``path``, ``game``, ``seed``, the
    games (``seats``, ``ranks``, ``series``), ``versions`` (label -> ``bot``, ``version``,
    ``digest``) and its bots' labels in field ``order``."""

    name: str
    path: Path
    game: str
    seed: int
    games: pd.DataFrame
    versions: dict[str, dict[str, Any]]
    order: list[str]


def read_sources(names: Sequence[str], results: str | Path) -> list[Source]:
    """The tournaments named (or given by path), read-only.

    Raises:
        ConfigError: none named, or one named twice.
        ResultsError: a tournament that does not exist or cannot be read.
    """
    from arena.reports.order import in_field_order
    from arena.results import aggregates, store
    from arena.results.files import resolve

    if not names:
        raise ConfigError("--across needs tournaments: --across A,B,... (names under --results, or database paths)")
    paths = [resolve(name, results) for name in names]
    seen: dict[Path, str] = {}
    for name, path in zip(names, paths):
        if path.resolve() in seen:
            raise ConfigError(f"--across names {seen[path.resolve()]!r} and {name!r}: the same tournament twice")
        seen[path.resolve()] = name
    out = []
    for path in paths:
        conn = store.connect_readonly(path)
        try:
            games = aggregates.load_game_frame(conn, codes=False, seconds=False)
            tour = in_field_order(store.load_tournament(conn))
        finally:
            conn.close()
        versions = tour.get("versions") or {}
        out.append(Source(str(tour.get("name") or path.stem), path, str(tour.get("game", "")),
                          int(tour.get("seed") or 1), games, versions, list((tour.get("bots") or {}).keys())))
    named = [s.name for s in out]  # two folders' tournaments of one name: each by its path
    return [s if named.count(s.name) == 1 else replace(s, name=str(s.path)) for s in out]


def bot_names(sources: Sequence[Source]) -> tuple[list[dict[str, str]], list[str], list[str]]:
    """Each tournament's labels -> the table's bot names, the names in order of first
    appearance, and one note per bot met under two labels or per label shared by two bots."""
    key_name: dict[Any, str] = {}
    name_key: dict[str, Any] = {}
    maps: list[dict[str, str]] = []
    notes: list[str] = []
    for s in sources:
        played = {lab for v in codes(s.games, "seats")[1] for lab in v}
        mapping: dict[str, str] = {}
        for label in [*s.order, *sorted(played - set(s.order))]:
            digest = (s.versions.get(label) or {}).get("digest")
            key = ("digest", digest) if digest else ("label", label)
            if key in key_name:
                name = key_name[key]
                if name != label:
                    notes.append(f"{label} of {s.name} is {name}: the same spec and code")
            else:
                name = label if label not in name_key else f"{label} ({s.name})"
                if name != label:
                    notes.append(f"{label} of {s.name} is not the {label} met before (another spec or code): "
                                 f"shown as {name}")
                key_name[key], name_key[name] = name, key
            mapping[label] = name
        maps.append(mapping)
    return maps, list(name_key), notes


@dataclass
class Pairwise:
    """Pairwise results of every tournament's games (``pairwise``), one entry each: the bots'
    indexes into ``names``, seat 0's ``points``, the ``series`` key and the ``weight``; per bot
    ``games`` (games played) and the ``tournaments`` it played in; ``left_out`` notes; ``rated``:
    the games of two or more seats."""

    names: list[str]
    seat0: np.ndarray
    seat1: np.ndarray
    points: np.ndarray
    series: np.ndarray
    weight: np.ndarray
    games: np.ndarray
    tournaments: list[list[str]]
    left_out: list[str] = field(default_factory=list)
    rated: int = 0


def pairwise(sources: Sequence[Source], maps: Sequence[dict[str, str]], names: list[str],
             weights: str = "equal") -> Pairwise:
    """The games of ``sources`` as pairwise results (module docstring), weighted by ``weights``.

    Raises:
        ConfigError: ``weights`` not one of ``WEIGHTS``.
    """
    if weights not in WEIGHTS:
        raise ConfigError(f"--weights {weights!r}; accepted: {', '.join(WEIGHTS)}")
    index = {name: i for i, name in enumerate(names)}
    rated = [int((seat_sizes(s.games) >= 2).sum()) for s in sources]
    total, count = sum(rated), sum(1 for n in rated if n)
    parts: list[tuple[np.ndarray, ...]] = []
    games = np.zeros(len(names), np.int64)
    where: list[set[str]] = [set() for _ in names]
    left: list[str] = []
    offset = 0  # series keys of each (tournament, seat count) apart from the others'
    for s, mapping, n_s in zip(sources, maps, rated):
        if not n_s:
            left.append(f"{s.name}: no game of two or more seats")
            continue
        per_game = 1.0 if weights == "games" else total / (count * n_s)
        sizes = seat_sizes(s.games)
        sc, sv = codes(s.games, "seats")
        rc, rv = codes(s.games, "ranks")
        ids = [[index[mapping[lab]] for lab in v] for v in sv]
        for k in sorted(set(sizes.tolist()) - {0, 1}):
            rows = np.flatnonzero(sizes == k)
            bots = np.array([v + [-1] * (k - len(v)) for v in ids], np.int64)[sc[rows]][:, :k]
            ranks = matrix(rv, k, np.int64)[rc[rows]]
            for b in range(k):
                np.add.at(games, bots[:, b], 1)
                for i in np.unique(bots[:, b]).tolist():
                    where[i].add(s.name)
            key = np.c_[np.sort(bots, axis=1), s.games["series"].to_numpy(np.int64)[rows]]
            series = np.unique(key, axis=0, return_inverse=True)[1].ravel() + offset
            offset += len(rows)
            for a in range(k):
                for b in range(a + 1, k):
                    keep = bots[:, a] != bots[:, b]
                    pts = np.where(ranks[:, a] < ranks[:, b], 1.0, np.where(ranks[:, a] == ranks[:, b], 0.5, 0.0))
                    parts.append((bots[keep, a], bots[keep, b], pts[keep], series[keep],
                                  np.full(int(keep.sum()), per_game / (k - 1))))
                    if not keep.all():
                        left.append(f"{s.name}: {int((~keep).sum())} pair(s) of seats held by one bot (no result)")
    cols = [np.concatenate(c) for c in zip(*parts)] if parts else [np.zeros(0)] * 5
    return Pairwise(names, cols[0].astype(np.int64), cols[1].astype(np.int64), cols[2], cols[3].astype(np.int64),
                    cols[4], games, [[s.name for s in sources if s.name in w] for w in where], sorted(set(left)), total)


@dataclass
class AcrossFit:
    """The table's fit: ``labels`` (bots with a pairwise result, in order of first appearance),
    ``duels``, ``boot`` (``None`` with ``reason``), and the ``pairwise`` results it came from."""

    labels: tuple[str, ...]
    duels: WeightedDuels | None
    boot: fs.Bootstrap | None
    pairwise: Pairwise
    reason: str = ""


def fit_across(pw: Pairwise, seed: int = 1, replicates: int = fs.REPLICATES) -> AcrossFit:
    """Fit ``pw`` as the field table fits 2-player games (weighted), bootstrap seeded by ``seed``."""
    used = sorted(set(pw.seat0.tolist()) | set(pw.seat1.tolist()))
    labels = tuple(pw.names[i] for i in used)
    if len(labels) < 2:
        return AcrossFit(labels, None, None, pw, "fewer than two bots with a rated game")
    at = {old: new for new, old in enumerate(used)}
    remap = np.vectorize(at.__getitem__, otypes=[np.int64])
    duels = WeightedDuels.from_weighted(labels, remap(pw.seat0), remap(pw.seat1), pw.points, pw.series, pw.weight)
    try:
        boot = fs.bootstrap(duels, replicates, seed)
    except fs.NotConnected as exc:
        return AcrossFit(labels, duels, None, pw, f"{exc} (tournaments that share no bot have no common scale)")
    return AcrossFit(labels, duels, boot, pw)


def across_table(fit: AcrossFit, anchor: tuple[str, float] | None = None) -> pd.DataFrame:
    """One row per bot, best first (``COLUMNS``: Elo with its 95% interval, games, the weighted
    score, average opponent and draw share of its pairwise results, CFS, its tournaments), then
    the ``(first move)`` row; without a fit, the bots without Elo.

    Raises:
        ConfigError: an anchor that is no bot of the table.
    """
    pw, labels, k = fit.pairwise, fit.labels, len(fit.labels)
    idx = [pw.names.index(lab) for lab in labels]
    at, value = None, 0.0
    if anchor is not None:
        if anchor[0] not in labels:
            raise ConfigError(f"--anchor {anchor[0]}={anchor[1]:g}: no bot {anchor[0]!r} in the table; "
                              f"accepted: {', '.join(labels)}")
        at, value = labels.index(anchor[0]), anchor[1]
    pos = {g: i for i, g in enumerate(idx)}
    a = np.array([pos[i] for i in pw.seat0.tolist()], np.int64)
    b = np.array([pos[i] for i in pw.seat1.tolist()], np.int64)
    w = pw.weight
    total = np.bincount(a, w, k) + np.bincount(b, w, k)
    points = np.bincount(a, w * pw.points, k) + np.bincount(b, w * (1 - pw.points), k)
    drawn = w * (pw.points == 0.5)
    draws = np.bincount(a, drawn, k) + np.bincount(b, drawn, k)
    base = {"label": list(labels), "games": pw.games[idx], "score": points / np.maximum(total, 1e-300),
            "draw_ratio": draws / np.maximum(total, 1e-300),
            "tournaments": [", ".join(pw.tournaments[i]) for i in idx]}
    if fit.boot is None or fit.duels is None:
        rows = pd.DataFrame({"rank": pd.array([pd.NA] * k, dtype="Int64"), **base, "elo": math.nan,
                             "elo_low": math.nan, "elo_high": math.nan, "av_op": math.nan, "cfs": math.nan})
        return rows[COLUMNS]
    elo = fs.anchored(fit.boot.estimate[:k], at, value)
    low, high = intervals(fit.duels, fit.boot, at, value)
    los = fs.los_matrix(fs.anchored(fit.boot.replicates[:, :k], at, value))
    order = fs.ranking(elo, labels)
    opp = (np.bincount(a, w * elo[b], k) + np.bincount(b, w * elo[a], k)) / np.maximum(total, 1e-300)
    cfs = np.full(k, np.nan)
    cfs[order[:-1]] = los[order[:-1], order[1:]]
    table = pd.DataFrame({key: np.asarray(v, dtype=object)[order] if key in ("label", "tournaments")
                          else np.asarray(v)[order] for key, v in base.items()})
    table.insert(0, "rank", np.arange(1, k + 1))
    table["elo"], table["elo_low"], table["elo_high"] = elo[order], low[:k][order], high[:k][order]
    table["av_op"], table["cfs"] = opp[order], cfs[order]
    first = pd.DataFrame({"label": ["(first move)"], "elo": [fit.boot.estimate[k]], "elo_low": [low[k]],
                          "elo_high": [high[k]], "games": [pw.rated]})
    table = pd.concat([table[COLUMNS], first], ignore_index=True)
    table["rank"] = table["rank"].astype("Int64")
    table["games"] = table["games"].astype("Int64")
    return table[COLUMNS]


def note(fit: AcrossFit, sources: Sequence[Source], weights: str, anchor: tuple[str, float] | None) -> list[str]:
    """The lines under the table: what was fitted, the weights, the bootstrap."""
    pw = fit.pairwise
    named = ", ".join(f"{s.name} ({s.game}, {len(s.games)} games)" for s in sources)
    weighing = ("each game weighs one" if weights == "games"
                else "each tournament weighs the same (its games N/(T·n) each)")
    count = f"{len(sources)} tournament{'' if len(sources) == 1 else 's'}"
    lines = [f"One table over {count}: {named}; {weighing}; an n-player game gives one "
             "result per pair of its seats, each weighing 1/(n-1)."]
    if fit.boot is None:
        return [*lines, f"no fit: {fit.reason}"]
    anchored_at = f"{anchor[0]} anchored at {anchor[1]:g}" if anchor else "mean 0"
    lines.append(f"Elo: Bradley-Terry, draws half a point, one first-move term over all the games, "
                 f"{fs.PRIOR_DRAWS:g} virtual draw between every two bots that met as prior, {anchored_at}. "
                 f"95% intervals (BCa) and CFS from {len(fit.boot.replicates)} bootstrap fits over series "
                 f"(seed {fit.boot.seed}). See docs/how-to/across.md.")
    return [*lines, *pw.left_out]


def across_report(names: Sequence[str], results: str | Path, weights: str = "equal",
                  anchor: tuple[str, float] | None = None) -> tuple[pd.DataFrame, list[str], list[Source]]:
    """The table of ``names`` (tournament names under ``results`` or database paths), its lines
    (identity notes, then ``note``'s) and the tournaments read.

    Raises:
        ConfigError: bad ``names``, ``weights`` or ``anchor``.
        ResultsError: a tournament that does not exist or cannot be read.
    """
    if weights not in WEIGHTS:
        raise ConfigError(f"--weights {weights!r}; accepted: {', '.join(WEIGHTS)}")
    sources = read_sources(names, results)
    maps, order, identity = bot_names(sources)
    fit = fit_across(pairwise(sources, maps, order, weights), sources[0].seed)
    return across_table(fit, anchor), [*identity, *note(fit, sources, weights, anchor)], sources


def shown(table: pd.DataFrame) -> tuple[pd.DataFrame, list[bool]]:
    """The table's cells as the field table shows them (``arena.reports.display``), with the
    tournaments each bot played in last."""
    from arena.reports.display import display_frame

    cells, right = display_frame("ratings", table.assign(version=1))
    cells = cells.assign(tournaments=table["tournaments"].fillna("-").astype(str).tolist())
    return cells, [*right, False]


def to_json(table: pd.DataFrame, lines: list[str], sources: Sequence[Source], weights: str) -> str:
    """``{"across": [{name, path, game, games}...], "weights": ..., "tables": {"across": rows},
    "notes": [...]}``; NaN as ``null``."""
    import json

    return json.dumps({"across": [{"name": s.name, "path": str(s.path), "game": s.game, "games": len(s.games)}
                                  for s in sources],
                       "weights": weights, "tables": {"across": json.loads(table.to_json(orient="records",
                                                                                        double_precision=15))},
                       "notes": lines}, indent=1)
