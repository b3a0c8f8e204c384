"""``arena engine SPEC`` (the server side), the C example engine, ``[[engine]]`` tables and the
process sandbox's limits (``docs/engine-protocol.md``)."""

import io
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import arena.games
from arena.engine.client import close_all
from arena.engine.protocol import parse_info, parse_option
from arena.engine.sandbox import Sandbox, isolate
from arena.errors import BotSpecError, ConfigError
from arena.referee import play_game, GameSettings
from arena.tournament.config_file import engine_specs
from bots.base import Limits
from bots.registry import make, parse_spec

EXAMPLES = Path(__file__).parents[2] / "examples" / "engines"


def talk(spec: str, lines: list[str]) -> list[str]:
    out = subprocess.run([sys.executable, "-m", "arena", "engine", spec], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=120)
    return out.stdout.splitlines(), out.returncode, out.stderr


def test_arena_engine_serves_a_builtin_bot():
    g = arena.games.make("interaction")
    state = g.initial_state(7)
    legal = [str(m) for m in state.legal_moves()]
    out, code, _ = talk("greedy", ["aep 1", "newgame interaction {}", "seat 0 7", "isready",
                                   f"position {state.to_text()}", "legal " + " ".join(legal), "go movetime 500",
                                   "quit"])
    assert out[0] == "id name greedy" and "aepok" in out and "readyok" in out
    assert out[-1].startswith("bestmove ") and out[-1].split()[1] in legal
    assert parse_info(out[-2]).nodes > 0
    assert code == 0


def test_arena_engine_reports_a_bots_exception_and_exits():
    spec = f"{Path(__file__).parents[1] / 'fixtures' / 'broken_bots.py'}#Raiser"
    g = arena.games.make("interaction")
    out, code, err = talk(spec, ["aep 1", "newgame interaction {}", "seat 0 1", "isready",
                                 f"position {g.initial_state(1).to_text()}", "go"])
    bot_file = Path(__file__).parents[1] / "fixtures" / "broken_bots.py"
    frame = next(line.strip() for line in reversed(err.splitlines()) if line.strip().startswith("File "))
    assert frame.startswith(f'File "{bot_file}", line ') and frame.endswith(", in choose"), err  # the full traceback
    assert out[-1] == f"info string fault exception RuntimeError: bot bug | at {frame}" and code == 3


def test_arena_engine_bad_spec_is_one_line_exit_2():
    out = subprocess.run([sys.executable, "-m", "arena", "engine", "nosuchbot"], capture_output=True, text=True,
                         timeout=120, input="")
    assert out.returncode == 2 and out.stderr.startswith("error: unknown bot kind 'nosuchbot'")


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_c_engine_builds_and_plays(tmp_path):
    exe = tmp_path / "first_legal"
    subprocess.run(["cc", "-O2", "-o", str(exe), str(EXAMPLES / "first_legal.c")], check=True, timeout=120)
    try:
        bot = make(f"c=exec:{exe}:greeting=hi")
        g = arena.games.make("interaction")
        record = play_game(GameSettings(g, 2, labels=["c", "random"], limits=Limits(time=2)), [bot, make("random")])
        assert record.fault_seat is None and record.plies > 0
        assert all(m.nodes == 1 and m.depth == 1 for m in record.move_stats if m.seat == 0)
    finally:
        close_all()


def test_engine_tables_become_exec_specs():
    specs = engine_specs([{"label": "c", "command": ["./eng", "--fast"], "options": {"depth": 5, "ponder": False},
                           "startup_timeout": 20}], "x.toml")
    assert specs == ["c=exec:./eng --fast:depth=5,ponder=false,startup_timeout=20"]
    parsed = parse_spec(specs[0])
    assert parsed.kind == "exec:./eng --fast" and parsed.options["startup_timeout"] == "20"
    with pytest.raises(ConfigError, match="unknown key 'cmd'"):
        engine_specs([{"label": "c", "cmd": ["x"]}], "x.toml")
    with pytest.raises(ConfigError, match="needs label"):
        engine_specs([{"label": "c", "command": "x"}], "x.toml")


def test_bad_startup_timeout_is_a_spec_error():
    with pytest.raises(BotSpecError, match="startup_timeout"):
        make(f"e=exec:{EXAMPLES / 'first_legal.sh'}:startup_timeout=soon")


def test_isolate_turns_python_bots_into_sandboxed_engines():
    specs = {"ab": parse_spec("ab=alphabeta:depth=2"), "sh": parse_spec("sh=exec:./x.sh")}
    out = isolate(specs, "process", 128)
    assert out["sh"] is specs["sh"]
    assert out["ab"].label == "ab" and out["ab"].kind.startswith("exec:") and "arena.engine" in out["ab"].kind
    assert out["ab"].kind.endswith("alphabeta:depth=2") and out["ab"].options["_memory_limit"] == "128"
    assert isolate(specs, "none", 128) is specs


