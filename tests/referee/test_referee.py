"""The referee: typed records and their wire formats, ``Termination``, game errors (a bug in
the game is never a bot's fault) and bots refused before the first game."""

from __future__ import annotations

import logging
import subprocess
import sys
from dataclasses import fields

import numpy as np
import pytest

import arena.games
import bots
from arena.errors import BotSpecError
from arena.games import Outcome
from arena.referee import (FAULTS, RECORD_VERSION, GameRecord, GameSettings, MoveRecord, Ply, Termination, from_wire,
                           message_from_wire, message_to_wire, play_game, ply_from_wire, ply_to_wire, ply_wire,
                           referee_game, to_wire)
from arena.tournament import build, plan
from tests.fixtures.broken_bots import Exiter, Illegal, ResetRaiser
from tests.toy import Nim, NimState
from tests.registered import register_game


class BuggyState(NimState):
    """Nim whose rules crash on taking 2 stones: a bug in the game, not in the bot."""

    def play(self, move):
        if move == 2:
            raise ZeroDivisionError("the game's own bug")
        after = super().play(move)
        return BuggyState(after.pile, after.to_move, after.players, after.take, after.last)


class BuggyNim(Nim):
    name = "buggy-nim"

    def initial_state(self, seed=None):
        s = super().initial_state(seed)
        return BuggyState(s.pile, s.to_move, s.players, s.take, s.last)


class TakeTwo:
    def choose(self, state, limits):
        return 2


def full_record() -> GameRecord:
    """A record with every field away from its default."""
    stats = (MoveRecord(0, -1, "1"), MoveRecord(1, 1, "2", 0.25, 12, 3, -0.5, None),
             MoveRecord(2, 0, "-", 0.5, 7, 0, None, "late"))
    return GameRecord(("a", "b"), 42, 1, ("1", "2", "x"), stats, Outcome((1.0, 0.0), (1, 2), Termination.TIMEOUT),
                      1.5, 1, "1.000s for a 0.1s move")


def test_wire_round_trip_keeps_every_field():
    rec = full_record()
    wire = to_wire(rec)
    assert wire[0] == RECORD_VERSION and len(wire) == 1 + len(fields(GameRecord))
    assert from_wire(wire) == rec
    assert all(type(x) in (tuple, int, float, str, type(None)) for x in wire)  # plain values only


def test_wire_converts_what_is_not_plain_and_keeps_what_is():
    """``to_wire`` takes the referee's exact values as they are (whole records at once) and
    converts a record holding anything else, every value then exact."""
    class Text(str):
        pass

    odd = (MoveRecord(0, -1, Text("1")), MoveRecord(1, 1, "2", np.float64(0.25), np.int64(12), True, np.float32(-0.5)),
           MoveRecord(2, 0, "3", 0.5, 7, 0, None, Text("late"), 3))
    record = GameRecord(("a", Text("b")), 42, 1, (Text("1"), "2", "3"), odd, Outcome((1.0, 0.0), (1, 2), "target"), 1.5)
    wire = to_wire(record)
    assert wire[5] == ((0, -1, "1", 0.0, 0, 0, None, None, None), (1, 1, "2", 0.25, 12, 1, -0.5, None, None),
                       (2, 0, "3", 0.5, 7, 0, None, "late", 3.0))
    values = [wire[1], wire[4], *wire[5]]
    assert all(type(v) in (int, float, str, type(None)) for row in values for v in row)
    assert type(wire[5][2][8]) is float and type(wire[5][1][5]) is int
    exact = full_record()
    assert to_wire(exact)[5] == tuple((m.ply, m.seat, m.move, m.seconds, m.nodes, m.depth, m.evaluation, m.status,
                                       m.clock) for m in exact.move_stats)


def test_wire_refuses_another_version():
    wire = to_wire(full_record())
    with pytest.raises(ValueError, match="version 99"):
        from_wire((99, *wire[1:]))


def test_ply_wire_round_trip_and_foreign_numbers():
    rec = MoveRecord(3, 1, "e1N", 0.125, 100, 4, 0.75)
    assert ply_from_wire(ply_to_wire(Ply("e1N", rec))) == Ply("e1N", rec)
    round_rec = MoveRecord(4, 1, "-", 0.5, None, None, status="late")
    back = ply_from_wire(ply_to_wire(Ply("7 - -", round_rec, "diagram", "text")))
    assert back == Ply("7 - -", round_rec, "diagram", "text") and back.round
    numpy = MoveRecord(3, 1, "e1N", 0.125, np.int64(100), np.int64(4), np.float32(0.75))
    back = ply_from_wire(ply_to_wire(Ply("e1N", numpy))).record
    assert back == MoveRecord(3, 1, "e1N", 0.125, 100, 4, 0.75) and type(back.nodes) is int


