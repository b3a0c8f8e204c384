"""``--isolation process`` (``docs/engine-protocol.md`` "Process rules"): hostile Python bots,
each in its own sandboxed ``arena engine`` process, change nothing stored and lose with a fault;
a round-robin of a shell engine, an engine-served alphabeta and an in-process greedy completes
with the usual report."""

import json
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from arena.reports.output import write_report
from arena.tournament import build, run_tournament
from arena.tournament.config_file import load_toml

HERE = Path(__file__).parent
EVIL = HERE / "evil_bots.py"
FIRST = HERE.parents[1] / "examples" / "engines" / "first_legal.sh"


def games(path):
    db = sqlite3.connect(path)
    rows = db.execute("SELECT seats, termination, fault_seat, fault_detail FROM games ORDER BY game_id").fetchall()
    db.close()
    return [(json.loads(s), t, f, d) for s, t, f, d in rows]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="resource limits and PR_SET_PDEATHSIG: Linux")
@pytest.mark.slow
def test_hostile_bots_change_nothing_stored_and_lose(tmp_path):
    results = tmp_path / "results"
    db = results / "evil.sqlite"
    field = ["random", f"tamper={EVIL}#Tamperer", f"killer={EVIL}#ParentKiller", f"hog={EVIL}#MemoryHog"]
    if os.geteuid() == 0:  # dropped to nobody; under the arena's own user the file is writable
        field.append(f"db={EVIL}#DbWriter:path={db}")
    cfg = build(dict(game="interaction", bots=field, format="gauntlet", games=2, workers=1, name="evil",
                     results=str(results), isolation="process", memory_limit=128, opening_plies=0, retries=0))
    summary = run_tournament(cfg)
    total = 2 * (len(field) - 1)
    assert summary.stored == summary.total == total
    stored = games(db)
    assert len(stored) == total  # the DbWriter deleted nothing
    # as root the killer's signal is refused (exception); as the same user it kills the worker (crash)
    expected = {"tamper": {"exception"}, "db": {"exception"}, "killer": {"exception", "crash"},
                "hog": {"memory"}}
    for seats, termination, fault_seat, detail in stored:
        evil = next(label for label in seats if label != "random")
        assert fault_seat == seats.index(evil), (seats, termination, detail)
        assert termination in expected[evil], (evil, termination, detail)
    tamper = [d for s, t, f, d in stored if "tamper" in s]
    assert tamper and all("tampered with 0 other bots" in d for d in tamper), tamper  # nothing else in its process
    if os.geteuid() == 0:
        assert all("PermissionError" in d or "Operation not permitted" in d for s, t, f, d in stored if "killer" in s)
        assert all("readonly" in d or "unable to open" in d for s, t, f, d in stored if "db" in s)
    assert write_report(db)


def test_round_robin_shell_engine_engine_served_alphabeta_and_greedy(tmp_path):
    """The done-when run, on Interaction and on Sandpile (``--isolation none``: greedy stays
    in-process; alphabeta runs as an ``arena engine`` process from an ``[[engine]]`` table)."""
    for game, searcher in (("interaction", "alphabeta"), ("sandpile", "paranoid")):  # alpha-beta for 4 seats
        config = tmp_path / f"{game}.toml"
        config.write_text(
            f'game = "{game}"\nbot = ["sh=exec:{FIRST}", "greedy"]\n'
            f'[[engine]]\nlabel = "ab2"\ncommand = ["{sys.executable}", "-m", "arena.engine", "{searcher}"]\n'
            f'options = {{ depth = 2 }}\nstartup_timeout = 30\n')
        values = load_toml(config)
        values.update(games=1 if game == "sandpile" else 2, workers=2, results=str(tmp_path / "r"), fill="random")
        cfg = build(values)
        summary = run_tournament(cfg)
        assert summary.stored == summary.total and not summary.faults, summary.faults
        stored = games(summary.path)
        assert {label for seats, *_ in stored for label in seats} >= {"sh", "greedy", "ab2"}
        assert any(p.suffix == ".md" for p in write_report(summary.path))
        db = sqlite3.connect(summary.path)
        from arena.results.packed import register

        register(db)  # the moves view's functions
        nodes = db.execute("SELECT SUM(m.nodes) FROM moves m JOIN games g USING (game_id) "
                           "WHERE m.seat >= 0 AND json_extract(g.seats, '$[' || m.seat || ']') = 'ab2'").fetchone()[0]
        assert nodes and nodes > 0  # info figures reached the moves table


@pytest.mark.slow
def test_round_robin_under_isolation_process(tmp_path):
    """Every Python bot its own sandboxed process; the shell engine as it is."""
    cfg = build(dict(game="interaction", bots=[f"sh=exec:{FIRST}", "alphabeta:depth=2", "greedy"], games=2,
                     workers=2, results=str(tmp_path), isolation="process", memory_limit=256))
    summary = run_tournament(cfg)
    assert summary.stored == summary.total == 6 and not summary.faults, summary.faults
    stored = games(summary.path)
    for _seats, termination, *_ in stored:
        assert termination not in ("crash", "timeout", "exception")
    assert any(p.suffix == ".md" for p in write_report(summary.path))


@pytest.mark.slow
def test_each_isolated_bot_is_checked_once_and_only_with_games_to_play(tmp_path, monkeypatch):
    """``check_isolated`` starts each isolated engine once before the games; a run of a
    tournament already finished plays nothing and starts no engine to check."""
    import arena.engine.sandbox as sandbox
    import arena.tournament.runner as runner

    checked = []

    def counting(specs, isolated, game):
        checked.append(sorted(label for label, spec in isolated.items() if spec.options.get("_isolation")))
        sandbox.check_isolated(specs, isolated, game)

    monkeypatch.setattr(runner, "check_isolated", counting)
    cfg = build(dict(game="interaction", bots=["random", "b=random"], games=1, workers=1, results=str(tmp_path),
                     isolation="process", name="t"))
    first = run_tournament(cfg)
    assert first.played == first.total and checked == [["b", "random"]]
    again = run_tournament(cfg)
    assert again.played == 0 and again.stored == first.total and checked == [["b", "random"]]
