"""Helpers of the integrity tests: run a hostile bot in a tournament, then check the store."""

import os
import time
from pathlib import Path

import arena.games
from arena.cli.export import games_frame
from arena.referee.check import ARENA_ENDINGS, round_answers
from arena.games import SIMULTANEOUS
from arena.tournament import build, run_tournament

HOSTILE = "tests/fixtures/hostile_bots.py#"


def run_hostile(tmp_path, bot, games=2, workers=1, **extra):
    """``arena run --game interaction --bot c=<bot> --bot greedy --games 2 --workers 1``."""
    cfg = build(dict(game="interaction", bots=[f"c={HOSTILE}{bot}", "greedy"], games=games, workers=workers,
                     results=str(tmp_path), **extra))
    summary = run_tournament(cfg)
    frame = games_frame(summary.path)
    assert_stored_is_replayed(frame, cfg.game, cfg.params)
    return summary, frame


def assert_stored_is_replayed(frame, name, params):
    """Every exported game's stored outcome is what a replay of its stored moves gives."""
    for row in frame.itertuples():
        game = arena.games.make(name, **params)
        state = game.initial_state(int(row.seed))
        for text in row.moves:
            move = round_answers(game, state, text) if state.to_move == SIMULTANEOUS else game.parse_move(state, text)
            state = state.play(move)
        if row.termination in ARENA_ENDINGS:
            assert not state.is_terminal(), f"game {row.game_id}: the moves end the game before {row.termination}"
        else:
            o = state.outcome()
            assert (o.termination, list(o.ranks)) == (row.termination, list(row.ranks)), f"game {row.game_id}"


def alive(pid: int, start: str | None = None) -> bool:
    """``pid`` runs (a zombie does not count) and, given its ``start`` time (field 22 of
    ``/proc/PID/stat``), is the process that started then, not a later one with its pid."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return False
    return fields[0] != "Z" and (start is None or fields[19] == start)


def assert_no_survivors(marks: Path, seconds: float = 5.0):
    """No process that a hostile bot noted in ``marks`` (``<pid>.pid`` holding its start time)
    is alive (grace: ``seconds``); those left are killed, and never a later process with the
    same pid."""
    noted = [(int(p.stem), p.read_text().strip()) for p in marks.glob("*.pid")]
    deadline = time.monotonic() + seconds
    while any(alive(*n) for n in noted) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid, start in noted if alive(pid, start)]
    for p in left:  # never leave them behind on a failure
        try:
            os.kill(p, 9)
        except OSError:
            pass
    assert not left, f"processes of the run left: {left}"
