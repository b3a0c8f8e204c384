"""Game clocks (``--tc``, a spec's ``tc=``): the time control's text, the referee's clocks
(``MOVES/`` refills, increments, time odds, a clock that runs out), what bots and engines see,
and what a tournament stores."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import arena.games
from arena.engine.protocol import Go, parse_go
from arena.errors import BotSpecError, ConfigError
from arena.referee import GameSettings, Termination, play_game
from arena.referee.clock import GameClocks
from arena.results.store import load_games, load_moves
from arena.tournament import build, run_tournament
from bots.base import Limits
from bots.clock import INFINITE, Clock, TimeControl
from bots.registry import parse_spec
from tests.toy import Nim
from tests.registered import register_game

BROKEN = "tests/fixtures/broken_bots.py#"


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch):
    register_game(monkeypatch, "nim", "tests.toy:Nim")


class Takes1:
    """Takes one stone at once; keeps the limits it was given."""

    def __init__(self) -> None:
        self.seen: list[Limits | None] = []

    def choose(self, state, limits):
        self.seen.append(limits)
        return 1


class Spends:
    """Sleeps ``seconds`` on its first move, then takes one stone at once."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.moved = seconds, False

    def choose(self, state, limits):
        if not self.moved:
            self.moved = True
            time.sleep(self.seconds)
        return 1


@pytest.mark.parametrize("text,tc,canonical", [
    ("40/60+0.6", TimeControl(60.0, 0.6, 40), "40/60+0.6"),
    ("10+0.1", TimeControl(10.0, 0.1), "10+0.1"),
    ("60", TimeControl(60.0), "60"),
    ("0.5+0", TimeControl(0.5), "0.5"),
    (" INF ", INFINITE, "inf"),
])
def test_time_control_text_reads_and_writes_back(text, tc, canonical):
    assert TimeControl.parse(text) == tc and tc.text() == canonical == TimeControl.parse(canonical).text()


@pytest.mark.parametrize("text", ["", "10+", "0+1", "-5", "40/", "0/10", "abc", "10+0.1+1", "1e9"])
def test_bad_time_control_is_one_line_naming_the_forms(text):
    with pytest.raises(ConfigError, match="accepted: MOVES/BASE\\+INC, BASE\\+INC, BASE or inf"):
        TimeControl.parse(text)


def test_moves_refill_and_increment_follow_the_time_control():
    # 3/10+1: each move takes 2 s; after the 3rd own move the base (10 s) is added again
    clocks = GameClocks([TimeControl(10.0, 1.0, 3), None])
    togo = []
    left = []
    for _ in range(7):
        togo.append(clocks.view().moves_to_go[0])
        left.append(clocks.charge(0, 2.0))
    assert togo == [3, 2, 1, 3, 2, 1, 3]
    assert left == [9.0, 8.0, 17.0, 16.0, 15.0, 24.0, 23.0]
    assert clocks.charge(1, 5.0) is None and clocks.view().remaining[1] is None  # seat 1: no clock


def test_fischer_increment_without_period_and_a_clock_shown_never_below_zero():
    clocks = GameClocks([TimeControl(1.0, 0.5)])
    assert clocks.charge(0, 0.2) == pytest.approx(1.3)
    assert clocks.charge(0, 1.6) == pytest.approx(0.2)
    assert clocks.charge(0, 1.0) == pytest.approx(-0.3)  # overran within a margin: carried
    assert clocks.view().remaining == (0.0,) and clocks.view().moves_to_go == (None,)


def test_bot_spending_its_whole_clock_on_move_one_loses_on_time():
    settings = GameSettings(Nim(pile=8), seed=1, clocks=TimeControl(0.2), time_margin=0.05)
    record = play_game(settings, [Spends(0.6), Takes1()])
    assert record.outcome.termination == Termination.TIMEOUT and record.fault_seat == 0
    assert record.outcome.ranks == (2, 1) and "left on the clock (tc 0.2" in record.fault_detail


def test_bots_within_their_clock_never_lose_on_time_and_each_move_stores_its_clock():
    bots = [Takes1(), Takes1()]
    record = play_game(GameSettings(Nim(pile=20), seed=1, clocks=TimeControl(30.0, 1.0, 4)), bots)
    assert record.outcome.termination == "last_stone"
    clocks = [m.clock for m in record.move_stats]
    # seats alternate; each own move adds the 1 s increment (and takes a few microseconds)
    assert clocks[:6] == pytest.approx([31.0, 31.0, 32.0, 32.0, 33.0, 33.0], abs=0.05)
    assert clocks[6] == pytest.approx(34.0 + 30.0, abs=0.05)  # seat 0's 4th move: the base added again
    seen = bots[0].seen[0]
    assert seen.clock is not None and seen.clock.moves_to_go == (4, 4) and seen.clock.increment == (1.0, 1.0)


def test_time_odds_give_each_seat_its_own_clock():
    bots = [Takes1(), Takes1()]
    play_game(GameSettings(Nim(pile=6), seed=1, clocks=(TimeControl(10.0), TimeControl(1.0, 0.1))), bots)
    first = bots[1].seen[0].clock  # seat 1's first move: seat 0 has moved once
    assert first.remaining[0] == pytest.approx(10.0, abs=0.5) and first.remaining[1] == pytest.approx(1.0, abs=0.01)
    assert first.increment == (0.0, 0.1)
    unlimited = [Takes1(), Takes1()]
    play_game(GameSettings(Nim(pile=4), seed=1, clocks=(INFINITE, TimeControl(5.0))), unlimited)
    assert unlimited[0].seen[0].clock.remaining[0] is None