def test_sandbox_limits_are_hard(tmp_path):
    code = ("import os, resource\n"
            "soft, hard = resource.getrlimit(resource.RLIMIT_AS)\n"
            "n = resource.getrlimit(resource.RLIMIT_NPROC)\n"
            "print(soft, hard, n[0], n[1])\n"
            "if os.geteuid() == 0:\n"  # as the server does when root (sandbox.drop_privileges)
            "    os.setgroups([]); os.setresgid(65534, 65534, 65534); os.setresuid(65534, 65534, 65534)\n"
            "try:\n    resource.setrlimit(resource.RLIMIT_AS, (hard + 1, hard + 1)); print('raised')\n"
            "except (ValueError, OSError): print('refused')\n")
    box = Sandbox(memory_limit=64, max_processes=50)
    out = subprocess.run([sys.executable, "-c", code], preexec_fn=box.preexec(), capture_output=True, text=True,
                         timeout=120, cwd=box.workdir())
    soft, hard, nsoft, nhard = map(int, out.stdout.split()[:4])
    assert soft == hard != resource.RLIM_INFINITY and (nsoft, nhard) == (50, 50)
    assert out.stdout.split()[4] == "refused"


def test_served_bots_play_the_same_games_as_in_process_and_see_the_referees_state():
    """``arena engine`` bots (the position read back from its text) play move for move the
    games the same bots play in-process; an engine bot is handed the referee's own state
    (``share_state``: no copy), an in-process bot a private copy."""
    from arena.engine.client import engine_class
    from arena.referee.private import Private, shares_state

    game = arena.games.make("interaction")
    cls = engine_class(f"{sys.executable} -m arena.engine random")
    engines = [cls(), cls()]
    try:
        for seed in (1, 2, 3):
            local = play_game(GameSettings(game, seed, labels=["a", "b"]), [make("random"), make("r2=random")])
            remote = play_game(GameSettings(game, seed, labels=["a", "b"]), engines)
            assert remote.moves == local.moves and remote.outcome == local.outcome and local.plies > 10
    finally:
        close_all()
    state = game.initial_state(1)
    assert Private(game, shares_state(engines[0])).state(state) is state
    assert shares_state(make("random")) is False and Private(game).state(state) is not state

    class Mine(cls):  # a user's subclass may override choose: it gets a private copy
        pass
    assert shares_state(Mine.__new__(Mine)) is False


def test_server_reads_each_go_line_once():
    """The limits of a ``go`` line are read once per distinct line (an arena repeats it at
    every move); the cache stays bounded."""
    from arena.engine.server import Server

    server = Server("random", out=None)
    first = server.limits("go movetime 250 nodes 1000")
    assert first == Limits(0.25, 1000, None) and server.limits("go movetime 250 nodes 1000") is first
    assert server.limits("go") == Limits() and server.limits("go depth 3") == Limits(depth=3)
    for ms in range(200):
        assert server.limits(f"go movetime {ms + 1}") == Limits((ms + 1) / 1000)
    assert len(server._limits) <= 64


def test_server_takes_the_legal_line_as_the_legal_moves():
    """The ``legal`` line's moves become the served state's ``legal_moves`` (Interaction's
    ``given_legal``), in the line's order; a line with a text that is no move is ignored (the
    state generates its moves), and ``play`` still checks a move by the rules."""
    from arena.engine.server import Server
    from arena.errors import IllegalMoveError

    game = arena.games.make("interaction")
    state = game.initial_state(0)
    state = state.play(state.legal_moves()[0])
    texts = [str(m) for m in state.legal_moves()]
    server = Server("random", out=io.StringIO())
    server.handle("newgame interaction {}")
    server.handle("position " + state.to_text())
    server.handle("legal " + " ".join(reversed(texts[1:])))
    assert [str(m) for m in server.state.legal_moves()] == list(reversed(texts[1:]))
    with pytest.raises(IllegalMoveError):
        server.state.play("pass")  # not legal here, whatever the line said
    server.handle("position " + state.to_text())
    server.handle("legal " + " ".join(texts[:2]) + " z9Q")
    assert [str(m) for m in server.state.legal_moves()] == texts
    for start in (game.initial_state(0), state, state.play(state.legal_moves()[-1])):  # plies 0, 1, 2
        moves = start.legal_moves()
        server.handle("position " + start.to_text())
        server.handle("legal " + " ".join(map(str, moves)))
        given = server.state
        # search steps on the given moves: child (MCTS playouts), successors, leaves, try_play
        assert [given.child(m).to_text() for m in given.legal_moves()] == [start.play(m).to_text() for m in moves]
        server.handle("position " + start.to_text())
        server.handle("legal " + " ".join(map(str, moves)))
        assert [(str(m), s.to_text()) for m, s in server.state.successors()] == \
            [(str(m), start.play(m).to_text()) for m in moves]
        server.handle("position " + start.to_text())
        server.handle("legal " + " ".join(map(str, moves)))
        assert [m for m, _ in server.state.leaves()] == moves
        assert server.state.try_play(moves[0]).to_text() == start.play(moves[0]).to_text()