@pytest.mark.parametrize("rec, move", [
    (MoveRecord(3, 1, "e1N", 0.125, 100, 4, 0.75), "e1N"),
    (MoveRecord(2, 0, "a6SW", 6.5e-05, None, None, None), "a6SW"),
    (MoveRecord(0, -1, "a4NW"), "a4NW"),
    (MoveRecord(5, 1, "e1N", 0.5, 0, 0, -0.0, clock=12.25), "e1N"),
    (MoveRecord(6, -3, "\udcff6", 0.0, 2**63 - 1, None, 1e300), "\udcff6"),  # a lone surrogate, the largest count
    (MoveRecord(4, 1, "-", 0.5, None, None, status="late"), "7 - -"),  # a round: as ply_to_wire
    (MoveRecord(3, 1, "e1N", 0.125, -2, None, float("nan")), "e1N"),  # values no short entry keeps: as ply_to_wire
    (MoveRecord(3, 1, "e1N", 0.125, 2**63, None), "e1N"),
])
def test_ply_wire_reads_back_as_the_ply(rec, move):
    """The hook's short ply entry (``ply_wire``) reads back as ``Ply(move, rec)``, as ``ply_to_wire``'s."""
    back = ply_from_wire(ply_wire(move, rec))
    assert back.move == move and type(back.move) is str
    want = ply_from_wire(ply_to_wire(Ply(move, rec))).record
    assert repr(back.record) == repr(want)  # NaN too; -0.0 stays -0.0
    assert [type(getattr(back.record, name)) for name in MoveRecord._fields] == \
        [type(getattr(want, name)) for name in MoveRecord._fields]
    numpy = MoveRecord(3, 1, "e1N", np.float64(0.125), np.int64(100), np.int64(4), np.float32(0.75))
    back = ply_from_wire(ply_wire("e1N", numpy)).record
    assert back == MoveRecord(3, 1, "e1N", 0.125, 100, 4, 0.75) and type(back.nodes) is int


def test_messages_round_trip_through_one_serialisation():
    from arena.referee import GameEnded
    ended = GameEnded(7, full_record())
    assert message_from_wire(message_to_wire(ended)) == ended
    with pytest.raises(ValueError, match="unknown message kind"):
        message_from_wire(("nonsense", 1))
    with pytest.raises(ValueError, match="a game record where a ply was expected"):
        import marshal
        ply_from_wire(marshal.dumps(message_to_wire(GameEnded(1, full_record()))))


def test_termination_is_a_string_with_a_documented_reason_per_member():
    assert Termination.TIMEOUT == "timeout" and str(Termination.GAME_TIME) == "game_time"
    assert "game_error" not in FAULTS and "crash" in FAULTS
    for member in Termination:
        assert member.__doc__ and member.__doc__ != Termination.__doc__, member


def test_a_game_bug_is_a_game_error_not_the_bots(caplog):
    with caplog.at_level(logging.ERROR, logger="arena.referee"):
        rec = play_game(GameSettings(BuggyNim(pile=9), 1), [bots.make("random"), TakeTwo()])
    assert rec.outcome.termination == Termination.GAME_ERROR
    assert rec.fault_seat is None and rec.outcome.ranks == (1, 1)
    assert "ZeroDivisionError: the game's own bug" in rec.fault_detail
    assert "Traceback" in caplog.text and "ZeroDivisionError" in caplog.text


def test_an_illegal_move_is_still_the_bots_fault_in_a_buggy_game():
    rec = play_game(GameSettings(BuggyNim(pile=9), 1), [Illegal(), bots.make("random")])
    assert rec.outcome.termination == "illegal_move" and rec.fault_seat == 0


def test_referee_blames_exit_and_reset_on_the_seat():
    rec = referee_game(GameSettings(Nim(), 1, labels=("r", "x")), [bots.make("random"), Exiter()])
    assert rec.outcome.termination == "exit" and rec.fault_seat == 1 and rec.plies == 1
    rec = referee_game(GameSettings(Nim(), 1, labels=("b", "r")), [ResetRaiser(), bots.make("random")])
    assert rec.outcome.termination == "exception" and rec.fault_seat == 0
    assert "ValueError: cannot start" in rec.fault_detail


