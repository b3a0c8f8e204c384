"""TrueSkill over many two-player games at once: the sequential update loop of
``arena.results.ratings.rate_one`` compiled with numba, for a report that rebuilds the ratings
of a store of copied games (a million games: about 0.1 s where the Python loop takes 7-10 s).

The loop compiles ``arena.results.ratings.update_pair`` itself (one source, two builds), so its
ratings are the Python loop's to the bit (``tests/results/test_rating_kernel.py``). numba is
imported on the first call (about 1 s with its cache warm): ``arena.results.rating_state``
calls the loop only for ``LOOP_GAMES`` games or more.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

#: games from which ``Rater.rate_many`` uses the compiled loop (below, numba's start costs more
#: than the Python loop saves)
LOOP_GAMES = 50_000


#: ``arena.results.ratings.update_pair`` compiled (set by ``_compiled`` before ``_loop`` compiles)
_update: Any = None


def _loop(a, b, result, mu, sigma, count, beta, tau, margin, out_mu, out_sigma, out_count):  # pragma: no cover
    """``rate_pairs``' loop (numba's subset of Python)."""
    for i in range(len(a)):
        x, y = a[i], b[i]
        ma, sa, mb, sb = _update(mu[x], sigma[x], mu[y], sigma[y], result[i], beta, tau, margin)
        mu[x], sigma[x], mu[y], sigma[y] = ma, sa, mb, sb
        count[x] += 1
        count[y] += 1
        out_mu[i, 0], out_sigma[i, 0], out_count[i, 0] = ma, sa, count[x]
        out_mu[i, 1], out_sigma[i, 1], out_count[i, 1] = mb, sb, count[y]


@functools.cache
def _compiled() -> Any:
    """The compiled loop (cached on disk where numba can write beside this module, else
    compiled in the process)."""
    from numba import njit

    from arena.results.ratings import update_pair

    def jit(func: Any) -> Any:
        try:
            return njit(cache=True)(func)
        except RuntimeError:  # no writable cache location: compiled in each process
            return njit(func)

    global _update
    _update = jit(update_pair)
    return _stamped(jit(_loop), update_pair.__code__.co_filename)


def _stamped(dispatcher: Any, source: str) -> Any:
    """``dispatcher`` whose disk cache also goes stale when ``source`` (the file of the function
    it calls, compiled into its machine code) changes: numba stamps a cache with the kernel's own
    file only. Its private ``_source_stamp`` is extended as ``bots.kernels`` does; a numba without
    it gets the loop compiled in each process instead."""
    import hashlib

    from numba import njit

    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is None or not hasattr(cache_file, "_source_stamp"):
        return njit(dispatcher.py_func)
    with open(source, "rb") as f:
        cache_file._source_stamp = (cache_file._source_stamp, hashlib.sha256(f.read()).hexdigest())
    return dispatcher


def rate_pairs(a: np.ndarray, b: np.ndarray, result: np.ndarray, mu: np.ndarray, sigma: np.ndarray,
               count: np.ndarray, beta: float, tau: float, margin: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rate games of two distinct bots in order: game ``i`` between bots ``a[i]`` (seat 0) and
    ``b[i]`` (seat 1), indices into ``mu``, ``sigma`` and ``count`` (updated in place), with
    ``result[i]`` 1 (seat 0 won), 0.5 (a draw) or 0 (seat 1 won).

    Returns:
        each game's ratings after it, games x 2 (by 0-based seat): mu, sigma and the bot's
        games rated.
    """
    n = len(a)
    out_mu, out_sigma = np.empty((n, 2)), np.empty((n, 2))
    out_count = np.empty((n, 2), np.int64)
    _compiled()(np.ascontiguousarray(a, np.int64), np.ascontiguousarray(b, np.int64),
                np.ascontiguousarray(result, np.float64), mu, sigma, count,
                float(beta), float(tau), float(margin), out_mu, out_sigma, out_count)
    return out_mu, out_sigma, out_count
