"""Bankroll instant runoff: the ranking of a field by payoff that rewards the bots hard to beat
over the bots that exploit the weakest (``docs/statistics.md`` "Payoffs").

The Annual Computer Poker Competition ranks its instant-runoff events so (Bard, Hawkin, Rubin
and Zinkevich, "The Annual Computer Poker Competition", AI Magazine 34(2), 2013; the
competition's rules, "Winner determination"): starting with the whole field, each remaining
bot's mean payoff over the games whose every seat is held by a remaining bot; the lowest is
eliminated and takes the last free rank; repeat until one bot is left.

- ``runoff``: the runoff of ``B`` replicates at once (numpy over the replicate axis), from the
  payoff sums of each pairing (the games of one set of bots: every seat of them held by those
  bots, so a pairing counts in a round exactly when all its bots remain).
- ``pool``: a field's series pooled per pairing (``Pool``; ``Pool.point``: the runoff of the
  games themselves).
- ``bootstrap``: the CFS of each entry over the next, and the head-to-head likelihood of
  superiority, from the stratified bootstrap over series of
  ``arena.stats.payoffs.bootstrap_draws``, each replicate ranked by its own runoff.

Rules where the ACPC's text is silent: a bot with no game among the remaining bots in a round
keeps its payoff of the round before (so when no game at all remains, the remaining bots go
out in their order of the round before); equal payoffs (to 9 decimals) put the earlier label
above, so the later label is eliminated first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse

from arena.stats.payoffs import REPLICATES, bootstrap_draws

#: decimals to which payoffs are compared: closer payoffs are equal (the tie rule decides)
DECIMALS = 9


@dataclass(frozen=True)
class Runoff:
    """The runoff of ``B`` replicates of a field of ``k`` bots: ``(B, k)`` arrays.

    Attributes:
        order: bot indexes best first (the bot eliminated last first).
        value: each bot's runoff payoff: its mean payoff per game in the last round in which it
            had a counted game (up to its elimination; the winner: the final round), NaN if none.
        round: that round, 0-based (round 0: the whole field); -1 if none.
        ties: ``(k - 1, B, k)``: at each round, the bots that shared the lowest payoff (the tie
            rule chose which of them went out); the CFS counts such an order as half.
    """

    order: np.ndarray
    value: np.ndarray
    round: np.ndarray
    ties: np.ndarray

    def positions(self) -> np.ndarray:
        """``(B, k)``: each bot's 0-based place (0 = first)."""
        out = np.empty_like(self.order)
        np.put_along_axis(out, self.order, np.arange(self.order.shape[1])[None, :], axis=1)
        return out


def runoff(sums: np.ndarray, counts: np.ndarray, members: np.ndarray, labels: Sequence[str]) -> Runoff:
    """The bankroll instant runoff of ``B`` replicates (module doc).

    Args:
        sums: ``(B, P, s)`` per replicate and pairing, the payoff sum of the bot in each slot.
        counts: ``(B, P, s)`` the games (one per seat held) of those sums.
        members: ``(P, s)`` the bot (``0..k-1``) in each slot of a pairing; ``k`` marks an empty
            slot (a pairing of fewer distinct bots than ``s``).
        labels: the ``k`` bots' labels, for the tie rule.

    Returns:
        ``Runoff``; a bot in no pairing has no value and goes out first.
    """
    y, n = np.asarray(sums, float), np.asarray(counts, float)
    members = np.asarray(members, np.int64)
    k, b = len(labels), y.shape[0]
    later = np.argsort(np.argsort(np.asarray(labels, dtype=str), kind="stable"), kind="stable")  # label order
    alive = np.ones((b, k + 1), bool)  # column k: the empty slot, always "remaining"
    value, rnd = np.full((b, k), -np.inf), np.full((b, k), -1, np.int64)
    order = np.empty((b, k), np.int64)
    ties = np.zeros((max(k - 1, 0), b, k), bool)
    flat = ((np.arange(b) * (k + 1))[:, None, None] + members[None]).ravel()
    rows = np.arange(b)
    for r in range(k - 1):
        counted = np.expand_dims(np.all(alive[:, members], axis=2), 2)  # (B, P, 1): every bot of the pairing remains
        total = np.bincount(flat, (y * counted).ravel(), b * (k + 1)).reshape(b, k + 1)[:, :k]
        games = np.bincount(flat, (n * counted).ravel(), b * (k + 1)).reshape(b, k + 1)[:, :k]
        has = (games > 0) & alive[:, :k]
        value = np.where(has, total / np.where(has, games, 1), value)
        rnd = np.where(has, r, rnd)
        key = np.where(alive[:, :k], np.round(value, DECIMALS), np.inf)
        tied = alive[:, :k] & (key == key.min(axis=1, keepdims=True))
        out = np.argmax(np.where(tied, later, -1), axis=1)
        ties[r] = tied & (tied.sum(axis=1, keepdims=True) > 1)
        order[:, k - 1 - r] = out
        alive[rows, out] = False
    if k:
        order[:, 0] = np.argmax(alive[:, :k], axis=1)
    return Runoff(order, np.where(np.isinf(value), np.nan, value), rnd, ties)


