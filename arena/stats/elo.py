"""Two-bot match statistics as engine testers read them: pentanomial pair counts, Elo ± 95%,
nElo, LOS. Needs numpy only (no scipy, no pandas): the tournament's live line imports it
during a run.

Definitions (``docs/statistics.md`` "Two-player results: pairs (pentanomial)"):

- A **pair** is the two games of one series of a 2-player game (same start, seats swapped).
  From bot A's side a pair scores 0, ½, 1, 1½ or 2 points: the pentanomial counts
  ``[LL, LD, DD+WL, WD, WW]``.
- The **score** ``s`` is A's mean points per game over every game (pairs and leftover games).
- Its **variance** is estimated per pair (pentanomial) for complete pairs and per game
  (trinomial) for the leftover games of incomplete series:
  ``Var(S) = P·var(pair points) + U·var(game points)``, ``Var(s) = Var(S)/n²`` (``P`` pairs,
  ``U`` leftover games, ``n = 2P + U`` games). With no leftover games this is fastchess's
  ``EloPentanomial`` variance (pair score in [0, 1], variance / pairs); with no pairs it is
  fastchess's ``EloWDL`` (trinomial) variance.
- **Elo** (logistic): ``elo(s) = -400·log10(1/s - 1)``; the 95% interval is
  ``elo(s ± 1.959964·σ_s)`` and the ± figure half its width, as fastchess prints it.
- **nElo**: ``(s - ½) / σ_game · 800/ln 10`` with ``σ_game = √(n·Var(s))`` the per-game
  standard deviation; for pairs only this is fastchess's ``scoreToNeloDiff`` for the
  pentanomial model, ``(s - ½)/√(2·var_pair) · 800/ln 10`` (fastchess
  ``src/elo/elo_pentanomial.cpp``).
- **nElo error**: half the width of the 95% interval ``s ± 1.959964·σ_s`` mapped to nElo,
  ``1.959964 · (800/ln 10) / √n`` (n games): fastchess's ``neloerror_``, which is
  ``1.96 · (800/ln 10) / √(2·pairs)`` for pairs only and ``… / √games`` for single games.
- **LOS**: ``Φ((s - ½)/σ_s)`` (fastchess ``EloPentanomial::los``); with no complete pair, or
  with no spread seen (``σ_s = 0``), cutechess-cli's trinomial ``½ + ½·erf((W - L)/√(2(W + L)))``.
  ``z`` is the normal statistic behind it, ``LOS = Φ(z)``: the two-sided p-value
  ``2·Φ(−|z|)`` from it keeps its digits where ``1 − LOS`` would round to 0.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields

import numpy as np

#: Two-sided 95% normal quantile Φ⁻¹(0.975) (fastchess's ``CI95zscore``; scipy's
#: ``norm.ppf(0.975)`` to the last digit).
Z95 = 1.959963984540054
#: 800 / ln 10: the slope of the logistic Elo curve at s = ½, times 4 (nElo's scale).
NELO_SCALE = 800.0 / math.log(10.0)
#: Pair points (out of 2) of each pentanomial category, in ``[LL, LD, DD+WL, WD, WW]`` order.
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)


def elo_from_score(s: float) -> float:
    """Logistic Elo difference of a mean score ``s`` in [0, 1]: ``-400·log10(1/s - 1)``
    (±inf at 1 and 0; NaN for NaN). Source: the logistic Elo model, as cutechess-cli and
    fastchess (``scoreToEloDiff``)."""
    if not s == s:  # NaN
        return math.nan
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0) + 0.0  # no -0.0


def score_from_elo(elo: float) -> float:
    """Expected score of an Elo difference: ``1 / (1 + 10^(-elo/400))`` (fastchess
    ``leloToScore``)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def pentanomial(pair_points: Sequence[float]) -> list[int]:
    """Counts ``[LL, LD, DD+WL, WD, WW]`` of pair points (each 0, ½, 1, 1½ or 2, from one
    bot's side).

    Raises:
        ValueError: a pair's points are not one of those five values.
    """
    counts = [0] * 5
    for p in pair_points:
        i = int(round(2 * float(p)))
        if not 0 <= i <= 4 or abs(2 * float(p) - i) > 1e-9:
            raise ValueError(f"pair points must be 0, 0.5, 1, 1.5 or 2, not {p!r}")
        counts[i] += 1
    return counts


