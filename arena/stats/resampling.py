"""Series grouped into classes of equal results, for the bootstrap over series of the field
tables (``arena.stats.field``, ``arena.stats.luce``): a replicate draws as many series as were
played, with replacement, which is a multinomial over the classes, so it costs the number of
classes, not of games. numpy only.
"""

from __future__ import annotations

import numpy as np


def series_classes(code: np.ndarray, key: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Series grouped into classes of equal results, for resampling series as wholes.

    Args:
        code: ``(G,)`` non-negative integer code of each game's result (what a fit needs of it).
        key: ``(G,)`` integer key, equal for the games of one series.

    Returns:
        ``count`` ``(Q,)``: the series of each class (a class: the sorted codes of a series);
        ``cq``, ``c`` ``(E,)``: one entry per game of each class's series, its class and code.
    """
    order = np.lexsort((code, key))
    key_s, code_s = key[order], code[order]
    start = np.flatnonzero(np.r_[True, key_s[1:] != key_s[:-1]]) if len(key_s) else np.zeros(0, np.int64)
    size = np.diff(np.r_[start, len(key_s)])
    rows = np.full((len(start), int(size.max()) if len(size) else 1), -1, np.int64)
    rows[np.repeat(np.arange(len(start)), size), np.arange(len(key_s)) - np.repeat(start, size)] = code_s
    classes, count = np.unique(rows, axis=0, return_counts=True) if len(rows) else (rows, np.zeros(0, np.int64))
    cq, col = np.nonzero(classes >= 0)
    return count.astype(np.int64), cq.astype(np.int64), classes[cq, col]


class SeriesClasses:
    """Games whose series are grouped in classes of equal results (``series_classes``): the
    ``k`` bots of ``labels`` and ``count`` ``(Q,)``, the series of each class; what the
    bootstrap over series draws from (``Duels``, ``arena.stats.luce.Rankings``)."""

    labels: tuple[str, ...]
    count: np.ndarray

    @property
    def k(self) -> int:
        return len(self.labels)

    @property
    def series(self) -> int:
        """Series played (complete or not)."""
        return int(self.count.sum())

    def resample(self, rng: np.random.Generator, replicates: int) -> np.ndarray:
        """``(replicates, Q)`` class weights: each replicate draws ``series`` series with
        replacement from those played (a multinomial over the classes)."""
        total = self.series
        if total == 0:
            return np.zeros((replicates, 0))
        return rng.multinomial(total, self.count / total, size=replicates).astype(float)
