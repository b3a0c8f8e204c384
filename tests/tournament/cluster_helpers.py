"""What the ``--cluster`` tests share (``test_cluster.py``: the games on the cluster;
``test_cluster_client.py``: the client's process killed, stopped or left without its scheduler)."""

import os
import sqlite3

from arena.results.store import load_games, load_moves
from arena.tournament import build, run_tournament

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BROKEN = "tests/fixtures/broken_bots.py#"


def frame(path):
    """The games and moves stored at ``path``, less their times."""
    return load_games(path).drop(columns=["seconds"]), load_moves(path).drop(columns=["seconds"])


def run(tmp_path, where, **values):
    """A tournament of ``values`` on ``where``: a number of local workers or a cluster address."""
    cfg = build(dict(results=str(tmp_path / where.replace(":", "-").replace("/", "")), name="t", **values,
                     **({"workers": int(where)} if where.isdigit() else {"cluster": where})))
    return run_tournament(cfg)


def stored(db):
    """The games stored in ``db`` so far (0 before it exists)."""
    try:
        return sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0
