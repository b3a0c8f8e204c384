"""Views over the engine protocol (``docs/engine-protocol.md`` "Views"), on the small games with
hidden information of ``hidden_games``: the ``view`` line keeps any text exactly; an engine is
sent its own seat's view and moves, never a ``position``; ``arena engine`` hands its bot a
``View``; an engine of protocol 1 or 2 keeps its perfect-information games and is refused a game
with hidden information in one line before the first game; the handshake steps down a version
at a time; ``arena engine check`` covers views."""

from __future__ import annotations

import io
import logging
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import arena.games
from arena.engine.client import close_all
from arena.engine.compliance import check_engine
from arena.engine.process import set_trace
from arena.engine.protocol import format_view, parse_view
from arena.engine.server import Server
from arena.errors import BotSpecError
from arena.games import SIMULTANEOUS, Answer, View
from arena.referee import GameSettings, play_game
from arena.tournament import build, run_tournament
from bots.base import Limits
from bots.registry import make

HERE = Path(__file__).parent
VIEW_ENGINE = HERE / "view_engine.sh"
OLD_ENGINE = HERE.parents[1] / "examples" / "engines" / "first_legal.sh"  # aepok: protocol 1
V2_ENGINE = HERE / "noncompliant.sh"  # aepok 2
RECORDER = "tests.engine.hidden_games.Recorder"


@pytest.fixture(autouse=True)
def games(monkeypatch: pytest.MonkeyPatch):
    """The two small games registered for the test only (the registry as it was after it)."""
    monkeypatch.setattr(arena.games, "_REGISTERED", dict(arena.games._REGISTERED))
    import tests.engine.hidden_games as hidden
    hidden.register()
    return hidden


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60),
       st.sampled_from([0, 1, SIMULTANEOUS]))
def test_a_view_line_is_one_ascii_line_that_gives_back_the_text(text, to_move):
    line = format_view(to_move, text)
    assert line.isascii() and "\n" not in line and "\r" not in line
    assert parse_view(line, 2) == (to_move, text)
    assert parse_view(line.rstrip() + "  ", 2) == (to_move, text)  # a reader that pads or trims the line's end


def test_a_multi_line_view_with_a_trailing_space_is_sent_escaped():
    assert format_view(1, 'card: 3\nheard: bet \n') == r'view 1 "card: 3\nheard: bet \n"'
    assert format_view(SIMULTANEOUS, "") == 'view all ""'


@pytest.mark.parametrize("line,error", [
    ("view", "expected: view K|all TEXT_JSON"), ("view 0", "expected: view K|all TEXT_JSON"),
    ('view 2 "x"', "accepted: 0 to 1, or all"), ('view -1 "x"', "accepted: 0 to 1"),
    ('view ² "x"', "accepted: 0 to 1"), ("view 0 card", "expected one JSON string"),
    ("view 0 [1]", "not list"), ('view 0 "open', "expected one JSON string"),
])
def test_a_bad_view_line_names_what_is_accepted(line, error):
    with pytest.raises(ValueError, match="view") as caught:
        parse_view(line, 2)
    assert error in str(caught.value)


def serve(spec: str, lines: list[str]) -> list[str]:
    out = io.StringIO()
    Server(spec, out).run(lines)
    return out.getvalue().splitlines()


def test_arena_engine_hands_its_bot_the_view_and_its_moves(games):
    games.Recorder.SEEN.clear()
    out = serve(RECORDER, ["aep 3", "newgame test-highcard {}", "seat 1 5", "isready",
                           format_view(1, "card: 3\nheard: bet \n"), "legal call fold", "go movetime 100",
                           "newgame test-duel {}", "seat 0 9", format_view(SIMULTANEOUS, "card: 1\nheard: \n"),
                           "legal hi lo", "go", "quit"])
    assert "aepok 3" in out
    assert [line for line in out if line.startswith("bestmove")] == ["bestmove fold", "bestmove lo"]
    first, second = games.Recorder.SEEN
    assert isinstance(first, View) and isinstance(second, View)
    assert (first.seat, first.to_move, first.text, first.moves) == (1, 1, "card: 3\nheard: bet \n", ("call", "fold"))
    assert (second.seat, second.to_move, second.moves) == (0, SIMULTANEOUS, ("hi", "lo"))
    assert first.game.name == "test-highcard" and not first.can_sample  # no sampler crosses the protocol
    with pytest.raises(NotImplementedError, match="no sampler"):
        first.sample(__import__("random").Random(1))


