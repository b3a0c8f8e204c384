"""Engine tooling: ``arena engine check`` (the protocol's compliance test, each broken engine
failing the check named for its fault), ``--trace-engines``, ``--each`` and ``restart=on``."""

from __future__ import annotations

import os
import random
import shlex
import signal
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli.app import app
from arena.engine.compliance import check_engine
from arena.errors import BotSpecError, ConfigError
from arena.results.store import load_games
from arena.tournament import build, run_tournament
from tests.cli_run import run_cli
from tests.registered import register_game

HERE = Path(__file__).parent
BROKEN = HERE / "noncompliant.sh"
EXAMPLES = HERE.parents[1] / "examples" / "engines"


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch):
    register_game(monkeypatch, "nim", "tests.toy:Nim")


#: per mode of ``noncompliant.sh``: the one check it fails and what that check's detail says
#: (``statuses`` gives each answer 1 s)
FAULTS = {
    "noaepok": ("aepok", "no aepok within 1s"),
    "illegal": ("start position", "bestmove 'pass' is not among"),
    "noready": ("isready", "no readyok within 1s"),
    "noquit": ("quit", "still running 1s after quit"),
    "garbage": ("output", "'thinking hard...'"),
    "late": ("start position", "no bestmove within 1.5s"),
}


def broken(mode: str) -> str:
    return f"exec:{shlex.join([str(BROKEN), mode])}"


def statuses(spec: str) -> dict[str, tuple[str, str]]:
    return {c.name: (c.status, c.detail) for c in check_engine(spec, timeout=1.0)}


def test_the_example_shell_engine_passes_every_check():
    results = statuses(f"exec:{EXAMPLES / 'first_legal.sh'}")
    assert all(status in ("pass", "skip") for status, _ in results.values()), results
    assert results["clock"][0] == "skip" and "protocol 1" in results["clock"][1]  # a version 1 engine: movetime
    assert results["views"][0] == "skip" and "protocol 1" in results["views"][1]  # and no game with hidden information


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc) to build examples/engines/first_legal.c")
def test_the_example_c_engine_passes_every_check(tmp_path):
    binary = tmp_path / "first_legal"
    subprocess.run(["cc", "-O2", "-o", str(binary), str(EXAMPLES / "first_legal.c")], check=True)
    assert all(status in ("pass", "skip") for status, _ in statuses(f"exec:{binary}").values())


def test_a_python_bot_served_as_an_engine_passes_with_the_clock_check():
    results = statuses("alphabeta:depth=1")
    assert {status for name, (status, _) in results.items() if name != "views"} == {"pass"}
    assert "protocol 3" in results["aepok"][1] and "time0 2000" in results["clock"][1]
    # alphabeta plays perfect information only: it declines the hidden games offered (or none is playable here)
    assert results["views"][0] == "skip" and ("declines" in results["views"][1] or "no game" in results["views"][1])


@pytest.mark.parametrize("mode", FAULTS)
def test_each_broken_engine_fails_the_check_named_for_its_fault(mode):
    check, detail = FAULTS[mode]
    results = statuses(broken(mode))
    failed = [name for name, (status, _) in results.items() if status == "fail"]
    assert failed == [check] and detail in results[check][1], results


def test_check_command_prints_one_line_per_check_and_exits_1_on_a_failure():
    runner = CliRunner()
    good = runner.invoke(app, ["engine", "check", f"exec:{EXAMPLES / 'first_legal.sh'}"])
    assert good.exit_code == 0 and good.output.count("PASS") == 9 and "11 of 11 checks" in good.output
    bad = runner.invoke(app, ["engine", "check", broken("illegal"), "--timeout", "1"])
    check = FAULTS["illegal"][0]
    assert bad.exit_code == 1 and f"FAIL  {check}" in bad.output and f"failed: {check}" in bad.output
    usage = subprocess.run([sys.executable, "-m", "arena", "engine", "check"], capture_output=True, text=True,
                           timeout=120)
    assert usage.returncode == 2 and "needs the SPEC of the engine" in usage.stderr


def processes_with_argv(argv: list[str]) -> list[int]:
    """The pids whose command line is exactly ``argv`` (the test's own, by a unique token)."""
    wanted, found = ("\0".join(argv) + "\0").encode(), []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "cmdline").read_bytes() == wanted:
                found.append(int(entry.name))
        except OSError:
            pass
    return found


