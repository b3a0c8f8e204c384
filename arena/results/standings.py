"""Standings of the formats that decide their pairings from results: the knockout bracket and
the Swiss table (``docs/tournaments.md`` "Knockout and Swiss"). The schedules that play them
(``arena.tournament.formats``) and the reports that show them (``arena.reports.render``) both
read the stored games through these functions, so a report's bracket is the one that was played.

A game counts as ``points`` for a bot: 1 for first place alone, 1/2 for a shared first place, 0
below (two-player games). Only complete series count (a series' games all stored).

**Knockout** (``knockout``): the field in seed order (``--bot`` order, seed 1 first) is placed in
a bracket of the next power of two by the standard seeding (seed 1 meets the lowest seed, and
seeds 1 and 2 can only meet in the final); a slot without a bot is a bye, which the top seeds
get. A match is ``base`` series (``--games`` rounded up to whole series); a tied match plays one
more series at a time, at most ``extra``; still tied, the higher seed goes through (the
documented tie-break).

**Swiss** (``swiss_rounds``): each round pairs the bots by match points (a pairing won 1, drawn
1/2, lost 0; a bye 1) then seed: the first bot not yet paired meets the highest-placed bot it
has not met, backtracking when the rest cannot be paired without a repeat (the Monrad rule, with
no repeat pairings). With an odd field, before pairing, the lowest-placed bot that has had no bye
gets the bye. Each pairing plays whole series (every bot one game in each seat per series), so
seat counts stay equal. The table ranks by match points, then Buchholz (the sum of the match
points of the bots met), then game points, then seed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from arena.results.records import StoredGame

#: the most series a tied knockout match adds, one at a time, before the tie-break
KNOCKOUT_EXTRA = 2


#: One stored game as standings read it: the store's record (0-based series; labels and ranks by seat).
Played = StoredGame


def points(label: str, seats: Sequence[str], ranks: Sequence[int]) -> float:
    """``label``'s points in one game: 1 first alone, 1/2 first shared, 0 below."""
    rank = int(ranks[list(seats).index(label)])
    return 0.0 if rank != 1 else 1.0 / sum(1 for r in ranks if int(r) == 1)


@dataclass
class Tally:
    """The complete series of one pairing: how many, and each bot's points over them."""

    series: int = 0
    points: dict[str, float] = field(default_factory=dict)


def tallies(games: Iterable[Played], per_series: int) -> dict[frozenset[str], Tally]:
    """Per pairing (the set of its two labels): its complete series (``per_series`` games
    stored each, counted from series 0 up while they are complete) and each bot's points."""
    by_series: dict[frozenset[str], dict[int, list[Played]]] = defaultdict(lambda: defaultdict(list))
    for g in games:
        by_series[frozenset(g.seats)][g.series].append(g)
    out: dict[frozenset[str], Tally] = {}
    for pair, series in by_series.items():
        tally = Tally(points={label: 0.0 for label in pair})
        while len(series.get(tally.series, ())) >= per_series:
            for g in series[tally.series]:
                for label in pair:
                    tally.points[label] += points(label, g.seats, g.ranks)
            tally.series += 1
        out[pair] = tally
    return out


# knockout ---------------------------------------------------------------------------------------

def seed_order(size: int) -> list[int]:
    """0-based seeds in bracket order for a bracket of ``size`` (a power of two): slot ``2i``
    meets slot ``2i + 1`` in the first round (8: 0 7 3 4 1 6 2 5)."""
    order = [0]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n - 1 - seed)]
    return order


@dataclass(frozen=True)
class Match:
    """One knockout match.

    Attributes:
        round: 0-based round (the last is the final). slot: 0-based place in its round.
        index: 0-based place among all matches (round by round), which numbers its games.
        a, b: the higher and lower seed (``None`` while the match feeding it is undecided; ``b``
            ``None`` in a decided match: ``a`` had a bye).
        series: complete series played. points: ``a``'s and ``b``'s points over them.
        winner: who goes through (``None``: undecided). how: ``bye``, ``games``, ``tie-break``.
    """

    round: int
    slot: int
    index: int
    a: str | None
    b: str | None
    series: int = 0
    points: tuple[float, float] = (0.0, 0.0)
    winner: str | None = None
    how: str = ""

    @property
    def ready(self) -> bool:
        """Both bots known and the match not decided: it has series to play."""
        return self.a is not None and self.b is not None and self.winner is None


