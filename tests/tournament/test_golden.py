"""Today's formats play the same games as the stored exports: nothing changes the games of a
tournament by accident.

Each case is an ``arena run`` command whose games were exported (``arena export``, without the
wall-clock ``seconds`` and ``attempts``, keys sorted) into ``tests/tournament/golden/<name>.jsonl``:
first at commit d90343e, before the runner was rebuilt around schedules (issue 28); written
again when bot seeding scheme 3 (``arena.referee.SEEDING``: a pairing's series seeded and
seated by its bots' sorted names, issue 30) changed the games of every pairing whose bots were
not given in sorted order (the gauntlet's, whose challenger sorts first, stayed the same).
Running the command again must store the same games: ids, series seeds, seats, moves, outcomes
and faults. The SPRT match runs on one worker so the games stored before its decision do not
depend on timing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"

CASES = {
    "default": ["--games", "2", "--workers", "2"],
    "sandpile": ["--game", "sandpile", "--games", "4", "--workers", "2"],
    "ricochet": ["--game", "ricochet", "--games", "4", "--workers", "2"],
    "gauntlet": ["--format", "gauntlet", "--bot", "ab=alphabeta:depth=2", "--bot", "random", "--bot", "greedy",
                 "--bot", "m=mcts:playouts=50", "--games", "4", "--opening-plies", "3", "--workers", "2"],
    "sprt": ["--bot", "r=random", "--bot", "g=greedy", "--sprt", "elo0=0,elo1=100", "--games", "400",
             "--workers", "1"],
}


def exported(results: Path, name: str) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "arena", "export", name, "--results", str(results), "--out", "-"],
                         capture_output=True, text=True, check=True).stdout
    games = []
    for line in out.splitlines():
        game = json.loads(line)
        game.pop("seconds")
        game.pop("attempts")
        games.append(game)
    return games


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_same_games_as_before_schedules(name: str, tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "arena", "run", "-q", "--results", str(tmp_path), "--name", name,
                          *CASES[name]], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    want = [json.loads(line) for line in (GOLDEN / f"{name}.jsonl").read_text().splitlines()]
    got = sorted(exported(tmp_path, name), key=lambda g: g["game_id"])
    assert [g["game_id"] for g in got] == [g["game_id"] for g in want], "the same game ids are stored"
    for g, w in zip(got, want):
        assert g == w, f"game {w['game_id']} differs from the stored export"
