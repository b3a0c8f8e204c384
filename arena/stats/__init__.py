"""Statistics of game results, below both ``arena.tournament`` and ``arena.reports``
(``docs/statistics.md``). Imports nothing of the project but ``arena.errors``.

Modules (import the one you need; this package imports none of them):

- ``elo``: two-bot match statistics: ``match_stats`` -> ``MatchStats`` (pentanomial counts,
  Elo ± 95%, nElo, LOS), ``elo_from_score``, ``score_from_elo``, ``pentanomial``,
  ``los_trinomial``, ``normal_cdf``, ``Z95``. numpy only: the runner's live line uses it.
- ``sprt``: the generalised SPRT on pentanomial pairs (BayesElo on games for ``bayesian``):
  ``parse`` (``--sprt`` text) -> ``SprtSpec``, ``SprtModel``, ``llr``, ``bounds``, ``verdict``,
  ``SprtTally``, ``state_line``; its constrained maximum-likelihood fits are ``sprt_mle``'s.
  numpy only.
- ``sequential``: the median-unbiased Elo after an SPRT stop (fishtest's method):
  ``median_unbiased`` -> ``SequentialEstimate``, ``worse_probability``. scipy (reports only).
- ``bt``: the Bradley–Terry fit of a 2-player field with a first-move term: ``fit_cells`` ->
  ``BTFit``, ``separation``. scipy and pandas (reports only).
- ``intervals``: ``wilson_interval``, ``cluster_mean`` (cluster-robust ratio mean),
  ``clipped``, ``CONFIDENCE``. scipy and pandas (reports only).
- ``significance``: ``binomial_test``, ``match_significance`` (the exact sign test at the
  edges) -> ``Significance``, ``equal_shares_test`` -> ``ChiSquare``, ``holm``. scipy (reports
  only).
"""