def test_plan_refuses_a_bot_that_cannot_play_the_game():
    with pytest.raises(BotSpecError, match="cannot play sandpile: alphabeta plays 2-player games; sandpile has 4"):
        plan(build({"game": "sandpile", "bots": ("random", "alphabeta", "greedy", "mcts")}))
    with pytest.raises(BotSpecError, match="cannot play interaction: ricochet-greedy plays only ricochet"):
        plan(build({"game": "interaction", "bots": ("random", "ricochet-greedy")}))


@pytest.mark.parametrize("command", [
    ["run", "--game", "sandpile", "--bot", "alphabeta", "--bot", "random", "--bot", "greedy", "--bot", "mcts"],
    ["play", "sandpile", "--bot", "alphabeta"],
])
def test_cli_refuses_an_unsupported_pairing_in_one_line(tmp_path, command):
    results = ["--results", str(tmp_path)] if command[0] == "run" else []
    proc = subprocess.run([sys.executable, "-m", "arena", *command, *results],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "cannot play sandpile" in proc.stderr
    assert not list(tmp_path.glob("*.sqlite"))


@pytest.mark.parametrize("name", arena.games.names())
def test_every_game_declares_its_type(name):
    game = arena.games.make(name)
    assert isinstance(game.type, arena.games.GameType)
    assert game.type.min_players <= game.num_players


def test_a_game_error_in_a_tournament_is_stored_and_logged(tmp_path, monkeypatch):
    from arena.results.store import load_games
    from arena.tournament import run_tournament
    register_game(monkeypatch, "buggy-nim", "tests.referee.test_referee:BuggyNim")
    cfg = build(dict(game="buggy-nim", params={"pile": "9"},
                     bots=["random", "t2=tests/referee/test_referee.py#TakeTwo"], games=2, workers=1,
                     results=str(tmp_path), opening_plies=0))
    summary = run_tournament(cfg)
    games = load_games(summary.path)
    assert (games.termination == "game_error").any() and games.fault_seat.isna().all()
    log = (tmp_path / f"{summary.name}.log").read_text()
    assert "arena.referee ERROR game buggy-nim raised" in log and "ZeroDivisionError" in log


def test_figures_a_bot_does_not_report_are_none_not_zero(tmp_path):
    """``random`` reports no nodes or depth: its plies store NULL, and the search table shows
    NaN for it while alpha-beta's figures are numbers (``docs/statistics.md`` "Presentation")."""
    game = arena.games.make("interaction")
    rnd, ab = bots.make("random"), bots.make("alphabeta:depth=2")
    record = play_game(GameSettings(game, 3, labels=["random", "ab"]), [rnd, ab])
    own = [m for m in record.move_stats if m.seat >= 0]
    assert all(m.nodes is None and m.depth is None for m in own if m.seat == 0)
    assert all(m.nodes > 0 and m.depth >= 1 for m in own if m.seat == 1)
    import pandas as pd
    from arena.reports.tables import search_stats
    moves = pd.DataFrame([dict(ply=m.ply, seat=m.seat, label=record.seats[m.seat], nodes=m.nodes, depth=m.depth,
                               seconds=m.seconds) for m in own])
    table = search_stats(moves).set_index("label")
    assert pd.isna(table.loc["random", "mean_nodes"]) and pd.isna(table.loc["random", "nodes_per_second"])
    assert table.loc["ab", "mean_nodes"] > 0


def test_a_bot_with_reset_is_reset_without_a_protocol_check(monkeypatch):
    """``reset`` is looked up on the bot (``Resettable``), not through isinstance's runtime
    protocol check (5-15 µs a bot a game: a tenth of a Kuhn poker game through the referee)."""
    from bots.base import Resettable

    checked = []
    real = type(Resettable).__instancecheck__
    monkeypatch.setattr(type(Resettable), "__instancecheck__",
                        lambda cls, obj: checked.append(cls.__name__) or real(cls, obj))
    resets = []

    class Plain:
        def choose(self, state, limits):
            return 1

    class Told(Plain):
        def reset(self, game, seat, seed):
            resets.append((seat, seed))

    rec = play_game(GameSettings(Nim(), 1, seeds=(5, 6)), [Plain(), Told()])
    assert rec.outcome is not None and resets == [(1, 6)]
    assert "Resettable" not in checked