def knockout(labels: Sequence[str], games: Iterable[Played], base: int, per_series: int,
             extra: int = KNOCKOUT_EXTRA) -> list[Match]:
    """Every match of the bracket of ``labels`` (seed order) as the stored ``games`` decide
    it, round by round (see the module doc). ``base``: series per match; ``per_series``:
    games per series."""
    seeds = {label: i for i, label in enumerate(labels)}
    size = 1
    while size < len(labels):
        size *= 2
    order = seed_order(size)
    slots: list[str | None] = [labels[s] if s < len(labels) else None for s in order]
    played = tallies(games, per_series)
    matches: list[Match] = []
    rnd = 0
    while len(slots) > 1:
        winners: list[str | None] = []
        for slot in range(len(slots) // 2):
            x, y = slots[2 * slot], slots[2 * slot + 1]
            match = _decide(rnd, slot, len(matches), x, y, seeds, played, base, extra)
            matches.append(match)
            winners.append(match.winner)
        slots, rnd = winners, rnd + 1
    return matches


def _decide(rnd: int, slot: int, index: int, x: str | None, y: str | None, seeds: dict[str, int],
            played: dict[frozenset[str], Tally], base: int, extra: int) -> Match:
    """One match of the bracket (a first-round slot without a bot is a bye)."""
    if rnd == 0 and (x is None or y is None):  # a bye: the bot present goes through
        bot = x if x is not None else y
        return Match(rnd, slot, index, bot, None, winner=bot, how="bye")
    if x is None or y is None:
        return Match(rnd, slot, index, x, y)
    a, b = sorted((x, y), key=lambda label: seeds[label])
    tally = played.get(frozenset((a, b)), Tally(points={a: 0.0, b: 0.0}))
    pa, pb = tally.points.get(a, 0.0), tally.points.get(b, 0.0)
    winner, how = None, ""
    if tally.series >= base and pa != pb:
        winner, how = (a if pa > pb else b), "games"
    elif tally.series >= base + extra:
        winner, how = a, "tie-break"  # still tied: the higher seed
    return Match(rnd, slot, index, a, b, tally.series, (pa, pb), winner, how)


def champion(matches: Sequence[Match]) -> str | None:
    """The knockout's winner (the final's), or ``None`` while it is undecided."""
    return matches[-1].winner if matches else None


# swiss ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SwissRound:
    """One Swiss round: its pairings (higher-placed bot first) and the bot with the bye (or ``None``)."""

    pairings: tuple[tuple[str, str], ...]
    bye: str | None = None


@dataclass
class SwissState:
    """The rounds paired so far (the last may be under way) and the standings after the
    complete ones (``table``); ``complete``: how many rounds are complete."""

    rounds: list[SwissRound]
    complete: int
    table: list[dict]


def _match_points(mine: float, theirs: float) -> float:
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def swiss_rounds(labels: Sequence[str], games: Iterable[Played], rounds: int, base: int,
                 per_series: int) -> SwissState:
    """The Swiss rounds of ``labels`` (seed order) as the stored ``games`` decide them (module
    doc): round ``r`` is paired once rounds ``0 .. r-1`` are complete (``base`` series of
    ``per_series`` games stored for each of their pairings), up to ``rounds``."""
    seeds = {label: i for i, label in enumerate(labels)}
    played = tallies(games, per_series)
    out: list[SwissRound] = []
    mp = dict.fromkeys(labels, 0.0)
    gp = dict.fromkeys(labels, 0.0)
    met: dict[str, list[str]] = {label: [] for label in labels}
    byes: set[str] = set()
    complete = 0
    while len(out) < rounds:
        placed = sorted(labels, key=lambda b: (-mp[b], seeds[b]))
        bye = None
        if len(placed) % 2:
            bye = next(b for b in reversed(placed) if b not in byes)
            placed.remove(bye)
        pairs = _pair(placed, {frozenset((b, o)) for b in labels for o in met[b]})
        if pairs is None:  # no pairing without a repeat (more rounds than the field allows)
            break
        out.append(SwissRound(tuple(pairs), bye))
        done = [played.get(frozenset(p)) for p in pairs]
        if not all(t is not None and t.series >= base for t in done):
            break
        for (a, b), tally in zip(pairs, done):
            assert tally is not None
            mp[a] += _match_points(tally.points[a], tally.points[b])
            mp[b] += _match_points(tally.points[b], tally.points[a])
            gp[a] += tally.points[a]
            gp[b] += tally.points[b]
            met[a].append(b)
            met[b].append(a)
        if bye is not None:
            mp[bye] += 1.0
            byes.add(bye)
        complete += 1
    buchholz = {b: sum(mp[o] for o in met[b]) for b in labels}
    ranked = sorted(labels, key=lambda b: (-mp[b], -buchholz[b], -gp[b], seeds[b]))
    table = [{"rank": i + 1, "bot": b, "points": mp[b], "buchholz": buchholz[b], "game_points": gp[b],
              "rounds": complete, "byes": int(b in byes), "opponents": " ".join(met[b])}
             for i, b in enumerate(ranked)]
    return SwissState(out, complete, table)


def _pair(placed: list[str], met: set[frozenset[str]]) -> list[tuple[str, str]] | None:
    """Pairs of ``placed`` (in order), no pair in ``met``: the first meets the highest-placed it
    has not met, backtracking; ``None`` when there is no such pairing."""
    if not placed:
        return []
    first, rest = placed[0], placed[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        tail = _pair(rest[:i] + rest[i + 1:], met)
        if tail is not None:
            return [(first, other), *tail]
    return None


def default_rounds(bots: int) -> int:
    """Swiss rounds when ``--rounds`` is not given: ceil(log2(bots)), at most half the field."""
    return max(1, min((bots - 1).bit_length(), bots // 2))