@dataclass(frozen=True)
class MatchStats:
    """Statistics of one bot against another, from its side (``docs/statistics.md``).

    Empty samples give NaN; so do ``elo_low``, ``elo_high``, ``elo_error``, ``nelo`` and
    ``nelo_error`` when every pair scored the same (no spread seen: ``docs/statistics.md``,
    "No spread seen").

    Attributes:
        games: n, games counted.
        wins: W of the bot (``draws``: D, ``losses``: L).
        draws: D of the bot.
        losses: L of the bot.
        score: mean points per game, in [0, 1].
        draw_ratio: draws / games.
        pairs: complete game pairs.
        leftover: games outside complete pairs.
        penta: pentanomial pair counts ``[LL, LD, DD+WL, WD, WW]``.
        sigma: standard error of ``score``.
        elo: logistic Elo difference of ``score``.
        elo_low: lower end of its 95% interval.
        elo_high: upper end of its 95% interval.
        elo_error: half the interval's width.
        nelo: normalised Elo (fastchess).
        nelo_error: half the width of its 95% interval.
        los: likelihood of superiority, in [0, 1].
        z: the normal statistic of ``los`` when the sample has a spread, ``LOS = Φ(z)``:
            ``(s - ½)/σ_s``, or with no complete pair cutechess-cli's ``(W - L)/√(W + L)`` of
            the leftover games; NaN with no spread seen (or no game).
    """

    games: int
    wins: int | float
    draws: int | float
    losses: int | float
    score: float
    draw_ratio: float
    pairs: int
    leftover: int
    penta: tuple[int, int, int, int, int]
    sigma: float
    elo: float
    elo_low: float
    elo_high: float
    elo_error: float
    nelo: float
    nelo_error: float
    los: float
    z: float

    def as_row(self) -> dict:
        """The fields as a flat dict (``penta`` as ``LL``, ``LD``, ``DD_WL``, ``WD``, ``WW``)."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d.update(zip(("LL", "LD", "DD_WL", "WD", "WW"), d.pop("penta")))
        return d


def _variance(counts: Sequence[float], values: Sequence[float]) -> tuple[int, float]:
    """(total count, population variance) of ``values`` weighted by ``counts``."""
    c = np.asarray(counts, dtype=float)
    total = float(c.sum())
    if total == 0:
        return 0, 0.0
    v = np.asarray(values, dtype=float)
    mean = float((c * v).sum() / total)
    return int(total), float((c * (v - mean) ** 2).sum() / total)


def match_stats(penta: Iterable[int], single: Iterable[int] = (0, 0, 0),
                wdl: Iterable[int] | None = None) -> MatchStats:
    """Statistics of ``penta`` (``[LL, LD, DD+WL, WD, WW]`` complete pairs) and ``single``
    (``[L, D, W]`` of leftover games outside complete pairs), from one bot's side. ``wdl``:
    the bot's W-D-L over the same games (the pentanomial counts cannot tell DD from WL);
    without it ``wins``, ``draws``, ``losses`` and ``draw_ratio`` are NaN.

    Formulas: see the module docstring (fastchess ``EloPentanomial`` / ``EloWDL``,
    cutechess-cli's LOS).

    Raises:
        ValueError: a negative count.
    """
    pc = [int(x) for x in penta]
    sc = [int(x) for x in single]
    if len(pc) != 5 or len(sc) != 3 or min(pc + sc) < 0:
        raise ValueError("pentanomial counts are 5 and single-game counts 3 non-negative integers")
    pairs, var_pair = _variance(pc, PAIR_POINTS)  # variance of pair points out of 2
    left, var_game = _variance(sc, (0.0, 0.5, 1.0))
    n = 2 * pairs + left
    penta5 = (pc[0], pc[1], pc[2], pc[3], pc[4])
    points = sum(c * p for c, p in zip(pc, PAIR_POINTS)) + sc[1] * 0.5 + sc[2]
    if n == 0:
        nan = math.nan
        return MatchStats(0, 0, 0, 0, nan, nan, 0, 0, penta5, nan, nan, nan, nan, nan, nan, nan, nan, nan)
    w: int | float
    d: int | float
    l_: int | float
    w, d, l_ = (int(x) for x in wdl) if wdl is not None else (math.nan,) * 3
    if wdl is not None and w + d + l_ != n:
        raise ValueError(f"W-D-L {w}-{d}-{l_} does not add up to the {n} games of the counts")
    s = points / n
    var_s = (pairs * var_pair + left * var_game) / n**2
    sigma = math.sqrt(var_s)
    sigma_game = math.sqrt(n * var_s)
    if sigma_game > 0:
        elo_lo, elo_hi = elo_from_score(s - Z95 * sigma), elo_from_score(s + Z95 * sigma)
        nelo = (s - 0.5) / sigma_game * NELO_SCALE
        nelo_error = Z95 * NELO_SCALE / math.sqrt(n)  # the interval s ± Z95·σ_s in nElo units
        z = (s - 0.5) / sigma if pairs else (sc[2] - sc[0]) / math.sqrt(sc[2] + sc[0])
        los = normal_cdf(z) if pairs else los_trinomial(sc[2], sc[0])
    else:  # every pair (game) scored the same: no spread seen, so no interval and no nElo to
        # report (a zero-width interval would claim certainty the sample cannot give); the LOS
        # is cutechess's from the game counts (2-0 gives 92%, not certainty), ½ with no decisive
        # game, the normal model's limit only when the W-D-L is not known
        elo_lo = elo_hi = nelo = nelo_error = z = math.nan
        if wdl is not None:
            los = los_trinomial(w, l_) if w + l_ else 0.5
        else:
            los = 0.5 if s == 0.5 else float(s > 0.5)
    return MatchStats(n, w, d, l_, s, d / n, pairs, left, penta5, sigma, elo_from_score(s),
                      elo_lo, elo_hi, (elo_hi - elo_lo) / 2, nelo, nelo_error, los, z)


def los_trinomial(wins: int | float, losses: int | float) -> float:
    """cutechess-cli's likelihood of superiority from W and L: ``½ + ½·erf((W - L)/√(2(W + L)))``
    (NaN when W + L = 0)."""
    if wins + losses == 0:
        return math.nan
    return 0.5 + 0.5 * math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses)))


def normal_cdf(x: float) -> float:
    """Φ(x), the standard normal distribution function, as ``½·erfc(-x/√2)`` (accurate in
    the lower tail, where ``½(1 + erf)`` loses digits)."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))
