"""Tasks of several games (issue 43): the pool hands a worker its next games in one message
(``WorkerSlot.give``), the worker streams each record back as its game ends. A worker killed
in the middle of such a task: the games it finished are stored once, the game playing is
replayed (a death counts against ``retries``), the games not begun are played once, and the
run stores exactly the games of an undisturbed run."""

import contextlib
import sqlite3
import sys

import pytest

import arena.tournament.pool as pool_module
import arena.tournament.slot as slot_module
import arena.tournament.outbox as outbox_module
from arena.results.store import load_games
from arena.tournament import build, run_tournament
from arena.tournament.pool import Pool
from arena.tournament.worker import WorkerSetup, task_wire, tasks_from_wire
from bots.registry import parse_spec

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the pool's subreaper: Linux")

KILLER = "tests/tournament/task_bots.py#KillOnce"


@pytest.fixture
def batches(monkeypatch):
    """The number of games of each message the pool sends, with at least 8 games a worker in
    flight (``PREFETCH``), so a run's games go several to a message."""
    sizes: list[int] = []
    give = slot_module.WorkerSlot.give

    def counting(self, tasks):
        sizes.append(len(tasks))
        return give(self, tasks)
    monkeypatch.setattr(slot_module.WorkerSlot, "give", counting)
    monkeypatch.setattr(pool_module, "PREFETCH", 8)
    return sizes


def _tasks(n: int):
    from arena.tournament import plan
    cfg = build({"game": "nim", "params": {"pile": "12"}, "bots": ["random", "greedy"], "games": n, "workers": 1,
                 "opening_plies": 0, "results": "unused"})
    return plan(cfg).tasks


def test_a_task_of_several_games_round_trips_through_its_wire():
    tasks = _tasks(4)
    assert tasks_from_wire(task_wire(tasks)) == list(tasks)
    assert tasks_from_wire(task_wire(())) == []  # the order to stop


def test_a_worker_killed_mid_task_keeps_its_finished_games_and_replays_the_rest(tmp_path, batches):
    marks = tmp_path / "marks"
    marks.mkdir()
    specs = {s.label: s for s in (parse_spec("random"), parse_spec(f"k={KILLER}:dir={marks},game=3"))}
    tasks = [t for t in _tasks(6)]
    tasks = [type(t)(**{**t.__dict__, "seats": ("random", "k"), "pairing": ("random", "k")}) for t in tasks]
    pool = Pool(WorkerSetup(game="nim", params={"pile": "12"}, specs=specs), workers=1, num_players=2,
                game_time=60.0, retries=1)
    results = list(pool.run(tasks))
    assert batches[0] == 6  # the six games went to the worker as one task
    assert (marks / "killed").exists() and pool.replaced == 1
    ids = [r.task.game_id for r in results]
    assert sorted(ids) == sorted(t.game_id for t in tasks)  # each game once: none lost, none twice
    attempts = {r.task.game_id: r.attempts for r in results}
    third = tasks[2].game_id
    assert attempts[third] == 2  # the game playing when the worker died: replayed, one death counted
    assert all(a == 1 for g, a in attempts.items() if g != third)  # finished ones kept, the rest not counted
    assert ids[:2] == [tasks[0].game_id, tasks[1].game_id]  # sent before the kill, or replayed first
    assert all(r.record.fault_seat is None for r in results)


@pytest.fixture
def held(monkeypatch):
    """Workers hold their records until 8 games ended or their task's games are all played
    (``outbox.Outbox``; no sending after ``GROUP_SECONDS``: a minute)."""
    monkeypatch.setattr(outbox_module, "GROUP_MAX", 8)
    monkeypatch.setattr(outbox_module, "GROUP_SECONDS", 60.0)


def test_a_worker_killed_holding_unsent_records_has_those_games_replayed(tmp_path, batches, held):
    marks = tmp_path / "marks"
    marks.mkdir()
    specs = {s.label: s for s in (parse_spec("random"), parse_spec(f"k={KILLER}:dir={marks},game=3"))}
    tasks = [type(t)(**{**t.__dict__, "seats": ("random", "k"), "pairing": ("random", "k")}) for t in _tasks(6)]
    pool = Pool(WorkerSetup(game="nim", params={"pile": "12"}, specs=specs), workers=1, num_players=2,
                game_time=60.0, retries=1)
    results = list(pool.run(tasks))
    assert batches[0] == 6 and pool.replaced == 1
    # games 1 and 2 ended but were held when game 3 killed the worker: all three played again
    assert (marks / "games").stat().st_size == 6 + 3
    assert sorted(r.task.game_id for r in results) == sorted(t.game_id for t in tasks)  # each game once
    attempts = {r.task.game_id: r.attempts for r in results}
    assert attempts[tasks[2].game_id] == 2  # the death is counted against the game playing only
    assert all(a == 1 for g, a in attempts.items() if g != tasks[2].game_id)
    assert all(r.record.fault_seat is None for r in results)