@dataclass(frozen=True)
class Pool:
    """A field's series pooled for the runoff.

    Attributes:
        members: ``(P, s)`` the distinct bots of each pairing (``k`` in an empty slot).
        sums, counts: ``(C, s)`` per series, the payoff sum and the games of each slot's bot.
        pairing: ``(C,)`` each series' pairing (its bootstrap stratum).
        labels: the ``k`` bots.
    """

    members: np.ndarray
    sums: np.ndarray
    counts: np.ndarray
    pairing: np.ndarray
    labels: tuple[str, ...]

    def pooled(self, drawn: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(B, P, s)`` sums and counts per pairing of the series drawn ``drawn`` ``(B, C)``
        times (``None``: each series once, ``B = 1``)."""
        p, s = self.members.shape
        w = np.ones((1, len(self.pairing))) if drawn is None else np.asarray(drawn, float)
        cols = (self.pairing[:, None] * s + np.arange(s)).ravel()
        rows = np.repeat(np.arange(len(self.pairing)), s)
        out = []
        for values in (self.sums, self.counts):
            cells = sparse.csr_matrix((values.ravel(), (rows, cols)), shape=(len(values), p * s))
            out.append(np.asarray((cells.T @ w.T).T).reshape(len(w), p, s))
        return out[0], out[1]

    def point(self) -> Runoff:
        """The runoff of the games themselves (``B = 1``)."""
        return runoff(*self.pooled(), self.members, self.labels)

    def head_to_head(self) -> tuple[np.ndarray, sparse.csr_matrix]:
        """The ordered pairs of bots that sat together: ``(Q, 2)`` their ``(i, j)``, and the
        ``(P·s, Q)`` map from a pairing's slot to the pairs that slot's bot is the first of."""
        p, s = self.members.shape
        k = len(self.labels)
        a, b = np.meshgrid(np.arange(s), np.arange(s), indexing="ij")
        a, b = a[a != b], b[a != b]
        first, second = self.members[:, a].ravel(), self.members[:, b].ravel()
        slot = (np.arange(p)[:, None] * s + a[None, :]).ravel()
        real = (first < k) & (second < k)
        pairs, code = np.unique(np.stack([first[real], second[real]], axis=1), axis=0, return_inverse=True)
        return pairs, sparse.csr_matrix((np.ones(int(real.sum())), (slot[real], code.ravel())),
                                        shape=(p * s, len(pairs)))


def pool(bots: np.ndarray, payoffs: np.ndarray, clusters: np.ndarray, pairings: np.ndarray,
         labels: Sequence[str]) -> Pool:
    """The ``Pool`` of a field's counted games, one entry per (game, seat).

    Args:
        bots: each entry's bot (``0..k-1``). payoffs: its payoff.
        clusters: its series (int codes; a series holds one pairing).
        pairings: its pairing (dense codes ``0..P-1``: the games of one multiset of bots).
        labels: the ``k`` bots.
    """
    bots, pairings = np.asarray(bots, np.int64), np.asarray(pairings, np.int64)
    clusters = pd.factorize(np.asarray(clusters, np.int64))[0]  # the series with a counted game
    k, c = len(labels), int(clusters.max()) + 1 if len(clusters) else 0
    p = int(pairings.max()) + 1 if len(pairings) else 0
    seen = pd.DataFrame({"p": pairings, "b": bots}).drop_duplicates().sort_values(["p", "b"])
    slot = seen.groupby("p").cumcount().to_numpy()
    s = int(slot.max()) + 1 if len(slot) else 1
    members = np.full((p, s), k, np.int64)
    members[seen["p"].to_numpy(), slot] = seen["b"].to_numpy()
    where = pd.Series(slot, index=pd.MultiIndex.from_arrays([seen["p"], seen["b"]]))
    entry_slot = where.reindex(pd.MultiIndex.from_arrays([pairings, bots])).to_numpy(np.int64)
    sums, counts = np.zeros((c, s)), np.zeros((c, s))
    np.add.at(sums, (clusters, entry_slot), np.asarray(payoffs, float))
    np.add.at(counts, (clusters, entry_slot), 1.0)
    of = np.zeros(c, np.int64)
    of[clusters] = pairings
    return Pool(members, sums, counts, of, tuple(labels))


@dataclass(frozen=True)
class Confidence:
    """What the bootstrap says of a runoff ranking.

    Attributes:
        cfs: ``(m - 1,)`` for the bots ``order`` lists best first, the share of replicates whose
            runoff puts each above the next.
        los: ``(k, k)`` head-to-head likelihood of superiority: ``[i, j]`` the share of
            replicates in which ``i``'s mean payoff per game over the games where both sat is
            above ``j``'s over the same games (equal: half); NaN where they never sat together
            and on the diagonal.
    """

    cfs: np.ndarray
    los: np.ndarray


def bootstrap(field: Pool, order: Sequence[int] | np.ndarray, replicates: int = REPLICATES,
              seed: int = 1) -> Confidence:
    """The CFS and the head-to-head LOS from the stratified bootstrap over series.

    Args:
        field: the pooled series; a replicate redraws the series of every pairing (stratum).
        order: the bots (indexes) best first whose CFS is wanted: the runoff of the games.
        replicates: the bootstrap's replicates, each ranked by its own runoff.
        seed: the generator's seed (the same inputs and seed, the same figures).

    Returns:
        ``Confidence``; NaN figures without replicates.
    """
    k = len(field.labels)
    p, s = field.members.shape
    pairs, to_pairs = field.head_to_head()
    reverse = pd.MultiIndex.from_arrays([pairs[:, 0], pairs[:, 1]]).get_indexer(
        pd.MultiIndex.from_arrays([pairs[:, 1], pairs[:, 0]]))
    ranked = np.asarray(order, np.int64)
    above, better, total = np.zeros(max(len(ranked) - 1, 0)), np.zeros(len(pairs)), 0
    width = max(len(field.pairing), p * s, len(pairs), k + 1)
    for drawn in bootstrap_draws(field.pairing, replicates, seed, width=width):
        sums, counts = field.pooled(drawn)
        result = runoff(sums, counts, field.members, field.labels)
        place = result.positions()
        upper, lower = ranked[:-1], ranked[1:]
        # a pair the tie rule ordered (both among the lowest when the one placed lower went out)
        # counts half, as ties do in the Elo field table's CFS
        out_round = np.clip(k - 1 - np.maximum(place[:, upper], place[:, lower]), 0, max(k - 2, 0))
        rows = np.arange(len(drawn))[:, None]
        tie = (result.ties[out_round, rows, upper[None, :]] & result.ties[out_round, rows, lower[None, :]]
               if len(result.ties) else np.zeros((len(drawn), len(upper)), bool))
        above += (np.where(tie, 0.5, place[:, upper] < place[:, lower])).sum(axis=0)
        flat_sums, flat_counts = sums.reshape(len(drawn), -1), counts.reshape(len(drawn), -1)
        with np.errstate(invalid="ignore", divide="ignore"):  # every pair met: never 0 games
            mine = np.round(np.asarray((to_pairs.T @ flat_sums.T).T) / np.asarray((to_pairs.T @ flat_counts.T).T),
                            DECIMALS)
        better += (mine > mine[:, reverse]).sum(axis=0) + 0.5 * (mine == mine[:, reverse]).sum(axis=0)
        total += len(drawn)
    los = np.full((k, k), np.nan)
    if total:
        los[pairs[:, 0], pairs[:, 1]] = better / total
    np.fill_diagonal(los, np.nan)
    return Confidence(above / total if total else np.full(len(above), np.nan), los)
