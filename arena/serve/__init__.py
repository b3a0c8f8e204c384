"""``arena serve``: a local web application over a results folder (Starlette on uvicorn).

Pages: the tournaments stored (``arena list``), a tournament (its field table, leaderboard,
pairs, first-move table, faults and the HTML report's plots, updated without reload as games
are stored: server-sent events), the games in progress (the run's live file,
``arena.tournament.livefile``), a game browser (``arena.results.browse``), a game's replay, the
exports of ``arena export``, and a human seat (``arena.serve.play``). The server only reads the
store, through read-only connections in short statements (``docs/storage.md`` "Readers beside
a run"). ``docs/how-to/serve.md`` is the user's guide.
"""

from arena.serve.app import create_app

__all__ = ["create_app"]