def serve(spec: str, lines: list[str]) -> tuple[list[str], int]:
    """The lines ``Server`` answers to ``lines`` (in this process) and its exit code."""
    from arena.engine.server import Server
    out = io.StringIO()
    code = Server(spec, out).run(lines)
    return out.getvalue().splitlines(), code


@pytest.mark.parametrize("bad, problem, accepted", [
    ("newgame chess {}", "unknown game 'chess'", "accepted: interaction, interaction-solo"),
    ("newgame interaction {bad", "bad newgame parameters '{bad'", "expected a JSON object"),
    ("newgame interaction [1]", "bad newgame parameters '[1]'", "expected a JSON object"),
    ("newgame interaction {\"nosuch\": 1}", "unknown parameter 'nosuch'", "accepted: target, max_plies"),
    ("position garbage", "bad position 'garbage' for interaction", "expected 5 fields"),
    ("go movetime 100", "go before position", "send position TEXT"),
    ("seat x", "bad seat line 'seat x'", "expected: seat K SEED"),
    ("seat 5 1", "bad seat 5", "accepted: 0 to 1"),
    ("frobnicate now", "unknown command 'frobnicate'", "accepted: aep, setoption, newgame"),
    ("setoption depth 3", "bad setoption line", "expected: setoption name N value V"),
    ("setoption name nosuch value 1", "unknown option 'nosuch'", "accepted: depth, nodes, time, tt"),
    ("setoption name depth value abc", "option 'depth' refused: parameter depth='abc' is not a valid int",
     "takes an int >= 1"),
    ("setoption name depth value 0", "option 'depth' refused", "takes an int >= 1"),
])
def test_a_malformed_message_is_one_error_line_and_the_engine_serves_on(bad, problem, accepted):
    """``docs/engine-protocol.md`` says nothing of malformed messages: as UCI engines do, the
    engine names the problem (``info string error``, with what is accepted) and goes on; the
    next game is played normally (here with depth 1: a refused ``depth`` keeps its value)."""
    g = arena.games.make("interaction")
    state = g.initial_state(3)
    lines = ["aep 1", "setoption name depth value 1", "newgame interaction {}"]
    lines += [bad, "isready"] if bad.startswith(("position", "go", "seat")) else ["isready", bad, "isready"]
    lines += ["newgame interaction {}", "seat 0 3", "isready", f"position {state.to_text()}", "go", "quit"]
    out, code = serve("alphabeta", lines)
    errors = [line for line in out if line.startswith("info string error ")]
    assert len(errors) == 1 and problem in errors[0] and accepted in errors[0], out
    assert not any(line.startswith("info string fault") for line in out)
    assert out[-1].split()[1] in {str(m) for m in state.legal_moves()} and code == 0
    assert parse_info(out[-2]).depth == 1  # the option set before the bad line holds


def test_a_newgame_that_fails_leaves_no_game_to_play_on():
    """After a refused ``newgame`` a ``go`` is refused too (never a move in the previous game)."""
    g = arena.games.make("interaction")
    out, code = serve("random", ["aep 1", "newgame interaction {}", "isready", "newgame chess {}",
                                 f"position {g.initial_state(1).to_text()}", "go", "quit"])
    errors = [line for line in out if line.startswith("info string error ")]
    assert [e.split(";")[0] for e in errors] == ["info string error newgame: unknown game 'chess'",
                                                  "info string error position before newgame",
                                                  "info string error go before newgame"]
    assert not any(line.startswith("bestmove") for line in out) and code == 0


def test_arena_engine_answers_bad_input_without_a_traceback():
    """The tester's case: ``arena engine alphabeta`` given ``newgame chess {}`` used to print a
    traceback and exit 3; now one error line, ``readyok``, a clean exit 0."""
    out, code, err = talk("alphabeta", ["aep 1", "newgame chess {}", "isready", "quit"])
    assert out[-2].startswith("info string error newgame: unknown game 'chess'; accepted: interaction")
    assert out[-1] == "readyok" and code == 0 and "Traceback" not in err


def test_arena_engine_bad_option_in_the_spec_is_one_line_exit_2():
    out = subprocess.run([sys.executable, "-m", "arena", "engine", "alphabeta:depth=abc"], capture_output=True,
                         text=True, timeout=120, input="aep 1\nquit\n")
    assert out.returncode == 2 and "depth='abc' is not a valid int" in out.stderr and "Traceback" not in out.stderr


def test_every_option_line_has_its_value_and_the_specs_values_are_the_defaults():
    """``option name N type T default V`` always ends in a value (``none`` for a parameter
    without a default), and the values of the served spec are the declared defaults."""
    out, code = serve("alphabeta:depth=4", ["aep 1", "quit"])
    options = [line for line in out if line.startswith("option ")]
    assert options == ["option name depth type int default 4", "option name nodes type int default none",
                       "option name time type float default none", "option name tt type int default 200000"]
    assert [parse_option(line).default for line in options] == ["4", "none", "none", "200000"]
    assert code == 0