def test_arena_engine_answers_bad_view_lines_and_serves_on():
    out = serve(RECORDER, ["aep 3", 'view 0 "x"', "newgame test-highcard {}", "seat 0 1", 'view 0 card', 'view 5 "x"',
                           "go", format_view(0, "card: 2\nheard:  \n"), "legal bet check", "go", "quit"])
    errors = [line for line in out if line.startswith("info string error")]
    assert len(errors) == 4 and "view before newgame" in errors[0] and "JSON string" in errors[1]
    assert "accepted: 0 to 1, or all" in errors[2] and "go before position or view" in errors[3]
    assert out[-1] == "bestmove check"


def test_arena_engine_refuses_a_hidden_game_to_a_bot_of_perfect_information():
    out = serve("greedy", ["aep 3", "newgame test-highcard {}", "isready", "quit"])
    assert any(line.startswith("info string error newgame: bot 'greedy' cannot play test-highcard: greedy plays "
                               "games of perfect information") for line in out), out
    assert "aepok 3" in out and "readyok" in out


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_arena_engine_speaks_every_version(version):
    out = serve("random", [f"aep {version}", "quit"])
    assert out[-1] == ("aepok" if version == "1" else f"aepok {version}")


def traced(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str, str]]:
    """(label, direction, line) of every protocol line traced."""
    rows = []
    for record in caplog.records:
        if record.name == "arena.worker.engine.trace":
            label, direction, line = record.getMessage().split(" ", 2)
            rows.append((label, direction, line))
    return rows


def expected_views(game, moves: tuple[str, ...], seat: int) -> list[str]:
    """The view and legal lines ``seat`` is owed along the stored ``moves`` (the game's own views)."""
    state, lines = game.initial_state(0), []
    for text in moves:
        if state.to_move == seat or state.to_move == SIMULTANEOUS:
            view = state.view(seat)
            lines += [format_view(view.to_move, view.text), "legal " + " ".join(map(str, view.moves))]
        if state.to_move == SIMULTANEOUS:
            state = state.play([Answer(w) for w in text.split()])
        else:
            state = state.play(game.parse_move(state, text))
    return lines


@pytest.mark.parametrize("name", ["test-highcard", "test-duel"])
def test_an_engine_is_sent_its_own_view_never_the_position(name, caplog):
    caplog.set_level(logging.INFO, logger="arena.worker.engine.trace")
    game = arena.games.make(name)
    set_trace(True)
    try:
        for seed in range(4):
            bots = [make("a=exec:" + str(VIEW_ENGINE)), make("b=exec:" + str(VIEW_ENGINE))]
            caplog.clear()
            record = play_game(GameSettings(game, seed, labels=["a", "b"], limits=Limits(time=5)), bots)
            assert record.fault_seat is None and record.outcome.termination in game.TERMINATIONS
            rows = traced(caplog)
            assert not [r for r in rows if r[1] == ">" and r[2].startswith("position")]
            for seat, label in enumerate("ab"):
                sent = [line for lab, d, line in rows
                        if lab == label and d == ">" and line.split()[0] in ("view", "legal")]
                assert sent == expected_views(game, record.moves, seat), (seat, record.moves)
                other_card = record.moves[1 - seat]  # the deal: seat 0's card, then seat 1's
                own_card = record.moves[seat]
                views = [parse_view(line, 2)[1] for line in sent if line.startswith("view")]
                assert views and all(v.startswith(f"card: {own_card}\n") for v in views)
                assert other_card == own_card or not any(f"card: {other_card}" in v for v in views)
    finally:
        set_trace(False)
        close_all()


def test_an_old_engine_is_refused_a_hidden_game_at_reset_and_keeps_its_perfect_information_games():
    try:
        game = arena.games.make("test-highcard")
        old, new = make("old=exec:" + str(OLD_ENGINE)), make("new=exec:" + str(VIEW_ENGINE))
        assert old.protocol == 1 and new.protocol == 3
        record = play_game(GameSettings(game, 1, labels=["new", "old"], limits=Limits(time=5)), [new, old])
        assert record.fault_seat == 1 and record.outcome.termination == "crash"
        assert "engine 'old' speaks protocol 1 (aepok); test-highcard has hidden information" in record.fault_detail
        inter = arena.games.make("interaction")  # perfect information: version 1 and 3 engines play as before
        record = play_game(GameSettings(inter, 1, labels=["old", "new"], limits=Limits(time=5)), [old, new])
        assert record.fault_seat is None and record.plies > 0
    finally:
        close_all()


@pytest.mark.parametrize("engine,said", [(OLD_ENGINE, "protocol 1 (aepok)"), (V2_ENGINE, "protocol 2 (aepok 2)")])
def test_a_run_refuses_an_old_engine_a_hidden_game_before_the_first_game(tmp_path, engine, said):
    cfg = build(dict(game="test-highcard", bots=["random", f"old=exec:{engine}"], games=2, workers=1,
                     results=str(tmp_path), name="old"))
    with pytest.raises(BotSpecError) as caught:
        run_tournament(cfg)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"bot 'old=exec:{engine}' cannot play test-highcard: engine "
                                                      f"'old' speaks {said}")
    assert "aepok 3" in message
    assert not list(tmp_path.glob("*.sqlite"))  # nothing stored