def test_budget_shares_the_clock_and_folds_into_the_move_time():
    clock = Clock((60.0, 10.0), (0.0, 1.0), (None, 1))
    assert clock.budget(0) == pytest.approx(60.0 / 30)  # no period: 30 moves assumed left
    assert clock.budget(1) == pytest.approx(7.5)  # last move of its period: at most 3/4 of the clock
    limits = Limits(time=1.0, depth=3, clock=clock)
    assert limits.budgeted(0).time == 1.0 and limits.budgeted(0).depth == 3
    assert Limits(clock=clock).budgeted(0).time == pytest.approx(2.0)
    assert Limits(depth=2).tighter(limits).clock is clock


def test_spec_tc_is_the_arenas_option_and_part_of_the_label():
    spec = parse_spec("alphabeta:depth=2,tc=40/60+0.60")
    assert spec.tc == "40/60+0.6" and spec.options == {"depth": "2"} and spec.label == "alphabeta:depth=2,tc=40/60+0.60"
    with pytest.raises(BotSpecError, match="bad time control"):
        parse_spec("random:tc=fast")


def test_engine_go_carries_every_seats_clock_and_reads_back():
    limits = Limits(nodes=100, clock=Clock((1.5, None, 0.25), (0.1, 0.0, 0.0), (None, None, 7)))
    line = Go.of(limits, 2).line()
    assert line == "go nodes 100 time0 1500 inc0 100 time2 250 inc2 0 movestogo 7"
    back = parse_go(line).limits(2)
    assert back.nodes == 100 and back.clock == Clock((1.5, None, 0.25), (0.1, 0.0, 0.0), (None, None, 7))
    assert Go.of(limits, 0, version=1).line() == "go movetime 125 nodes 100"  # version 1: 1.5/30 + 0.75 * 0.1 s


def test_tournament_with_tc_times_every_move_and_a_late_bot_loses(tmp_path):
    cfg = build(dict(game="nim", params={"pile": "6"}, bots=["random", f"slow={BROKEN}Slow:ms=400"], games=2,
                     workers=1, results=str(tmp_path), opening_plies=0, tc="0.3", time_margin=0.05))
    assert cfg.identity()["tc"] == "0.3"
    summary = run_tournament(cfg)
    games = load_games(summary.path)
    assert (games["termination"] == "timeout").all()
    assert all(seats[fault] == "slow" for seats, fault in zip(games["seats"], games["fault_seat"]))
    moves = load_moves(summary.path)
    timed = moves[moves["label"] == "random"]
    assert len(timed) and timed["clock"].between(0.0, 0.3).all()


def test_no_tc_leaves_the_identity_and_moves_unclocked(tmp_path):
    cfg = build(dict(game="nim", params={"pile": "5"}, bots=["random", "random"], games=2, workers=1,
                     results=str(tmp_path), opening_plies=0, tc="inf"))
    assert "tc" not in cfg.identity() and cfg.tc is None
    summary = run_tournament(cfg)
    assert load_moves(summary.path)["clock"].isna().all()


#: the example engine, speaking version 2 (it reads the clocks of ``go``), each line it receives copied to {log}
FIRST_LEGAL = Path(__file__).resolve().parents[2] / "examples" / "engines" / "first_legal.sh"
ECHO_ENGINE = """#!/bin/sh
tee -a "{log}" | sh "{example}" | sed -u 's/^aepok$/aepok 2/'
"""


def test_an_engine_receives_the_clock_fields(tmp_path):
    log = tmp_path / "go.txt"
    script = tmp_path / "echo.sh"
    script.write_text(ECHO_ENGINE.replace("{log}", str(log)).replace("{example}", str(FIRST_LEGAL)))
    script.chmod(0o755)
    from bots.registry import make
    engine = make(f"exec:{script}")
    try:
        record = play_game(GameSettings(Nim(pile=5), seed=1, clocks=TimeControl(5.0, 0.25, 2)), [engine, Takes1()])
    finally:
        engine.close()
    assert record.outcome.termination == "last_stone"
    lines = [line for line in log.read_text().splitlines() if line.startswith("go")]
    assert lines and all(" time0 " in line and " inc0 250 " in line and " time1 " in line for line in lines)
    assert lines[0].startswith("go time0 5000 inc0 250 time1 ") and lines[0].endswith(" movestogo 2")


def test_engine_tables_give_their_engine_its_own_clock_and_restart():
    from arena.tournament.config_file import engine_specs
    (spec,) = engine_specs([{"label": "e", "command": ["./eng"], "tc": "5+0.1", "restart": True}], "t.toml")
    parsed = parse_spec(spec)
    assert parsed.tc == "5+0.1" and parsed.restart and parsed.options == {}


def test_simultaneous_rounds_are_never_charged_to_a_clock():
    # a clock of a microsecond and no margin: any charged answer would lose on time
    game = arena.games.make("ricochet", players=2, max_rounds=2)
    bots = [Takes1(), Takes1()]
    for bot in bots:
        bot.choose = lambda state, limits, bot=bot: bot.seen.append(limits)  # no answer, limits kept
    record = play_game(GameSettings(game, seed=3, clocks=TimeControl(1e-6), time_margin=0.0), bots)
    assert record.outcome.termination != Termination.TIMEOUT
    assert bots[0].seen and all(lim is None or lim.clock is None for lim in bots[0].seen)