def test_a_run_whose_worker_dies_holding_records_stores_the_games_of_an_undisturbed_run(tmp_path, batches, held):
    marks = tmp_path / "marks"
    marks.mkdir()
    killed, games = _run(tmp_path, "killed", ["random", f"k={KILLER}:dir={marks},game=3"])
    assert (marks / "killed").exists() and killed.workers_replaced == 1
    assert (marks / "games").stat().st_size > 8 + 1  # finished games held by the dead worker were played again
    quiet = tmp_path / "quiet"
    quiet.mkdir()
    _, clean = _run(tmp_path, "clean", ["random", f"k={KILLER}:dir={quiet},game=999"])
    cols = ["game_id", "seed", "seats", "ranks", "scores", "plies", "termination"]
    assert games.sort_values("game_id")[cols].reset_index(drop=True).equals(
        clean.sort_values("game_id")[cols].reset_index(drop=True))
    assert games.game_id.is_unique


def _run(tmp_path, name, bots):
    cfg = build({"game": "nim", "params": {"pile": "12"}, "bots": bots, "games": 8, "workers": 1,
                 "opening_plies": 0, "retries": 1, "results": str(tmp_path / name)})
    summary = run_tournament(cfg)
    assert summary.stored == summary.total == 8
    return summary, load_games(summary.path)


def test_a_run_with_a_worker_killed_mid_task_stores_the_games_of_an_undisturbed_run(tmp_path, batches):
    marks = tmp_path / "marks"
    marks.mkdir()
    killed, games = _run(tmp_path, "killed", ["random", f"k={KILLER}:dir={marks},game=3"])
    assert (marks / "killed").exists() and killed.workers_replaced == 1 and max(batches) > 1
    quiet = tmp_path / "quiet"
    quiet.mkdir()
    _, clean = _run(tmp_path, "clean", ["random", f"k={KILLER}:dir={quiet},game=999"])
    assert not (quiet / "killed").exists()
    cols = ["game_id", "seed", "seats", "ranks", "plies", "termination"]
    assert games.sort_values("game_id")[cols].reset_index(drop=True).equals(
        clean.sort_values("game_id")[cols].reset_index(drop=True))
    assert games.game_id.is_unique


def test_games_that_come_together_are_committed_together_and_told_after_their_commit(tmp_path, monkeypatch):
    """The worker sends its records in groups (``outbox.Outbox``) and the runner commits the
    records of one wait in one transaction (``Store.add_games``); each observer hears of a game
    only once it is committed."""
    from arena.results.store import Store
    from arena.tournament.observers import Observer
    commits: list[int] = []
    add = Store.add_games

    def counting(self, batch, *args, **kwargs):
        batch = list(batch)
        commits.append(len(batch))
        return add(self, batch, *args, **kwargs)
    monkeypatch.setattr(Store, "add_games", counting)

    class Committed(Observer):
        def __init__(self):
            self.seen: list[int] = []

        def stored(self, result):
            db = next((tmp_path / "out").glob("*.sqlite"))  # read apart from the run's connection
            with contextlib.closing(sqlite3.connect(db)) as conn:
                found = conn.execute("SELECT count(*) FROM games WHERE game_id = ?", (result.task.game_id,)).fetchone()
            assert found == (1,), "told before its commit"
            self.seen.append(result.task.game_id)
    watcher = Committed()
    cfg = build({"game": "nim", "params": {"pile": "12"}, "bots": ["random", "greedy"], "games": 40, "workers": 1,
                 "opening_plies": 0, "results": str(tmp_path / "out")})
    summary = run_tournament(cfg, observers=[watcher])
    assert summary.stored == 40 and sum(commits) == 40
    assert len(commits) < 40  # some games came, and were committed, together
    assert sorted(watcher.seen) == sorted(load_games(summary.path).game_id)