def test_the_command_line_refuses_it_in_one_line_with_exit_2(tmp_path):
    code = ("import sys, tests.engine.hidden_games; from arena.cli.app import main; "
            "sys.argv = ['arena'] + sys.argv[1:]; main()")
    out = subprocess.run([sys.executable, "-c", code, "run", "--game", "test-highcard", "--bot", "random", "--bot",
                          f"old=exec:{OLD_ENGINE}", "--games", "2", "--results", str(tmp_path)],
                         capture_output=True, text=True, timeout=120, cwd=HERE.parents[1])
    assert out.returncode == 2, out.stderr
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "speaks protocol 1 (aepok)" in lines[0] and "Traceback" not in out.stderr, out.stderr


def fake_engine(tmp_path: Path, refuses: tuple[str, ...]) -> Path:
    """An engine that refuses the ``aep`` versions of ``refuses`` as an older ``arena engine`` does."""
    script = tmp_path / "older.sh"
    cases = "".join(f'    "aep {v}") echo "info string error unsupported protocol version {v}; accepted: older" ;;\n'
                    for v in refuses)
    script.write_text('#!/bin/sh\nwhile IFS= read -r line; do\n  case "$line" in\n' + cases +
                      '    "aep 1") echo aepok ;;\n    "aep "*) echo "aepok ${line#aep }" ;;\n'
                      '    isready) echo readyok ;;\n    quit) exit 0 ;;\n  esac\ndone\n')
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("refuses,version", [((), 3), (("3",), 2), (("3", "2"), 1)])
def test_the_handshake_steps_down_one_version_at_a_time(tmp_path, refuses, version):
    bot = make("x=exec:" + str(fake_engine(tmp_path, refuses)))
    assert bot.protocol == version


def statuses(spec: str, game: str) -> dict[str, tuple[str, str]]:
    return {c.name: (c.status, c.detail) for c in check_engine(spec, game, timeout=30)}


@pytest.mark.parametrize("game", ["test-highcard", "test-duel"])
def test_engine_check_plays_views_on_a_hidden_game(game):
    for spec in ("exec:" + str(VIEW_ENGINE), RECORDER):  # a script; a Python bot served as arena engine serves it
        results = statuses(spec, game)
        assert all(status == "pass" for status, _ in results.values()), results
        assert f"every seat of {game}" in results["views"][1], results["views"]


def test_engine_check_fails_an_old_engine_on_a_hidden_game_and_skips_views_elsewhere():
    results = statuses("exec:" + str(OLD_ENGINE), "test-highcard")
    assert results["start position"][0] == "fail" and "speaks protocol 1" in results["start position"][1]
    results = statuses("exec:" + str(OLD_ENGINE), "interaction")
    assert results["views"][0] == "skip" and "protocol 1" in results["views"][1]
    assert results["start position"][0] == "pass"



def test_an_engine_without_an_answer_at_a_joint_action_alone_is_at_fault(tmp_path):
    """At a simultaneous node whose views list each seat's moves, ``bestmove -`` is no move:
    that seat loses by ``bad_move``; the other seat, which answered, is not blamed."""
    silent = tmp_path / "silent.sh"
    silent.write_text('#!/bin/sh\nwhile IFS= read -r line; do\n  case "$line" in\n'
                      '    "aep "*) echo "aepok 3" ;;\n    isready) echo readyok ;;\n    go*) echo "bestmove -" ;;\n'
                      '    quit) exit 0 ;;\n  esac\ndone\n')
    silent.chmod(0o755)
    try:
        bots = [make("a=exec:" + str(VIEW_ENGINE)), make("s=exec:" + str(silent))]
        record = play_game(GameSettings(arena.games.make("test-duel"), 2, labels=["a", "s"], limits=Limits(time=5)),
                           bots)
        assert record.fault_seat == 1 and record.outcome.termination == "bad_move" and record.outcome.ranks == (1, 2)
    finally:
        close_all()


def test_engine_check_names_the_fault_of_a_bot_that_cannot_play_from_a_protocol_view():
    results = statuses("tests.engine.hidden_games.Sampler", "test-highcard")
    status, detail = results["start position"]
    assert status == "fail" and detail.startswith("the engine exited (exit code 3): fault exception "
                                                  "NotImplementedError: test-highcard: a view sent over the engine "
                                                  "protocol has no sampler"), detail
