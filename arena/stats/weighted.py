"""The field table's Bradley–Terry fit and bootstrap (``arena.stats.field``) with a weight on
each game: ``WeightedDuels``, for one table over several tournaments (``arena report
--across``, ``arena.reports.across``).

A game of weight ``w`` counts as ``w`` games in the fit (its cell's games and points are
scaled), the prior's virtual draws are unchanged. The bootstrap is the field table's: a
replicate draws as many series as were played from all of them, each drawn series with its own
weight (a series' games share one weight). The series of a class (equal pairing and results)
must share their weight, so a class is also keyed by its weight group. With every weight 1 the
classes, the fit and the replicates are those of ``Duels.from_games``: the same numbers.

The BCa intervals take the influence of a series scaled by its weight (``I⁻¹·w·Uᵢ``: the score
of a weighted series is ``w`` times its score); with every weight 1 they are
``arena.stats.bootci.field_intervals``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from arena.stats import bootci
from arena.stats.field import Bootstrap, Duels, anchored
from arena.stats.resampling import series_classes


@dataclass(frozen=True)
class WeightedDuels(Duels):
    """``Duels`` whose series weigh ``scale`` ``(Q,)`` games per game, by class."""

    scale: np.ndarray = field(default_factory=lambda: np.ones(0))

    @classmethod
    def from_weighted(cls, labels, seat0, seat1, points, series, weight) -> WeightedDuels:
        """As ``Duels.from_games``, each game with a ``weight`` (> 0; equal for the games of a series).

        Raises:
            ValueError: as ``Duels.from_games``; a weight that is not positive.
        """
        w = np.asarray(weight, float)
        s0, s1 = np.asarray(seat0, np.int64), np.asarray(seat1, np.int64)
        pts, key = np.asarray(points, float), np.asarray(series, np.int64)
        if not (len(s0) == len(s1) == len(pts) == len(key) == len(w)):
            raise ValueError("seat0, seat1, points, series and weight need one entry per game")
        if len(w) and not np.all(w > 0):
            raise ValueError("a game's weight must be positive")
        plain = Duels.from_games(labels, s0, s1, pts, key)  # the checks, and the classes of equal weights
        values, group = np.unique(w, return_inverse=True)
        group = group.ravel()
        if len(values) <= 1:
            return cls(**{f: getattr(plain, f) for f in plain.__dataclass_fields__},
                       scale=np.full(len(plain.count), values[0] if len(values) else 1.0))
        k = len(labels)
        lo, hi = np.minimum(s0, s1), np.maximum(s0, s1)
        pair_key, pair = np.unique(lo * k + hi, return_inverse=True)
        pair = pair.ravel()
        side = (s0 != lo).astype(np.int64)
        half = np.rint(2 * pts).astype(np.int64)
        width = 6 * len(pair_key)
        count, cq, c = series_classes(group * width + (pair * 2 + side) * 3 + half, key)
        scale = np.zeros(len(count))
        scale[cq] = values[c // width]
        rest = c % width
        return cls(tuple(labels), pair_key // k, pair_key % k, count, cq, (rest // 6).astype(np.int64),
                   (rest // 3 % 2).astype(np.int64), (rest % 3) / 2.0, scale=scale)

    def cells(self, weights: np.ndarray | None = None) -> np.ndarray:
        """``Duels.cells`` with each class's series counted ``scale`` times."""
        w = self.count[None, :].astype(float) if weights is None else np.atleast_2d(weights).astype(float)
        out = super().cells(w * self.scale[None, :])
        return out[0] if weights is None else out


def intervals(duels: WeightedDuels, boot: Bootstrap, anchor: int | None = None, value: float = 0.0,
              level: float = bootci.LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """The BCa intervals of ``bootci.field_intervals`` for weighted duels: ``(low, high)``, each
    ``(k + 1,)`` Elo points, the ratings anchored (``None``: mean ``value``), then the
    first-move term.

    Raises:
        NotConnected: the information matrix is singular.
    """
    k = duels.k
    infl = bootci.influence(duels, boot.estimate) * duels.scale[:, None]
    est = np.r_[anchored(boot.estimate[:k], anchor, value), boot.estimate[k:]]
    reps = np.c_[anchored(boot.replicates[:, :k], anchor, value), boot.replicates[:, k:]]
    cols = np.c_[anchored(infl[:, :k], anchor, 0.0), infl[:, k:]]
    return bootci.bca_intervals(est, reps, cols, duels.count, level)