@pytest.mark.skipif(shutil.which("setsid") is None or not Path("/proc/self").exists(), reason="no setsid or /proc")
def test_check_leaves_no_process_the_engine_started_in_a_session_of_its_own(capsys):
    """An engine that starts ``setsid sleep`` and ignores quit: ``arena engine check`` failed its
    quit check but left the sleep running (an ``arena run`` kills it)."""
    token = str(10**8 + random.randrange(10**8))  # this test's own sleep: no other process is looked at
    try:
        code, out, err = run_cli(["engine", "check", f"exec:{shlex.join([str(BROKEN), 'orphan', token])}",
                                  "--timeout", "2"], capsys)
        assert code == 1 and "FAIL  quit" in out and "still running 1s after quit" in out, out + err
        assert processes_with_argv(["sleep", token]) == []
        assert "killed 1 process(es) the engine left running" in err
    finally:
        for pid in processes_with_argv(["sleep", token]):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("spec, message", [("nosuch", "unknown bot kind 'nosuch'"),
                                           ("alphabeta:depth=abc", "depth='abc' is not a valid int")])
def test_check_of_a_bad_spec_is_the_spec_error_not_a_failed_handshake(spec, message):
    done = subprocess.run([sys.executable, "-m", "arena", "engine", "check", spec], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and message in done.stderr and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1


def run(tmp_path, bots, **extra):
    cfg = build(dict(game="nim", params={"pile": "7"}, bots=bots, games=4, workers=1, results=str(tmp_path),
                     opening_plies=0, **extra))
    return cfg, run_tournament(cfg)


def test_trace_engines_writes_every_line_both_ways_with_times(tmp_path):
    cfg, summary = run(tmp_path, [f"sh=exec:{EXAMPLES / 'first_legal.sh'}", "random"], trace_engines=True)
    log = (tmp_path / f"{summary.name}.log").read_text()
    assert "sh > aep 3" in log and "sh < aepok" in log and "sh > go" in log and "sh < bestmove" in log
    assert "trace_engines" not in cfg.identity()  # how it runs, not which games


@pytest.mark.parametrize("value", [3, "yes", 0])
def test_trace_engines_is_a_switch(value):
    with pytest.raises(ConfigError, match="trace_engines must be true or false"):
        build(dict(bots=["random", "random"], trace_engines=value))


def test_each_sets_an_option_on_engines_and_on_python_bots_that_declare_it(tmp_path):
    cfg = build(dict(game="nim", bots=[f"c=exec:{EXAMPLES / 'first_legal.sh'}:x=1", "alphabeta", "random"],
                     each=["depth=2", "x=5"]))
    specs = {s.label: s for s in __import__("arena.tournament.config", fromlist=["field_specs"]).field_specs(cfg, 2)}
    assert specs["c"].options == {"depth": "2", "x": "1"}  # every engine; the spec's own value wins
    assert cfg.identity()["each"] == {"depth": "2", "x": "5"}
    from arena.tournament.worker import bot_factories
    made = bot_factories({"ab": specs["alphabeta"], "r": specs["random"]}, cfg.each)
    assert made["ab"]().options["depth"] == 2 and not hasattr(made["r"](), "depth")  # random declares none
    with pytest.raises(BotSpecError, match="unknown option 'depth'"):  # an engine that does not declare it
        run(tmp_path, [f"c=exec:{EXAMPLES / 'first_legal.sh'}", "random"], each=["depth=2"])


def test_restart_on_gives_an_engine_a_new_process_every_game(tmp_path):
    counter = tmp_path / "starts"
    script = tmp_path / "counting.sh"
    script.write_text(f"#!/bin/sh\necho start >> {counter}\nexec {EXAMPLES / 'first_legal.sh'}\n")
    script.chmod(0o755)
    _, kept = run(tmp_path / "kept", [f"e=exec:{script}", "random"])
    kept_starts = len(counter.read_text().splitlines())
    counter.unlink()
    _, fresh = run(tmp_path / "fresh", [f"e=exec:{script}:restart=on", "random"])
    fresh_starts = len(counter.read_text().splitlines())
    assert len(load_games(fresh.path)) == 4 and fresh_starts >= 4 + 1 > kept_starts  # + the probe before the run
