"""Reports over stored games: pandas tables (``tables``, ``pairs``, ``ricochet``) and their
output as rich tables, Markdown and CSV (``render``) and HTML (``html``). The statistics they
use live below, in ``arena.stats``."""

#: Every section, in report order (``arena report --section``; here so the CLI lists them
#: without importing pandas). ``ratings`` (the field table, ``arena.reports.field``: Bradley–Terry
#: or Plackett–Luce Elo with bootstrap intervals, CFS and the LOS matrix) to games of two or more
#: seats, ``cycles`` (rock-paper-scissors cycles, Nash averaging, α-Rank) to two-player games;
#: ``first_move`` applies to two-player games,
#: ``pairs`` and ``elo`` (Bradley–Terry) to two-player games, ``sprt`` to a run with
#: ``--sprt``, ``seat_advantage`` to games of three or more, ``ricochet`` to the race games
#: (``ricochet``, ``interaction-solo-race``), ``openings`` to a tournament of more than one start
#: position (``arena.reports.openings``), ``ladder`` to a 2-player field of one bot at several
#: budgets (``arena.reports.ladder``), ``game`` (the game's own figures: outcomes, lengths,
#: branching, lead changes, drama) to games of two or more seats that are not races, ``standings``
#: (the knockout bracket, the Swiss table) to those formats. ``payoffs`` applies to a game that
#: ranks by payoff (``arena.reports.payoffs``), whose ``ratings`` and ``pairs`` sections then
#: rank by payoff (``arena.reports.payoff_field``); ``exploitability`` (each bot's distance
#: from a Nash equilibrium, ``arena.reports.exploitability``) to small two-player OpenSpiel games
#: with hidden information. ``llm`` (language models' tokens, cost, latency, illegal answers and void
#: games, ``arena.reports.llm``) to a tournament where a bot logged its moves or a game was void.
SECTIONS = ("ratings", "payoffs", "exploitability", "cycles", "leaderboard", "standings", "pairs", "elo",
            "crosstable", "first_move", "seat_advantage", "openings", "ladder", "lengths", "terminations", "faults",
            "search", "llm", "ricochet", "solo", "sprt", "game")
