"""Many games at once in threads for bots that wait on the network (``arena.tournament.threads``):
the same games as one at a time, in far less wall time; a field without such bots is unchanged."""

from __future__ import annotations

import time

from arena.results.store import load_games, load_moves
from arena.tournament import build, run_tournament
from arena.tournament.threads import threaded
from arena.tournament.worker import WorkerSetup
from bots.registry import parse_spec

LOGGED = "tests/llm_side/net_bots.py#Logged"


def _run(tmp_path, name, concurrency, bots):
    cfg = build(dict(game="nim", params={"pile": "7"}, bots=bots, games=8, workers=1, results=str(tmp_path / name),
                     name="t", concurrency=concurrency))
    t0 = time.monotonic()
    summary = run_tournament(cfg)
    return summary, time.monotonic() - t0


def _games(summary):
    return (load_games(summary.path).drop(columns=["seconds"]),
            load_moves(summary.path).drop(columns=["seconds"]))


def test_network_games_play_at_once_and_give_the_same_games(tmp_path):
    bots = [f"a={LOGGED}:delay=0.1", f"b={LOGGED}:delay=0.1", "random"]  # 24 games of 2-6 moves of 0.1 s
    one, one_s = _run(tmp_path, "one", 1, bots)
    many, many_s = _run(tmp_path, "many", 32, bots)
    assert one.done == many.done == 24
    g1, m1 = _games(one)
    g2, m2 = _games(many)
    assert g1.equals(g2) and m1.equals(m2)
    assert many_s < one_s / 3, (many_s, one_s)  # margins for a loaded machine: the ideal is ~1/10


def test_only_a_field_with_a_network_bot_is_threaded():
    specs = {s.label: s for s in map(parse_spec, ["random", "greedy"])}
    assert not threaded(WorkerSetup("nim", {}, specs, concurrency=32))
    specs["m"] = parse_spec(f"m={LOGGED}")
    assert threaded(WorkerSetup("nim", {}, specs, concurrency=32))
    assert not threaded(WorkerSetup("nim", {}, specs, concurrency=1))
